// Vulkan 1.2/1.3 compute features that Vulkan 1.3 requires: subgroupSizeControl with a required
// subgroup size and computeFullSubgroups, subgroupBroadcastDynamicId, uniformBufferStandardLayout,
// scalarBlockLayout and shaderZeroInitializeWorkgroupMemory, checked against values computed here.
#include <bit>
#include <cstring>

#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class ComputeFeatures13Test : public VulkanTest {};

TEST_F(ComputeFeatures13Test, SubgroupSizeControlDynamicBroadcastBlockLayoutsAndZeroedSharedMemory) {
  const DeviceFeatures& f = features();
  const bool supported = f.v13.subgroupSizeControl && f.v13.computeFullSubgroups && f.v12.subgroupBroadcastDynamicId &&
                         f.v12.uniformBufferStandardLayout && f.v12.scalarBlockLayout &&
                         f.v13.shaderZeroInitializeWorkgroupMemory && f.v13.maintenance4;
  REQUIRE_ON_KILN(supported, "the Vulkan 1.3 compute features of this test");
  DeviceFeatures enabled;
  enabled.v13.subgroupSizeControl = enabled.v13.computeFullSubgroups = VK_TRUE;
  enabled.v12.subgroupBroadcastDynamicId = enabled.v12.uniformBufferStandardLayout = VK_TRUE;
  enabled.v12.scalarBlockLayout = VK_TRUE;
  enabled.v13.shaderZeroInitializeWorkgroupMemory = VK_TRUE;
  TestDevice& device = *create_device(enabled);

  VkPhysicalDeviceVulkan13Properties p13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p13};
  vkGetPhysicalDeviceProperties2(device.physical_device(), &props);
  ASSERT_TRUE(p13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  ASSERT_GE(p13.maxComputeWorkgroupSubgroups, 2u);
  ASSERT_LE(p13.minSubgroupSize, p13.maxSubgroupSize);
  const uint32_t S = p13.maxSubgroupSize, local_size = 2 * S, groups = 4, invocations = local_size * groups;

  struct Std430 {
    float f[4];
    float v2[2][2];
    uint32_t broadcast_id;
  } std430{{0, 1.5f, 0, 0}, {{0, 0}, {2.0f, -3.0f}}, S - 1};
  struct Scalar {  // scalar layout: a vec3 right after a float, vec3 array stride 12
    float a, b[3], c[2][3];
  } scalar{0.5f, {10, 20, 30}, {{0, 0, 0}, {4, 8, 16}}};
  static_assert(sizeof(Scalar) == 40);
  Buffer std430_buffer = device.create_buffer(sizeof std430, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  std::memcpy(std430_buffer.mapped, &std430, sizeof std430);
  Buffer scalar_buffer = device.create_buffer(sizeof scalar, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  std::memcpy(scalar_buffer.mapped, &scalar, sizeof scalar);
  Buffer rows = device.create_buffer(invocations * 8 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);

  const VkSpecializationMapEntry entry{0, 0, 4};
  const VkSpecializationInfo spec{1, &entry, 4, &local_size};
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, nullptr, S};
  ComputeJob job(device, "core13_compute_features.comp",
                 {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0,
                 &spec, {.stage_flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT, .stage_next = &required});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, std430_buffer);
  job.bind_buffer(1, scalar_buffer);
  job.bind_buffer(2, rows);
  job.run(groups);

  // Exact in float: every value is a small multiple of 0.5.
  const float x = scalar.b[0] + std430.f[1] + scalar.c[1][0] * scalar.a;
  const float y = scalar.b[1] + std430.v2[1][0] + scalar.c[1][1] * scalar.a;
  const float z = scalar.b[2] + std430.v2[1][1] + scalar.c[1][2] * scalar.a;
  const uint32_t* r = mapped_as<uint32_t>(rows);
  for (uint32_t i = 0; i < invocations; ++i) {
    const uint32_t local = i % local_size;
    const uint32_t expected[8] = {S, 2, local / S, local % S, (S - 1) * 10 + 7, 0, std::bit_cast<uint32_t>(x + y),
                                  std::bit_cast<uint32_t>(z)};
    const char* names[8] = {"gl_SubgroupSize", "gl_NumSubgroups", "gl_SubgroupID", "gl_SubgroupInvocationID",
                            "dynamic-id broadcast", "null-initialized shared value", "std430/scalar sum xy", "scalar sum z"};
    for (int k = 0; k < 8; ++k) ASSERT_EQ(r[i * 8 + k], expected[k]) << names[k] << " of invocation " << i << " (S=" << S << ")";
  }
}

}  // namespace
}  // namespace kiln::test
