// VK_KHR_shader_clock: OpReadClockKHR at subgroup scope (uvec2 and uint64) and device scope, read
// around a loop in a compute shader; the loop's result is checked against the CPU so the readings
// bracket real work.
#include <cstdint>

#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class ShaderClockTest : public VulkanTest {};

TEST_F(ShaderClockTest, ClocksNeverGoBackAcrossAnInvocationsWork) {
  VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  const bool has_extension = query_extension_features(physical_device(), VK_KHR_SHADER_CLOCK_EXTENSION_NAME, clock);
  REQUIRE_ON_KILN(has_extension && clock.shaderSubgroupClock && clock.shaderDeviceClock &&
                      features().core.features.shaderInt64,
                  "VK_KHR_shader_clock with both clocks, and shaderInt64");
  VkPhysicalDeviceShaderClockFeaturesKHR enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  enable.shaderSubgroupClock = enable.shaderDeviceClock = VK_TRUE;
  DeviceFeatures enabled;
  enabled.v13.pNext = &enable;
  enabled.core.features.shaderInt64 = VK_TRUE;
  TestDevice& device = *create_device(enabled, {VK_KHR_SHADER_CLOCK_EXTENSION_NAME});

  constexpr uint32_t kGroups = 4, kInvocations = 64 * kGroups;
  Buffer buffer = device.create_buffer(kInvocations * 5 * sizeof(uint64_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  ComputeJob job(device, "shader_clock.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, buffer);
  job.run(kGroups);

  const auto* row = reinterpret_cast<const uint64_t*>(buffer.mapped);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint64_t* r = row + 5 * i;
    uint64_t work = 0;
    for (uint32_t k = 0; k < 200 + 10 * i; ++k) work += uint64_t(k) * uint64_t(k ^ i);
    ASSERT_EQ(r[4], work) << "invocation " << i;
    EXPECT_LE(r[0], r[1]) << "subgroup clock went back in invocation " << i;
    EXPECT_LE(r[2], r[3]) << "device clock went back in invocation " << i;
  }
  KILN_ONLY();  // the time-stamp counter advances over a few hundred iterations
  for (uint32_t i = 0; i < kInvocations; ++i) {
    EXPECT_LT(row[5 * i + 0], row[5 * i + 1]) << i;
    EXPECT_LT(row[5 * i + 2], row[5 * i + 3]) << i;
  }
}

}  // namespace
}  // namespace kiln::test
