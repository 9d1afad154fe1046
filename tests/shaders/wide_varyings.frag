#version 450
#extension GL_GOOGLE_include_directive : require
// 1 per component of the 64-bit inputs that arrived exactly (wide_varyings_test.cpp).
#include "wide_varyings.glsl"
layout(location = 1) flat in dvec3 wide_vector;
layout(location = 3) flat in double wide_scalar;
layout(location = 0) out vec4 color;
void main() {
  color = vec4(wide_vector.x == kWideVector.x ? 1 : 0, wide_vector.y == kWideVector.y ? 1 : 0,
               wide_vector.z == kWideVector.z ? 1 : 0, wide_scalar == kWideScalar ? 1 : 0);
}
