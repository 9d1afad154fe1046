#version 460
#extension GL_GOOGLE_include_directive : require
// y[i] = a * x[i] + y[i], one element per invocation: bandwidth-bound (8 bytes read and 4 written
// per two floating-point operations). The dispatch covers the arrays exactly (no bounds check).
layout(local_size_x = 256) in;

#include "linear_workgroup.glsl"

layout(push_constant) uniform Parameters { float a; };

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };

void main() {
  const uint i = linear_invocation_index();
  y[i] = a * x[i] + y[i];
}
