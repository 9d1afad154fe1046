#version 460
#extension GL_GOOGLE_include_directive : require
// GLSL.std.450's transcendental functions, each on arguments from its own domain (the test
// checks the results within Vulkan's precision requirements).
layout(local_size_x = 32) in;
#include "ops_results.glsl"

struct Case {
  float angle;    // [-pi, pi]: where sin/cos have an absolute error bound
  float tan_x;    // [-1.2, 1.2]
  float unit;     // [-0.95, 0.95]: asin, acos, atanh
  float any;      // [-10, 10]: atan, atan2's x, asinh
  float y;        // [-10, 10]: atan2's y
  float hyp;      // [-5, 5]: sinh, cosh, tanh
  float acosh_x;  // [1.5, 10]
  float exp_x;    // [-10, 10]
  float positive; // (0, 1000]: log, log2, sqrt, inversesqrt
  float base;     // [0.1, 10]: pow
  float power;    // [-3, 3]: pow
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(sin(c.angle));
  emit(cos(c.angle));
  emit(tan(c.tan_x));
  emit(asin(c.unit));
  emit(acos(c.unit));
  emit(atan(c.any));
  emit(atan(c.y, c.any));
  emit(sinh(c.hyp));
  emit(cosh(c.hyp));
  emit(tanh(c.hyp));
  emit(asinh(c.any));
  emit(acosh(c.acosh_x));
  emit(atanh(c.unit));
  emit(exp(c.exp_x));
  emit(exp2(c.exp_x));
  emit(log(c.positive));
  emit(log2(c.positive));
  emit(pow(c.base, c.power));
  emit(sqrt(c.positive));
  emit(inversesqrt(c.positive));
  emit(sin(vec2(c.angle, -c.angle)));  // a vector form: per component
  finish_results();
}
