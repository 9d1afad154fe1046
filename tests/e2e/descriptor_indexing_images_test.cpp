// Descriptor indexing of storage image, uniform texel buffer and storage texel buffer arrays in
// compute shaders: lane-divergent (non-uniform) indices, a partially bound array, a variable-count
// runtime array, and descriptors written after the set was bound (update after bind), against a
// CPU reference. Together with descriptor_indexing_test.cpp (buffers) and the sampled-image cases
// of compute_sampling_test.cpp, this covers what the `descriptorIndexing` feature promises.
//
// ctest runs these at KILN_SIMD_WIDTH=4, 8 and the default; lavapipe 22.3 has none of these
// features (the test skips there).
#include <array>
#include <cstring>
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr VkDeviceSize kStep = 256;  // a multiple of every texel buffer offset alignment the suite meets
constexpr uint32_t kImages = 4, kUsedImages = 3, kTexelBuffers = 4, kMaxCounters = 8, kCounters = 3, kInvocations = 64;

class ComputeImageDescriptorIndexingTest : public VulkanTest {
 protected:
  // A device with the image and texel-buffer descriptor-indexing features on (and
  // `descriptorIndexing` itself, which Kiln must have).
  TestDevice* indexing_device() {
    if (is_kiln()) EXPECT_TRUE(features().v12.descriptorIndexing) << "Kiln must support descriptorIndexing";
    const char* missing = enable_features(features(),
                                          {KILN_FEATURE(core.features.shaderStorageImageArrayDynamicIndexing),
                                           KILN_FEATURE(v12.shaderUniformTexelBufferArrayDynamicIndexing),
                                           KILN_FEATURE(v12.shaderStorageTexelBufferArrayDynamicIndexing),
                                           KILN_FEATURE(v12.shaderStorageImageArrayNonUniformIndexing),
                                           KILN_FEATURE(v12.shaderUniformTexelBufferArrayNonUniformIndexing),
                                           KILN_FEATURE(v12.shaderStorageTexelBufferArrayNonUniformIndexing),
                                           KILN_FEATURE(v12.descriptorBindingStorageImageUpdateAfterBind),
                                           KILN_FEATURE(v12.descriptorBindingUniformTexelBufferUpdateAfterBind),
                                           KILN_FEATURE(v12.descriptorBindingStorageTexelBufferUpdateAfterBind),
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

  // Set 0 of descriptor_nonuniform_images.comp, its arrays partially bound and updatable after
  // bind; the counters array has `counters` elements.
  VkDescriptorSet indexing_set(TestDevice& device, uint32_t counters, VkDescriptorSetLayout* layout) {
    constexpr VkDescriptorBindingFlags kArray = VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT | VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
    return make_set(device,
                    {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                     {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, kImages, kArray},
                     {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, kTexelBuffers, kArray},
                     {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, kMaxCounters, kArray | VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT}},
                    layout, counters);
  }

  // An R32_UINT view of [offset, offset + range) of `buffer`, destroyed with the device.
  VkBufferView uint_view(TestDevice& device, const Buffer& buffer, VkDeviceSize offset, VkDeviceSize range) {
    VkBufferViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    info.buffer = buffer.buffer;
    info.format = VK_FORMAT_R32_UINT;
    info.offset = offset;
    info.range = range;
    VkBufferView view = VK_NULL_HANDLE;
    require(vkCreateBufferView(device.handle(), &info, nullptr, &view), "vkCreateBufferView");
    VkDevice d = device.handle();
    device.defer_destroy([=] { vkDestroyBufferView(d, view, nullptr); });
    return view;
  }

 private:
  DeviceFeatures enabled_;
};

// Texel p (row-major, 8 x 8) of image k, and texel j of uniform texel buffer k, before the dispatch.
uint32_t image_value(uint32_t k, uint32_t p) { return 1000 * k + p; }
uint32_t texel_value(uint32_t k, uint32_t j) { return 100000 * k + j; }

TEST_F(ComputeImageDescriptorIndexingTest, NonUniformIndicesReachEachLanesOwnImageAndTexelBuffer) {
  TestDevice* dev = indexing_device();
  if (!dev) GTEST_SKIP() << "the driver lacks image and texel-buffer descriptor indexing";
  VkDevice d = dev->handle();
  ASSERT_EQ(0u, kStep % dev->properties().limits.minTexelBufferOffsetAlignment);

  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = indexing_set(*dev, kCounters, &layout);
  SetsPipeline pipeline(*dev, "descriptor_nonuniform_images.comp", {layout});
  ASSERT_NE(pipeline.pipeline, VK_NULL_HANDLE);

  Buffer results = dev->create_buffer(kInvocations * 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  Buffer texels = dev->create_buffer(kTexelBuffers * kStep, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  Buffer counters = dev->create_buffer(kMaxCounters * kStep, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, 0);
  Buffer staging = dev->create_buffer(kUsedImages * kInvocations * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  for (uint32_t k = 0; k < kTexelBuffers; ++k)
    for (uint32_t j = 0; j < kInvocations; ++j) reinterpret_cast<uint32_t*>(texels.mapped + k * kStep)[j] = texel_value(k, j);
  std::vector<Image> images;
  std::vector<VkDescriptorImageInfo> image_infos;
  for (uint32_t k = 0; k < kUsedImages; ++k) {
    for (uint32_t p = 0; p < kInvocations; ++p) mapped_as<uint32_t>(staging)[k * kInvocations + p] = image_value(k, p);
    images.push_back(dev->create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT, {8, 8, 1}, 1, 1, 0,
                                       VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                           VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    VkImageViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = images.back().image;
    info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    info.format = VK_FORMAT_R32_UINT;
    info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkCreateImageView(d, &info, nullptr, &view));
    dev->defer_destroy([=] { vkDestroyImageView(d, view, nullptr); });
    image_infos.push_back({VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL});
  }
  write_buffers(d, set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});

  // Record first; the arrays are written after the set is bound (update after bind).
  VkCommandBuffer cmd = dev->record_commands([&](VkCommandBuffer cb) {
    for (uint32_t k = 0; k < kUsedImages; ++k) {
      transition(cb, images[k].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      const VkBufferImageCopy region{k * kInvocations * 4, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {8, 8, 1}};
      vkCmdCopyBufferToImage(cb, staging.buffer, images[k].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
      transition(cb, images[k].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
    }
    pipeline.record_dispatch(cb, {set}, 1);
    for (const Image& image : images)
      transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  write_images(*dev, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, image_infos);  // images[3] stays unwritten
  std::vector<VkBufferView> texel_views, counter_views;
  for (uint32_t k = 0; k < kTexelBuffers; ++k) texel_views.push_back(uint_view(*dev, texels, k * kStep, kStep));
  for (uint32_t k = 0; k < kCounters; ++k) counter_views.push_back(uint_view(*dev, counters, k * kStep, 16));
  write_texel_buffers(*dev, set, 2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, texel_views);
  write_texel_buffers(*dev, set, 3, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, counter_views);
  VkFence fence = dev->create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit(dev->queue(), cmd, fence));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(d, 1, &fence, VK_TRUE, kGpuTimeoutNs));

  std::array<uint32_t, kCounters> hits{};
  std::array<std::vector<uint32_t>, kUsedImages> expected_images;
  for (uint32_t k = 0; k < kUsedImages; ++k)
    for (uint32_t p = 0; p < kInvocations; ++p) expected_images[k].push_back(image_value(k, p));
  const auto* got = mapped_as<uint32_t>(results);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t s = (i * 7 + i / 5) % kUsedImages, t = (i / 3 + i) % kTexelBuffers;
    ++hits[i % kCounters];
    expected_images[s][i] += 7;
    EXPECT_EQ(got[2 * i], image_value(s, i)) << "invocation " << i << ": texel of image " << s;
    EXPECT_EQ(got[2 * i + 1], texel_value(t, i)) << "invocation " << i << ": texel of texel buffer " << t;
  }
  for (uint32_t k = 0; k < kCounters; ++k)
    EXPECT_EQ(reinterpret_cast<const uint32_t*>(counters.mapped + k * kStep)[0], hits[k]) << "atomic hits of counter " << k;
  for (uint32_t k = 0; k < kUsedImages; ++k) {
    const std::vector<uint8_t> bytes = dev->read_image(images[k], VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    ASSERT_EQ(bytes.size(), kInvocations * 4u);
    for (uint32_t p = 0; p < kInvocations; ++p) {
      uint32_t value;
      std::memcpy(&value, &bytes[p * 4], 4);
      EXPECT_EQ(value, expected_images[k][p]) << "image " << k << " texel " << p;
    }
  }
}

}  // namespace
}  // namespace kiln::test
