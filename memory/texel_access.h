#pragma once
// Reading and writing single texels of an image subresource as four-component values (the
// fmt::unpack_aspect view: colour as VkClearColorValue, depth as float R, stencil as uint R).
// The slow, general path behind blits and CPU references; bulk copies move bytes instead.
#include <vulkan/vulkan.h>

#include <cstdint>

#include "memory/block_decode.h"
#include "memory/resources.h"

namespace kiln::mem {

// Reads texels of one (aspect, mip level, array layer); compressed formats are decoded a block at
// a time and the last block is kept, so walking along a row decodes each block once.
class TexelReader {
 public:
  TexelReader(const Image& image, VkImageAspectFlagBits aspect, uint32_t mip_level, uint32_t array_layer);
  // (x, y, z) must lie inside the mip level.
  VkClearColorValue read(uint32_t x, uint32_t y, uint32_t z);
  const SubresourceAddress& address() const { return address_; }

 private:
  const Image& image_;
  VkImageAspectFlagBits aspect_;
  SubresourceAddress address_;
  bool compressed_;
  // The decoded block cache (compressed formats only).
  int64_t cached_block_ = -1;
  float block_texels_[fmt::kMaxBlockTexels][4];
};

// Writes one texel of an uncompressed format. (x, y, z) must lie inside the mip level.
void write_texel(Image& image, VkImageAspectFlagBits aspect, uint32_t mip_level, uint32_t array_layer, uint32_t x,
                 uint32_t y, uint32_t z, const VkClearColorValue& value);

}  // namespace kiln::mem
