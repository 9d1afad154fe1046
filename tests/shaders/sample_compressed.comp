#version 450
// Every texel of a (compressed) texture: texelFetch, and a linear sample a quarter texel
// right and down of its centre (tests/e2e/compute_sampling_test.cpp, CompressedFormats*).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Results { vec4 v[]; } results;

void main() {
  uint i = gl_GlobalInvocationID.x;
  ivec2 size = textureSize(tex, 0);
  if (i >= uint(size.x * size.y)) return;
  ivec2 p = ivec2(int(i) % size.x, int(i) / size.x);
  results.v[2u * i] = texelFetch(tex, p, 0);
  results.v[2u * i + 1u] = textureLod(tex, (vec2(p) + 0.75) / vec2(size), 0.0);
}
