// Descriptor indexing of uniform and storage buffer arrays in compute shaders: lane-divergent
// (non-uniform) and dynamically uniform indices, runtime-sized arrays with a variable descriptor
// count, partially bound arrays, descriptors written after the set was bound (update after bind)
// and while the work is pending, all against a CPU reference. On Kiln also: an index past the
// array's end reads a null descriptor and writes nothing (the spec leaves it undefined).
//
// ctest runs these at KILN_SIMD_WIDTH=4, 8 and the default (16 on AVX-512 hosts); KILN_TEST_DRIVER=lavapipe checks
// the tests themselves.
#include <array>
#include <cstring>
#include <numeric>
#include <vector>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr VkDeviceSize kStep = 256;  // a multiple of every buffer offset alignment the suite meets

class ComputeDescriptorIndexingTest : public VulkanTest {
 protected:
  // A device with the buffer descriptor-indexing features on; Kiln must have them all.
  TestDevice* indexing_device() {
    const char* missing = enable_features(features(),
                                          {KILN_FEATURE(core.features.shaderUniformBufferArrayDynamicIndexing),
                                           KILN_FEATURE(core.features.shaderStorageBufferArrayDynamicIndexing),
                                           KILN_FEATURE(v12.shaderUniformBufferArrayNonUniformIndexing),
                                           KILN_FEATURE(v12.shaderStorageBufferArrayNonUniformIndexing),
                                           KILN_FEATURE(v12.descriptorBindingUniformBufferUpdateAfterBind),
                                           KILN_FEATURE(v12.descriptorBindingStorageBufferUpdateAfterBind),
                                           KILN_FEATURE(v12.descriptorBindingUpdateUnusedWhilePending),
                                           KILN_FEATURE(v12.descriptorBindingPartiallyBound),
                                           KILN_FEATURE(v12.descriptorBindingVariableDescriptorCount),
                                           KILN_FEATURE(v12.runtimeDescriptorArray)},
                                          &enabled_);
    if (missing) {
      if (is_kiln()) ADD_FAILURE() << "Kiln must support " << missing;
      return nullptr;
    }
    TestDevice* device = create_device(enabled_);
    if (!device) throw std::runtime_error("vkCreateDevice with the descriptor-indexing features failed");
    return device;
  }

  // Set 0 of both test shaders: results, a fixed uniform buffer array of `uniform_count` and a
  // variable-count storage buffer array of at most `max_sources` (`variable_count` allocated), the
  // arrays partially bound and updatable after bind (and while pending).
  VkDescriptorSet indexing_set(TestDevice& device, uint32_t uniform_count, uint32_t max_sources, uint32_t variable_count,
                               VkDescriptorSetLayout* layout) {
    constexpr VkDescriptorBindingFlags kArray = VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT |
                                                VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT |
                                                VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT;
    return make_set(device,
                    {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                     {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform_count, kArray},
                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, max_sources, kArray | VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT}},
                    layout, variable_count);
  }

 private:
  DeviceFeatures enabled_;
};

// Source buffer s of descriptor_nonuniform.comp: `hits`, then 4 + s values 1000 * s + j + 1.
uint32_t source_length(uint32_t s) { return 4 + s; }
uint32_t source_value(uint32_t s, uint32_t j) { return 1000 * s + j + 1; }

TEST_F(ComputeDescriptorIndexingTest, NonUniformIndicesReachEachLanesOwnBuffer) {
  TestDevice* dev = indexing_device();
  if (!dev) GTEST_SKIP() << "the driver lacks buffer descriptor indexing";
  VkDevice d = dev->handle();
  ASSERT_EQ(0u, kStep % dev->properties().limits.minStorageBufferOffsetAlignment);
  ASSERT_EQ(0u, kStep % dev->properties().limits.minUniformBufferOffsetAlignment);
  constexpr uint32_t kUniforms = 4, kMaxSources = 16, kAllocated = 8, kUsed = 6, kInvocations = 256;

  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = indexing_set(*dev, kUniforms, kMaxSources, kAllocated, &layout);
  SetsPipeline pipeline(*dev, "descriptor_nonuniform.comp", {layout}, 4);

  Buffer results = dev->create_buffer(kInvocations * 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  Buffer sources = dev->create_buffer(kAllocated * kStep, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer params = dev->create_buffer(kUniforms * kStep, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  for (uint32_t s = 0; s < kUsed; ++s) {
    auto* words = reinterpret_cast<uint32_t*>(sources.mapped + s * kStep);
    for (uint32_t j = 0; j < source_length(s); ++j) words[1 + j] = source_value(s, j);
  }
  for (uint32_t u = 0; u < 3; ++u) reinterpret_cast<uint32_t*>(params.mapped + u * kStep)[0] = u + 2;
  write_buffers(d, set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});

  // Record first; the arrays are written after the set is bound (update after bind).
  VkCommandBuffer cmd = dev->allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  const uint32_t used = kUsed;
  pipeline.record_dispatch(cmd, {set}, kInvocations / 64, &used, 4);
  shader_writes_to_host_barrier(cmd);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));
  std::vector<VkDescriptorBufferInfo> source_infos;
  for (uint32_t s = 0; s < kUsed; ++s) source_infos.push_back({sources.buffer, s * kStep, 4 * (1 + source_length(s))});
  write_buffers(d, set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, source_infos);
  // params[3] stays unwritten: the array is partially bound and the shader never uses it.
  write_buffers(d, set, 1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                {{params.buffer, 0, 16}, {params.buffer, kStep, 16}, {params.buffer, 2 * kStep, 16}});

  VkFence fence = dev->create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit(dev->queue(), cmd, fence));
  // While the work may still be pending: element 7 exists (8 allocated) but no invocation uses it.
  write_buffers(d, set, 2, 7, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{sources.buffer, 7 * kStep, 16}});
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(d, 1, &fence, VK_TRUE, kGpuTimeoutNs));

  uint32_t total = 0;
  for (uint32_t s = 0; s < kUsed; ++s) total += source_value(s, 0);
  std::array<uint32_t, kUsed> hits{};
  const auto* got = reinterpret_cast<const uint32_t*>(results.mapped);
  int failures = 0;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t s = (i * 7 + i / 5) % kUsed, u = (i / 3 + i) % 3;
    ++hits[s];
    const uint32_t length = source_length(s);
    const uint32_t expected = source_value(s, i % length) * (u + 2) + total;
    if ((got[2 * i] != expected || got[2 * i + 1] != length) && ++failures <= 8)
      ADD_FAILURE() << "invocation " << i << " (source " << s << ", params " << u << "): got (" << got[2 * i] << ", "
                    << got[2 * i + 1] << "), expected (" << expected << ", " << length << ")";
  }
  for (uint32_t s = 0; s < kUsed; ++s)
    EXPECT_EQ(hits[s], reinterpret_cast<const uint32_t*>(sources.mapped + s * kStep)[0]) << "atomic hits of source " << s;
}

// Kiln only: lanes whose index runs past an array read a null descriptor (zero, length 0) and
// their writes go nowhere; every byte outside the in-range descriptors' ranges stays untouched.
TEST_F(ComputeDescriptorIndexingTest, IndicesPastTheArrayReadNullDescriptors) {
  KILN_ONLY();
  TestDevice* dev = indexing_device();
  ASSERT_NE(nullptr, dev);
  VkDevice d = dev->handle();
  constexpr uint32_t kUniforms = 2, kMaxSources = 16, kAllocated = 3, kLanes = 16;
  constexpr uint8_t kFill = 0xAB;

  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = indexing_set(*dev, kUniforms, kMaxSources, kAllocated, &layout);
  SetsPipeline pipeline(*dev, "descriptor_out_of_range.comp", {layout}, 4);
  Buffer results = dev->create_buffer(kLanes * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer sources = dev->create_buffer(16 * kStep, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, kFill);
  Buffer params = dev->create_buffer(kUniforms * kStep, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  for (uint32_t s = 0; s < kAllocated; ++s) reinterpret_cast<uint32_t*>(sources.mapped + s * kStep)[1] = 10 + s;
  for (uint32_t u = 0; u < kUniforms; ++u) reinterpret_cast<uint32_t*>(params.mapped + u * kStep)[0] = 7 + u;
  write_buffers(d, set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  write_buffers(d, set, 1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, {{params.buffer, 0, 4}, {params.buffer, kStep, 4}});
  std::vector<VkDescriptorBufferInfo> infos;
  for (uint32_t s = 0; s < kAllocated; ++s) infos.push_back({sources.buffer, s * kStep, 8});
  write_buffers(d, set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, infos);

  for (const uint32_t first : {0u, 0xFFFFFFF8u}) {  // the second wraps lanes around to 0..7
    std::memset(results.mapped, 0xFF, results.size);
    dev->run_commands([&](VkCommandBuffer cmd) {
      pipeline.record_dispatch(cmd, {set}, 1, &first, 4);
      shader_writes_to_host_barrier(cmd);
    });
    const auto* got = reinterpret_cast<const uint32_t*>(results.mapped);
    for (uint32_t i = 0; i < kLanes; ++i) {
      const uint32_t s = first + i;
      const bool source_ok = s < kAllocated, param_ok = s < kUniforms;
      EXPECT_EQ(source_ok ? 10 + s : 0u, got[4 * i]) << "first " << first << " lane " << i << ": value";
      EXPECT_EQ(source_ok ? 1u : 0u, got[4 * i + 1]) << "first " << first << " lane " << i << ": length";
      EXPECT_EQ(param_ok ? 7 + s : 0u, got[4 * i + 2]) << "first " << first << " lane " << i << ": uniform";
      EXPECT_EQ(1u, got[4 * i + 3]) << "first " << first << " lane " << i << " did not run";
    }
  }
  for (VkDeviceSize byte = 0; byte < sources.size; ++byte) {
    const uint32_t s = static_cast<uint32_t>(byte / kStep), offset = static_cast<uint32_t>(byte % kStep);
    if (s < kAllocated && offset < 8) continue;  // the mark and the value of an in-range source
    ASSERT_EQ(kFill, sources.mapped[byte]) << "byte " << byte << " outside every in-range descriptor was written";
  }
  for (uint32_t s = 0; s < kAllocated; ++s)
    EXPECT_EQ(0xC0FFEEu, reinterpret_cast<const uint32_t*>(sources.mapped + s * kStep)[0]) << "source " << s;
}

}  // namespace
}  // namespace kiln::test
