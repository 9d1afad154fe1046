#version 450
// A plain vertex shader for graphics-pipeline creation tests (tests/e2e/graphics_pipeline_test.cpp);
// no vertex inputs, so the pipeline needs no vertex-buffer formats.
layout(location = 0) out vec4 v_color;
void main() {
  const vec2 corners[3] = vec2[3](vec2(-1, -1), vec2(3, -1), vec2(-1, 3));
  gl_Position = vec4(corners[gl_VertexIndex % 3], 0.0, 1.0);
  v_color = vec4(corners[gl_VertexIndex % 3], 0.5, 1.0);
}
