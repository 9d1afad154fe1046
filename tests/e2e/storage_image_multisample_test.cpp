// shaderStorageImageMultisample: a compute shader stores, atomically adds to and loads each of the
// four samples of 4-sample storage images (image2DMS, uimage2DMS); every value comes back, and
// vkCmdResolveImage averages the stored samples, so the shader put them where the rest of the
// driver keeps a texel's samples.
#include <cstring>
#include <vector>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 8;
constexpr uint32_t kSamples = 4;

class StorageImageMultisampleTest : public VulkanTest {};

struct Results {
  uint32_t sample_count;
  uint32_t pad[3];
  float loaded[kSize * kSize * kSamples][4];
  uint32_t counted[kSize * kSize * kSamples];
};

Image make_storage_image(TestDevice& device, VkFormat format, VkSampleCountFlagBits samples, VkImageUsageFlags usage) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {kSize, kSize, 1};
  info.mipLevels = info.arrayLayers = 1;
  info.samples = samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  return device.create_image(info);
}

VkImageView make_view(TestDevice& device, const Image& image) {
  VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.image = image.image;
  info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  info.format = image.info.format;
  info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImageView(device.handle(), &info, nullptr, &view), VK_SUCCESS);
  VkDevice d = device.handle();
  device.defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
  return view;
}

TEST_F(StorageImageMultisampleTest, ComputeStoresAtomicsAndLoadsEverySample) {
  VkImageFormatProperties format{};
  const bool supported =
      features().core.features.shaderStorageImageMultisample &&
      vkGetPhysicalDeviceImageFormatProperties(physical_device(), VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D,
                                               VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT, 0,
                                               &format) == VK_SUCCESS &&
      (format.sampleCounts & VK_SAMPLE_COUNT_4_BIT);
  REQUIRE_ON_KILN(supported, "shaderStorageImageMultisample with 4-sample RGBA32F storage images");
  DeviceFeatures enabled;
  enabled.core.features.shaderStorageImageMultisample = VK_TRUE;
  TestDevice* device = create_device(enabled);
  ASSERT_NE(device, nullptr);

  const Image colors = make_storage_image(*device, VK_FORMAT_R32G32B32A32_SFLOAT, VK_SAMPLE_COUNT_4_BIT,
                                          VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                              VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  const Image counters = make_storage_image(*device, VK_FORMAT_R32_UINT, VK_SAMPLE_COUNT_4_BIT,
                                            VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  const Image resolved = make_storage_image(*device, VK_FORMAT_R32G32B32A32_SFLOAT, VK_SAMPLE_COUNT_1_BIT,
                                            VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  Buffer results = device->create_buffer(sizeof(Results), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkDescriptorSet set = make_set(*device, {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &set_layout);
  write_images(*device, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {{VK_NULL_HANDLE, make_view(*device, colors), VK_IMAGE_LAYOUT_GENERAL}});
  write_images(*device, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
               {{VK_NULL_HANDLE, make_view(*device, counters), VK_IMAGE_LAYOUT_GENERAL}});
  const VkDescriptorBufferInfo out{results.buffer, 0, VK_WHOLE_SIZE};
  write_buffers(device->handle(), set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {out});
  SetsPipeline pipeline(*device, "storage_image_multisample.comp", {set_layout});

  device->run_commands([&](VkCommandBuffer cb) {
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    transition(cb, colors.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
    transition(cb, counters.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
    const VkClearColorValue zero{};
    vkCmdClearColorImage(cb, counters.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
    // Defined contents (strict mode reports the shader's loads of a binding nothing wrote).
    vkCmdClearColorImage(cb, colors.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
    full_barrier(cb);
    pipeline.record_dispatch(cb, {set}, 1);
    full_barrier(cb);
    transition(cb, resolved.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    transition(cb, colors.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkImageResolve region{};
    region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.extent = {kSize, kSize, 1};
    vkCmdResolveImage(cb, colors.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, resolved.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                      &region);
    transition(cb, resolved.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    shader_writes_to_host_barrier(cb);
  });

  Results r;
  std::memcpy(&r, results.mapped, sizeof r);
  EXPECT_EQ(r.sample_count, kSamples);
  const std::vector<uint8_t> average =
      device->read_image(resolved, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  int wrong = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t pixel = y * kSize + x;
      for (uint32_t s = 0; s < kSamples; ++s) {
        const float* got = r.loaded[pixel * kSamples + s];
        const float want[4] = {float(x), float(y), float(s), float(100 + pixel)};
        if (std::memcmp(got, want, sizeof want) != 0 && ++wrong <= 5)
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") sample " << s << " loaded " << got[0] << " " << got[1] << " "
                        << got[2] << " " << got[3];
        const uint32_t count = r.counted[pixel * kSamples + s];
        if (count != s + 1 + 10 * pixel && ++wrong <= 5)
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") sample " << s << " counter " << count;
      }
      float resolved_texel[4];
      std::memcpy(resolved_texel, &average[pixel * 16], 16);
      const float want[4] = {float(x), float(y), 1.5f, float(100 + pixel)};  // samples 0..3 averaged
      if (std::memcmp(resolved_texel, want, sizeof want) != 0 && ++wrong <= 5)
        ADD_FAILURE() << "pixel (" << x << ", " << y << ") resolved to " << resolved_texel[0] << " " << resolved_texel[1]
                      << " " << resolved_texel[2] << " " << resolved_texel[3];
    }
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace kiln::test
