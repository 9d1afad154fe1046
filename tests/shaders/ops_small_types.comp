#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
// 8- and 16-bit integers and 16-bit floats (shaderInt8, shaderInt16, shaderFloat16; shaderInt64 for
// the conversions to and from 64 bits): arithmetic,
// shifts, bit operations, comparisons, conversions between all widths and to and from floats,
// the pack/unpack bit casts, float16 functions (rounding, min/max, transcendentals, frexp/ldexp,
// vectors), 8/16-bit constants and specialization constants, and local arrays of small types.
// The cases are read from a storage buffer of mixed-width structs (8/16-bit storage).
layout(local_size_x = 32) in;
#include "ops_results.glsl"
#include "ops_types_results.glsl"

layout(constant_id = 1) const int16_t kSpec16 = 1s;       // set by the test
layout(constant_id = 2) const float16_t kSpecHalf = 1.0hf;
layout(constant_id = 3) const int8_t kSpec8 = int8_t(1);

struct Case {
  int8_t a8, b8;
  uint8_t ua8, ub8;
  int16_t a16, b16;
  uint16_t ua16, ub16;
  float16_t h, g;
  float f;
  int i;
  uint shift;
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  // --- 8-bit integers
  emit(c.a8 + c.b8);
  emit(c.a8 - c.b8);
  emit(c.a8 * c.b8);
  emit(c.a8 / c.b8);
  emit(c.a8 % c.b8);
  emit(-c.a8);
  emit(abs(c.a8));
  emit(sign(c.a8));
  emit(min(c.a8, c.b8));
  emit(max(c.a8, c.b8));
  emit(clamp(c.a8, min(c.b8, int8_t(5)), max(c.b8, int8_t(5))));
  emit(c.ua8 + c.ub8);
  emit(c.ua8 - c.ub8);
  emit(c.ua8 * c.ub8);
  emit(c.ua8 / c.ub8);
  emit(c.ua8 % c.ub8);
  emit(min(c.ua8, c.ub8));
  emit(max(c.ua8, c.ub8));
  emit(c.ua8 << (c.shift & 7u));
  emit(c.ua8 >> (c.shift & 7u));
  emit(c.a8 >> (c.shift & 7u));
  emit(c.ua8 & c.ub8);
  emit(c.ua8 | c.ub8);
  emit(c.ua8 ^ c.ub8);
  emit(~c.ua8);
  emit(c.a8 < c.b8);
  emit(c.a8 >= c.b8);
  emit(c.ua8 < c.ub8);
  emit(c.ua8 >= c.ub8);
  emit(c.a8 == c.b8);
  // 8-bit conversions
  emit(int16_t(c.a8));
  emit(uint16_t(c.ua8));
  emit(int8_t(c.i));
  emit(uint8_t(c.i));
  emit(int8_t(c.a16));
  emit(uint8_t(c.ua16));
  emit(int8_t(c.ua8));
  emit(uint8_t(c.a8));
  emit(float(c.a8));
  emit(float16_t(c.a8));
  emit(float16_t(c.ua8));
  emit(int8_t(c.h));
  emit(uint8_t(abs(c.h)));
  // --- 16-bit integers
  emit(c.a16 + c.b16);
  emit(c.a16 - c.b16);
  emit(c.a16 * c.b16);
  emit(c.a16 / c.b16);
  emit(c.a16 % c.b16);
  emit(-c.a16);
  emit(abs(c.a16));
  emit(min(c.a16, c.b16));
  emit(max(c.a16, c.b16));
  emit(c.ua16 + c.ub16);
  emit(c.ua16 - c.ub16);
  emit(c.ua16 * c.ub16);
  emit(c.ua16 / c.ub16);
  emit(c.ua16 % c.ub16);
  emit(c.ua16 << (c.shift & 15u));
  emit(c.ua16 >> (c.shift & 15u));
  emit(c.a16 >> (c.shift & 15u));
  emit(c.ua16 ^ c.ub16);
  emit(~c.a16);
  emit(c.a16 < c.b16);
  emit(c.ua16 < c.ub16);
  emit(c.ua16 != c.ub16);
  // 16-bit conversions
  emit(int16_t(c.i));
  emit(uint16_t(c.i));
  emit(int16_t(c.ua16));
  emit(float(c.a16));
  emit(float16_t(c.a16));
  emit(float16_t(c.ua16));
  emit(int16_t(c.h));
  emit(uint16_t(abs(c.h)));
  // Bit casts between vectors of small integers and wider integers
  emit(pack16(u8vec2(c.ua8, c.ub8)));
  emit(unpack8(c.ua16));
  emit(pack32(u8vec4(c.ua8, c.ub8, uint8_t(c.a8), uint8_t(c.b8))));
  emit(unpack8(uint(c.i)));
  emit(pack32(u16vec2(c.ua16, c.ub16)));
  emit(unpack16(uint(c.i)));
  emit(pack16(i8vec2(c.a8, c.b8)));
  // Bit casts of constant vectors of small types, which the front end's optimizer folds
  f16vec2 constant_halves = f16vec2(2.0hf, -3.0hf);
  u8vec4 constant_bytes = u8vec4(1, 2, 0x80, 0xFF);
  u16vec4 constant_halfwords = u16vec4(0x1234, 0xFEDC, 7, 0x8000);
  emit(packFloat2x16(constant_halves));
  emit(pack32(constant_bytes));
  emit(pack64(constant_halfwords));
  emit(unpack8(0x8081FF01u));
  // Vector forms
  emit(i8vec3(c.a8, c.b8, c.a8) * i8vec3(int8_t(3), int8_t(-5), int8_t(7)) + i8vec3(c.b8));
  emit(i16vec2(c.a16, c.b16) / i16vec2(7s, c.b16 | 1s));
  // --- float16 arithmetic and functions
  emit(c.h + c.g);
  emit(c.h - c.g);
  emit(c.h * c.g);
  emit(c.h / c.g);
  emit(-c.h);
  emit(fma(c.h, c.g, c.h));
  emit(sqrt(abs(c.h)));
  emit(inversesqrt(abs(c.h)));
  emit(abs(c.h));
  emit(sign(c.h));
  emit(floor(c.h));
  emit(ceil(c.h));
  emit(trunc(c.h));
  emit(round(c.h));
  emit(roundEven(c.h));
  emit(fract(c.h));
  emit(mod(c.h, c.g));
  emit(min(c.h, c.g));
  emit(max(c.h, c.g));
  emit(clamp(c.h, min(c.g, 1.0hf), max(c.g, 1.0hf)));
  emit(mix(c.h, c.g, 0.25hf));
  emit(step(c.g, c.h));
  emit(smoothstep(-2.0hf, 3.0hf, c.h));
  emit(c.h < c.g);
  emit(c.h <= c.g);
  emit(c.h == c.g);
  emit(c.h != c.g);
  emit(isnan(c.h));
  emit(isinf(c.h));
  // float16 conversions and bit casts
  emit(float(c.h));
  emit(float16_t(c.f));
  emit(float16BitsToUint16(c.h));
  emit(uint16BitsToFloat16(c.ua16));
  emit(float16BitsToInt16(c.g));
  emit(packFloat2x16(f16vec2(c.h, c.g)));
  emit(unpackFloat2x16(uint(c.i)));
  // float16 transcendentals, exponents and vectors
  emit(sin(c.h));
  emit(cos(c.h));
  emit(exp2(c.h));
  emit(exp(c.h));
  emit(log2(abs(c.h)));
  emit(log(abs(c.h)));
  int exponent;
  emit(frexp(c.h, exponent));
  emit(exponent);
  emit(ldexp(c.h, (c.i & 63) - 32));
  const f16vec3 v = f16vec3(c.h, c.g, c.h * c.g);
  emit(v * 2.0hf + v.zxy);
  emit(dot(v, v));
  emit(length(v.xy));
  // Constants and specialization constants of small types
  emit(c.h * 0.333251953125hf);  // exactly a float16 (0x3555): no literal rounding involved
  emit(c.a16 * kSpec16);
  emit(c.h * kSpecHalf);
  emit(c.a8 + kSpec8);
  // Conversions between the small types and 64-bit integers
  const int64_t wide = int64_t(c.i) * 0x100000001l;
  emit(int64_t(c.a8));
  emit(uint64_t(c.ua16));
  emit(int8_t(wide));
  emit(uint16_t(uint64_t(wide)));
  emit(int64_t(c.h));
  emit(float16_t(c.i >> 16));
  // Loops carrying small-typed values (phis) and a float16 matrix
  int8_t sum8 = int8_t(0);
  float16_t sum_half = 0.0hf;
  for (int8_t k = int8_t(0); k < (c.a8 & int8_t(7)); ++k) {
    sum8 += c.b8;
    sum_half += c.g;
  }
  emit(sum8);
  emit(sum_half);
  emit(f16mat2(c.h, c.g, 1.0hf, -2.0hf) * f16vec2(c.g, 0.5hf));
  // Local arrays of small types indexed per invocation
  int8_t bytes[5] = int8_t[5](c.a8, c.b8, int8_t(c.ua8), int8_t(c.ub8), int8_t(-3));
  emit(bytes[c.shift % 5u]);
  float16_t halves[3] = float16_t[3](c.h, c.g, 0.5hf);
  emit(halves[c.shift % 3u]);
  finish_results();
}
