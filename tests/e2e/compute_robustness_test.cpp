// robustBufferAccess: shader accesses outside a descriptor's range never touch memory outside it
// (reads give zero, writes and atomics are dropped), even when the buffer itself is larger.
#include <cstring>

#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class ComputeRobustnessTest : public VulkanTest {};

TEST_F(ComputeRobustnessTest, OutOfRangeAccessesStayInsideTheDescriptorRange) {
  if (!features().core.features.robustBufferAccess) GTEST_SKIP() << "robustBufferAccess is not supported";
  // maintenance4: glslang's Vulkan 1.3 output declares the workgroup size with LocalSizeId.
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.maintenance4 = features().v13.maintenance4;
  VkPhysicalDeviceFeatures2 enabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
  enabled.features.robustBufferAccess = VK_TRUE;
  DeviceOptions options;
  options.create_info_chain = &enabled;
  TestDevice& device = *create_device(options);
  const VkDeviceSize alignment = device.properties().limits.minStorageBufferOffsetAlignment;
  // The descriptor covers 16 bytes in the middle of a 1 MiB buffer; everything else must stay 0x5A.
  const VkDeviceSize offset = (4096 / alignment) * alignment, range = 16;
  Buffer data = device.create_buffer(1 << 20, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0x5A);
  Buffer results = device.create_buffer(64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  const uint32_t first = 0x11111111u;
  memcpy(data.mapped + offset, &first, 4);
  ComputeJob job(device, "robust_access.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, data, offset, range);
  job.bind_buffer(1, results);
  job.run(1);
  const uint32_t* r = reinterpret_cast<const uint32_t*>(results.mapped);
  EXPECT_EQ(r[0], first);  // invocation 0 read inside the range
  if (is_kiln())
    for (uint32_t i = 1; i < 64; ++i) EXPECT_EQ(r[i], 0u) << "invocation " << i;  // Kiln returns zero
  uint32_t in_range[4];
  memcpy(in_range, data.mapped + offset, sizeof in_range);
  EXPECT_EQ(in_range[1], 0xDEADBEEFu);
  EXPECT_EQ(in_range[2], 0x5A5A5A5Au + 5u);
  // Nothing outside [offset, offset + range) changed.
  for (VkDeviceSize byte = 0; byte < data.size; ++byte) {
    if (byte >= offset && byte < offset + range) continue;
    ASSERT_EQ(data.mapped[byte], 0x5A) << "byte " << byte << " outside the descriptor range was written";
  }
}

// VK_EXT_robustness2 nullDescriptor: a null storage buffer reads zero (length 0) and drops writes
// and atomics at any index, negative ones included (element -1 of a null buffer once passed the
// bounds check: its end wrapped to 0, and the store hit address 2^64 - 4).
TEST_F(ComputeRobustnessTest, NullStorageBufferDescriptorReadsZeroAtAnyIndex) {
  VkPhysicalDeviceRobustness2FeaturesEXT robustness2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  if (!query_extension_features(physical_device(), VK_EXT_ROBUSTNESS_2_EXTENSION_NAME, robustness2) ||
      !robustness2.nullDescriptor)
    GTEST_SKIP() << "VK_EXT_robustness2 nullDescriptor is not supported";
  VkPhysicalDeviceRobustness2FeaturesEXT enable_null{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  enable_null.nullDescriptor = VK_TRUE;
  TestDevice& device = *create_device_with_extension(enable_null, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
  Buffer results = device.create_buffer(64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  ComputeJob job(device, "robust_null_buffer.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_null_buffer(0);
  job.bind_buffer(1, results);
  job.run(1);
  const uint32_t* r = reinterpret_cast<const uint32_t*>(results.mapped);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r[i], 0u) << "invocation " << i;
}

}  // namespace
}  // namespace kiln::test
