// The format table itself comes from vk.xml (scripts/gen_format_table.py); this file only defines
// the array around it and the look-ups.
#include "memory/format_table.h"

#include <algorithm>
#include <bit>
#include <iterator>

namespace kiln::fmt {
namespace {

constexpr FormatInfo kFormats[] = {
#include "kiln_format_table.inc"
};

// format_info() binary-searches the table, so the generator must emit it sorted and without
// duplicates.
constexpr bool strictly_sorted_by_format() {
  for (size_t i = 1; i < std::size(kFormats); ++i)
    if (kFormats[i - 1].format >= kFormats[i].format) return false;
  return true;
}
static_assert(strictly_sorted_by_format(), "kiln_format_table.inc must be sorted by VkFormat value");

}  // namespace

const FormatInfo* format_info(VkFormat format) {
  const FormatInfo* it = std::lower_bound(std::begin(kFormats), std::end(kFormats), format,
                                          [](const FormatInfo& info, VkFormat f) { return info.format < f; });
  return it != std::end(kFormats) && it->format == format ? it : nullptr;
}

uint32_t aspect_texel_bytes(VkFormat format, VkImageAspectFlagBits aspect) {
  const FormatInfo* info = format_info(format);
  if (info == nullptr || (info->aspects & aspect) == 0) return 0;
  if (aspect == VK_IMAGE_ASPECT_COLOR_BIT) return info->block_bytes;
  const Channel wanted = aspect == VK_IMAGE_ASPECT_DEPTH_BIT ? Channel::D : Channel::S;
  for (uint32_t i = 0; i < info->component_count; ++i) {
    const Component& c = info->components[i];
    // Each aspect lives in its own plane in the smallest power-of-two word that holds it
    // (D24 -> 4 bytes), which is also the texel size Vulkan uses for depth/stencil buffer copies.
    if (c.channel == wanted) return std::bit_ceil((c.bits + 7u) / 8u);
  }
  return 0;
}

const FormatInfo* format_table_begin() { return std::begin(kFormats); }
const FormatInfo* format_table_end() { return std::end(kFormats); }

}  // namespace kiln::fmt
