#version 460
#extension GL_GOOGLE_include_directive : require
// 256-bin histogram of bytes: each invocation reads one word (four bytes) and counts them with
// atomicAdd on the workgroup's bins in shared memory; after a barrier the workgroup adds its
// non-zero bins to the global bins with atomicAdd. bins[b] += number of bytes equal to b.
// The global bins must be zero before the dispatch.
layout(local_size_x = 256) in;

#include "linear_workgroup.glsl"

layout(set = 0, binding = 0) readonly buffer Words { uint words[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[256]; };

shared uint local_bins[256];

void main() {
  const uint local = gl_LocalInvocationIndex;
  for (uint b = local; b < 256u; b += gl_WorkGroupSize.x) local_bins[b] = 0u;
  barrier();
  const uint word = words[linear_invocation_index()];
  for (uint k = 0u; k < 4u; ++k) atomicAdd(local_bins[(word >> (8u * k)) & 0xffu], 1u);
  barrier();
  for (uint b = local; b < 256u; b += gl_WorkGroupSize.x) {
    if (local_bins[b] != 0u) atomicAdd(bins[b], local_bins[b]);
  }
}
