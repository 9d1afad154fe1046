#version 450
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_gpu_shader_int64 : require
// VK_EXT_shader_subgroup_ballot / _vote through GLSL's ARB forms, which glslang emits as the
// SPV_KHR_shader_ballot / SPV_KHR_subgroup_vote instructions (compute_subgroup_khr_test.cpp).
// Eight results per invocation.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Results {
  uint row[];
};
void main() {
  const uint i = gl_LocalInvocationIndex;
  const uint64_t ballot = ballotARB(i % 3u == 0u);
  uint votes = 0u;
  if (anyInvocationARB(i == 5u)) votes |= 1u;
  if (allInvocationsARB(i < 1000u)) votes |= 2u;
  if (allInvocationsEqualARB((i / gl_SubGroupSizeARB) % 2u == 0u)) votes |= 4u;
  if (allInvocationsEqualARB(i % 2u == 0u)) votes |= 8u;
  row[8u * i + 0u] = gl_SubGroupSizeARB;
  row[8u * i + 1u] = gl_SubGroupInvocationARB;
  row[8u * i + 2u] = uint(ballot);
  row[8u * i + 3u] = uint(ballot >> 32);
  row[8u * i + 4u] = readFirstInvocationARB(i * 7u);
  row[8u * i + 5u] = readInvocationARB(i * 5u, 1u);
  row[8u * i + 6u] = votes;
  row[8u * i + 7u] = uint(gl_SubGroupEqMaskARB);
}
