#version 460
// Subgroup operations over a workgroup of several subgroups, with divergence: each invocation
// writes kOutputs results (see kiln::test subgroup tests for the CPU reference). Values depend on
// gl_SubgroupInvocationID so the reference needs only the subgroup size, which is written too.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) writeonly buffer Results { uint results[]; };

const uint kOutputs = 16;

void main() {
  uint lane = gl_SubgroupInvocationID;
  uint base = gl_GlobalInvocationID.x * kOutputs;
  uint v = lane * 3u + 1u;
  results[base + 0] = gl_SubgroupSize;
  results[base + 1] = subgroupAdd(v);
  results[base + 2] = subgroupInclusiveAdd(v);
  results[base + 3] = subgroupExclusiveAdd(v);
  results[base + 4] = subgroupMax(v);
  results[base + 5] = subgroupBallotBitCount(subgroupBallot(lane % 3u == 0u));
  results[base + 6] = subgroupElect() ? 1u : 0u;
  results[base + 7] = subgroupShuffleXor(v, 1u);
  results[base + 8] = subgroupShuffleDown(v, 1u);  // the last lane's value is undefined: not checked
  results[base + 9] = subgroupClusteredAdd(v, 4u);
  results[base + 10] = subgroupQuadSwapHorizontal(v);
  results[base + 11] = subgroupAll(v > 0u) ? 1u : 0u;
  results[base + 12] = subgroupAny(v == 4u) ? 1u : 0u;
  results[base + 13] = subgroupBroadcast(v, 2u);
  // Divergent: only odd lanes take part.
  uint odd_sum = 0xFFFFFFFFu;
  if ((lane & 1u) == 1u) odd_sum = subgroupAdd(v);
  results[base + 14] = odd_sum;
  uint first_odd = 0xFFFFFFFFu;
  if ((lane & 1u) == 1u) first_odd = subgroupBroadcastFirst(lane);
  results[base + 15] = first_odd;
}
