// Storage images and texel buffers in compute shaders: imageLoad/imageStore/imageSize of several
// formats and texel-buffer fetches/stores/atomics, compared with a host reference built with
// memory/format_pack, and out-of-bounds accesses under robustImageAccess (reads zero, writes
// dropped). Pixels come back through vkCmdCopyImageToBuffer.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"
#include "memory/format_pack.h"
#include "memory/format_table.h"

namespace kiln::test {
namespace {

struct ImageCase {
  const char* shader;
  VkFormat format;
};

class ComputeImageTest : public VulkanTest {
 protected:
  // Copies a 16x8 image of `c.format` with shader `c.shader` (storage_image_body.glsl): texel
  // (x, y) to (W-1-x, y) with its components reversed, compared with format_pack's reference;
  // checks imageSize and the robust out-of-bounds reads.
  void run_storage_image_case(TestDevice& device, const ImageCase& c);

  // A device with robustImageAccess (and maintenance4 for glslang's LocalSizeId), and with
  // `without_format` storage images read and written without a format in the shader.
  TestDevice& robust_device(bool without_format = false) {
    v13_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    v13_.maintenance4 = features().v13.maintenance4;
    v13_.robustImageAccess = VK_TRUE;
    enabled_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13_};
    enabled_.features.robustBufferAccess = features().core.features.robustBufferAccess;  // texel buffers
    enabled_.features.shaderStorageImageReadWithoutFormat = without_format;
    enabled_.features.shaderStorageImageWriteWithoutFormat = without_format;
    DeviceOptions options;
    // texelBufferAlignment: texel buffer views at the offsets VkPhysicalDeviceTexelBufferAlignmentProperties
    // allows (TexelBuffersFetchStoreAtomicsAndStayInRange).
    VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT};
    if (query_extension_features(physical_device(), VK_EXT_TEXEL_BUFFER_ALIGNMENT_EXTENSION_NAME, supported) &&
        supported.texelBufferAlignment) {
      texel_alignment_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT};
      texel_alignment_.texelBufferAlignment = VK_TRUE;
      v13_.pNext = &texel_alignment_;
      options.extensions.push_back(VK_EXT_TEXEL_BUFFER_ALIGNMENT_EXTENSION_NAME);
    }
    options.create_info_chain = &enabled_;
    return *create_device(options);
  }
  VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT texel_alignment_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT};

  // One binding of each type (e2e/descriptor_pipeline.h's make_set).
  VkDescriptorSet make_set(TestDevice& device, const std::vector<VkDescriptorType>& types, VkDescriptorSetLayout* layout) {
    std::vector<DescriptorBinding> bindings;
    for (VkDescriptorType type : types) bindings.push_back({type});
    return kiln::test::make_set(device, bindings, layout);
  }

  VkImageView make_view(TestDevice& device, const Image& image) {
    VkImageViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = image.image;
    info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    info.format = image.info.format;
    info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &info, nullptr, &view));
    VkDevice d = device.handle();
    device.defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
    return view;
  }

  VkBufferView make_buffer_view(TestDevice& device, const Buffer& buffer, VkFormat format, VkDeviceSize range,
                                VkDeviceSize offset = 0) {
    VkBufferViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    info.buffer = buffer.buffer;
    info.format = format;
    info.offset = offset;
    info.range = range;
    VkBufferView view = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateBufferView(device.handle(), &info, nullptr, &view));
    VkDevice d = device.handle();
    device.defer_destroy([d, view] { vkDestroyBufferView(d, view, nullptr); });
    return view;
  }

  void write_texel_buffer(TestDevice& device, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkBufferView view) {
    VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.dstBinding = binding;
    w.descriptorCount = 1;
    w.descriptorType = type;
    w.pTexelBufferView = &view;
    vkUpdateDescriptorSets(device.handle(), 1, &w, 0, nullptr);
  }

  VkPhysicalDeviceVulkan13Features v13_{};
  VkPhysicalDeviceFeatures2 enabled_{};
};

// Source texel values that survive a round trip through the format exactly.
VkClearColorValue source_value(VkFormat format, std::mt19937& rng) {
  VkClearColorValue v{};
  const fmt::ValueClass cls = fmt::value_class(format, VK_IMAGE_ASPECT_COLOR_BIT);
  for (int c = 0; c < 4; ++c) {
    if (cls == fmt::ValueClass::UInt) v.uint32[c] = rng() % 200000u;
    else if (cls == fmt::ValueClass::SInt) v.int32[c] = static_cast<int32_t>(rng() % 256) - 128;
    else v.float32[c] = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 1000.0f;
  }
  if (format == VK_FORMAT_R8G8B8A8_UNORM || format == VK_FORMAT_A8B8G8R8_UNORM_PACK32)
    for (float& f : v.float32) f = f < 0 ? -f : f;
  // The test stores components reversed, so each must survive every channel of the format
  // exactly (the rounding of stores is checked by the texel-buffer tests): for
  // A2B10G10R10_UINT, R lands in the 2-bit A (the spec leaves unrepresentable integers
  // undefined); for B10G11R11, G's 6-bit mantissa lands in B's 5 bits (and the spec lets a
  // driver round either way), so values have at most 5 mantissa bits.
  if (format == VK_FORMAT_A2B10G10R10_UINT_PACK32)
    for (uint32_t& u : v.uint32) u %= 4;
  if (format == VK_FORMAT_B10G11R11_UFLOAT_PACK32)
    for (float& f : v.float32) f = std::ldexp(static_cast<float>(32 + rng() % 32), -static_cast<int>(rng() % 12) - 5);
  return v;
}

void ComputeImageTest::run_storage_image_case(TestDevice& device, const ImageCase& c) {
  constexpr uint32_t kWidth = 16, kHeight = 8;
  const uint32_t texel = texel_size(c.format);
  const VkImageUsageFlags usage =
      VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  const Image src = device.create_image(VK_IMAGE_TYPE_2D, c.format, {kWidth, kHeight, 1}, 1, 1, 0, usage);
  const Image dst = device.create_image(VK_IMAGE_TYPE_2D, c.format, {kWidth, kHeight, 1}, 1, 1, 0, usage);
  // Source texels packed on the host; the destination starts as a known pattern.
  std::mt19937 rng(7);
  std::vector<uint8_t> source(kWidth * kHeight * texel), background(kWidth * kHeight * texel, 0x5C);
  std::vector<VkClearColorValue> values(kWidth * kHeight);
  for (uint32_t i = 0; i < kWidth * kHeight; ++i) {
    values[i] = source_value(c.format, rng);
    ASSERT_TRUE(fmt::pack_color(c.format, values[i], source.data() + i * texel));
  }
  Buffer upload = device.create_buffer(source.size() * 2, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  memcpy(upload.mapped, source.data(), source.size());
  memcpy(upload.mapped + source.size(), background.data(), background.size());
  Buffer results = device.create_buffer(16 + kWidth * kHeight * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);

  VkDescriptorSetLayout layout;
  VkDescriptorSet set = make_set(device, {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                          VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, &layout);
  const VkDescriptorImageInfo images[2] = {{VK_NULL_HANDLE, make_view(device, src), VK_IMAGE_LAYOUT_GENERAL},
                                           {VK_NULL_HANDLE, make_view(device, dst), VK_IMAGE_LAYOUT_GENERAL}};
  for (uint32_t b = 0; b < 2; ++b) {
    VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.dstBinding = b;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    w.pImageInfo = &images[b];
    vkUpdateDescriptorSets(device.handle(), 1, &w, 0, nullptr);
  }
  write_buffers(device.handle(), set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  SetsPipeline pipeline(device, c.shader, {layout});

  device.run_commands([&](VkCommandBuffer cmd) {
    for (const Image* image : {&src, &dst}) {
      transition(cmd, image->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      VkBufferImageCopy region{};
      region.bufferOffset = image == &src ? 0 : source.size();
      region.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
      region.imageExtent = {kWidth, kHeight, 1};
      vkCmdCopyBufferToImage(cmd, upload.buffer, image->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
      transition(cmd, image->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_GENERAL);
    }
    // 4x4 workgroups cover the image exactly.
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cmd, kWidth / 4, kHeight / 4, 1);
    shader_writes_to_host_barrier(cmd);
    transition(cmd, dst.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  const std::vector<uint8_t> written =
      device.read_image(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  ASSERT_EQ(written.size(), source.size());
  // Reference: texel (x, y) lands at (W-1-x, y) with its components reversed, re-packed.
  for (uint32_t y = 0; y < kHeight; ++y) {
    for (uint32_t x = 0; x < kWidth; ++x) {
      VkClearColorValue read{};
      ASSERT_TRUE(fmt::unpack_color(c.format, source.data() + (y * kWidth + x) * texel, &read));
      VkClearColorValue reversed{};
      for (int k = 0; k < 4; ++k) reversed.uint32[k] = read.uint32[3 - k];
      std::vector<uint8_t> expected(texel);
      ASSERT_TRUE(fmt::pack_color(c.format, reversed, expected.data()));
      const uint8_t* got = written.data() + (y * kWidth + (kWidth - 1 - x)) * texel;
      ASSERT_EQ(0, memcmp(got, expected.data(), texel)) << "texel (" << x << ", " << y << ")";
    }
  }
  const int32_t* size = reinterpret_cast<const int32_t*>(results.mapped);
  EXPECT_EQ(size[0], int32_t(kWidth));
  EXPECT_EQ(size[1], int32_t(kHeight));
  EXPECT_EQ(size[2], int32_t(kWidth));
  EXPECT_EQ(size[3], int32_t(kHeight));
  // Reads below the image: zero, alpha 0 or 1 (robustImageAccess).
  const fmt::ValueClass cls = fmt::value_class(c.format, VK_IMAGE_ASPECT_COLOR_BIT);
  const uint32_t one = cls == fmt::ValueClass::Float ? 0x3F800000u : 1u;
  const uint32_t* oob = reinterpret_cast<const uint32_t*>(results.mapped + 16);
  for (uint32_t i = 0; i < kWidth * kHeight; ++i) {
    EXPECT_EQ(oob[i * 4 + 0], 0u) << i;
    EXPECT_EQ(oob[i * 4 + 1], 0u) << i;
    EXPECT_EQ(oob[i * 4 + 2], 0u) << i;
    EXPECT_TRUE(oob[i * 4 + 3] == 0u || oob[i * 4 + 3] == one) << i;
  }
}

TEST_F(ComputeImageTest, StorageImagesLoadStoreAndSizeInEveryTestedFormat) {
  TestDevice& device = robust_device();
  for (const ImageCase& c : {ImageCase{"storage_image_rgba8.comp", VK_FORMAT_R8G8B8A8_UNORM},
                             ImageCase{"storage_image_rgba16f.comp", VK_FORMAT_R16G16B16A16_SFLOAT},
                             ImageCase{"storage_image_rgba32ui.comp", VK_FORMAT_R32G32B32A32_UINT},
                             ImageCase{"storage_image_rgba8i.comp", VK_FORMAT_R8G8B8A8_SINT},
                             ImageCase{"storage_image_rgba8_snorm.comp", VK_FORMAT_R8G8B8A8_SNORM},
                             // R8G8B8A8's layout under another name, read and written through
                             // the R8G8B8A8 SPIR-V formats.
                             ImageCase{"storage_image_rgba8.comp", VK_FORMAT_A8B8G8R8_UNORM_PACK32},
                             ImageCase{"storage_image_rgba8_snorm.comp", VK_FORMAT_A8B8G8R8_SNORM_PACK32},
                             ImageCase{"storage_image_rgba8ui.comp", VK_FORMAT_A8B8G8R8_UINT_PACK32},
                             ImageCase{"storage_image_rgba8i.comp", VK_FORMAT_A8B8G8R8_SINT_PACK32},
                             // Packed words.
                             ImageCase{"storage_image_rgb10_a2.comp", VK_FORMAT_A2B10G10R10_UNORM_PACK32},
                             ImageCase{"storage_image_rgb10_a2ui.comp", VK_FORMAT_A2B10G10R10_UINT_PACK32},
                             ImageCase{"storage_image_r11f_g11f_b10f.comp", VK_FORMAT_B10G11R11_UFLOAT_PACK32}}) {
    SCOPED_TRACE(c.shader);
    run_storage_image_case(device, c);
  }
}

// The same copy with images declared without a format: one kernel serves every view format of
// its class, picked per lane from the view (shaderStorageImage{Read,Write}WithoutFormat).
TEST_F(ComputeImageTest, StorageImagesWithoutFormatReadAndWriteTheViewsFormat) {
  if (!features().core.features.shaderStorageImageReadWithoutFormat ||
      !features().core.features.shaderStorageImageWriteWithoutFormat) {
    EXPECT_FALSE(is_kiln()) << "Kiln reads and writes storage images without a format";
    GTEST_SKIP() << "shaderStorageImage{Read,Write}WithoutFormat";
  }
  TestDevice& device = robust_device(/*without_format=*/true);
  for (const ImageCase& c : {ImageCase{"storage_image_unformatted.comp", VK_FORMAT_R8G8B8A8_UNORM},
                             ImageCase{"storage_image_unformatted.comp", VK_FORMAT_R16G16B16A16_SFLOAT},
                             ImageCase{"storage_image_unformatted.comp", VK_FORMAT_R8G8B8A8_SNORM},
                             ImageCase{"storage_image_unformatted.comp", VK_FORMAT_A2B10G10R10_UNORM_PACK32},
                             ImageCase{"storage_image_unformatted.comp", VK_FORMAT_B10G11R11_UFLOAT_PACK32},
                             ImageCase{"storage_image_unformatted.comp", VK_FORMAT_B8G8R8A8_UNORM},
                             ImageCase{"storage_image_unformatted_uint.comp", VK_FORMAT_R32G32B32A32_UINT},
                             ImageCase{"storage_image_unformatted_uint.comp", VK_FORMAT_A8B8G8R8_UINT_PACK32}}) {
    SCOPED_TRACE(std::string(c.shader) + " as " + std::to_string(c.format));
    run_storage_image_case(device, c);
  }
}

// The views start one texel into their buffers: with uniform/storageTexelBufferOffsetSingleTexelAlignment
// a texel's size is alignment enough (Kiln reads texel buffers with unaligned loads).
TEST_F(ComputeImageTest, TexelBuffersFetchStoreAtomicsAndStayInRange) {
  TestDevice& device = robust_device();
  constexpr uint32_t kCount = 64;
  VkPhysicalDeviceVulkan13Properties p13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p13};
  vkGetPhysicalDeviceProperties2(physical_device(), &props);
  if (is_kiln()) EXPECT_TRUE(p13.uniformTexelBufferOffsetSingleTexelAlignment && p13.storageTexelBufferOffsetSingleTexelAlignment);
  // One texel where that is allowed, else the alignment in bytes.
  auto offset = [](VkBool32 single, VkDeviceSize bytes, VkDeviceSize texel) { return single ? std::min(bytes, texel) : bytes; };
  const VkDeviceSize src_at = offset(p13.uniformTexelBufferOffsetSingleTexelAlignment, p13.uniformTexelBufferOffsetAlignmentBytes, 4);
  const VkDeviceSize dst_at = offset(p13.storageTexelBufferOffsetSingleTexelAlignment, p13.storageTexelBufferOffsetAlignmentBytes, 16);
  const VkDeviceSize counters_at = offset(p13.storageTexelBufferOffsetSingleTexelAlignment, p13.storageTexelBufferOffsetAlignmentBytes, 4);
  // Uniform texel buffer: RGBA8 UNORM texels; storage texel buffer: RGBA32F; counters: R32_UINT.
  Buffer src = device.create_buffer(src_at + kCount * 4 + 64, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  Buffer dst = device.create_buffer(dst_at + kCount * 16 + 256, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, 0x5C);
  Buffer counters = device.create_buffer(counters_at + 16 + 64, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, 0);
  Buffer results = device.create_buffer(16 + kCount * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  for (uint32_t i = 0; i < src.size; ++i) src.mapped[i] = static_cast<uint8_t>(i * 37 + 11);

  VkDescriptorSetLayout layout;
  VkDescriptorSet set = make_set(device, {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                          VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                 &layout);
  const VkBufferView views[3] = {make_buffer_view(device, src, VK_FORMAT_R8G8B8A8_UNORM, kCount * 4, src_at),
                                 make_buffer_view(device, dst, VK_FORMAT_R32G32B32A32_SFLOAT, kCount * 16, dst_at),
                                 make_buffer_view(device, counters, VK_FORMAT_R32_UINT, 16, counters_at)};
  for (uint32_t b = 0; b < 3; ++b) {
    VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.dstBinding = b;
    w.descriptorCount = 1;
    w.descriptorType = b == 0 ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    w.pTexelBufferView = &views[b];
    vkUpdateDescriptorSets(device.handle(), 1, &w, 0, nullptr);
  }
  write_buffers(device.handle(), set, 3, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  SetsPipeline pipeline(device, "texel_buffers.comp", {layout});
  device.run_commands([&](VkCommandBuffer cmd) {
    pipeline.record_dispatch(cmd, {set}, kCount / 8);
    shader_writes_to_host_barrier(cmd);
  });

  const float* out = reinterpret_cast<const float*>(dst.mapped + dst_at);
  for (uint32_t i = 0; i < kCount; ++i)
    for (uint32_t c = 0; c < 4; ++c)
      // UNORM → float may differ from x / 255 in the last bit (the spec's conversion precision).
      ASSERT_NEAR(out[i * 4 + c], 2.0f * fmt::unorm_to_float(src.mapped[src_at + i * 4 + c], 8), 5e-7f) << "texel " << i << "." << c;
  for (uint32_t byte = 0; byte < dst.size; ++byte)
    if (byte < dst_at || byte >= dst_at + kCount * 16) ASSERT_EQ(dst.mapped[byte], 0x5C) << "byte " << byte;
  const uint32_t* count = reinterpret_cast<const uint32_t*>(counters.mapped + counters_at);
  uint32_t expected[4] = {};
  for (uint32_t i = 0; i < kCount; ++i) expected[i % 4] += i;
  for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(count[k], expected[k]) << "counter " << k;
  for (uint32_t k = 4; k < 20; ++k) EXPECT_EQ(count[k], 0u) << "word " << k << " past the view";
  for (uint32_t byte = 0; byte < counters_at; ++byte) EXPECT_EQ(counters.mapped[byte], 0) << "byte " << byte << " before the view";
  const int32_t* sizes = reinterpret_cast<const int32_t*>(results.mapped);
  EXPECT_EQ(sizes[0], int32_t(kCount));
  EXPECT_EQ(sizes[1], int32_t(kCount));
  EXPECT_EQ(sizes[2], 4);
  const float* oob = reinterpret_cast<const float*>(results.mapped + 16);
  for (uint32_t i = 0; i < kCount; ++i)
    for (uint32_t c = 0; c < 3; ++c) EXPECT_EQ(oob[i * 4 + c], 0.0f) << "fetch past the end, lane " << i;
}

// --- Packed and swizzled texel-buffer formats -------------------------------------------------

// 32-bit texels of `format` in which every component takes every one of its codes at least once
// (component k of texel i is code (i * (2k + 1) + 17k) mod 2^bits, a permutation of the codes for
// each component): 0, the maximum, the most negative SNORM code, and for B10G11R11 the zero,
// denormal, largest finite, infinity and NaN codes of each channel.
std::vector<uint32_t> every_code_texels(VkFormat format) {
  const fmt::FormatInfo* info = fmt::format_info(format);
  uint32_t widest = 0;
  for (uint32_t k = 0; k < info->component_count; ++k) widest = std::max<uint32_t>(widest, info->components[k].bits);
  std::vector<uint32_t> texels(1u << widest);
  for (uint32_t i = 0; i < texels.size(); ++i) {
    uint32_t texel = 0, offset = 0;
    for (uint32_t k = 0; k < info->component_count; ++k) {
      const uint32_t bits = info->components[k].bits;
      texel |= ((i * (2 * k + 1) + 17 * k) & ((1u << bits) - 1)) << offset;
      offset += bits;
    }
    texels[i] = texel;
  }
  return texels;
}

// A 32-bit value a shader produced against the reference: bit-exact on Kiln (the conversions are
// format_pack's); on other drivers floats may differ by the spec's conversion precision (2 ULP).
// NaN matches any NaN.
bool same_value(fmt::ValueClass cls, uint32_t expected, uint32_t got, bool exact) {
  if (cls != fmt::ValueClass::Float || expected == got) return expected == got;
  float e, g;
  std::memcpy(&e, &expected, 4);
  std::memcpy(&g, &got, 4);
  if (std::isnan(e)) return std::isnan(g);
  if (exact) return false;
  return std::fabs(e - g) <= 2.0f * std::nextafter(std::fabs(e), std::numeric_limits<float>::infinity()) - 2.0f * std::fabs(e);
}

const char* fetch_shader(fmt::ValueClass cls) {
  return cls == fmt::ValueClass::UInt ? "texel_fetch_uint.comp" : cls == fmt::ValueClass::SInt ? "texel_fetch_int.comp"
                                                                                               : "texel_fetch_float.comp";
}

TEST_F(ComputeImageTest, UniformTexelBuffersFetchPackedAndSwizzledFormatsLikeTheCpuReference) {
  TestDevice& device = robust_device();
  const bool exact = is_kiln();
  for (VkFormat format : {VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_A8B8G8R8_SNORM_PACK32, VK_FORMAT_A8B8G8R8_UINT_PACK32,
                          VK_FORMAT_A8B8G8R8_SINT_PACK32, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_A2B10G10R10_UNORM_PACK32,
                          VK_FORMAT_A2B10G10R10_UINT_PACK32, VK_FORMAT_B10G11R11_UFLOAT_PACK32,
                          // Optional ones Kiln supports too.
                          VK_FORMAT_B8G8R8A8_SNORM, VK_FORMAT_B8G8R8A8_UINT, VK_FORMAT_B8G8R8A8_SINT,
                          VK_FORMAT_A2B10G10R10_SNORM_PACK32, VK_FORMAT_A2B10G10R10_SINT_PACK32}) {
    SCOPED_TRACE(fmt::format_info(format)->name);
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(physical_device(), format, &properties);
    if (!(properties.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT)) {
      // The optional formats may be missing on other drivers (lavapipe lacks A2B10G10R10_SINT).
      if (is_kiln()) ADD_FAILURE() << "no UNIFORM_TEXEL_BUFFER";
      continue;
    }
    const std::vector<uint32_t> texels = every_code_texels(format);
    const uint32_t count = static_cast<uint32_t>(texels.size());
    Buffer src = device.create_buffer(count * 4, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
    std::memcpy(src.mapped, texels.data(), count * 4);
    Buffer out = device.create_buffer(count * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
    VkDescriptorSetLayout layout;
    VkDescriptorSet set = make_set(device, {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, &layout);
    write_texel_buffer(device, set, 0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, make_buffer_view(device, src, format, count * 4));
    write_buffers(device.handle(), set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{out.buffer, 0, VK_WHOLE_SIZE}});
    const fmt::ValueClass cls = fmt::value_class(format, VK_IMAGE_ASPECT_COLOR_BIT);
    SetsPipeline pipeline(device, fetch_shader(cls), {layout});
    device.run_commands([&](VkCommandBuffer cmd) {
      pipeline.record_dispatch(cmd, {set}, count / 64);
      shader_writes_to_host_barrier(cmd);
    });
    const uint32_t* got = reinterpret_cast<const uint32_t*>(out.mapped);
    uint32_t mismatches = 0;
    for (uint32_t i = 0; i < count && mismatches < 8; ++i) {
      VkClearColorValue expected{};
      ASSERT_TRUE(fmt::unpack_color(format, &texels[i], &expected));
      for (uint32_t c = 0; c < 4; ++c) {
        if (same_value(cls, expected.uint32[c], got[i * 4 + c], exact)) continue;
        ADD_FAILURE() << "texel " << i << " (0x" << std::hex << texels[i] << ") component " << std::dec << c << ": expected 0x"
                      << std::hex << expected.uint32[c] << " (" << expected.float32[c] << "), got 0x" << got[i * 4 + c]
                      << " (" << reinterpret_cast<const float*>(got)[i * 4 + c] << ")";
        ++mismatches;
      }
    }
  }
}

// Values for storage texel-buffer stores of `format` that hit the conversions' edges: for
// normalized formats 0, ±1, out of range (clamped), NaN (0), ±infinity, exact halves (ties to
// even) and floats whose product with 255 or 127 rounds to a half in single precision but not
// exactly (the exact product decides); for B10G11R11 zero, negatives (0), the largest finite
// value and the ties around it (to infinity), infinities, NaN, the normal/denormal boundary,
// the smallest denormals and mantissa ties; for integer formats values beyond the component
// width (truncated). The rest are random.
std::vector<VkClearColorValue> store_values(VkFormat format, uint32_t count) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> floats = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 0.5f, -0.5f, std::nanf(""), inf, -inf,
                               0x1.010102p-9f, 0x1.414142p-7f, 0x1.83060cp-7f, 0x1.22448ap-5f, 1.0f / 255, 254.5f / 255,
                               -1.5f / 127, 0.25f, 1e-30f, 1.0f / 1023, 1.5f / 1023, 2.5f / 1023};
  const bool ufloat = format == VK_FORMAT_B10G11R11_UFLOAT_PACK32;
  if (ufloat)
    floats = {0.0f, -0.0f, -1.0f, 1.0f, 65024.0f, 65025.0f, 65279.0f, 65280.0f, 65536.0f, 64512.0f, 64768.0f, 1e10f,
              inf, -inf, std::nanf(""), -std::nanf(""), 0x1p-14f, 0x1.fcp-15f, 0x1p-15f, 0x1p-20f, 0x1p-21f, 0x1.8p-21f,
              0x1p-25f, 0x1p-149f, 1.0f + 0x1p-7f, 1.0f + 3 * 0x1p-7f, 1.0f + 0x1p-6f, 1.0f + 3 * 0x1p-6f, 0.1f, 3.14159f};
  const std::vector<uint32_t> ints = {0, 1, 3, 4, 127, 128, 255, 256, 511, 512, 1023, 1024, 0xFFFFFFFFu, 0x80000000u,
                                      0x7FFFFFFFu, 383, 0xFFFFFF80u, 0xFFFFFE00u};
  const fmt::ValueClass cls = fmt::value_class(format, VK_IMAGE_ASPECT_COLOR_BIT);
  std::vector<VkClearColorValue> values(count);
  std::mt19937 rng(11);
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t c = 0; c < 4; ++c) {
      const uint32_t pick = i * 4 + c;
      if (cls == fmt::ValueClass::Float) {
        const float random = ufloat ? std::ldexp(static_cast<float>(rng() % 4096), static_cast<int>(rng() % 40) - 30)
                                    : static_cast<float>(static_cast<int>(rng() % 2400) - 1200) / 1000.0f;
        values[i].float32[c] = pick < floats.size() * 4 ? floats[(pick + c) % floats.size()] : random;
      } else {
        values[i].uint32[c] = pick < ints.size() * 4 ? ints[(pick + c) % ints.size()] : static_cast<uint32_t>(rng());
      }
    }
  return values;
}

// Whether the spec defines what storing `value` into component `c` writes (other drivers are only
// held to defined results): NaN into a normalized format and integers the component cannot hold
// are undefined (Kiln writes format_pack's 0 and truncation; lavapipe saturates).
bool defined_store(const fmt::Component& c, const VkClearColorValue& value, uint32_t channel) {
  switch (c.kind) {
    case fmt::NumericKind::UNorm:
    case fmt::NumericKind::SNorm: return !std::isnan(value.float32[channel]);
    case fmt::NumericKind::UInt: return value.uint32[channel] < (1ull << c.bits);
    case fmt::NumericKind::SInt: {
      const int64_t limit = int64_t{1} << (c.bits - 1);
      return value.int32[channel] >= -limit && value.int32[channel] < limit;
    }
    default: return true;
  }
}

TEST_F(ComputeImageTest, StorageTexelBuffersStoreAndLoadPackedFormatsLikeTheCpuReference) {
  TestDevice& device = robust_device();
  const bool exact = is_kiln();
  struct Case {
    VkFormat format;
    const char* shader;
  };
  for (const Case& c : {Case{VK_FORMAT_A8B8G8R8_UNORM_PACK32, "texel_store_rgba8.comp"},
                        Case{VK_FORMAT_A8B8G8R8_SNORM_PACK32, "texel_store_rgba8_snorm.comp"},
                        Case{VK_FORMAT_A8B8G8R8_UINT_PACK32, "texel_store_rgba8ui.comp"},
                        Case{VK_FORMAT_A8B8G8R8_SINT_PACK32, "texel_store_rgba8i.comp"},
                        Case{VK_FORMAT_A2B10G10R10_UNORM_PACK32, "texel_store_rgb10_a2.comp"},
                        Case{VK_FORMAT_A2B10G10R10_UINT_PACK32, "texel_store_rgb10_a2ui.comp"},
                        Case{VK_FORMAT_B10G11R11_UFLOAT_PACK32, "texel_store_r11f_g11f_b10f.comp"}}) {
    SCOPED_TRACE(c.shader);
    const fmt::FormatInfo& info = *fmt::format_info(c.format);
    const fmt::ValueClass cls = fmt::value_class(c.format, VK_IMAGE_ASPECT_COLOR_BIT);
    const std::vector<uint32_t> texels = every_code_texels(c.format);  // loaded through the view
    const uint32_t count = static_cast<uint32_t>(texels.size());
    const std::vector<VkClearColorValue> values = store_values(c.format, count);
    Buffer dst = device.create_buffer(count * 4, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, 0x5C);
    Buffer src = device.create_buffer(count * 4, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
    std::memcpy(src.mapped, texels.data(), count * 4);
    Buffer in = device.create_buffer(count * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memcpy(in.mapped, values.data(), count * 16);
    Buffer loaded = device.create_buffer(count * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
    VkDescriptorSetLayout layout;
    VkDescriptorSet set = make_set(device, {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                            VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                   &layout);
    write_texel_buffer(device, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, make_buffer_view(device, dst, c.format, count * 4));
    write_texel_buffer(device, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, make_buffer_view(device, src, c.format, count * 4));
    write_buffers(device.handle(), set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{in.buffer, 0, VK_WHOLE_SIZE}});
    write_buffers(device.handle(), set, 3, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{loaded.buffer, 0, VK_WHOLE_SIZE}});
    SetsPipeline pipeline(device, c.shader, {layout});
    device.run_commands([&](VkCommandBuffer cmd) {
      pipeline.record_dispatch(cmd, {set}, count / 64);
      shader_writes_to_host_barrier(cmd);
    });
    uint32_t mismatches = 0;
    for (uint32_t i = 0; i < count && mismatches < 8; ++i) {
      uint32_t expected = 0, got = 0;
      ASSERT_TRUE(fmt::pack_color(c.format, values[i], &expected));
      std::memcpy(&got, dst.mapped + i * 4, 4);
      uint32_t offset = 0;
      for (uint32_t k = 0; k < info.component_count; offset += info.components[k].bits, ++k) {
        const fmt::Component& component = info.components[k];
        const uint32_t channel = static_cast<uint32_t>(component.channel);
        const uint32_t mask = (1u << component.bits) - 1;
        const int64_t e = (expected >> offset) & mask, g = (got >> offset) & mask;
        // Other drivers: the spec lets normalized and small-float conversions pick either
        // neighbour of a value between two codes (and a float overflow the largest finite value
        // instead of infinity, the next code).
        const bool float_kind = component.kind != fmt::NumericKind::UInt && component.kind != fmt::NumericKind::SInt;
        const bool most_negative_snorm = component.kind == fmt::NumericKind::SNorm && (e == (mask + 1) / 2 || g == (mask + 1) / 2);
        if (e == g || (!exact && !defined_store(component, values[i], channel)) ||
            (!exact && float_kind && std::abs(e - g) == 1 && !most_negative_snorm))
          continue;
        ADD_FAILURE() << "stored texel " << i << " channel " << channel << ": value 0x" << std::hex << values[i].uint32[channel]
                      << " (" << values[i].float32[channel] << ") expected code 0x" << e << ", got 0x" << g;
        ++mismatches;
      }
      VkClearColorValue reference{};
      ASSERT_TRUE(fmt::unpack_color(c.format, &texels[i], &reference));
      const uint32_t* fetched = reinterpret_cast<const uint32_t*>(loaded.mapped) + i * 4;
      for (uint32_t k = 0; k < 4; ++k) {
        if (same_value(cls, reference.uint32[k], fetched[k], exact)) continue;
        ADD_FAILURE() << "loaded texel " << i << " (0x" << std::hex << texels[i] << ") component " << k << ": expected 0x"
                      << reference.uint32[k] << ", got 0x" << fetched[k];
        ++mismatches;
      }
    }
  }
}

}  // namespace
}  // namespace kiln::test
