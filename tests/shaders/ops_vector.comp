#version 460
#extension GL_GOOGLE_include_directive : require
// Geometric functions on vectors: dot, cross, length, distance, normalize, reflect, refract
// (total internal reflection included), faceforward, and vector-times-scalar.
layout(local_size_x = 32) in;
#include "ops_results.glsl"

struct Case {
  vec4 a, b, c;  // multiples of 1/4 in [-4, 4], so products and sums are exact
  vec4 incident; // unit vector (xyz)
  vec4 normal;   // unit vector (xyz)
  float eta;
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(dot(c.a, c.b));
  emit(dot(c.a.xy, c.b.xy));
  emit(dot(c.a.xyz, c.b.xyz));
  emit(cross(c.a.xyz, c.b.xyz));
  emit(length(c.a));
  emit(length(c.a.xy));
  emit(distance(c.a, c.b));
  emit(normalize(c.a));
  emit(reflect(c.a.xyz, c.b.xyz));
  emit(refract(c.incident.xyz, c.normal.xyz, c.eta));
  emit(faceforward(c.a.xyz, c.b.xyz, c.c.xyz));
  emit(c.a * c.b.w);   // OpVectorTimesScalar
  emit(c.a * c.b);
  finish_results();
}
