#version 460
// Every 32-bit atomic operation on shared memory, all invocations of a workgroup (several
// subgroups at any SIMD width) contending for the same words. compute_atomics_test.cpp replays
// the operations on the CPU; the returned old values must be distinct tickets, so a lost or
// doubled read-modify-write shows in the results as well as in the totals.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Results { uint per_group[]; };  // 10 per workgroup, order below
layout(std430, binding = 1) buffer Tickets { uint tickets[]; };    // 2 per invocation: add's and exchange's old value

shared uint counter, and_bits, or_bits, xor_bits, swapped, exchanged, umin, umax;
shared int smin, smax;

void main() {
  const uint i = gl_LocalInvocationIndex;
  const uint g = gl_WorkGroupID.x;
  if (i == 0) {
    counter = 0u;
    and_bits = ~0u;
    or_bits = 0u;
    xor_bits = 0u;
    swapped = 0u;
    exchanged = 1000u;
    umin = ~0u;
    umax = 0u;
    smin = 0x7fffffff;
    smax = -0x7fffffff - 1;
  }
  barrier();
  tickets[2u * gl_GlobalInvocationID.x] = atomicAdd(counter, 1u);
  atomicAnd(and_bits, i < 20u ? ~(1u << i) : ~0u);
  atomicOr(or_bits, 1u << (i % 29u));
  atomicXor(xor_bits, 1u << (i % 24u));
  uint seen = swapped;
  for (;;) {
    const uint previous = atomicCompSwap(swapped, seen, seen + i + 1u);
    if (previous == seen) break;
    seen = previous;
  }
  tickets[2u * gl_GlobalInvocationID.x + 1u] = atomicExchange(exchanged, i);
  atomicMin(umin, 1000u + (i * 37u) % 64u + g);
  atomicMax(umax, (i * 37u) % 64u + g);
  atomicMin(smin, -int(i) * 3 - int(g));
  atomicMax(smax, int(i) - 100 + int(g));
  barrier();
  if (i == 0) {
    const uint at = 10u * g;
    per_group[at] = counter;
    per_group[at + 1u] = and_bits;
    per_group[at + 2u] = or_bits;
    per_group[at + 3u] = xor_bits;
    per_group[at + 4u] = swapped;
    per_group[at + 5u] = exchanged;
    per_group[at + 6u] = umin;
    per_group[at + 7u] = umax;
    per_group[at + 8u] = uint(smin);
    per_group[at + 9u] = uint(smax);
  }
}
