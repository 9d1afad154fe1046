#version 450
#extension GL_ARB_shader_stencil_export : require
// Exports a stencil reference that differs per pixel: x * 4 + y / 16 (0..255 on a 64x64 target).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
void main() {
  out_color = v_color;
  gl_FragStencilRefARB = int(gl_FragCoord.x) * 4 + int(gl_FragCoord.y) / 16;
}
