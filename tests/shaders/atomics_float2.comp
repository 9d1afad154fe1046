#version 460
// VK_EXT_shader_atomic_float2 and image float atomics: float32/float64/float16 min and max, float16
// add, on a storage buffer, on shared memory and (float32 add, min, max, exchange) on r32f storage
// images, every invocation contending (compute_atomics_test.cpp computes the results).
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Results {
  float float_min, float_max;     // of value(i)
  double double_min, double_max;  // of value(i)
  float16_t half_sum;             // += 0.25
  float16_t half_min, half_max;   // of value(i)
  float16_t unused;
  float per_group[];              // per workgroup: shared min, max, float16 sum (as float)
};
layout(binding = 1, r32f) uniform image2D counts;   // += 1 per invocation on texel (i % 8, i / 8 % 8)
layout(binding = 2, r32f) uniform image2D extremes;  // x < 4: max of value(i); x >= 4: min
layout(binding = 3, r32f) uniform image2D swapped;   // exchange(texel, i): some invocation's i
shared float shared_min, shared_max;
shared float16_t shared_half;

// Spread over [-25, 25] in steps of 0.5: exact in float16, float32 and float64.
float value(uint i) { return float(int(i * 37u % 101u) - 50) * 0.5; }

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const float v = value(i);
  if (gl_LocalInvocationIndex == 0) {
    shared_min = 1000.0;
    shared_max = -1000.0;
    shared_half = float16_t(0.0);
  }
  barrier();
  atomicMin(float_min, v);
  atomicMax(float_max, v);
  atomicMin(double_min, double(v));
  atomicMax(double_max, double(v));
  atomicAdd(half_sum, float16_t(0.25));
  atomicMin(half_min, float16_t(v));
  atomicMax(half_max, float16_t(v));
  atomicMin(shared_min, v);
  atomicMax(shared_max, v);
  atomicAdd(shared_half, float16_t(0.5));
  const ivec2 texel = ivec2(i % 8, i / 8 % 8);
  imageAtomicAdd(counts, texel, 1.0);
  if (texel.x < 4) imageAtomicMax(extremes, texel, v);
  else imageAtomicMin(extremes, texel, v);
  imageAtomicExchange(swapped, texel, float(i));
  barrier();
  if (gl_LocalInvocationIndex == 0) {
    per_group[3 * gl_WorkGroupID.x] = shared_min;
    per_group[3 * gl_WorkGroupID.x + 1] = shared_max;
    per_group[3 * gl_WorkGroupID.x + 2] = float(shared_half);
  }
}
