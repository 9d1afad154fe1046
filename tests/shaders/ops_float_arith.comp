#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
// Float arithmetic: the core instructions (add, sub, mul, div, mod, rem, negate), fma, sqrt and
// inversesqrt, on scalars and vectors of per-invocation operands.
layout(local_size_x = 32) in;
#include "ops_results.glsl"

// GLSL's mod() is OpFMod; OpFRem (the sign follows the dividend) has no GLSL spelling.
spirv_instruction(id = 140) float frem(float a, float b);  // OpFRem

struct Case {
  float a, b, c;
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(c.a + c.b);
  emit(c.a - c.b);
  emit(c.a * c.b);
  emit(c.a / c.b);
  emit(mod(c.a, c.b));
  emit(frem(c.a, c.b));
  emit(-c.a);
  emit(fma(c.a, c.b, c.c));
  emit(sqrt(abs(c.a)));
  emit(inversesqrt(abs(c.a)));
  // Vector forms: component-wise, no multiply feeding an add (which a driver may fuse).
  emit((vec3(c.a, c.b, c.c) + vec3(c.c, c.a, c.b)) * vec3(c.b, c.c, c.a));
  emit(vec2(c.a, c.c) / vec2(c.b, c.a));
  emit(mod(vec2(c.a, c.c), c.b));  // vector by scalar: the scalar is widened
  finish_results();
}
