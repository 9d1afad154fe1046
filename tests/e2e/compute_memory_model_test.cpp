// The Vulkan memory model (vulkanMemoryModel, vulkanMemoryModelDeviceScope): a shader declaring
// OpMemoryModel Vulkan with NonPrivatePointer/MakePointerAvailable/MakePointerVisible/Volatile
// memory operands, scoped atomics with acquire/release semantics and barriers with explicit
// semantics passes messages between the subgroups of a workgroup; every result is checked.
//
// ctest runs these at KILN_SIMD_WIDTH=4, 8 and the default; KILN_TEST_DRIVER=lavapipe checks the
// test itself.
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class ComputeMemoryModelTest : public VulkanTest {};

TEST_F(ComputeMemoryModelTest, MessagePassingWithScopedSemantics) {
  const DeviceFeatures& s = features();
  REQUIRE_ON_KILN(s.v12.vulkanMemoryModel && s.v12.vulkanMemoryModelDeviceScope,
                  "vulkanMemoryModel and vulkanMemoryModelDeviceScope");
  DeviceFeatures enabled;
  enabled.v12.vulkanMemoryModel = VK_TRUE;
  enabled.v12.vulkanMemoryModelDeviceScope = VK_TRUE;
  TestDevice* device = create_device(enabled);
  ASSERT_NE(device, nullptr);

  constexpr uint32_t kGroups = 5, kLocal = 64;  // as in memory_model_message_passing.comp
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  Buffer payload = device->create_buffer(sizeof(uint32_t) * kGroups * kLocal, storage);
  Buffer flags = device->create_buffer(sizeof(uint32_t) * kGroups * kLocal, storage);
  Buffer results = device->create_buffer(sizeof(uint32_t) * kGroups * kLocal, storage, 0xCD);
  Buffer counters = device->create_buffer(sizeof(uint32_t) * 2 * kGroups, storage);
  const VkDescriptorType ssbo = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  ComputeJob job(*device, "memory_model_message_passing.comp", {ssbo, ssbo, ssbo, ssbo});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, payload);
  job.bind_buffer(1, flags);
  job.bind_buffer(2, results);
  job.bind_buffer(3, counters);
  job.run(kGroups);

  const uint32_t* got = mapped_as<uint32_t>(results);
  for (uint32_t g = 0; g < kGroups; ++g)
    for (uint32_t l = 0; l < kLocal; ++l)
      ASSERT_EQ(got[g * kLocal + l], 3 * l + g + 1000) << "workgroup " << g << " invocation " << l;
  const uint32_t* count = mapped_as<uint32_t>(counters);
  for (uint32_t g = 0; g < kGroups; ++g) {
    EXPECT_EQ(count[g], kLocal) << "atomic counter of workgroup " << g;
    EXPECT_EQ(count[kGroups + g], 0u) << "volatile word of workgroup " << g;
  }
}

}  // namespace
}  // namespace kiln::test
