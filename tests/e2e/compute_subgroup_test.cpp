// Subgroup operations from compute shaders against a CPU model of a subgroup of the size the
// device reports (Kiln: W lanes of one kernel call).
#include <cstring>

#include "e2e/vk_fixture.h"
#include "shaders/test_shaders.h"
#include "e2e/compute_job.h"

namespace kiln::test {
namespace {

class ComputeSubgroupTest : public VulkanTest {};

TEST_F(ComputeSubgroupTest, OperationsMatchACpuSubgroupModel) {
  TestDevice& device = this->device();
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(device.physical_device(), &props);
  const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                        VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                        VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
                                        VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT;
  if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) || (subgroup.supportedOperations & needed) != needed)
    GTEST_SKIP() << "the device lacks some compute subgroup operations";
  const uint32_t S = subgroup.subgroupSize;
  ASSERT_GE(S, 4u);
  ASSERT_EQ(64 % S, 0u);
  const uint32_t invocations = 128, outputs = 16;
  Buffer results = device.create_buffer(invocations * outputs * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  ComputeJob job(device, "subgroup_ops.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, results);
  job.run(invocations / 64);
  const uint32_t* r = reinterpret_cast<const uint32_t*>(results.mapped);
  auto v = [](uint32_t lane) { return lane * 3 + 1; };
  for (uint32_t i = 0; i < invocations; ++i) {
    const uint32_t lane = i % S;  // full workgroups of 64 split into subgroups of S in order
    const uint32_t* out = r + i * outputs;
    uint32_t total = 0, inclusive = 0, exclusive = 0, ballot = 0, odd = 0, cluster = 0;
    for (uint32_t l = 0; l < S; ++l) {
      total += v(l);
      if (l <= lane) inclusive += v(l);
      if (l < lane) exclusive += v(l);
      ballot += l % 3 == 0;
      if (l & 1) odd += v(l);
      if (l / 4 == lane / 4) cluster += v(l);
    }
    SCOPED_TRACE("invocation " + std::to_string(i));
    EXPECT_EQ(out[0], S);
    EXPECT_EQ(out[1], total);
    EXPECT_EQ(out[2], inclusive);
    EXPECT_EQ(out[3], exclusive);
    EXPECT_EQ(out[4], v(S - 1));
    EXPECT_EQ(out[5], ballot);
    EXPECT_EQ(out[6], lane == 0 ? 1u : 0u);
    EXPECT_EQ(out[7], v(lane ^ 1));
    if (lane + 1 < S) EXPECT_EQ(out[8], v(lane + 1));
    EXPECT_EQ(out[9], cluster);
    EXPECT_EQ(out[10], v(lane ^ 1));
    EXPECT_EQ(out[11], 1u);
    EXPECT_EQ(out[12], 1u);  // lane 1 has v == 4
    EXPECT_EQ(out[13], v(2));
    EXPECT_EQ(out[14], (lane & 1) ? odd : 0xFFFFFFFFu);
    EXPECT_EQ(out[15], (lane & 1) ? 1u : 0xFFFFFFFFu);
    if (HasFailure()) break;
  }
}

// VK_EXT_shader_subgroup_ballot and _vote: GLSL's ARB ballot and vote built-ins, compiled to the
// SPV_KHR_shader_ballot / SPV_KHR_subgroup_vote instructions, against the same CPU subgroup model.
TEST_F(ComputeSubgroupTest, KhrBallotAndVoteInstructionsMatchACpuSubgroupModel) {
  const bool has_extensions = device_has_extension(physical_device(), VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME) &&
                              device_has_extension(physical_device(), VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME);
  REQUIRE_ON_KILN(has_extensions && features().core.features.shaderInt64,
                  "VK_EXT_shader_subgroup_ballot, VK_EXT_shader_subgroup_vote and shaderInt64");
  DeviceFeatures enabled;
  enabled.core.features.shaderInt64 = VK_TRUE;
  TestDevice& device = *create_device(
      enabled, {VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME});
  constexpr uint32_t kInvocations = 64, kOutputs = 8;
  Buffer results = device.create_buffer(kInvocations * kOutputs * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  ComputeJob job(device, "subgroup_ballot_vote_arb.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, results);
  job.run(1);
  const uint32_t* r = reinterpret_cast<const uint32_t*>(results.mapped);
  const uint32_t S = r[0];
  ASSERT_TRUE(S >= 1 && S <= 64 && 64 % S == 0) << "subgroup size " << S;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t* out = r + i * kOutputs;
    const uint32_t lane = i % S, base = i - lane;  // subgroups are consecutive runs of S invocations
    uint64_t ballot = 0;
    for (uint32_t l = 0; l < S; ++l) ballot |= uint64_t((base + l) % 3 == 0) << l;
    const uint32_t votes = (base <= 5 && 5 < base + S ? 1u : 0u) | 2u | 4u | (S == 1 ? 8u : 0u);
    EXPECT_EQ(out[0], S) << i;
    EXPECT_EQ(out[1], lane) << i;
    EXPECT_EQ(out[2], uint32_t(ballot)) << "ballot, invocation " << i;
    EXPECT_EQ(out[3], uint32_t(ballot >> 32)) << "ballot, invocation " << i;
    EXPECT_EQ(out[4], base * 7) << "readFirstInvocation, invocation " << i;
    EXPECT_EQ(out[5], (base + (S > 1 ? 1 : 0)) * 5) << "readInvocation(1), invocation " << i;
    EXPECT_EQ(out[6], votes) << "any/all/allEqual, invocation " << i;
    EXPECT_EQ(out[7], lane < 32 ? 1u << lane : 0u) << "SubGroupEqMask, invocation " << i;
  }
}

}  // namespace
}  // namespace kiln::test
