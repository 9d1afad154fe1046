#version 450
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
#extension GL_ARB_gpu_shader_int64 : require
// VK_KHR_shader_clock (compute_shader_clock_test.cpp): each invocation reads the subgroup clock
// (uvec2) and the device clock (uint64) before and after a loop whose length depends on its index,
// and stores the four readings and the loop's result.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Readings {
  uint64_t row[];  // 5 per invocation: subgroup before, after; device before, after; work
};
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uvec2 subgroup_before = clock2x32ARB();
  const uint64_t device_before = clockRealtimeEXT();
  uint64_t work = 0;
  for (uint k = 0; k < 200u + 10u * i; ++k) work += uint64_t(k) * uint64_t(k ^ i);
  const uint64_t device_after = clockRealtimeEXT();
  const uint64_t subgroup_after = clockARB();
  row[5 * i + 0] = packUint2x32(subgroup_before);
  row[5 * i + 1] = subgroup_after;
  row[5 * i + 2] = device_before;
  row[5 * i + 3] = device_after;
  row[5 * i + 4] = work;
}
