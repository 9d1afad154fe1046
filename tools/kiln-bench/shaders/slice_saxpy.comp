#version 460
// y[i] = a * x[i] + y[i] on one slice of the arrays: the slice starts at element `first`, one
// workgroup of 64 invocations covers it (compute_small_dispatches: many such dispatches).
layout(local_size_x = 64) in;

layout(push_constant) uniform Parameters {
  float a;
  uint first;
};

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };

void main() {
  const uint i = first + gl_LocalInvocationIndex;
  y[i] = a * x[i] + y[i];
}
