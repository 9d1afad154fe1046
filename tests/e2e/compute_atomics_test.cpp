// 64-bit integer atomics (shaderBufferInt64Atomics, shaderSharedInt64Atomics) and float atomics
// (VK_EXT_shader_atomic_float: float32/float64 add, exchange) on storage-buffer and shared memory,
// with every invocation of several workgroups contending for the same words. The totals are
// exact (integer-valued or binary-fraction floats), so any lost or doubled update shows.
#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/descriptor_pipeline.h"
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

// Shared-memory atomics run without locked instructions (a workgroup's subgroups share one
// thread), so each operation's read-modify-write and its returned value are checked here.
TEST_F(ComputeAtomicsTest, EveryAtomicOperationOnSharedMemoryUnderContention) {
  TestDevice& device = this->device();
  constexpr uint32_t kGroups = 3, kLocal = 64;
  Buffer results = device.create_buffer(10 * kGroups * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer tickets = device.create_buffer(2 * kGroups * kLocal * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  ComputeJob job(device, "atomics_shared_ops.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, results);
  job.bind_buffer(1, tickets);
  job.run(kGroups);

  const auto* got = reinterpret_cast<const uint32_t*>(results.mapped);
  const auto* ticket = reinterpret_cast<const uint32_t*>(tickets.mapped);
  for (uint32_t g = 0; g < kGroups; ++g) {
    uint32_t and_bits = ~0u, or_bits = 0, xor_bits = 0, swapped = 0, umin = ~0u, umax = 0;
    int32_t smin = std::numeric_limits<int32_t>::max(), smax = std::numeric_limits<int32_t>::min();
    for (uint32_t i = 0; i < kLocal; ++i) {
      and_bits &= i < 20 ? ~(1u << i) : ~0u;
      or_bits |= 1u << (i % 29);
      xor_bits ^= 1u << (i % 24);
      swapped += i + 1;
      umin = std::min(umin, 1000 + (i * 37) % 64 + g);
      umax = std::max(umax, (i * 37) % 64 + g);
      smin = std::min(smin, -static_cast<int32_t>(i) * 3 - static_cast<int32_t>(g));
      smax = std::max(smax, static_cast<int32_t>(i) - 100 + static_cast<int32_t>(g));
    }
    const uint32_t* r = got + 10 * g;
    EXPECT_EQ(r[0], kLocal) << "add, workgroup " << g;
    EXPECT_EQ(r[1], and_bits) << "and, workgroup " << g;
    EXPECT_EQ(r[2], or_bits) << "or, workgroup " << g;
    EXPECT_EQ(r[3], xor_bits) << "xor, workgroup " << g;
    EXPECT_EQ(r[4], swapped) << "compare-exchange loop, workgroup " << g;
    EXPECT_EQ(r[6], umin) << "unsigned min, workgroup " << g;
    EXPECT_EQ(r[7], umax) << "unsigned max, workgroup " << g;
    EXPECT_EQ(static_cast<int32_t>(r[8]), smin) << "signed min, workgroup " << g;
    EXPECT_EQ(static_cast<int32_t>(r[9]), smax) << "signed max, workgroup " << g;
    // add returned each count 0..63 once; exchange returned the initial 1000 and all but the
    // last written index, which stayed in the variable.
    std::vector<uint32_t> adds, exchanges{r[5]};
    for (uint32_t i = 0; i < kLocal; ++i) {
      adds.push_back(ticket[2 * (g * kLocal + i)]);
      exchanges.push_back(ticket[2 * (g * kLocal + i) + 1]);
    }
    std::sort(adds.begin(), adds.end());
    std::sort(exchanges.begin(), exchanges.end());
    for (uint32_t i = 0; i < kLocal; ++i) {
      EXPECT_EQ(adds[i], i) << "add's returned values, workgroup " << g;
      EXPECT_EQ(exchanges[i], i) << "exchange's returned values, workgroup " << g;
    }
    EXPECT_EQ(exchanges[kLocal], 1000u) << "exchange's returned values, workgroup " << g;
  }
}


// VK_EXT_shader_atomic_float2 (float16/32/64 min and max, float16 add on buffers and shared
// memory) and VK_EXT_shader_atomic_float's image atomics (add, exchange) with float2's image
// min/max, on r32f storage images: 7 workgroups of 64 invocations all contending
// (atomics_float2.comp). The values are exact in every precision, so results compare exactly.
TEST_F(ComputeAtomicsTest, FloatMinMaxHalfAndImageAtomicsUnderContention) {
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT float1{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT float2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
  const bool has = query_extension_features(physical_device(), VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME, float1) &&
                   query_extension_features(physical_device(), VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME, float2);
  const DeviceFeatures& f = features();
  REQUIRE_ON_KILN(has && float1.shaderImageFloat32Atomics && float1.shaderImageFloat32AtomicAdd &&
                      float2.shaderBufferFloat16AtomicAdd && float2.shaderBufferFloat16AtomicMinMax &&
                      float2.shaderBufferFloat32AtomicMinMax && float2.shaderBufferFloat64AtomicMinMax &&
                      float2.shaderSharedFloat16AtomicAdd && float2.shaderSharedFloat32AtomicMinMax &&
                      float2.shaderImageFloat32AtomicMinMax && f.v12.shaderFloat16 && f.v11.storageBuffer16BitAccess &&
                      f.core.features.shaderFloat64,
                  "float16/32/64 min/max, float16 add and float32 image atomics");
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT enable2 = float2;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT enable1 = float1;
  enable1.pNext = &enable2;
  DeviceFeatures enabled;
  enabled.v13.pNext = &enable1;
  enabled.core.features.shaderFloat64 = VK_TRUE;
  enabled.v12.shaderFloat16 = VK_TRUE;
  enabled.v11.storageBuffer16BitAccess = VK_TRUE;
  TestDevice& device =
      *create_device(enabled, {VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME, VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME});

  constexpr uint32_t kGroups = 7, kInvocations = 64 * kGroups;
  struct Results {
    float float_min, float_max;
    double double_min, double_max;
    uint16_t half_sum, half_min, half_max, unused;
    float per_group[3 * kGroups];
  };
  Buffer buffer = device.create_buffer(sizeof(Results), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  auto* r = reinterpret_cast<Results*>(buffer.mapped);
  r->float_min = r->double_min = 1000;
  r->float_max = r->double_max = -1000;
  r->half_sum = 0;
  r->half_min = 0x63D0;  // 1000.0 in float16
  r->half_max = 0xE3D0;  // -1000.0
  const VkImageUsageFlags usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  std::vector<Image> images;
  std::vector<VkImageView> views;
  for (int i = 0; i < 3; ++i) {
    images.push_back(device.create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_SFLOAT, {8, 8, 1}, 1, 1, 0, usage));
    VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = images.back().image;
    info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    info.format = VK_FORMAT_R32_SFLOAT;
    info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &info, nullptr, &view));
    device.defer_destroy([&device, view] { vkDestroyImageView(device.handle(), view, nullptr); });
    views.push_back(view);
  }
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkDescriptorSet set = make_set(device,
                                 {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}},
                                 &set_layout);
  write_buffers(device.handle(), set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{buffer.buffer, 0, VK_WHOLE_SIZE}});
  for (uint32_t i = 0; i < 3; ++i)
    write_images(device, set, i + 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {{VK_NULL_HANDLE, views[i], VK_IMAGE_LAYOUT_GENERAL}});
  SetsPipeline pipeline(device, "atomics_float2.comp", {set_layout});
  device.run_commands([&](VkCommandBuffer cb) {
    const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    const float starts[3] = {0.0f, 0.0f, -1.0f};
    for (int i = 0; i < 3; ++i) {
      transition(cb, images[i].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
      const VkClearColorValue start{.float32 = {starts[i], 0, 0, 0}};
      vkCmdClearColorImage(cb, images[i].image, VK_IMAGE_LAYOUT_GENERAL, &start, 1, &all);
    }
    full_barrier(cb);
    pipeline.record_dispatch(cb, {set}, kGroups);
    full_barrier(cb);
    for (const Image& image : images)
      transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });

  auto value = [](uint32_t i) { return float(int(i * 37u % 101u) - 50) * 0.5f; };
  float lo = 1000, hi = -1000;
  for (uint32_t i = 0; i < kInvocations; ++i) lo = std::min(lo, value(i)), hi = std::max(hi, value(i));
  EXPECT_EQ(lo, r->float_min);
  EXPECT_EQ(hi, r->float_max);
  EXPECT_EQ(double(lo), r->double_min);
  EXPECT_EQ(double(hi), r->double_max);
  EXPECT_EQ(0x5700, r->half_sum) << "448 x 0.25 = 112 (float16 0x5700)";
  EXPECT_EQ(0xCE40, r->half_min) << "-25 in float16";
  EXPECT_EQ(0x4E40, r->half_max) << "25 in float16";
  for (uint32_t g = 0; g < kGroups; ++g) {
    float group_lo = 1000, group_hi = -1000;
    for (uint32_t i = 64 * g; i < 64 * (g + 1); ++i) group_lo = std::min(group_lo, value(i)), group_hi = std::max(group_hi, value(i));
    EXPECT_EQ(group_lo, r->per_group[3 * g]) << "shared min of workgroup " << g;
    EXPECT_EQ(group_hi, r->per_group[3 * g + 1]) << "shared max of workgroup " << g;
    EXPECT_EQ(32.0f, r->per_group[3 * g + 2]) << "shared float16 sum of workgroup " << g;
  }
  auto texels = [&](int i) {
    const std::vector<uint8_t> bytes = device.read_image(images[i], VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    std::vector<float> out(64);
    std::memcpy(out.data(), bytes.data(), 256);
    return out;
  };
  const std::vector<float> counts = texels(0), extremes = texels(1), swapped = texels(2);
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t x = t % 8;
    float want_count = 0, want_extreme = 0;
    for (uint32_t i = 0; i < kInvocations; ++i) {
      if (i % 64 != t) continue;
      want_count += 1;
      want_extreme = x < 4 ? std::max(want_extreme, value(i)) : std::min(want_extreme, value(i));
    }
    EXPECT_EQ(want_count, counts[t]) << "imageAtomicAdd, texel " << t;
    EXPECT_EQ(want_extreme, extremes[t]) << (x < 4 ? "imageAtomicMax" : "imageAtomicMin") << ", texel " << t;
    const float s = swapped[t];
    EXPECT_TRUE(s >= 0 && s < kInvocations && uint32_t(s) % 64 == t) << "imageAtomicExchange left " << s << " in texel " << t;
  }
}

}  // namespace
}  // namespace kiln::test
