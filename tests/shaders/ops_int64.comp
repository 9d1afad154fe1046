#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
// 64-bit integers (shaderInt64): arithmetic, shifts, bit operations, comparisons, conversions to
// and from 32-bit integers and floats, uvec2 bitcasts, 64-bit constants and a 64-bit
// specialization constant, a 64-bit loop counter and a locally indexed array of 64-bit values.
// (glslang rejects 64-bit switch selectors, so OpSwitch on 64 bits is not covered here.)
layout(local_size_x = 32) in;
#include "ops_results.glsl"
#include "ops_types_results.glsl"

spirv_instruction(id = 138) int64_t srem(int64_t a, int64_t b);  // OpSRem (no GLSL spelling)

// Set by the test to a value above 2^32. It is used directly, not in a constant expression:
// SPIRV-Tools 2023.1 does not fold OpSpecConstantOp on 64-bit (or 8/16-bit) operands, which
// Kiln's front end relies on it to do.
layout(constant_id = 1) const uint64_t kSpec = 1ul;

struct Case {
  int64_t a, b;
  uint64_t ua, ub;
  int i;
  uint u;
  float f;
  uint shift;  // 0..63
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  // Signed arithmetic
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
  emit(clamp(c.a, min(c.b, 5l), max(c.b, 5l)));
  // Unsigned arithmetic
  emit(c.ua + c.ub);
  emit(c.ua - c.ub);
  emit(c.ua * c.ub);
  emit(c.ua / c.ub);
  emit(c.ua % c.ub);
  emit(min(c.ua, c.ub));
  emit(max(c.ua, c.ub));
  emit(clamp(c.ua, min(c.ub, 1000ul), max(c.ub, 1000ul)));
  // Shifts (32- and 64-bit shift amounts) and bit operations
  emit(c.ua << c.shift);
  emit(c.ua >> c.shift);
  emit(c.a >> c.shift);
  emit(c.ua >> uint64_t(c.shift));
  emit(c.a << int64_t(c.shift));
  emit(c.ua & c.ub);
  emit(c.ua | c.ub);
  emit(c.ua ^ c.ub);
  emit(~c.ua);
  // Comparisons
  emit(c.a < c.b);
  emit(c.a <= c.b);
  emit(c.a > c.b);
  emit(c.a >= c.b);
  emit(c.a == c.b);
  emit(c.a != c.b);
  emit(c.ua < c.ub);
  emit(c.ua <= c.ub);
  emit(c.ua > c.ub);
  emit(c.ua >= c.ub);
  // Conversions between widths (OpSConvert / OpUConvert) and signedness
  emit(int64_t(c.i));
  emit(uint64_t(c.u));
  emit(int64_t(c.u));
  emit(uint64_t(c.i));
  emit(int(c.a));
  emit(uint(c.ua));
  // Conversions to and from float
  emit(float(c.a));
  emit(float(c.ua));
  emit(int64_t(c.f));
  emit(uint64_t(abs(c.f)));
  // Bitcasts between 64-bit integers and 32-bit vectors
  emit(unpackUint2x32(c.ua));
  emit(unpackInt2x32(c.a));
  emit(packUint2x32(uvec2(c.u, uint(c.i))));
  emit(packInt2x32(ivec2(c.i, int(c.u))));
  // 64-bit constants (two words each) and the specialization constant
  emit(c.ua * 0x9E3779B97F4A7C15ul + 0xFEDCBA9876543210ul);
  emit(c.a + -0x123456789ABl);
  emit(c.ua ^ kSpec);
  // Vector forms
  emit(i64vec2(c.a, c.b) * i64vec2(3, -5) + i64vec2(c.b, c.a));
  emit(u64vec3(c.ua, c.ub, c.ua) / u64vec3(7ul, c.ub | 1ul, 0x100000000ul));
  // A loop with a 64-bit counter, and a local array of 64-bit values indexed per invocation
  uint64_t sum = 0ul;
  for (uint64_t k = 0ul; k < (c.ua & 7ul); ++k) sum += k * c.ub;
  emit(sum);
  int64_t values[4] = int64_t[4](c.a, c.b, int64_t(c.ua), int64_t(c.ub));
  emit(values[c.shift & 3u]);
  finish_results();
}
