#version 450
// Triangles that cover the whole target, without vertex input.
void main() {
  const vec2 corners[3] = vec2[](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
  gl_Position = vec4(corners[gl_VertexIndex % 3], 0.0, 1.0);
}
