#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// Pixels with (x + y) % 3 == 0 are demoted to helpers; the others write fwidth of an
// interpolated value, which needs the demoted neighbours to keep running (derivative 1/64 per
// pixel in x and 0 in y: fwidth = 1/64, written as 64 * fwidth = 1.0).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
void main() {
  const ivec2 p = ivec2(gl_FragCoord.xy);
  if ((p.x + p.y) % 3 == 0) demote;
  const float ramp = gl_FragCoord.x / 64.0;
  out_color = vec4(64.0 * fwidth(ramp), helperInvocationEXT() ? 0.0 : 0.5, 0.25, 1.0);
}
