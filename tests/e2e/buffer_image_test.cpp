// Buffers, buffer views and images of every type, with proof that each subresource has its own
// storage (cleared to a distinct value and read back), plus linear-tiling subresource layouts.
#include <cstring>

#include "e2e/conformance_gaps.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using BufferImageTest = VulkanTest;

// Clear value of subresource (mip, layer): exact in R8G8B8A8_UINT and distinct per subresource.
VkClearColorValue subresource_color(uint32_t mip, uint32_t layer) {
  VkClearColorValue color{};
  color.uint32[0] = mip + 1;
  color.uint32[1] = layer + 1;
  color.uint32[2] = 0x5A;
  color.uint32[3] = 0xC3;
  return color;
}

uint32_t layer_count_of(const VkImageCreateInfo& info) {
  return info.imageType == VK_IMAGE_TYPE_3D ? 1 : info.arrayLayers;
}

// Clears every (mip, layer) of an R8G8B8A8_UINT image to subresource_color and checks every
// texel of every subresource afterwards. Leaves the image in TRANSFER_SRC_OPTIMAL.
void clear_and_verify_every_subresource(TestDevice& device, const Image& image) {
  ASSERT_EQ(VK_FORMAT_R8G8B8A8_UINT, image.info.format);
  const uint32_t layer_count = layer_count_of(image.info);
  device.run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    for (uint32_t mip = 0; mip < image.info.mipLevels; ++mip)
      for (uint32_t layer = 0; layer < layer_count; ++layer) {
        const VkClearColorValue color = subresource_color(mip, layer);
        const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, layer, 1};
        vkCmdClearColorImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
      }
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  for (uint32_t mip = 0; mip < image.info.mipLevels; ++mip)
    for (uint32_t layer = 0; layer < layer_count; ++layer) {
      const std::vector<uint8_t> texels =
          device.read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, mip, layer, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      const VkExtent3D extent = mip_extent(image.info.extent, mip);
      ASSERT_EQ(size_t(extent.width) * extent.height * extent.depth * 4, texels.size());
      const VkClearColorValue color = subresource_color(mip, layer);
      for (size_t i = 0; i < texels.size(); ++i) {
        ASSERT_EQ(color.uint32[i % 4], texels[i])
            << "mip " << mip << " layer " << layer << " texel " << i / 4 << " channel " << i % 4;
      }
    }
}

void expect_view(TestDevice& device, const Image& image, VkImageViewType type, uint32_t base_mip, uint32_t mips,
                 uint32_t base_layer, uint32_t layers) {
  VkImageViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.image = image.image;
  info.viewType = type;
  info.format = image.info.format;
  info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, base_mip, mips, base_layer, layers};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &info, nullptr, &view)) << "view type " << type;
  EXPECT_NE(VK_NULL_HANDLE, view);
  vkDestroyImageView(device.handle(), view, nullptr);
}

// Whether the device can make an image like `info` (and, if not, why the test skips).
bool image_supported(VkPhysicalDevice physical_device, const VkImageCreateInfo& info) {
  VkImageFormatProperties properties;
  const VkResult result = vkGetPhysicalDeviceImageFormatProperties(physical_device, info.format, info.imageType,
                                                                   info.tiling, info.usage, info.flags, &properties);
  return result == VK_SUCCESS && properties.maxMipLevels >= info.mipLevels &&
         properties.maxArrayLayers >= info.arrayLayers && properties.maxExtent.width >= info.extent.width &&
         properties.maxExtent.height >= info.extent.height && properties.maxExtent.depth >= info.extent.depth;
}

VkImageCreateInfo uint_image_info(VkImageType type, VkExtent3D extent, uint32_t mips, uint32_t layers,
                                  VkImageCreateFlags flags = 0) {
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = flags;
  info.imageType = type;
  info.format = VK_FORMAT_R8G8B8A8_UINT;
  info.extent = extent;
  info.mipLevels = mips;
  info.arrayLayers = layers;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return info;
}

TEST_F(BufferImageTest, BuffersOfEveryUsageAndSize) {
  const VkBufferUsageFlags usages[] = {
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT,         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
      VK_BUFFER_USAGE_INDEX_BUFFER_BIT,         VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
      VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT};
  for (const VkBufferUsageFlags usage : usages)
    for (const VkDeviceSize size : {VkDeviceSize(1), VkDeviceSize(4096), VkDeviceSize(1) << 20}) {
      Buffer buffer = device().create_buffer(size, usage, 0x3C);
      ASSERT_NE(VK_NULL_HANDLE, buffer.buffer) << "usage " << usage << " size " << size;
      ASSERT_NE(nullptr, buffer.mapped);
      EXPECT_EQ(0x3C, buffer.mapped[size - 1]);
    }
}

TEST_F(BufferImageTest, UniformTexelBufferViewOfR32Uint) {
  VkFormatProperties format;
  vkGetPhysicalDeviceFormatProperties(physical_device(), VK_FORMAT_R32_UINT, &format);
  const bool supported = format.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
  expect_requirement(supported, "R32_UINT uniform texel buffers", is_kiln());  // required by the spec
  if (!supported) return;
  const VkDeviceSize alignment = properties().limits.minTexelBufferOffsetAlignment;
  Buffer buffer = device().create_buffer(alignment + 1024, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  VkBufferViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  info.buffer = buffer.buffer;
  info.format = VK_FORMAT_R32_UINT;
  for (const auto& [offset, range] : {std::pair<VkDeviceSize, VkDeviceSize>{0, 256},
                                      {alignment, 1024},
                                      {alignment, VK_WHOLE_SIZE}}) {
    info.offset = offset;
    info.range = range;
    VkBufferView view = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateBufferView(device().handle(), &info, nullptr, &view))
        << "offset " << offset << " range " << range;
    EXPECT_NE(VK_NULL_HANDLE, view);
    vkDestroyBufferView(device().handle(), view, nullptr);
  }
}

// Storage: every (mip, layer) of every image type holds its own texels.

TEST_F(BufferImageTest, Image1DWithMipsAndLayers) {
  const VkImageCreateInfo info = uint_image_info(VK_IMAGE_TYPE_1D, {64, 1, 1}, 7, 3);
  ASSERT_TRUE(image_supported(physical_device(), info));
  clear_and_verify_every_subresource(device(), device().create_image(info));
}

TEST_F(BufferImageTest, Image2DWithMipsAndLayers) {
  const VkImageCreateInfo info = uint_image_info(VK_IMAGE_TYPE_2D, {32, 12, 1}, 6, 4);  // 32x12 … 1x1
  ASSERT_TRUE(image_supported(physical_device(), info));
  clear_and_verify_every_subresource(device(), device().create_image(info));
}

TEST_F(BufferImageTest, Image3DWithMips) {
  const VkImageCreateInfo info = uint_image_info(VK_IMAGE_TYPE_3D, {16, 8, 6}, 4, 1);
  ASSERT_TRUE(image_supported(physical_device(), info));
  clear_and_verify_every_subresource(device(), device().create_image(info));
}

TEST_F(BufferImageTest, CubeCompatible2DArrays) {
  for (const uint32_t layers : {6u, 12u}) {  // one cube, two cubes
    const VkImageCreateInfo info =
        uint_image_info(VK_IMAGE_TYPE_2D, {16, 16, 1}, 5, layers, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
    ASSERT_TRUE(image_supported(physical_device(), info)) << layers << " layers";
    clear_and_verify_every_subresource(device(), device().create_image(info));
  }
}

// Views of every type over sampled images (cube arrays only with the imageCubeArray feature).
TEST_F(BufferImageTest, ImageViewsOfEveryType) {
  const bool cube_arrays = features().core.features.imageCubeArray;
  VkPhysicalDeviceFeatures2 enabled{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enabled.features.imageCubeArray = cube_arrays;
  DeviceOptions options;
  options.create_info_chain = &enabled;
  TestDevice* device = create_device(options);
  ASSERT_NE(nullptr, device);
  auto sampled = [](VkImageCreateInfo info) {
    info.usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
    return info;
  };
  const VkImageCreateInfo one_d = sampled(uint_image_info(VK_IMAGE_TYPE_1D, {64, 1, 1}, 7, 3));
  const VkImageCreateInfo two_d = sampled(uint_image_info(VK_IMAGE_TYPE_2D, {32, 12, 1}, 6, 4));
  const VkImageCreateInfo three_d = sampled(uint_image_info(VK_IMAGE_TYPE_3D, {16, 8, 6}, 4, 1));
  const VkImageCreateInfo cube =
      sampled(uint_image_info(VK_IMAGE_TYPE_2D, {16, 16, 1}, 5, 12, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT));
  bool all_supported = true;
  for (const VkImageCreateInfo* info : {&one_d, &two_d, &three_d, &cube})
    all_supported = all_supported && image_supported(physical_device(), *info);
  expect_requirement(all_supported, "image views", is_kiln());
  if (!all_supported) return;  // nothing to view (a known gap on Kiln, a failure elsewhere)

  const Image image_1d = device->create_image(one_d);
  expect_view(*device, image_1d, VK_IMAGE_VIEW_TYPE_1D, 2, 1, 1, 1);
  expect_view(*device, image_1d, VK_IMAGE_VIEW_TYPE_1D_ARRAY, 0, 7, 0, 3);
  const Image image_2d = device->create_image(two_d);
  expect_view(*device, image_2d, VK_IMAGE_VIEW_TYPE_2D, 0, 6, 3, 1);
  expect_view(*device, image_2d, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 1, 2, 1, 3);
  const Image image_3d = device->create_image(three_d);
  expect_view(*device, image_3d, VK_IMAGE_VIEW_TYPE_3D, 0, 4, 0, 1);
  const Image image_cube = device->create_image(cube);
  expect_view(*device, image_cube, VK_IMAGE_VIEW_TYPE_CUBE, 0, 5, 6, 6);
  expect_view(*device, image_cube, VK_IMAGE_VIEW_TYPE_2D, 0, 1, 4, 1);  // one face as a 2D view
  expect_view(*device, image_cube, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 0, 5, 0, 12);
  if (cube_arrays) expect_view(*device, image_cube, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, 0, 5, 0, 12);
}

// A linear image written through its mapping at the offsets vkGetImageSubresourceLayout reports
// must read back (through a device copy) exactly as written.
TEST_F(BufferImageTest, LinearImageSubresourceLayout) {
  const uint32_t width = 13, height = 7;  // odd sizes make padding visible
  VkImageCreateInfo info = uint_image_info(VK_IMAGE_TYPE_2D, {width, height, 1}, 1, 1);
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.tiling = VK_IMAGE_TILING_LINEAR;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  info.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
  REQUIRE_ON_KILN(image_supported(physical_device(), info), "linear R8G8B8A8_UNORM transfer-source images");
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  Image image = device().create_image(info, host);
  ASSERT_NE(VK_NULL_HANDLE, image.image);

  const VkImageSubresource subresource{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
  VkSubresourceLayout layout;
  vkGetImageSubresourceLayout(device().handle(), image.image, &subresource, &layout);
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device().handle(), image.image, &requirements);
  EXPECT_GE(layout.rowPitch, VkDeviceSize(width) * 4);
  EXPECT_GE(layout.size, layout.rowPitch * (height - 1) + width * 4);
  EXPECT_LE(layout.offset + layout.size, requirements.size);
  EXPECT_EQ(0u, layout.offset % 4) << "texels must be aligned to their size";

  uint8_t* mapped = nullptr;
  ASSERT_EQ(VK_SUCCESS, vkMapMemory(device().handle(), image.memory, 0, VK_WHOLE_SIZE, 0,
                                    reinterpret_cast<void**>(&mapped)));
  std::memset(mapped, 0xEE, requirements.size);  // padding gets a value that must not show up
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* texel = mapped + layout.offset + y * layout.rowPitch + x * 4;
      texel[0] = static_cast<uint8_t>(x);
      texel[1] = static_cast<uint8_t>(y);
      texel[2] = static_cast<uint8_t>(x * y);
      texel[3] = 0x80;
    }
  vkUnmapMemory(device().handle(), image.memory);

  device().run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_PREINITIALIZED,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  const std::vector<uint8_t> texels =
      device().read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  ASSERT_EQ(size_t(width) * height * 4, texels.size());
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const uint8_t* texel = &texels[(y * width + x) * 4];
      const uint8_t expected[4] = {static_cast<uint8_t>(x), static_cast<uint8_t>(y), static_cast<uint8_t>(x * y), 0x80};
      ASSERT_EQ(0, std::memcmp(expected, texel, 4)) << "texel (" << x << ", " << y << ")";
    }
}

}  // namespace
}  // namespace kiln::test
