// The texel layouts the shader conversions use (compiler/shader_image_formats.h for storage
// images and texel buffers, compiler/vertex_formats.h for vertex fetch) against the format
// table (memory/format_table), which format_pack and every copy follow: for every format either
// list names, each channel's bit field, its width and numeric class, and the texel size agree.
#include <gtest/gtest.h>

#include "compiler/shader_image_formats.h"
#include "compiler/vertex_formats.h"
#include "memory/format_table.h"

namespace kiln {
namespace {

fmt::NumericKind kind_of(abi::Numeric n) {
  switch (n) {
    case abi::Numeric::Unorm: return fmt::NumericKind::UNorm;
    case abi::Numeric::Snorm: return fmt::NumericKind::SNorm;
    case abi::Numeric::Uint: return fmt::NumericKind::UInt;
    case abi::Numeric::Sint: return fmt::NumericKind::SInt;
    case abi::Numeric::Float: return fmt::NumericKind::SFloat;
    case abi::Numeric::Uscaled: return fmt::NumericKind::UScaled;
    case abi::Numeric::Sscaled: return fmt::NumericKind::SScaled;
    case abi::Numeric::Ufloat: return fmt::NumericKind::UFloat;
  }
  return fmt::NumericKind::None;
}

// Checks the channel fields of `format` as (layout, bits, components, numeric) describe them.
void expect_matches_table(VkFormat format, abi::TexelLayout layout, uint32_t bits, uint32_t components,
                          abi::Numeric numeric, uint32_t bytes) {
  const fmt::FormatInfo* info = fmt::format_info(format);
  ASSERT_NE(info, nullptr) << format;
  SCOPED_TRACE(info->name);
  EXPECT_EQ(bytes, info->block_bytes);
  uint32_t present = 0;
  uint32_t offset = 0;  // bit offset of each table component in the texel
  for (uint32_t i = 0; i < info->component_count; ++i) {
    const fmt::Component& t = info->components[i];
    const uint32_t c = static_cast<uint32_t>(t.channel);
    if (t.channel != fmt::Channel::X) {
      ++present;
      ASSERT_LT(c, 4u);
      const abi::ChannelField field = abi::channel_field(layout, bits, c);
      const uint32_t unit = abi::unit_bits(layout, bits);
      EXPECT_EQ(field.byte * 8 + field.shift, offset) << "channel " << c;
      EXPECT_EQ(field.bits, t.bits) << "channel " << c;
      EXPECT_LE(field.shift + field.bits, unit) << "channel " << c;
      EXPECT_EQ(kind_of(numeric), t.kind) << "channel " << c;
    }
    offset += t.bits;
  }
  EXPECT_EQ(components, present);
}

TEST(ShaderTexelLayout, StorageAndTexelBufferFormatsMatchTheFormatTable) {
  for (const abi::TexelFormat& f : abi::kTexelFormats)
    expect_matches_table(f.vk, f.layout, f.bits, f.components, f.numeric, f.bytes());
}

TEST(ShaderTexelLayout, VertexFormatsMatchTheFormatTable) {
  for (const abi::VertexFormat& f : abi::kVertexFormats)
    expect_matches_table(f.vk, f.layout, f.bits, f.components, f.numeric, f.bytes());
}

TEST(ShaderTexelLayout, PackedFieldsAreTheSpecsBitPositions) {
  // A2B10G10R10: R 0-9, G 10-19, B 20-29, A 30-31; B10G11R11: R 0-10, G 11-21, B 22-31.
  EXPECT_EQ(abi::channel_field(abi::TexelLayout::A2B10G10R10, 32, 3).shift, 30u);
  EXPECT_EQ(abi::channel_field(abi::TexelLayout::A2B10G10R10, 32, 3).bits, 2u);
  EXPECT_EQ(abi::channel_field(abi::TexelLayout::B10G11R11, 32, 2).shift, 22u);
  EXPECT_EQ(abi::channel_field(abi::TexelLayout::B10G11R11, 32, 2).bits, 10u);
  // A2R10G10B10: B 0-9, G 10-19, R 20-29, A 30-31.
  EXPECT_EQ(abi::channel_field(abi::TexelLayout::A2R10G10B10, 32, 0).shift, 20u);
  EXPECT_EQ(abi::channel_field(abi::TexelLayout::A2R10G10B10, 32, 2).shift, 0u);
  EXPECT_EQ(abi::channel_field(abi::TexelLayout::A2R10G10B10, 32, 3).shift, 30u);
  // B8G8R8A8: R is the third byte.
  EXPECT_EQ(abi::channel_field(abi::TexelLayout::Bgra, 8, 0).byte, 2u);
}

}  // namespace
}  // namespace kiln
