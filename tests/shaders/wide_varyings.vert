#version 450
#extension GL_GOOGLE_include_directive : require
// A full-screen triangle (no attributes) passing 64-bit values on (wide_varyings_test.cpp).
#include "wide_varyings.glsl"
layout(location = 1) flat out dvec3 wide_vector;  // Locations 1 and 2
layout(location = 3) flat out double wide_scalar;
void main() {
  const vec2 corners[3] = vec2[](vec2(-1, -1), vec2(3, -1), vec2(-1, 3));
  gl_Position = vec4(corners[gl_VertexIndex % 3], 0.5, 1);
  wide_vector = kWideVector;
  wide_scalar = kWideScalar;
}
