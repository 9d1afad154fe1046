#pragma once
// Kiln's one format table: what every Vulkan 1.3 core format looks like in memory.
//
// The table is generated from vk.xml by scripts/gen_format_table.py (see there for which formats
// are included and where each field comes from). Multi-planar/YCbCr formats are not in it, so
// format_info() returns nullptr for them, as it does for extension-only and unknown formats.
#include <vulkan/vulkan.h>

#include <cstdint>

namespace kiln::fmt {

// The numeric format of a component (spec "Numeric Format" table). sRGB alphas are UNorm: only
// R, G and B of an SRGB format are sRGB-encoded.
enum class NumericKind : uint8_t { None, UNorm, SNorm, UScaled, SScaled, UInt, SInt, UFloat, SFloat, SRGB };
enum class Channel : uint8_t { R, G, B, A, D, S, X /*padding*/ };

struct Component {
  Channel channel;
  uint8_t bits;       // 0 for the components of most compressed formats
  NumericKind kind;   // None for padding
};

struct FormatInfo {
  VkFormat format;
  const char* name;                                // "VK_FORMAT_R8G8B8A8_UNORM"
  uint32_t block_bytes;                            // bytes per texel block (per texel for uncompressed)
  uint8_t block_width, block_height, block_depth;  // 1,1,1 for uncompressed
  uint8_t packed_bits;                             // 0, 8, 16 or 32 for *_PACKn formats
  uint8_t component_count;
  // Memory order, least significant bit first (for packed formats the reverse of the name's
  // order). Padding bits are components with channel X, so for uncompressed formats a component's
  // bit offset in the (little-endian) texel is the sum of the bits before it. The one exception is
  // E5B9G9R9's shared exponent: it is not a component and occupies bits 27..31.
  Component components[4];
  VkImageAspectFlags aspects;                      // COLOR, or DEPTH and/or STENCIL
  const char* compression;                         // nullptr, "BC", "ETC2", "EAC", "ASTC LDR", "ASTC HDR"

  bool is_compressed() const { return compression != nullptr; }
  bool has_depth() const { return (aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0; }
  bool has_stencil() const { return (aspects & VK_IMAGE_ASPECT_STENCIL_BIT) != 0; }
};

// nullptr for unknown/unsupported formats (including VK_FORMAT_UNDEFINED and YCbCr formats).
const FormatInfo* format_info(VkFormat format);

// Bytes per texel of one aspect as Kiln stores it: depth/stencil images keep each aspect in its own
// plane: D16 -> 2, X8_D24 / the D24 of D24S8 -> 4 (the 24-bit value in the low bits of a uint32),
// D32_SFLOAT -> 4, S8 -> 1. For the colour aspect it is block_bytes. This is also the per-texel size
// of buffer<->image copies of that aspect (the spec's rules for depth/stencil copies).
// 0 if the format does not have that aspect.
uint32_t aspect_texel_bytes(VkFormat format, VkImageAspectFlagBits aspect);

// All formats, sorted by VkFormat value (for format-property queries).
const FormatInfo* format_table_begin();
const FormatInfo* format_table_end();

}  // namespace kiln::fmt
