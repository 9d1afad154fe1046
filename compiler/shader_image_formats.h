#pragma once
// The formats shader code reads and writes as storage images and texel buffers, converted inline
// by compiler/translate_image.cpp, and where each channel sits in a texel (shared with the vertex
// fetch of compiler/vertex_formats.h). The ICD reports storage and texel-buffer format features
// for exactly these (icd/format_support.cpp). Plain C++ like kernel_abi.h, so icd/ can include it.
#include <spirv/unified1/spirv.hpp11>
#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace kiln::abi {

// Uscaled/Sscaled (integers read as floats) occur only in vertex formats (vertex_formats.h).
// Ufloat: the unsigned 11- and 10-bit floats of B10G11R11 (5-bit exponent, no sign).
enum class Numeric { Unorm, Snorm, Uint, Sint, Float, Uscaled, Sscaled, Ufloat };

// How a texel's channels are laid out in memory.
enum class TexelLayout : uint8_t {
  Plain,        // components in R, G, B, A order, `bits` each
  Bgra,         // 8-bit components in memory order B, G, R, A
  A2B10G10R10,  // one 32-bit word: R bits 0-9, G 10-19, B 20-29, A 30-31
  A2R10G10B10,  // one 32-bit word: B bits 0-9, G 10-19, R 20-29, A 30-31
  B10G11R11,    // one 32-bit word: R bits 0-10, G 11-21, B 22-31
};

inline constexpr bool packed_layout(TexelLayout layout) {
  return layout == TexelLayout::A2B10G10R10 || layout == TexelLayout::A2R10G10B10 || layout == TexelLayout::B10G11R11;
}

// Where channel c (0 = R .. 3 = A) of a texel is: bits [shift, shift + bits) of the little-endian
// integer of unit_bits(layout, bits) bits at byte `byte` of the texel. `bits` is the format's
// component width (Plain, Bgra); packed layouts fix their own fields in one 32-bit word.
struct ChannelField {
  uint32_t byte;
  uint32_t shift;
  uint32_t bits;
};

inline constexpr uint32_t unit_bits(TexelLayout layout, uint32_t bits) { return packed_layout(layout) ? 32 : bits; }

inline constexpr ChannelField channel_field(TexelLayout layout, uint32_t bits, uint32_t c) {
  switch (layout) {
    case TexelLayout::Plain: return {c * bits / 8, 0, bits};
    case TexelLayout::Bgra: return {c == 3 ? 3 : 2 - c, 0, 8};
    case TexelLayout::A2B10G10R10: return {0, 10 * c, c == 3 ? 2u : 10u};
    case TexelLayout::A2R10G10B10: return {0, c == 3 ? 30u : 20 - 10 * c, c == 3 ? 2u : 10u};
    case TexelLayout::B10G11R11: return {0, 11 * c, c == 2 ? 10u : 11u};
  }
  return {};
}

struct TexelFormat {
  VkFormat vk;
  spv::ImageFormat spv;  // Unknown: no SPIR-V format names it (reachable through Unknown only)
  uint32_t components;   // channels present (the rest read 0, 0, 1)
  uint32_t bits;         // per component; 32 (the word) for packed layouts
  Numeric numeric;
  TexelLayout layout = TexelLayout::Plain;
  // Loads and stores as a storage image or storage texel buffer; false: only fetched from uniform
  // texel buffers. Formats without a SPIR-V format are reached through shaders without a format
  // (shaderStorageImage{Read,Write}WithoutFormat).
  bool storage = true;
  uint32_t bytes() const { return packed_layout(layout) ? 4 : components * bits / 8; }
  bool integer() const { return numeric == Numeric::Uint || numeric == Numeric::Sint; }
  // Formats with the same shape share generated code.
  bool same_code(const TexelFormat& o) const {
    return components == o.components && bits == o.bits && numeric == o.numeric && layout == o.layout;
  }
};

inline constexpr TexelFormat kTexelFormats[] = {
    {VK_FORMAT_R32G32B32A32_SFLOAT, spv::ImageFormat::Rgba32f, 4, 32, Numeric::Float},
    {VK_FORMAT_R32G32B32A32_UINT, spv::ImageFormat::Rgba32ui, 4, 32, Numeric::Uint},
    {VK_FORMAT_R32G32B32A32_SINT, spv::ImageFormat::Rgba32i, 4, 32, Numeric::Sint},
    {VK_FORMAT_R32G32_SFLOAT, spv::ImageFormat::Rg32f, 2, 32, Numeric::Float},
    {VK_FORMAT_R32G32_UINT, spv::ImageFormat::Rg32ui, 2, 32, Numeric::Uint},
    {VK_FORMAT_R32G32_SINT, spv::ImageFormat::Rg32i, 2, 32, Numeric::Sint},
    {VK_FORMAT_R32_SFLOAT, spv::ImageFormat::R32f, 1, 32, Numeric::Float},
    {VK_FORMAT_R32_UINT, spv::ImageFormat::R32ui, 1, 32, Numeric::Uint},
    {VK_FORMAT_R32_SINT, spv::ImageFormat::R32i, 1, 32, Numeric::Sint},
    {VK_FORMAT_R16G16B16A16_SFLOAT, spv::ImageFormat::Rgba16f, 4, 16, Numeric::Float},
    {VK_FORMAT_R16G16B16A16_UNORM, spv::ImageFormat::Rgba16, 4, 16, Numeric::Unorm},
    {VK_FORMAT_R16G16B16A16_SNORM, spv::ImageFormat::Rgba16Snorm, 4, 16, Numeric::Snorm},
    {VK_FORMAT_R16G16B16A16_UINT, spv::ImageFormat::Rgba16ui, 4, 16, Numeric::Uint},
    {VK_FORMAT_R16G16B16A16_SINT, spv::ImageFormat::Rgba16i, 4, 16, Numeric::Sint},
    {VK_FORMAT_R16G16_SFLOAT, spv::ImageFormat::Rg16f, 2, 16, Numeric::Float},
    {VK_FORMAT_R16G16_UNORM, spv::ImageFormat::Rg16, 2, 16, Numeric::Unorm},
    {VK_FORMAT_R16G16_SNORM, spv::ImageFormat::Rg16Snorm, 2, 16, Numeric::Snorm},
    {VK_FORMAT_R16G16_UINT, spv::ImageFormat::Rg16ui, 2, 16, Numeric::Uint},
    {VK_FORMAT_R16G16_SINT, spv::ImageFormat::Rg16i, 2, 16, Numeric::Sint},
    {VK_FORMAT_R16_SFLOAT, spv::ImageFormat::R16f, 1, 16, Numeric::Float},
    {VK_FORMAT_R16_UNORM, spv::ImageFormat::R16, 1, 16, Numeric::Unorm},
    {VK_FORMAT_R16_SNORM, spv::ImageFormat::R16Snorm, 1, 16, Numeric::Snorm},
    {VK_FORMAT_R16_UINT, spv::ImageFormat::R16ui, 1, 16, Numeric::Uint},
    {VK_FORMAT_R16_SINT, spv::ImageFormat::R16i, 1, 16, Numeric::Sint},
    {VK_FORMAT_R8G8B8A8_UNORM, spv::ImageFormat::Rgba8, 4, 8, Numeric::Unorm},
    {VK_FORMAT_R8G8B8A8_SNORM, spv::ImageFormat::Rgba8Snorm, 4, 8, Numeric::Snorm},
    {VK_FORMAT_R8G8B8A8_UINT, spv::ImageFormat::Rgba8ui, 4, 8, Numeric::Uint},
    {VK_FORMAT_R8G8B8A8_SINT, spv::ImageFormat::Rgba8i, 4, 8, Numeric::Sint},
    // A8B8G8R8_*_PACK32 is R8G8B8A8's byte order on a little-endian host (the SPIR-V formats of
    // R8G8B8A8 name them too; the entries above are the ones a module format selects).
    {VK_FORMAT_A8B8G8R8_UNORM_PACK32, spv::ImageFormat::Rgba8, 4, 8, Numeric::Unorm},
    {VK_FORMAT_A8B8G8R8_SNORM_PACK32, spv::ImageFormat::Rgba8Snorm, 4, 8, Numeric::Snorm},
    {VK_FORMAT_A8B8G8R8_UINT_PACK32, spv::ImageFormat::Rgba8ui, 4, 8, Numeric::Uint},
    {VK_FORMAT_A8B8G8R8_SINT_PACK32, spv::ImageFormat::Rgba8i, 4, 8, Numeric::Sint},
    // Formats no SPIR-V format names: fetched from uniform texel buffers only.
    // The swapchain format compute shaders write without a format, as lavapipe offers (the other
    // BGRA formats stay fetch-only, as there).
    {VK_FORMAT_B8G8R8A8_UNORM, spv::ImageFormat::Unknown, 4, 8, Numeric::Unorm, TexelLayout::Bgra, true},
    {VK_FORMAT_B8G8R8A8_SNORM, spv::ImageFormat::Unknown, 4, 8, Numeric::Snorm, TexelLayout::Bgra, false},
    {VK_FORMAT_B8G8R8A8_UINT, spv::ImageFormat::Unknown, 4, 8, Numeric::Uint, TexelLayout::Bgra, false},
    {VK_FORMAT_B8G8R8A8_SINT, spv::ImageFormat::Unknown, 4, 8, Numeric::Sint, TexelLayout::Bgra, false},
    // Three-component and BGR(A) formats, and A2R10G10B10 (GL's 2_10_10_10_REV with BGRA).
    {VK_FORMAT_R8G8B8_UNORM, spv::ImageFormat::Unknown, 3, 8, Numeric::Unorm, TexelLayout::Plain, false},
    {VK_FORMAT_R8G8B8_SNORM, spv::ImageFormat::Unknown, 3, 8, Numeric::Snorm, TexelLayout::Plain, false},
    {VK_FORMAT_R8G8B8_UINT, spv::ImageFormat::Unknown, 3, 8, Numeric::Uint, TexelLayout::Plain, false},
    {VK_FORMAT_R8G8B8_SINT, spv::ImageFormat::Unknown, 3, 8, Numeric::Sint, TexelLayout::Plain, false},
    {VK_FORMAT_B8G8R8_UNORM, spv::ImageFormat::Unknown, 3, 8, Numeric::Unorm, TexelLayout::Bgra, false},
    {VK_FORMAT_B8G8R8_SNORM, spv::ImageFormat::Unknown, 3, 8, Numeric::Snorm, TexelLayout::Bgra, false},
    {VK_FORMAT_B8G8R8_UINT, spv::ImageFormat::Unknown, 3, 8, Numeric::Uint, TexelLayout::Bgra, false},
    {VK_FORMAT_B8G8R8_SINT, spv::ImageFormat::Unknown, 3, 8, Numeric::Sint, TexelLayout::Bgra, false},
    {VK_FORMAT_R16G16B16_UNORM, spv::ImageFormat::Unknown, 3, 16, Numeric::Unorm, TexelLayout::Plain, false},
    {VK_FORMAT_R16G16B16_SNORM, spv::ImageFormat::Unknown, 3, 16, Numeric::Snorm, TexelLayout::Plain, false},
    {VK_FORMAT_R16G16B16_UINT, spv::ImageFormat::Unknown, 3, 16, Numeric::Uint, TexelLayout::Plain, false},
    {VK_FORMAT_R16G16B16_SINT, spv::ImageFormat::Unknown, 3, 16, Numeric::Sint, TexelLayout::Plain, false},
    {VK_FORMAT_R16G16B16_SFLOAT, spv::ImageFormat::Unknown, 3, 16, Numeric::Float, TexelLayout::Plain, false},
    {VK_FORMAT_A2R10G10B10_UNORM_PACK32, spv::ImageFormat::Unknown, 4, 32, Numeric::Unorm, TexelLayout::A2R10G10B10, false},
    {VK_FORMAT_A2R10G10B10_SNORM_PACK32, spv::ImageFormat::Unknown, 4, 32, Numeric::Snorm, TexelLayout::A2R10G10B10, false},
    {VK_FORMAT_A2R10G10B10_UINT_PACK32, spv::ImageFormat::Unknown, 4, 32, Numeric::Uint, TexelLayout::A2R10G10B10, false},
    {VK_FORMAT_A2R10G10B10_SINT_PACK32, spv::ImageFormat::Unknown, 4, 32, Numeric::Sint, TexelLayout::A2R10G10B10, false},
    // Three 32-bit components, 12-byte texels (GL's ARB_texture_buffer_object_rgb32 through zink).
    {VK_FORMAT_R32G32B32_SFLOAT, spv::ImageFormat::Unknown, 3, 32, Numeric::Float, TexelLayout::Plain, false},
    {VK_FORMAT_R32G32B32_UINT, spv::ImageFormat::Unknown, 3, 32, Numeric::Uint, TexelLayout::Plain, false},
    {VK_FORMAT_R32G32B32_SINT, spv::ImageFormat::Unknown, 3, 32, Numeric::Sint, TexelLayout::Plain, false},
    {VK_FORMAT_A2B10G10R10_SNORM_PACK32, spv::ImageFormat::Unknown, 4, 32, Numeric::Snorm, TexelLayout::A2B10G10R10, false},
    {VK_FORMAT_A2B10G10R10_SINT_PACK32, spv::ImageFormat::Unknown, 4, 32, Numeric::Sint, TexelLayout::A2B10G10R10, false},
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, spv::ImageFormat::Rgb10A2, 4, 32, Numeric::Unorm, TexelLayout::A2B10G10R10},
    {VK_FORMAT_A2B10G10R10_UINT_PACK32, spv::ImageFormat::Rgb10a2ui, 4, 32, Numeric::Uint, TexelLayout::A2B10G10R10},
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, spv::ImageFormat::R11fG11fB10f, 3, 32, Numeric::Ufloat, TexelLayout::B10G11R11},
    {VK_FORMAT_R8G8_UNORM, spv::ImageFormat::Rg8, 2, 8, Numeric::Unorm},
    {VK_FORMAT_R8G8_SNORM, spv::ImageFormat::Rg8Snorm, 2, 8, Numeric::Snorm},
    {VK_FORMAT_R8G8_UINT, spv::ImageFormat::Rg8ui, 2, 8, Numeric::Uint},
    {VK_FORMAT_R8G8_SINT, spv::ImageFormat::Rg8i, 2, 8, Numeric::Sint},
    {VK_FORMAT_R8_UNORM, spv::ImageFormat::R8, 1, 8, Numeric::Unorm},
    {VK_FORMAT_R8_SNORM, spv::ImageFormat::R8Snorm, 1, 8, Numeric::Snorm},
    {VK_FORMAT_R8_UINT, spv::ImageFormat::R8ui, 1, 8, Numeric::Uint},
    {VK_FORMAT_R8_SINT, spv::ImageFormat::R8i, 1, 8, Numeric::Sint},
};

inline const TexelFormat* shader_texel_format(VkFormat format) {
  for (const TexelFormat& f : kTexelFormats)
    if (f.vk == format) return &f;
  return nullptr;
}

}  // namespace kiln::abi
