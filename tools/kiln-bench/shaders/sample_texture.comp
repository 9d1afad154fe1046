#version 450
// Texture sampling throughput (scenarios/sample_texture.cpp): one textureLod per pixel of an
// output grid, written as packed RGBA8. Coordinates map the grid onto `scale` of the texture from
// `origin`; the LOD grows along rows (lod_base + lod_per_row * y) so trilinear scenarios blend
// two levels with varying weights.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) writeonly buffer Pixels { uint pixels[]; };
layout(push_constant) uniform Grid {
  uint width;
  uint height;
  float lod_base;
  float lod_per_row;
  vec2 scale;
  vec2 origin;
} grid;

void main() {
  uvec2 id = gl_GlobalInvocationID.xy;
  if (id.x >= grid.width || id.y >= grid.height) return;
  vec2 uv = (vec2(id) + 0.5) / vec2(grid.width, grid.height) * grid.scale + grid.origin;
  float lod = grid.lod_base + grid.lod_per_row * float(id.y);
  pixels[id.y * grid.width + id.x] = packUnorm4x8(textureLod(tex, uv, lod));
}
