// VkSampler and VkImageView creation: valid create infos succeed (validated) and the standard
// border colours reach a shader, and on Kiln the application errors the driver checks cheaply come
// back as error codes instead of objects that would reach outside their image later (unvalidated,
// since they are invalid usage).
#include <array>
#include <cstring>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using ViewSamplerTest = VulkanTest;

VkSamplerCreateInfo sampler_info() {
  VkSamplerCreateInfo info{.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = VK_FILTER_LINEAR;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  info.maxLod = VK_LOD_CLAMP_NONE;
  return info;
}

// Samplers of every address mode, every standard border colour, with depth compare and LOD
// clamps, and with unnormalized coordinates are created; a shader sampling outside the image sees
// each border colour.
// What sample_standard_borders.comp reads far outside a 4x4 image through each standard border
// colour: the float colours filtered linearly on a `float_format` image (texels 0x40 bytes, no border
// colour), the integer ones with NEAREST on an `int_format` image (texels 7).
struct StandardBorders {
  std::array<float, 4> floats[3];
  std::array<uint32_t, 4> ints[3];
};
StandardBorders sample_standard_borders(TestDevice& dev, VkFormat float_format, VkFormat int_format, uint32_t texel_bytes) {
  VkDevice d = dev.handle();
  const SampledImage unorm_image = make_sampled_image(dev, VK_IMAGE_VIEW_TYPE_2D, float_format, {4, 4, 1}, 1,
                                                {std::vector<uint8_t>(4 * 4 * texel_bytes, 0x40)});
  const SampledImage uint_image = make_sampled_image(dev, VK_IMAGE_VIEW_TYPE_2D, int_format, {4, 4, 1}, 1,
                                               {std::vector<uint8_t>(4 * 4 * texel_bytes, 7)});
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = make_set(dev, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3},
                                       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
  std::vector<VkDescriptorImageInfo> float_borders, int_borders;
  for (int border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK; border <= VK_BORDER_COLOR_INT_OPAQUE_WHITE; ++border) {
    const bool integer = border % 2 == 1;  // FLOAT_x = 0, 2, 4; INT_x = 1, 3, 5
    VkSamplerCreateInfo info = sampler_info();
    info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    info.borderColor = static_cast<VkBorderColor>(border);
    if (integer) info.magFilter = info.minFilter = VK_FILTER_NEAREST, info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    VkSampler sampler = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateSampler(d, &info, nullptr, &sampler));
    dev.defer_destroy([=] { vkDestroySampler(d, sampler, nullptr); });
    (integer ? int_borders : float_borders)
        .push_back({sampler, integer ? uint_image.view : unorm_image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
  }
  write_images(dev, set, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, float_borders);
  write_images(dev, set, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, int_borders);
  Buffer results = dev.create_buffer(6 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  write_buffers(d, set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  SetsPipeline pipeline(dev, "sample_standard_borders.comp", {layout});
  dev.run_commands([&](VkCommandBuffer cmd) {
    pipeline.record_dispatch(cmd, {set}, 1);
    shader_writes_to_host_barrier(cmd);
  });
  StandardBorders got;
  for (int k = 0; k < 3; ++k) {
    std::memcpy(got.floats[k].data(), results.mapped + 16 * k, 16);
    std::memcpy(got.ints[k].data(), results.mapped + 48 + 16 * k, 16);
  }
  return got;
}

TEST_F(ViewSamplerTest, SamplersWithEveryCoreStateAreCreated) {
  std::vector<VkSamplerCreateInfo> infos;
  for (VkSamplerAddressMode mode : {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                                    VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER}) {
    VkSamplerCreateInfo info = sampler_info();
    info.addressModeU = info.addressModeV = info.addressModeW = mode;
    infos.push_back(info);
  }
  for (int border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK; border <= VK_BORDER_COLOR_INT_OPAQUE_WHITE; ++border) {
    VkSamplerCreateInfo info = sampler_info();
    info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    info.borderColor = static_cast<VkBorderColor>(border);
    infos.push_back(info);
  }
  VkSamplerCreateInfo compare = sampler_info();
  compare.compareEnable = VK_TRUE;
  compare.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  compare.mipLodBias = 2.5f;
  compare.minLod = 1.0f, compare.maxLod = 4.0f;
  infos.push_back(compare);
  VkSamplerCreateInfo unnormalized = sampler_info();
  unnormalized.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  unnormalized.addressModeU = unnormalized.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  unnormalized.maxLod = 0;
  unnormalized.unnormalizedCoordinates = VK_TRUE;
  infos.push_back(unnormalized);
  for (const VkSamplerCreateInfo& info : infos) {
    VkSampler sampler = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkCreateSampler(device().handle(), &info, nullptr, &sampler));
    EXPECT_NE(VK_NULL_HANDLE, sampler);
    vkDestroySampler(device().handle(), sampler, nullptr);
  }
  vkDestroySampler(device().handle(), VK_NULL_HANDLE, nullptr);  // a no-op

  // TRANSPARENT_BLACK, OPAQUE_BLACK, OPAQUE_WHITE, as floats and as integers.
  const StandardBorders got = sample_standard_borders(device(), VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UINT, 4);
  const std::array<float, 4> float_want[3] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}};
  const std::array<uint32_t, 4> int_want[3] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(float_want[k], got.floats[k]) << "border colour " << 2 * k;
    EXPECT_EQ(int_want[k], got.ints[k]) << "border colour " << 2 * k + 1;
  }
}

// A border texel is a texel of the view's format: components the format lacks read 0 (G, B) and
// 1 (A), whatever the border colour (CTS pipeline.*.sampler.border_swizzle.*, robustness2).
TEST_F(ViewSamplerTest, BorderColoursTakeTheFormatsMissingComponents) {
  const StandardBorders got = sample_standard_borders(device(), VK_FORMAT_R8_UNORM, VK_FORMAT_R8_UINT, 1);
  const std::array<float, 4> float_want[3] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {1, 0, 0, 1}};
  const std::array<uint32_t, 4> int_want[3] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {1, 0, 0, 1}};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(float_want[k], got.floats[k]) << "border colour " << 2 * k;
    EXPECT_EQ(int_want[k], got.ints[k]) << "border colour " << 2 * k + 1;
  }
}

TEST_F(ViewSamplerTest, KilnRefusesSamplersAndViewsItCannotHonour) {
  KILN_ONLY();
  UnvalidatedContext context = create_unvalidated_context();
  std::unique_ptr<TestDevice> device;
  ASSERT_EQ(VK_SUCCESS, TestDevice::create(context.physical_device, {}, &device));
  VkSampler sampler = VK_NULL_HANDLE;
  VkSamplerCreateInfo inverted = sampler_info();
  inverted.minLod = 3, inverted.maxLod = 1;
  EXPECT_EQ(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateSampler(device->handle(), &inverted, nullptr, &sampler));
  VkSamplerCreateInfo unnormalized_linear_mips = sampler_info();
  unnormalized_linear_mips.unnormalizedCoordinates = VK_TRUE;
  EXPECT_EQ(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateSampler(device->handle(), &unnormalized_linear_mips, nullptr, &sampler));

  // Views of a transfer-only image (Kiln has no sampled/storage/attachment images yet, so a view
  // has no valid use; these only check the range and format rules).
  const Image image = device->create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1}, 3, 2,
                                           VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT);
  auto create_view = [&](VkImageViewType type, VkFormat format, VkImageSubresourceRange range) {
    VkImageViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = image.image, info.viewType = type, info.format = format, info.subresourceRange = range;
    VkImageView view = VK_NULL_HANDLE;
    const VkResult result = vkCreateImageView(device->handle(), &info, nullptr, &view);
    if (result == VK_SUCCESS) vkDestroyImageView(device->handle(), view, nullptr);
    return result;
  };
  const VkImageAspectFlags color = VK_IMAGE_ASPECT_COLOR_BIT;
  EXPECT_EQ(VK_SUCCESS, create_view(VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R8G8B8A8_UNORM, {color, 0, 3, 0, 2}));
  EXPECT_EQ(VK_SUCCESS, create_view(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32_UINT, {color, 1, 1, 1, 1}));  // same size
  EXPECT_EQ(VK_SUCCESS, create_view(VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R8G8B8A8_SRGB,
                                    {color, 1, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS}));
  EXPECT_EQ(VK_ERROR_OUT_OF_HOST_MEMORY, create_view(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {color, 3, 1, 0, 1}));
  EXPECT_EQ(VK_ERROR_OUT_OF_HOST_MEMORY, create_view(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {color, 0, 1, 1, 2}));
  EXPECT_EQ(VK_ERROR_OUT_OF_HOST_MEMORY, create_view(VK_IMAGE_VIEW_TYPE_CUBE, VK_FORMAT_R8G8B8A8_UNORM, {color, 0, 1, 0, 2}));
  EXPECT_EQ(VK_ERROR_OUT_OF_HOST_MEMORY, create_view(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R16G16B16A16_UNORM, {color, 0, 1, 0, 1}));
  EXPECT_EQ(VK_ERROR_OUT_OF_HOST_MEMORY,
            create_view(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}));
  EXPECT_EQ(VK_ERROR_OUT_OF_HOST_MEMORY, create_view(VK_IMAGE_VIEW_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {color, 0, 1, 0, 1}));
}

}  // namespace
}  // namespace kiln::test
