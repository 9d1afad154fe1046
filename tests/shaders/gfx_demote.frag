#version 450
// Fragment kernel test: demote to helper keeps the lane running for derivatives but stops its
// memory writes and drops it from the result (graphics_kernel_test.cpp).
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) buffer Out { uint data[]; } sb;

void main() {
  int id = int(gl_FragCoord.x);
  if (id == 2) demote;
  bool helper = helperInvocationEXT();
  sb.data[id] = helper ? 100u : 1u;
  float x = gl_FragCoord.x;
  o_color = vec4(dFdx(x * x), helper ? 1.0 : 0.0, 0.0, 0.0);
}
