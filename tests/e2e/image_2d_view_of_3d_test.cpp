// VK_EXT_image_2d_view_of_3d: a 3D image created with VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT
// gets 2D views of single depth slices that a compute shader samples (sampler2DViewOf3D) and loads
// as a storage image (image2DViewOf3D); every texel must be the slice's. The same test runs on
// lavapipe (KILN_TEST_DRIVER=lavapipe).
#include <cstring>
#include <vector>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class Image2DViewOf3DTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    VkPhysicalDeviceImage2DViewOf3DFeaturesEXT features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT};
    if (!query_extension_features(physical_device(), VK_EXT_IMAGE_2D_VIEW_OF_3D_EXTENSION_NAME, features) ||
        !features.image2DViewOf3D || !features.sampler2DViewOf3D) {
      EXPECT_FALSE(is_kiln()) << "Kiln offers VK_EXT_image_2d_view_of_3d";
      GTEST_SKIP() << "no VK_EXT_image_2d_view_of_3d";
    }
    device_ = create_device_with_extension(features, VK_EXT_IMAGE_2D_VIEW_OF_3D_EXTENSION_NAME);
    ASSERT_TRUE(device_);
  }

  TestDevice* device_ = nullptr;
};

TEST_F(Image2DViewOf3DTest, SlicesAreSampledAndLoadedThroughTwoDimensionalViews) {
  TestDevice& device = *device_;
  const VkDevice d = device.handle();
  constexpr uint32_t kSlices = 5;
  // Texel (x, y, z) = (x * 16, y * 16, z * 40, 255 - z): each slice tells itself apart.
  std::vector<uint8_t> texels(4 * 4 * kSlices * 4);
  for (uint32_t z = 0; z < kSlices; ++z)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 4; ++x) {
        uint8_t* t = &texels[((z * 4 + y) * 4 + x) * 4];
        t[0] = uint8_t(x * 16), t[1] = uint8_t(y * 16), t[2] = uint8_t(z * 40), t[3] = uint8_t(255 - z);
      }
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT;
  info.imageType = VK_IMAGE_TYPE_3D;
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.extent = {4, 4, kSlices};
  info.mipLevels = info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  Image volume = device.create_image(info);
  Buffer upload = device.create_buffer(texels.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::memcpy(upload.mapped, texels.data(), texels.size());
  device.run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, volume.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = info.extent;
    vkCmdCopyBufferToImage(cmd, upload.buffer, volume.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    transition(cmd, volume.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
  });
  VkSamplerCreateInfo sampler_info{.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateSampler(d, &sampler_info, nullptr, &sampler));
  device.defer_destroy([d, sampler] { vkDestroySampler(d, sampler, nullptr); });

  for (uint32_t slice : {0u, 3u, kSlices - 1}) {
    SCOPED_TRACE("slice " + std::to_string(slice));
    VkImageViewCreateInfo vi{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = volume.image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = info.format;
    vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, slice, 1};
    VkImageView view = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkCreateImageView(d, &vi, nullptr, &view));
    device.defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
    Buffer results = device.create_buffer(33 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
    VkDescriptorSetLayout layout;
    VkDescriptorSet set = make_set(device, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER}, {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
                                            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
    write_images(device, set, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {{sampler, view, VK_IMAGE_LAYOUT_GENERAL}});
    write_images(device, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL}});
    write_buffers(d, set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
    SetsPipeline pipeline(device, "slice_views.comp", {layout});
    device.run_commands([&](VkCommandBuffer cmd) {
      pipeline.record_dispatch(cmd, {set}, 1);
      shader_writes_to_host_barrier(cmd);
    });
    const float* out = reinterpret_cast<const float*>(results.mapped);
    for (uint32_t i = 0; i < 16; ++i) {
      const uint8_t* want = &texels[((slice * 4 + i / 4) * 4 + i % 4) * 4];
      for (uint32_t c = 0; c < 4; ++c) {
        EXPECT_FLOAT_EQ(out[i * 4 + c], want[c] / 255.0f) << "sampled texel " << i << " channel " << c;
        EXPECT_FLOAT_EQ(out[(16 + i) * 4 + c], want[c] / 255.0f) << "loaded texel " << i << " channel " << c;
      }
    }
    for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(out[32 * 4 + c], 4.0f) << "view sizes: 4 x 4, not the volume's depth";
  }
}

}  // namespace
}  // namespace kiln::test
