#version 460
#extension GL_GOOGLE_include_directive : require
// Workgroup sums through shared memory: each invocation loads one value, then a tree reduction
// halves the active invocations each step with a barrier() between steps (9 barriers per group).
//   sums[g] = values[g * 256] + … + values[g * 256 + 255]
layout(local_size_x = 256) in;

#include "linear_workgroup.glsl"

layout(set = 0, binding = 0) readonly buffer Values { float values[]; };
layout(set = 0, binding = 1) writeonly buffer Sums { float sums[]; };

shared float partial[gl_WorkGroupSize.x];

void main() {
  const uint local = gl_LocalInvocationIndex;
  partial[local] = values[linear_invocation_index()];
  barrier();
  for (uint stride = gl_WorkGroupSize.x / 2u; stride > 0u; stride >>= 1) {
    if (local < stride) partial[local] += partial[local + stride];
    barrier();
  }
  if (local == 0u) sums[linear_workgroup_index()] = partial[0];
}
