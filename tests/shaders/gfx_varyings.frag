#version 450
// Fragment kernel test: inputs passed through, built-ins, derivatives (graphics_kernel_test.cpp).
layout(early_fragment_tests) in;
layout(location = 0) in vec4 v_color;
layout(location = 1) flat in ivec2 v_int;
layout(location = 2) noperspective in float v_f;
layout(location = 3) centroid in float v_centroid;

layout(location = 0) out vec4 o_color;
layout(location = 1) out ivec4 o_int;
layout(location = 2) out vec4 o_coord;
layout(location = 3) out vec4 o_derivatives;
layout(location = 4) out uvec4 o_misc;

void main() {
  o_color = v_color;
  o_int = ivec4(v_int, gl_FrontFacing ? 1 : 0, int(v_centroid));
  o_coord = gl_FragCoord;
  o_derivatives = vec4(dFdxFine(v_f), dFdyFine(v_f), dFdxCoarse(v_f), dFdyCoarse(v_f));
  o_misc = uvec4(floatBitsToUint(fwidth(v_f)), gl_HelperInvocation ? 1u : 0u, uint(gl_SampleMaskIn[0]),
                 floatBitsToUint(dFdx(v_f * v_f)));
}
