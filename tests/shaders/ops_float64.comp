#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
// 64-bit floats (shaderFloat64): arithmetic, rounding, the GLSL.std.450 functions defined for
// doubles, comparisons, conversions to and from integers, float and float16, bit casts,
// PackDouble2x32 / UnpackDouble2x32, frexp / ldexp, vector and matrix functions, 64-bit float
// constants and a double specialization constant.
layout(local_size_x = 32) in;
#include "ops_results.glsl"
#include "ops_types_results.glsl"

layout(constant_id = 1) const double kScale = 1.0lf;  // set by the test (both words nonzero)

struct Case {
  double a, b, c;
  int64_t l;
  float f;
  int i;
  uint u;
  int e;  // ldexp exponent
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  // Arithmetic
  emit(c.a + c.b);
  emit(c.a - c.b);
  emit(c.a * c.b);
  emit(c.a / c.b);
  emit(-c.a);
  emit(fma(c.a, c.b, c.c));
  emit(sqrt(abs(c.a)));
  emit(inversesqrt(abs(c.a)));
  // Common functions
  emit(abs(c.a));
  emit(sign(c.a));
  emit(floor(c.a));
  emit(ceil(c.a));
  emit(trunc(c.a));
  emit(round(c.a));
  emit(roundEven(c.a));
  emit(fract(c.a));
  emit(mod(c.a, c.b));
  double whole;
  emit(modf(c.a, whole));
  emit(whole);
  emit(min(c.a, c.b));
  emit(max(c.a, c.b));
  emit(clamp(c.a, min(c.b, c.c), max(c.b, c.c)));
  emit(mix(c.a, c.b, 0.25lf));
  emit(step(c.b, c.a));
  emit(smoothstep(-2.0lf, 3.0lf, c.a));
  // Comparisons and classification
  emit(c.a < c.b);
  emit(c.a <= c.b);
  emit(c.a > c.b);
  emit(c.a >= c.b);
  emit(c.a == c.b);
  emit(c.a != c.b);
  emit(isnan(c.a));
  emit(isinf(c.a));
  // Conversions
  emit(float(c.a));
  emit(double(c.f));
  emit(int(c.a));
  emit(uint(c.a));
  emit(int64_t(c.a));
  emit(uint64_t(c.a));
  emit(double(c.i));
  emit(double(c.u));
  emit(double(c.l));
  emit(double(uint64_t(c.l)));
  emit(float16_t(c.a));
  emit(double(uint16BitsToFloat16(uint16_t(c.u))));
  // Bit casts and packing
  emit(doubleBitsToInt64(c.a) ^ c.l);
  emit(int64BitsToDouble(c.l));
  emit(unpackDouble2x32(c.a));
  emit(packDouble2x32(uvec2(c.u, 0x3FF00000u | (c.u >> 12))));
  // Exponent functions
  int exponent;
  emit(frexp(c.a, exponent));
  emit(exponent);
  emit(ldexp(c.a, c.e));
  // Constants (two words each) and the specialization constant
  emit(c.a * 0.1lf);
  emit(c.a + 1.0e300lf);
  emit(c.a * kScale);
  // Vector and matrix functions
  const dvec3 v = dvec3(c.a, c.b, c.c), w = dvec3(c.b, c.c, c.a);
  emit(v * 2.0lf + w);
  emit(dot(v, w));
  emit(length(v));
  emit(distance(v, w));
  emit(cross(v, w));
  emit(normalize(v));
  const dmat2 m = dmat2(c.a, c.b, c.c, 1.0lf);
  emit(m * dvec2(c.c, c.a));
  emit(determinant(m));
  emit(inverse(m)[0]);
  emit(inverse(m)[1]);
  emit(dmat3(v, w, v * w) * dvec3(1.0lf, -2.0lf, 0.5lf));
  // A local array of doubles indexed per invocation
  double values[3] = double[3](c.a, c.b, c.c);
  emit(values[c.u % 3u]);
  finish_results();
}
