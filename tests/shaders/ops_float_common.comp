#version 460
#extension GL_GOOGLE_include_directive : require
// GLSL.std.450's common float functions: abs/sign, the rounding family, fract/modf, min/max/clamp,
// mix/step/smoothstep, ldexp/frexp, radians/degrees, and mix with a boolean selector.
layout(local_size_x = 32) in;
#include "ops_results.glsl"

struct Case {
  float a, b, t;  // t in [0, 1]
  int e;          // exponent for ldexp
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(abs(c.a));
  emit(sign(c.a));
  emit(floor(c.a));
  emit(ceil(c.a));
  emit(trunc(c.a));
  emit(round(c.a));
  emit(roundEven(c.a));
  emit(fract(c.a));
  float whole;
  emit(modf(c.a, whole));
  emit(whole);
  vec2 wholes;
  emit(modf(vec2(c.a, c.b), wholes));
  emit(wholes);
  emit(min(c.a, c.b));
  emit(max(c.a, c.b));
  emit(clamp(c.a, min(c.b, c.t), max(c.b, c.t)));
  emit(mix(c.a, c.b, c.t));
  emit(step(c.b, c.a));
  const float edge0 = min(c.b, c.t), edge1 = max(c.b, c.t) + 1.0;
  emit(smoothstep(edge0, edge1, c.a));
  emit(ldexp(c.a, c.e));
  ivec2 exponents;
  emit(frexp(vec2(c.a, c.b), exponents));
  emit(exponents);
  emit(radians(c.a));
  emit(degrees(c.a));
  emit(mix(c.a, c.b, c.t > 0.5));                            // OpSelect
  emit(min(vec2(c.a, c.b), vec2(c.t)));                      // vector forms
  emit(clamp(vec3(c.a, c.b, c.t), vec3(-1.0), vec3(1.0)));
  finish_results();
}
