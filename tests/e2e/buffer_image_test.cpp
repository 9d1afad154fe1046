// Buffers, buffer views and images of every type: the memory requirements of buffers, what a
// compute shader sees through texel buffer views and image views of every type, proof that each
// subresource has its own storage (cleared to a distinct value and read back), plus linear-tiling
// subresource layouts.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "e2e/conformance_gaps.h"
#include "e2e/descriptor_pipeline.h"
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

// A view of `image` of `type` over (base_mip, mips, base_layer, layers), destroyed with the device.
VkImageView make_view(TestDevice& device, const Image& image, VkImageViewType type, uint32_t base_mip, uint32_t mips,
                      uint32_t base_layer, uint32_t layers) {
  VkImageViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.image = image.image;
  info.viewType = type;
  info.format = image.info.format;
  info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, base_mip, mips, base_layer, layers};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &info, nullptr, &view)) << "view type " << type;
  EXPECT_NE(VK_NULL_HANDLE, view);
  VkDevice d = device.handle();
  device.defer_destroy([=] { vkDestroyImageView(d, view, nullptr); });
  return view;
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

// Buffers of every usage, of 1 byte to 1 MiB, get the memory requirements the spec guarantees
// ("Resource Memory Association"): a host-visible coherent and a device-local type among their
// memory types, never a lazily allocated one, the same types and alignment for every size of one
// usage and no more types for more usages, and an alignment that meets the usage's descriptor
// offset alignment.
TEST_F(BufferImageTest, BuffersOfEveryUsageAndSize) {
  const VkBufferUsageFlags usages[] = {
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT,         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
      VK_BUFFER_USAGE_INDEX_BUFFER_BIT,         VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
      VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT};
  const VkPhysicalDeviceLimits& limits = properties().limits;
  auto descriptor_alignment = [&](VkBufferUsageFlags usage) {
    if (usage & (VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT))
      return limits.minTexelBufferOffsetAlignment;
    if (usage & VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT) return limits.minUniformBufferOffsetAlignment;
    if (usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) return limits.minStorageBufferOffsetAlignment;
    return VkDeviceSize{1};
  };
  auto requirements_of = [&](const Buffer& buffer) {
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device().handle(), buffer.buffer, &requirements);
    return requirements;
  };
  VkBufferUsageFlags every_usage = 0;
  for (const VkBufferUsageFlags usage : usages) every_usage |= usage;
  const uint32_t every_usage_types = requirements_of(device().create_buffer(4096, every_usage)).memoryTypeBits;
  const VkPhysicalDeviceMemoryProperties& memory = device().memory_properties();
  for (const VkBufferUsageFlags usage : usages) {
    VkMemoryRequirements first{};
    for (const VkDeviceSize size : {VkDeviceSize(1), VkDeviceSize(4096), VkDeviceSize(1) << 20}) {
      const VkMemoryRequirements requirements = requirements_of(device().create_buffer(size, usage));
      SCOPED_TRACE("usage " + std::to_string(usage) + ", size " + std::to_string(size));
      expect_valid_requirements(requirements, size);
      const uint32_t types = requirements.memoryTypeBits;
      EXPECT_NE(UINT32_MAX, device().find_memory_type(types, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT));
      EXPECT_NE(UINT32_MAX, device().find_memory_type(types, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT));
      for (uint32_t t = 0; t < memory.memoryTypeCount; ++t)
        if (types & (1u << t)) EXPECT_FALSE(memory.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT);
      EXPECT_EQ(0u, requirements.alignment % descriptor_alignment(usage)) << "alignment " << requirements.alignment;
      EXPECT_EQ(0u, every_usage_types & ~types) << "a buffer with more usages may not take more memory types";
      if (first.memoryTypeBits == 0) first = requirements;
      EXPECT_EQ(first.memoryTypeBits, types) << "memory types differ between sizes";
      EXPECT_EQ(first.alignment, requirements.alignment) << "alignment differs between sizes";
    }
  }
}

// Uniform texel buffer views of R32_UINT (the spec requires the format) with a range and with
// VK_WHOLE_SIZE: a shader sees each view's texel count (VK_WHOLE_SIZE leaves out the bytes after
// the last whole texel) and its first and last texels where the view's offset puts them.
TEST_F(BufferImageTest, UniformTexelBufferViewOfR32Uint) {
  VkFormatProperties format;
  vkGetPhysicalDeviceFormatProperties(physical_device(), VK_FORMAT_R32_UINT, &format);
  const bool supported = format.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
  expect_requirement(supported, "R32_UINT uniform texel buffers", is_kiln());  // required by the spec
  if (!supported) return;
  // A whole texel (a multiple of the offset alignment, a power of two) and, at the end, two bytes
  // past the last whole texel.
  const VkDeviceSize offset = std::max<VkDeviceSize>(properties().limits.minTexelBufferOffsetAlignment, 4);
  Buffer buffer = device().create_buffer(offset + 1026, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  constexpr uint32_t kMark = 0xA0000;  // word i holds kMark + i
  for (uint32_t i = 0; i < buffer.size / 4; ++i) reinterpret_cast<uint32_t*>(buffer.mapped)[i] = kMark + i;
  struct ViewCase {
    VkDeviceSize offset, range;
    uint32_t texels;
  };
  const ViewCase cases[3] = {{0, 256, 64}, {offset, 1024, 256}, {offset, VK_WHOLE_SIZE, 256}};
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = make_set(device(), {{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER}, {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER},
                                            {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}},
                                 &layout);
  VkBufferViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  info.buffer = buffer.buffer;
  info.format = VK_FORMAT_R32_UINT;
  for (uint32_t k = 0; k < 3; ++k) {
    info.offset = cases[k].offset;
    info.range = cases[k].range;
    VkBufferView view = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkCreateBufferView(device().handle(), &info, nullptr, &view))
        << "offset " << info.offset << " range " << info.range;
    VkDevice d = device().handle();
    device().defer_destroy([=] { vkDestroyBufferView(d, view, nullptr); });
    write_texel_buffers(device(), set, k, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, {view});
  }
  Buffer results = device().create_buffer(9 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  write_buffers(device().handle(), set, 3, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  SetsPipeline pipeline(device(), "texel_buffer_views.comp", {layout});
  device().run_commands([&](VkCommandBuffer cmd) {
    pipeline.record_dispatch(cmd, {set}, 1);
    shader_writes_to_host_barrier(cmd);
  });
  const auto* got = reinterpret_cast<const uint32_t*>(results.mapped);
  for (uint32_t k = 0; k < 3; ++k) {
    const uint32_t first = kMark + static_cast<uint32_t>(cases[k].offset / 4);
    EXPECT_EQ(cases[k].texels, got[3 * k]) << "texels in view " << k;
    EXPECT_EQ(first, got[3 * k + 1]) << "first texel of view " << k;
    EXPECT_EQ(first + cases[k].texels - 1, got[3 * k + 2]) << "last texel of view " << k;
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

// Views of every type over sampled images whose subresources each hold their own value (cube
// arrays only with the imageCubeArray feature): through each view a shader sees the levels and
// layers of the view's range, counted from its first level and layer, and the view's size and
// level count.
TEST_F(BufferImageTest, ImageViewsOfEveryType) {
  const bool cube_arrays = features().core.features.imageCubeArray;
  DeviceFeatures enabled;
  enabled.core.features.imageCubeArray = cube_arrays;
  TestDevice* device = create_device(enabled);
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

  std::vector<Image> images;
  for (const VkImageCreateInfo* info : {&one_d, &two_d, &three_d, &cube}) {
    images.push_back(device->create_image(*info));
    clear_and_verify_every_subresource(*device, images.back());
    device->run_commands([&](VkCommandBuffer cmd) {
      transition(cmd, images.back().image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    });
  }
  const Image &image_1d = images[0], &image_2d = images[1], &image_3d = images[2], &image_cube = images[3];
  // Integer texels: nearest filtering only.
  VkSamplerCreateInfo sampler_info{.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sampler_info.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateSampler(device->handle(), &sampler_info, nullptr, &sampler));
  VkDevice d = device->handle();
  device->defer_destroy([=] { vkDestroySampler(d, sampler, nullptr); });

  // Each view, what image_view_types.comp reads through it (level and layer within the view) and
  // the subresource of the image that is: image_view_types.comp's comments.
  struct ViewCase {
    const char* what;
    VkImageView view;
    uint32_t mip, layer;                          // of the image, read through the view
    std::array<uint32_t, 4> size_and_levels;      // textureSize at level 0 (0 for missing axes), levels
  };
  const ViewCase cases[] = {
      {"1D, level 2, layer 1", make_view(*device, image_1d, VK_IMAGE_VIEW_TYPE_1D, 2, 1, 1, 1), 2, 1, {16, 0, 0, 1}},
      {"1D array", make_view(*device, image_1d, VK_IMAGE_VIEW_TYPE_1D_ARRAY, 0, 7, 0, 3), 3, 2, {64, 3, 0, 7}},
      {"2D, layer 3", make_view(*device, image_2d, VK_IMAGE_VIEW_TYPE_2D, 0, 6, 3, 1), 1, 3, {32, 12, 0, 6}},
      {"2D array, levels 1-2, layers 1-3", make_view(*device, image_2d, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 1, 2, 1, 3), 2, 3,
       {16, 6, 3, 2}},
      {"3D", make_view(*device, image_3d, VK_IMAGE_VIEW_TYPE_3D, 0, 4, 0, 1), 2, 0, {16, 8, 6, 4}},
      {"cube, layers 6-11", make_view(*device, image_cube, VK_IMAGE_VIEW_TYPE_CUBE, 0, 5, 6, 6), 2, 9, {16, 16, 0, 5}},
      {"2D view of cube face 4", make_view(*device, image_cube, VK_IMAGE_VIEW_TYPE_2D, 0, 1, 4, 1), 0, 4, {16, 16, 0, 1}},
      {"2D array of a cube image", make_view(*device, image_cube, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 0, 5, 0, 12), 4, 11,
       {16, 16, 12, 5}},
  };
  auto check = [&](const char* shader, const std::vector<ViewCase>& views) {
    std::vector<DescriptorBinding> bindings(views.size(), {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
    bindings.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    VkDescriptorSet set = make_set(*device, bindings, &layout);
    for (uint32_t v = 0; v < views.size(); ++v)
      write_images(*device, set, v, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                   {{sampler, views[v].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}});
    Buffer results = device->create_buffer(views.size() * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
    write_buffers(d, set, static_cast<uint32_t>(views.size()), 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                  {{results.buffer, 0, VK_WHOLE_SIZE}});
    SetsPipeline pipeline(*device, shader, {layout});
    device->run_commands([&](VkCommandBuffer cmd) {
      pipeline.record_dispatch(cmd, {set}, 1);
      shader_writes_to_host_barrier(cmd);
    });
    for (uint32_t v = 0; v < views.size(); ++v) {
      std::array<uint32_t, 4> texel, size_and_levels;
      std::memcpy(texel.data(), results.mapped + 32 * v, 16);
      std::memcpy(size_and_levels.data(), results.mapped + 32 * v + 16, 16);
      const VkClearColorValue want = subresource_color(views[v].mip, views[v].layer);
      EXPECT_EQ((std::array<uint32_t, 4>{want.uint32[0], want.uint32[1], want.uint32[2], want.uint32[3]}), texel)
          << views[v].what << ": texel of image level " << views[v].mip << ", layer " << views[v].layer;
      EXPECT_EQ(views[v].size_and_levels, size_and_levels) << views[v].what << ": size and level count";
    }
  };
  check("image_view_types.comp", std::vector<ViewCase>(std::begin(cases), std::end(cases)));
  if (cube_arrays)
    check("image_view_cube_array.comp",
          {{"cube array", make_view(*device, image_cube, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, 0, 5, 0, 12), 3, 10, {16, 16, 2, 5}}});
}

// A linear image of three levels and two layers written through its mapping at the offsets
// vkGetImageSubresourceLayout reports must read back (through device copies) exactly as written,
// every subresource with its own values.
TEST_F(BufferImageTest, LinearImageSubresourceLayout) {
  constexpr uint32_t width = 13, height = 7, levels = 3, layers = 2;  // odd sizes make padding visible
  VkImageCreateInfo info = uint_image_info(VK_IMAGE_TYPE_2D, {width, height, 1}, levels, layers);
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.tiling = VK_IMAGE_TILING_LINEAR;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  info.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
  REQUIRE_ON_KILN(image_supported(physical_device(), info), "linear R8G8B8A8_UNORM images with levels and layers");
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  Image image = device().create_image(info, host);
  ASSERT_NE(VK_NULL_HANDLE, image.image);
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device().handle(), image.image, &requirements);
  uint8_t* mapped = nullptr;
  ASSERT_EQ(VK_SUCCESS, vkMapMemory(device().handle(), image.memory, 0, VK_WHOLE_SIZE, 0,
                                    reinterpret_cast<void**>(&mapped)));
  std::memset(mapped, 0xEE, requirements.size);  // padding gets a value that must not show up
  auto value = [](uint32_t x, uint32_t y, uint32_t level, uint32_t layer) {
    return std::array<uint8_t, 4>{static_cast<uint8_t>(x), static_cast<uint8_t>(y), static_cast<uint8_t>(x * y),
                                  static_cast<uint8_t>(0x80 + level * 16 + layer)};
  };
  bool fits[levels][layers] = {};
  for (uint32_t level = 0; level < levels; ++level)
    for (uint32_t layer = 0; layer < layers; ++layer) {
      const VkImageSubresource subresource{VK_IMAGE_ASPECT_COLOR_BIT, level, layer};
      VkSubresourceLayout layout;
      vkGetImageSubresourceLayout(device().handle(), image.image, &subresource, &layout);
      const uint32_t w = std::max(1u, width >> level), h = std::max(1u, height >> level);
      EXPECT_GE(layout.rowPitch, VkDeviceSize(w) * 4);
      EXPECT_GE(layout.size, layout.rowPitch * (h - 1) + w * 4);
      // Mesa 22.3's lavapipe reports levels past 0 beyond the memory it asks for: those are
      // neither written nor checked there.
      fits[level][layer] = layout.offset + layout.size <= requirements.size;
      if (is_kiln()) EXPECT_TRUE(fits[level][layer]) << "level " << level << " layer " << layer << " outside the memory";
      if (!fits[level][layer]) continue;
      EXPECT_EQ(0u, layout.offset % 4) << "texels must be aligned to their size";
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
          std::memcpy(mapped + layout.offset + y * layout.rowPitch + x * 4, value(x, y, level, layer).data(), 4);
    }
  vkUnmapMemory(device().handle(), image.memory);

  device().run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_PREINITIALIZED,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  for (uint32_t level = 0; level < levels; ++level)
    for (uint32_t layer = 0; layer < layers; ++layer) {
      if (!fits[level][layer]) continue;
      const uint32_t w = std::max(1u, width >> level), h = std::max(1u, height >> level);
      const std::vector<uint8_t> texels =
          device().read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, level, layer, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      ASSERT_EQ(size_t(w) * h * 4, texels.size());
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
          ASSERT_EQ(0, std::memcmp(value(x, y, level, layer).data(), &texels[(y * w + x) * 4], 4))
              << "level " << level << " layer " << layer << " texel (" << x << ", " << y << ")";
    }
}

}  // namespace
}  // namespace kiln::test
