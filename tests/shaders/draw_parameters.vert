#version 450
#extension GL_ARB_shader_draw_parameters : require
// Writes the draw parameters as a colour (n / 255 per channel, exact in UNORM8):
// (DrawIndex, BaseVertex, BaseInstance, InstanceIndex). Position from attribute 0 (clip x, y).
layout(location = 0) in vec2 position;
layout(location = 0) flat out vec4 v_color;
void main() {
  gl_Position = vec4(position, 0.5, 1.0);
  v_color = vec4(gl_DrawIDARB, gl_BaseVertexARB, gl_BaseInstanceARB, gl_InstanceIndex) / 255.0;
}
