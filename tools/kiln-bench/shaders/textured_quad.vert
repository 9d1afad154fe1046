#version 450
// A full-screen quad as two triangles (6 vertices from gl_VertexIndex, no vertex buffer), with
// texture coordinates running from (0,0) at the top-left corner to (1,1) at the bottom-right.
layout(push_constant) uniform Layer {
  vec4 colour;
  float depth;
} layer;

layout(location = 0) out vec2 uv;

void main() {
  // Corners of triangles (0,0) (1,0) (0,1) and (0,1) (1,0) (1,1): bit i of each mask is vertex i's
  // x or y (a bit trick instead of a constant array, which needs less of a young compiler).
  const int i = gl_VertexIndex % 6;
  uv = vec2((0x32 >> i) & 1, (0x2c >> i) & 1);
  gl_Position = vec4(uv * 2.0 - 1.0, layer.depth, 1.0);
}
