#version 450
#extension GL_EXT_terminate_invocation : require
// Pixels with (x + y) % 3 == 1 end their invocation; the others write their colour.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
void main() {
  const ivec2 p = ivec2(gl_FragCoord.xy);
  if ((p.x + p.y) % 3 == 1) terminateInvocation;
  out_color = v_color;
}
