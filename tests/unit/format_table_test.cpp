// The generated format table: known layouts from the spec's "Formats" chapter, coverage of the
// core formats, and internal consistency of every entry.
#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <string>

#include "memory/format_table.h"

namespace kiln::fmt {
namespace {

const FormatInfo& info_of(VkFormat format) {
  const FormatInfo* info = format_info(format);
  EXPECT_NE(info, nullptr) << "format " << format << " missing from the table";
  static const FormatInfo kEmpty{};
  return info != nullptr ? *info : kEmpty;
}

void expect_component(const FormatInfo& info, int index, Channel channel, int bits, NumericKind kind) {
  ASSERT_LT(index, info.component_count) << info.name;
  const Component& c = info.components[index];
  EXPECT_EQ(c.channel, channel) << info.name << " component " << index;
  EXPECT_EQ(c.bits, bits) << info.name << " component " << index;
  EXPECT_EQ(c.kind, kind) << info.name << " component " << index;
}

TEST(FormatTable, R8G8B8A8UnormIsFourBytesInMemoryOrder) {
  const FormatInfo& info = info_of(VK_FORMAT_R8G8B8A8_UNORM);
  EXPECT_STREQ(info.name, "VK_FORMAT_R8G8B8A8_UNORM");
  EXPECT_EQ(info.block_bytes, 4u);
  EXPECT_EQ(info.packed_bits, 0);
  EXPECT_EQ(info.component_count, 4);
  expect_component(info, 0, Channel::R, 8, NumericKind::UNorm);
  expect_component(info, 1, Channel::G, 8, NumericKind::UNorm);
  expect_component(info, 2, Channel::B, 8, NumericKind::UNorm);
  expect_component(info, 3, Channel::A, 8, NumericKind::UNorm);
  EXPECT_EQ(info.aspects, VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT));
  EXPECT_FALSE(info.is_compressed());
  EXPECT_FALSE(info.has_depth());
  EXPECT_FALSE(info.has_stencil());
  EXPECT_EQ(info.block_width, 1);
  EXPECT_EQ(info.block_height, 1);
  EXPECT_EQ(info.block_depth, 1);
}

TEST(FormatTable, PackedFormatsListComponentsFromTheLeastSignificantBit) {
  // A2B10G10R10: R in bits 0..9, G 10..19, B 20..29, A 30..31.
  const FormatInfo& a2b10 = info_of(VK_FORMAT_A2B10G10R10_UNORM_PACK32);
  EXPECT_EQ(a2b10.packed_bits, 32);
  expect_component(a2b10, 0, Channel::R, 10, NumericKind::UNorm);
  expect_component(a2b10, 1, Channel::G, 10, NumericKind::UNorm);
  expect_component(a2b10, 2, Channel::B, 10, NumericKind::UNorm);
  expect_component(a2b10, 3, Channel::A, 2, NumericKind::UNorm);

  const FormatInfo& r5g6b5 = info_of(VK_FORMAT_R5G6B5_UNORM_PACK16);
  EXPECT_EQ(r5g6b5.packed_bits, 16);
  expect_component(r5g6b5, 0, Channel::B, 5, NumericKind::UNorm);
  expect_component(r5g6b5, 1, Channel::G, 6, NumericKind::UNorm);
  expect_component(r5g6b5, 2, Channel::R, 5, NumericKind::UNorm);

  const FormatInfo& r4g4 = info_of(VK_FORMAT_R4G4_UNORM_PACK8);
  EXPECT_EQ(r4g4.packed_bits, 8);
  expect_component(r4g4, 0, Channel::G, 4, NumericKind::UNorm);
  expect_component(r4g4, 1, Channel::R, 4, NumericKind::UNorm);

  // Non-packed formats keep byte order = name order.
  const FormatInfo& bgra = info_of(VK_FORMAT_B8G8R8A8_SRGB);
  EXPECT_EQ(bgra.packed_bits, 0);
  expect_component(bgra, 0, Channel::B, 8, NumericKind::SRGB);
  expect_component(bgra, 3, Channel::A, 8, NumericKind::UNorm);  // sRGB alpha is linear
}

// vk.xml 1.3.239 gets these wrong; the table must follow the spec (see KNOWN_REGISTRY_ERRATA).
TEST(FormatTable, FollowsTheSpecWhereTheRegistryIsWrong) {
  // B5G5R5A1: B in bits 11..15, G 6..10, R 1..5, A 0.
  const FormatInfo& b5g5r5a1 = info_of(VK_FORMAT_B5G5R5A1_UNORM_PACK16);
  expect_component(b5g5r5a1, 0, Channel::A, 1, NumericKind::UNorm);
  expect_component(b5g5r5a1, 1, Channel::R, 5, NumericKind::UNorm);
  expect_component(b5g5r5a1, 2, Channel::G, 5, NumericKind::UNorm);
  expect_component(b5g5r5a1, 3, Channel::B, 5, NumericKind::UNorm);
  // B10G11R11: R 11 bits at 0..10, G 11 bits at 11..21, B 10 bits at 22..31.
  const FormatInfo& b10g11r11 = info_of(VK_FORMAT_B10G11R11_UFLOAT_PACK32);
  expect_component(b10g11r11, 0, Channel::R, 11, NumericKind::UFloat);
  expect_component(b10g11r11, 1, Channel::G, 11, NumericKind::UFloat);
  expect_component(b10g11r11, 2, Channel::B, 10, NumericKind::UFloat);
  expect_component(info_of(VK_FORMAT_R64G64_SFLOAT), 1, Channel::G, 64, NumericKind::SFloat);
  expect_component(info_of(VK_FORMAT_BC4_SNORM_BLOCK), 0, Channel::R, 0, NumericKind::SNorm);
  expect_component(info_of(VK_FORMAT_BC5_SNORM_BLOCK), 1, Channel::G, 0, NumericKind::SNorm);
}

TEST(FormatTable, SharedExponentAndPaddingFormats) {
  const FormatInfo& e5 = info_of(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32);
  EXPECT_EQ(e5.component_count, 3);  // the exponent is not a component
  expect_component(e5, 0, Channel::R, 9, NumericKind::UFloat);
  expect_component(e5, 1, Channel::G, 9, NumericKind::UFloat);
  expect_component(e5, 2, Channel::B, 9, NumericKind::UFloat);

  const FormatInfo& r10x6g10x6 = info_of(VK_FORMAT_R10X6G10X6_UNORM_2PACK16);
  EXPECT_EQ(r10x6g10x6.block_bytes, 4u);
  EXPECT_EQ(r10x6g10x6.packed_bits, 16);
  expect_component(r10x6g10x6, 0, Channel::X, 6, NumericKind::None);
  expect_component(r10x6g10x6, 1, Channel::R, 10, NumericKind::UNorm);
  expect_component(r10x6g10x6, 2, Channel::X, 6, NumericKind::None);
  expect_component(r10x6g10x6, 3, Channel::G, 10, NumericKind::UNorm);
}

TEST(FormatTable, CompressedBlocks) {
  const FormatInfo& bc1 = info_of(VK_FORMAT_BC1_RGB_UNORM_BLOCK);
  EXPECT_TRUE(bc1.is_compressed());
  EXPECT_STREQ(bc1.compression, "BC");
  EXPECT_EQ(bc1.block_bytes, 8u);
  EXPECT_EQ(bc1.block_width, 4);
  EXPECT_EQ(bc1.block_height, 4);
  EXPECT_EQ(bc1.block_depth, 1);
  EXPECT_EQ(bc1.component_count, 3);

  const FormatInfo& bc7 = info_of(VK_FORMAT_BC7_SRGB_BLOCK);
  EXPECT_EQ(bc7.block_bytes, 16u);
  expect_component(bc7, 0, Channel::R, 0, NumericKind::SRGB);
  expect_component(bc7, 3, Channel::A, 0, NumericKind::UNorm);

  const FormatInfo& astc = info_of(VK_FORMAT_ASTC_12x12_UNORM_BLOCK);
  EXPECT_STREQ(astc.compression, "ASTC LDR");
  EXPECT_EQ(astc.block_bytes, 16u);
  EXPECT_EQ(astc.block_width, 12);
  EXPECT_EQ(astc.block_height, 12);
  EXPECT_EQ(astc.block_depth, 1);

  const FormatInfo& astc_5x4 = info_of(VK_FORMAT_ASTC_5x4_SRGB_BLOCK);
  EXPECT_EQ(astc_5x4.block_width, 5);
  EXPECT_EQ(astc_5x4.block_height, 4);

  EXPECT_STREQ(info_of(VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK).compression, "ASTC HDR");
  EXPECT_STREQ(info_of(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK).compression, "ETC2");
  const FormatInfo& eac = info_of(VK_FORMAT_EAC_R11G11_SNORM_BLOCK);
  EXPECT_STREQ(eac.compression, "EAC");
  EXPECT_EQ(eac.block_bytes, 16u);
  expect_component(eac, 1, Channel::G, 11, NumericKind::SNorm);
}

TEST(FormatTable, DepthStencilFormats) {
  const FormatInfo& d24s8 = info_of(VK_FORMAT_D24_UNORM_S8_UINT);
  EXPECT_EQ(d24s8.aspects, VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT));
  EXPECT_TRUE(d24s8.has_depth());
  EXPECT_TRUE(d24s8.has_stencil());
  expect_component(d24s8, 0, Channel::D, 24, NumericKind::UNorm);
  expect_component(d24s8, 1, Channel::S, 8, NumericKind::UInt);

  const FormatInfo& x8d24 = info_of(VK_FORMAT_X8_D24_UNORM_PACK32);
  EXPECT_EQ(x8d24.aspects, VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT));
  expect_component(x8d24, 0, Channel::D, 24, NumericKind::UNorm);
  expect_component(x8d24, 1, Channel::X, 8, NumericKind::None);

  const FormatInfo& s8 = info_of(VK_FORMAT_S8_UINT);
  EXPECT_FALSE(s8.has_depth());
  EXPECT_TRUE(s8.has_stencil());
  EXPECT_EQ(info_of(VK_FORMAT_D32_SFLOAT_S8_UINT).block_bytes, 5u);
  EXPECT_EQ(info_of(VK_FORMAT_D16_UNORM_S8_UINT).block_bytes, 3u);
}

TEST(FormatTable, AspectTexelBytes) {
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT), 2u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D16_UNORM_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT), 2u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D16_UNORM_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT), 1u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_X8_D24_UNORM_PACK32, VK_IMAGE_ASPECT_DEPTH_BIT), 4u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT), 4u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT), 1u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT), 4u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT), 4u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT), 1u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT), 1u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_R32G32B32_SFLOAT, VK_IMAGE_ASPECT_COLOR_BIT), 12u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_ASPECT_COLOR_BIT), 8u);
  // Aspects the format does not have.
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT), 0u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_STENCIL_BIT), 0u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_COLOR_BIT), 0u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_R8_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT), 0u);
  EXPECT_EQ(aspect_texel_bytes(VK_FORMAT_UNDEFINED, VK_IMAGE_ASPECT_COLOR_BIT), 0u);
}

TEST(FormatTable, ContainsEveryCoreFormatExceptYcbcr) {
  // Vulkan 1.0: every value from R4G4_UNORM_PACK8 (1) to ASTC_12x12_SRGB_BLOCK (184).
  for (int value = VK_FORMAT_R4G4_UNORM_PACK8; value <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; ++value) {
    const FormatInfo* info = format_info(static_cast<VkFormat>(value));
    ASSERT_NE(info, nullptr) << "VkFormat " << value;
    EXPECT_EQ(info->format, value);
    EXPECT_EQ(std::string(info->name).rfind("VK_FORMAT_", 0), 0u) << info->name;
  }
  // Promoted to core in 1.1 (single-plane) and 1.3.
  for (VkFormat f : {VK_FORMAT_R10X6_UNORM_PACK16, VK_FORMAT_R12X4G12X4_UNORM_2PACK16,
                     VK_FORMAT_A4R4G4B4_UNORM_PACK16, VK_FORMAT_A4B4G4R4_UNORM_PACK16,
                     VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, VK_FORMAT_ASTC_12x12_SFLOAT_BLOCK})
    EXPECT_NE(format_info(f), nullptr) << "VkFormat " << f;
  // Not in the table: undefined, YCbCr / multi-planar, extension-only formats.
  for (VkFormat f : {VK_FORMAT_UNDEFINED, VK_FORMAT_G8B8G8R8_422_UNORM, VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM,
                     VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16, VK_FORMAT_G16_B16R16_2PLANE_444_UNORM,
                     VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG, VK_FORMAT_R16G16_S10_5_NV, static_cast<VkFormat>(185)})
    EXPECT_EQ(format_info(f), nullptr) << "VkFormat " << f;
}

TEST(FormatTable, EveryEntryIsConsistent) {
  const FormatInfo* previous = nullptr;
  size_t count = 0;
  for (const FormatInfo* info = format_table_begin(); info != format_table_end(); ++info, ++count) {
    SCOPED_TRACE(info->name);
    EXPECT_EQ(format_info(info->format), info);
    if (previous != nullptr) {
      EXPECT_LT(previous->format, info->format);
    }
    previous = info;
    EXPECT_GE(info->component_count, 1);
    EXPECT_LE(info->component_count, 4);
    EXPECT_TRUE(info->packed_bits == 0 || info->packed_bits == 8 || info->packed_bits == 16 || info->packed_bits == 32);
    EXPECT_NE(info->aspects, 0u);
    if (info->is_compressed()) {
      EXPECT_GT(info->block_width * info->block_height, 1);
      EXPECT_TRUE(info->block_bytes == 8 || info->block_bytes == 16);
      continue;
    }
    EXPECT_EQ(info->block_width * info->block_height * info->block_depth, 1);
    // Components (padding included) cover the texel exactly; E5B9G9R9's exponent is the exception.
    uint32_t bits = 0;
    for (int i = 0; i < info->component_count; ++i) bits += info->components[i].bits;
    const uint32_t exponent_bits = info->format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32 ? 5 : 0;
    EXPECT_EQ(bits + exponent_bits, info->block_bytes * 8);
    if (info->packed_bits != 0) {
      EXPECT_EQ(info->block_bytes * 8 % info->packed_bits, 0u);
    }
  }
  EXPECT_EQ(count, 184u + 4u + 2u + 14u);  // 1.0 + single-plane 1.1 + 4444 + ASTC HDR formats
}

}  // namespace
}  // namespace kiln::fmt
