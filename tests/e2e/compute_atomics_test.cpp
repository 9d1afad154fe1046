// 64-bit integer atomics (shaderBufferInt64Atomics, shaderSharedInt64Atomics) and float atomics
// (VK_EXT_shader_atomic_float: float32/float64 add, exchange) on storage-buffer and shared memory,
// with every invocation of several workgroups contending for the same words. The totals are
// exact (integer-valued or binary-fraction floats), so any lost or doubled update shows.
#include <bit>
#include <cstring>
#include <limits>

#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class ComputeAtomicsTest : public VulkanTest {};

struct Totals {
  uint64_t sum;
  int64_t minimum;
  uint64_t maximum, toggles, swapped;
  float float_sum, exchanged;
  double double_sum;
  uint64_t per_group[];  // 3 per workgroup
};

TEST_F(ComputeAtomicsTest, Int64AndFloatAtomicsOnBufferAndSharedMemoryUnderContention) {
  const DeviceFeatures& f = features();
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &atomic_float};
  const bool has_extension = device_has_extension(physical_device(), VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (has_extension) vkGetPhysicalDeviceFeatures2(physical_device(), &query);
  const bool supported = f.v12.shaderBufferInt64Atomics && f.v12.shaderSharedInt64Atomics && f.core.features.shaderInt64 &&
                         f.core.features.shaderFloat64 && has_extension && atomic_float.shaderBufferFloat32AtomicAdd &&
                         atomic_float.shaderBufferFloat32Atomics && atomic_float.shaderBufferFloat64AtomicAdd &&
                         atomic_float.shaderSharedFloat32AtomicAdd && atomic_float.shaderSharedFloat64AtomicAdd;
  REQUIRE_ON_KILN(supported, "64-bit integer and float32/float64 buffer and shared atomics");

  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT enable_float{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  enable_float.shaderBufferFloat32Atomics = enable_float.shaderBufferFloat32AtomicAdd = VK_TRUE;
  enable_float.shaderBufferFloat64AtomicAdd = VK_TRUE;
  enable_float.shaderSharedFloat32AtomicAdd = enable_float.shaderSharedFloat64AtomicAdd = VK_TRUE;
  DeviceFeatures enabled;
  enabled.v13.pNext = &enable_float;
  enabled.core.features.shaderInt64 = enabled.core.features.shaderFloat64 = VK_TRUE;
  enabled.v12.shaderBufferInt64Atomics = enabled.v12.shaderSharedInt64Atomics = VK_TRUE;
  TestDevice& device = *create_device(enabled, {VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME});

  constexpr uint32_t kGroups = 7, kInvocations = 64 * kGroups;  // odd group count: every toggled bit ends set
  const size_t bytes = sizeof(Totals) + 3 * kGroups * sizeof(uint64_t);
  Buffer buffer = device.create_buffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  auto* totals = reinterpret_cast<Totals*>(buffer.mapped);
  totals->minimum = std::numeric_limits<int64_t>::max();
  ComputeJob job(device, "atomics_wide.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, buffer);
  job.run(kGroups);

  uint64_t sum = 0;
  float float_sum = 0;
  double double_sum = 0;
  for (uint64_t i = 0; i < kInvocations; ++i) {
    sum += (i << 33) + i;
    float_sum += static_cast<float>(i % 7);
    double_sum += static_cast<double>(i % 5) * 0.25;
  }
  EXPECT_EQ(totals->sum, sum);
  EXPECT_EQ(totals->minimum, -static_cast<int64_t>(kInvocations - 1) * 1000000000007LL);
  EXPECT_EQ(totals->maximum, uint64_t{kInvocations - 1} * 0x100000001ull);
  EXPECT_EQ(totals->toggles, ~uint64_t{0});
  EXPECT_EQ(totals->swapped, 3ull * kInvocations);
  EXPECT_EQ(totals->float_sum, float_sum);
  EXPECT_EQ(totals->double_sum, double_sum);
  const float exchanged = totals->exchanged;
  EXPECT_TRUE(exchanged == static_cast<float>(static_cast<uint32_t>(exchanged)) && exchanged < kInvocations)
      << "exchange left " << exchanged << ", which no invocation wrote";
  for (uint32_t g = 0; g < kGroups; ++g) {
    uint64_t group_sum = 0;
    for (uint64_t i = 64 * g; i < 64 * (g + 1); ++i) group_sum += i << 32;
    EXPECT_EQ(totals->per_group[3 * g], group_sum) << "shared uint64 sum of workgroup " << g;
    EXPECT_EQ(totals->per_group[3 * g + 1], std::bit_cast<uint32_t>(32.0f)) << "shared float sum of workgroup " << g;
    EXPECT_EQ(totals->per_group[3 * g + 2], std::bit_cast<uint64_t>(8.0)) << "shared double sum of workgroup " << g;
  }
}

}  // namespace
}  // namespace kiln::test
