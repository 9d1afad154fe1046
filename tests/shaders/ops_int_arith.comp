#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
// Integer arithmetic, signed and unsigned, on per-invocation operands (so nothing folds away):
// negative operands of division, remainder and modulo, and zero divisors, whose results SPIR-V
// leaves undefined — the test only requires that such lanes run without crashing the kernel.
layout(local_size_x = 32) in;
#include "ops_results.glsl"

// GLSL's % on int compiles to OpSMod; OpSRem has no GLSL spelling, so it is declared directly.
spirv_instruction(id = 138) int srem(int a, int b);  // OpSRem

struct Case {
  int a, b;
  uint ua, ub;
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(c.a + c.b);
  emit(c.a - c.b);
  emit(c.a * c.b);
  emit(c.a / c.b);       // OpSDiv
  emit(c.a % c.b);       // OpSMod
  emit(srem(c.a, c.b));  // OpSRem
  emit(-c.a);
  emit(abs(c.a));
  emit(sign(c.a));
  emit(min(c.a, c.b));
  emit(max(c.a, c.b));
  emit(clamp(c.a, min(c.b, 5), max(c.b, 5)));
  emit(c.ua + c.ub);
  emit(c.ua - c.ub);
  emit(c.ua * c.ub);
  emit(c.ua / c.ub);     // OpUDiv
  emit(c.ua % c.ub);     // OpUMod
  emit(min(c.ua, c.ub));
  emit(max(c.ua, c.ub));
  emit(clamp(c.ua, min(c.ub, 1000u), max(c.ub, 1000u)));
  // Vector forms: the same instructions component by component.
  emit(ivec2(c.a, c.b) * ivec2(3, -5) + ivec2(c.b, c.a));
  emit(ivec3(c.a, c.b, c.a) / ivec3(7, -3, c.b | 1));
  finish_results();
}
