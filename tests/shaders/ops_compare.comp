#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
// Comparisons and boolean logic: all twelve ordered/unordered float comparisons (NaN operands
// included), isnan/isinf, signed and unsigned integer comparisons, any/all/not and the
// component-wise boolean operators, and selects (mix with a bvec, ?: on vectors).
layout(local_size_x = 32) in;
#include "ops_results.glsl"

// GLSL's operators pick one of each ordered/unordered pair; the SPIR-V opcodes are named here.
spirv_instruction(id = 180) bool ford_equal(float a, float b);
spirv_instruction(id = 181) bool funord_equal(float a, float b);
spirv_instruction(id = 182) bool ford_not_equal(float a, float b);
spirv_instruction(id = 183) bool funord_not_equal(float a, float b);
spirv_instruction(id = 184) bool ford_less(float a, float b);
spirv_instruction(id = 185) bool funord_less(float a, float b);
spirv_instruction(id = 186) bool ford_greater(float a, float b);
spirv_instruction(id = 187) bool funord_greater(float a, float b);
spirv_instruction(id = 188) bool ford_less_equal(float a, float b);
spirv_instruction(id = 189) bool funord_less_equal(float a, float b);
spirv_instruction(id = 190) bool ford_greater_equal(float a, float b);
spirv_instruction(id = 191) bool funord_greater_equal(float a, float b);

struct Case {
  float a, b;  // may be NaN or infinite
  int i, j;
  uint u, v;
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(ford_equal(c.a, c.b));
  emit(funord_equal(c.a, c.b));
  emit(ford_not_equal(c.a, c.b));
  emit(funord_not_equal(c.a, c.b));
  emit(ford_less(c.a, c.b));
  emit(funord_less(c.a, c.b));
  emit(ford_greater(c.a, c.b));
  emit(funord_greater(c.a, c.b));
  emit(ford_less_equal(c.a, c.b));
  emit(funord_less_equal(c.a, c.b));
  emit(ford_greater_equal(c.a, c.b));
  emit(funord_greater_equal(c.a, c.b));
  emit(isnan(c.a));
  emit(isinf(c.a));
  emit(isnan(vec2(c.a, c.b)).y);
  emit(isinf(vec2(c.a, c.b)).y);

  emit(c.i < c.j);
  emit(c.i <= c.j);
  emit(c.i > c.j);
  emit(c.i >= c.j);
  emit(c.i == c.j);
  emit(c.i != c.j);
  emit(c.u < c.v);
  emit(c.u <= c.v);
  emit(c.u > c.v);
  emit(c.u >= c.v);
  emit(c.u == c.v);
  emit(c.u != c.v);
  emit(uint(c.i) < uint(c.j));  // negative values compare as large unsigned ones

  const bvec4 p = bvec4(c.i < c.j, c.u < c.v, c.i == c.j, isnan(c.a));
  const bvec4 q = bvec4(c.u > c.v, c.j < 0, c.i < 0, isinf(c.b));
  emit(any(p));
  emit(all(p));
  emit(any(not(p)));
  emit(all(not(q)));
  emit(uvec4(equal(p, q)).x + 2u * uvec4(equal(p, q)).y + 4u * uvec4(equal(p, q)).z + 8u * uvec4(equal(p, q)).w);
  emit(uvec4(notEqual(p, q)).x + 2u * uvec4(notEqual(p, q)).y + 4u * uvec4(notEqual(p, q)).z + 8u * uvec4(notEqual(p, q)).w);
  emit(all(bvec2(p.x, q.x)));  // logical and
  emit(any(bvec2(p.y, q.y)));  // logical or
  emit(p.z ^^ q.z);            // logical not-equal
  emit(p.w == q.w);            // logical equal
  emit(!p.x);

  const vec4 x = vec4(c.a, c.b, float(c.i), float(c.j));
  const vec4 y = vec4(float(c.u & 0xFFu), 2.5, -c.b, 0.0);
  emit(mix(y, x, p));                                        // select per component
  emit(c.i < c.j ? x : y);                                   // one condition for the whole vector
  emit(mix(ivec2(c.i, c.j), ivec2(c.j, c.i), bvec2(q.x, q.y)));
  finish_results();
}
