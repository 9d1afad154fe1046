#version 460
// 256-bin histogram of bytes: per-workgroup counts in shared memory with atomicAdd, then merged
// into the global bins with atomicAdd on a storage buffer. bins[b] = number of bytes equal to b.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Words { uint words[]; };  // four bytes per word
layout(set = 0, binding = 1) buffer Bins { uint bins[256]; };

shared uint local_bins[256];

void main() {
  for (uint b = gl_LocalInvocationIndex; b < 256; b += gl_WorkGroupSize.x) local_bins[b] = 0;
  barrier();
  uint word = words[gl_GlobalInvocationID.x];
  for (uint k = 0; k < 4; ++k) atomicAdd(local_bins[(word >> (8 * k)) & 0xffu], 1u);
  barrier();
  for (uint b = gl_LocalInvocationIndex; b < 256; b += gl_WorkGroupSize.x) {
    if (local_bins[b] != 0) atomicAdd(bins[b], local_bins[b]);
  }
}
