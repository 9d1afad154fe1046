#include "memory/image_layout.h"

#include <algorithm>

#include "memory/format_table.h"

namespace kiln::mem {
namespace {
constexpr VkDeviceSize kLevelAlignment = 64;  // cache line

VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }
uint32_t div_up(uint32_t v, uint32_t d) { return (v + d - 1) / d; }
}  // namespace

VkExtent3D mip_extent(VkExtent3D e, uint32_t level) {
  return {std::max(1u, e.width >> level), std::max(1u, e.height >> level), std::max(1u, e.depth >> level)};
}

bool ImageLayout::init(const ImageDesc& desc) {
  const fmt::FormatInfo* info = fmt::format_info(desc.format);
  if (!info || desc.mip_levels == 0 || desc.mip_levels > kMaxMips) return false;
  desc_ = desc;
  block_width_ = info->block_width;
  block_height_ = info->block_height;
  plane_count_ = 0;
  if (info->has_depth()) plane_aspect_[plane_count_++] = VK_IMAGE_ASPECT_DEPTH_BIT;
  if (info->has_stencil()) plane_aspect_[plane_count_++] = VK_IMAGE_ASPECT_STENCIL_BIT;
  if (plane_count_ == 0) plane_aspect_[plane_count_++] = VK_IMAGE_ASPECT_COLOR_BIT;

  VkDeviceSize offset = 0;
  for (uint32_t p = 0; p < plane_count_; ++p) {
    plane_texel_bytes_[p] = fmt::aspect_texel_bytes(desc.format, plane_aspect_[p]) * desc.samples;
    for (uint32_t level = 0; level < desc.mip_levels; ++level) {
      VkExtent3D e = mip_extent(desc.extent, level);
      VkDeviceSize layer_size = VkDeviceSize{div_up(e.width, block_width_)} * div_up(e.height, block_height_) *
                                e.depth * plane_texel_bytes_[p];
      offset = align_up(offset, kLevelAlignment);
      mip_offset_[p][level] = offset;
      mip_layer_size_[p][level] = layer_size;
      offset += layer_size * desc.array_layers;
    }
  }
  total_size_ = align_up(std::max<VkDeviceSize>(offset, 1), kLevelAlignment);
  return true;
}

SubresourceAddress ImageLayout::address(VkImageAspectFlagBits aspect, uint32_t mip_level, uint32_t array_layer) const {
  uint32_t p = 0;
  while (p + 1 < plane_count_ && plane_aspect_[p] != aspect) ++p;
  SubresourceAddress a;
  a.extent = mip_extent(desc_.extent, mip_level);
  a.extent_blocks = {div_up(a.extent.width, block_width_), div_up(a.extent.height, block_height_), a.extent.depth};
  a.block_width = block_width_;
  a.block_height = block_height_;
  a.texel_bytes = plane_texel_bytes_[p];
  a.row_pitch = VkDeviceSize{a.extent_blocks.width} * a.texel_bytes;
  a.slice_pitch = a.row_pitch * a.extent_blocks.height;
  a.layer_pitch = mip_layer_size_[p][mip_level];
  a.size = a.layer_pitch;
  a.offset = mip_offset_[p][mip_level] + VkDeviceSize{array_layer} * a.layer_pitch;
  return a;
}

}  // namespace kiln::mem
