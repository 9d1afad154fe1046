#pragma once
// The one place for image address math (ARCHITECTURE.md, decision 6): where each subresource of
// an image lives in its memory. Copies, clears, sampling and attachments all ask this.
//
// Layout (linear, the same for LINEAR and OPTIMAL tiling today):
//   plane (colour; or depth then stencil) → mip level → array layer → depth slice → row → texel.
// Depth/stencil formats keep each aspect in its own plane (see memory/format_table.h for each
// aspect's texel size). Texel blocks of compressed formats are stored like texels; a sample of a
// multisampled image is stored next to the other samples of its texel. Every mip level of every
// plane starts on a 64-byte boundary.
#include <vulkan/vulkan.h>

#include <cstdint>

namespace kiln::mem {

struct ImageDesc {
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent3D extent{1, 1, 1};
  uint32_t mip_levels = 1;
  uint32_t array_layers = 1;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkImageTiling tiling = VK_IMAGE_TILING_OPTIMAL;
};

// Where one (aspect, mip level, array layer) lives; pitches in bytes.
struct SubresourceAddress {
  VkDeviceSize offset = 0;       // of texel block (0,0,0) from the start of the image's memory
  VkDeviceSize size = 0;         // bytes of this layer of this mip level
  VkDeviceSize row_pitch = 0;    // between rows of texel blocks
  VkDeviceSize slice_pitch = 0;  // between depth slices
  VkDeviceSize layer_pitch = 0;  // between array layers
  uint32_t texel_bytes = 0;      // bytes per texel block (all samples) in this aspect's plane
  VkExtent3D extent{};           // of this mip level, in texels
  VkExtent3D extent_blocks{};    // of this mip level, in texel blocks
  uint32_t block_width = 1, block_height = 1;
};

class ImageLayout {
 public:
  ImageLayout() = default;
  // False when the format is unknown to the format table.
  bool init(const ImageDesc& desc);

  VkDeviceSize total_size() const { return total_size_; }
  // `aspect` is one of COLOR, DEPTH, STENCIL (a single bit).
  SubresourceAddress address(VkImageAspectFlagBits aspect, uint32_t mip_level, uint32_t array_layer) const;

 private:
  static constexpr int kMaxPlanes = 2;
  static constexpr int kMaxMips = 16;
  ImageDesc desc_{};
  uint32_t plane_count_ = 0;
  VkImageAspectFlagBits plane_aspect_[kMaxPlanes]{};
  uint32_t plane_texel_bytes_[kMaxPlanes]{};
  VkDeviceSize mip_offset_[kMaxPlanes][kMaxMips]{};
  VkDeviceSize mip_layer_size_[kMaxPlanes][kMaxMips]{};
  uint32_t block_width_ = 1, block_height_ = 1;
  VkDeviceSize total_size_ = 0;
};

// Extent of mip level `level` of `extent` (each dimension halved, at least 1).
VkExtent3D mip_extent(VkExtent3D extent, uint32_t level);

}  // namespace kiln::mem
