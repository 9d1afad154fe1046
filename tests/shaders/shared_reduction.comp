#version 460
// Workgroup sum through shared memory: a tree reduction with barrier() between steps.
// sums[workgroup] = sum of values[workgroup * 128 .. workgroup * 128 + 127].
layout(local_size_x = 128) in;

layout(set = 0, binding = 0) readonly buffer Values { float values[]; };
layout(set = 0, binding = 1) writeonly buffer Sums { float sums[]; };

shared float partial[128];

void main() {
  uint local = gl_LocalInvocationIndex;
  partial[local] = values[gl_GlobalInvocationID.x];
  barrier();
  for (uint stride = 64; stride > 0; stride >>= 1) {
    if (local < stride) partial[local] += partial[local + stride];
    barrier();
  }
  if (local == 0) sums[gl_WorkGroupID.x] = partial[0];
}
