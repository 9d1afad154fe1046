#version 460
// 64-bit integer and 32/64-bit float atomics on a storage buffer and on shared memory, every
// invocation contending for the same words (compute_atomics_test.cpp computes the totals).
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Totals {
  uint64_t sum;        // += (i << 33) + i
  int64_t minimum;     // min(-(i * 1000000000007))
  uint64_t maximum;    // max(i * 0x100000001)
  uint64_t toggles;    // ^= 1 << (i % 64)
  uint64_t swapped;    // += 3 by compare-and-swap loops
  float float_sum;     // += float(i % 7)
  float exchanged;     // exchange(float(i)): some invocation's value
  double double_sum;   // += (i % 5) * 0.25
  uint64_t per_group[];  // per workgroup: the shared 64-bit sum, the shared float sum's bits, the shared double sum's bits
};
shared uint64_t shared_sum;
shared float shared_float_sum;
shared double shared_double_sum;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (gl_LocalInvocationIndex == 0) {
    shared_sum = 0;
    shared_float_sum = 0.0;
    shared_double_sum = 0.0;
  }
  barrier();
  atomicAdd(sum, (uint64_t(i) << 33) + i);
  atomicMin(minimum, -int64_t(i) * 1000000000007L);
  atomicMax(maximum, uint64_t(i) * 0x100000001UL);
  atomicXor(toggles, uint64_t(1) << (i % 64));
  uint64_t seen = swapped;
  for (;;) {
    const uint64_t previous = atomicCompSwap(swapped, seen, seen + 3);
    if (previous == seen) break;
    seen = previous;
  }
  atomicAdd(float_sum, float(i % 7));
  atomicExchange(exchanged, float(i));
  atomicAdd(shared_sum, uint64_t(i) << 32);
  atomicAdd(double_sum, double(i % 5) * 0.25);
  atomicAdd(shared_float_sum, 0.5);
  atomicAdd(shared_double_sum, 0.125);
  barrier();
  if (gl_LocalInvocationIndex == 0) {
    per_group[3 * gl_WorkGroupID.x] = shared_sum;
    per_group[3 * gl_WorkGroupID.x + 1] = uint64_t(floatBitsToUint(shared_float_sum));
    per_group[3 * gl_WorkGroupID.x + 2] = doubleBitsToUint64(shared_double_sum);
  }
}
