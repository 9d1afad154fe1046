#version 450
// For geometry shader tests that need no vertex data: hands VertexIndex on as a flat int (so the
// geometry shader can tell which vertices it was given) at position (0, 0, 0, 1).
layout(location = 0) flat out int v_index;
void main() {
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  v_index = gl_VertexIndex;
}
