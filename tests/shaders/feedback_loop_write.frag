#version 450
// A gradient in colour and depth, for attachment_feedback_loop_test.cpp to read back through a
// sampler in a later draw of the same render pass.
layout(location = 0) out vec4 color;
void main() {
  color = vec4(gl_FragCoord.x / 128.0, gl_FragCoord.y / 128.0, 0.5, 1.0);
  gl_FragDepth = (gl_FragCoord.x + gl_FragCoord.y) / 256.0;
}
