#include "memory/texel_access.h"

#include <cstring>

#include "memory/format_pack.h"
#include "memory/format_table.h"

namespace kiln::mem {

TexelReader::TexelReader(const Image& image, VkImageAspectFlagBits aspect, uint32_t mip_level, uint32_t array_layer)
    : image_(image), aspect_(aspect), address_(image.layout.address(aspect, mip_level, array_layer)) {
  const fmt::FormatInfo* info = fmt::format_info(image.desc.format);
  compressed_ = info != nullptr && info->is_compressed();
}

VkClearColorValue TexelReader::read(uint32_t x, uint32_t y, uint32_t z) {
  const uint32_t bx = x / address_.block_width, by = y / address_.block_height;
  const uint8_t* block = image_.data + address_.offset + z * address_.slice_pitch + by * address_.row_pitch +
                         VkDeviceSize{bx} * address_.texel_bytes;
  VkClearColorValue value{};
  if (!compressed_) {
    fmt::unpack_aspect(image_.desc.format, aspect_, block, &value);
    return value;
  }
  const int64_t block_index = (int64_t{z} * address_.extent_blocks.height + by) * address_.extent_blocks.width + bx;
  if (block_index != cached_block_) {
    fmt::decode_block(image_.desc.format, block, block_texels_);
    cached_block_ = block_index;
  }
  std::memcpy(value.float32, block_texels_[(y % address_.block_height) * address_.block_width + x % address_.block_width],
              sizeof(value.float32));
  return value;
}

void write_texel(Image& image, VkImageAspectFlagBits aspect, uint32_t mip_level, uint32_t array_layer, uint32_t x,
                 uint32_t y, uint32_t z, const VkClearColorValue& value) {
  const SubresourceAddress a = image.layout.address(aspect, mip_level, array_layer);
  uint8_t* texel = image.data + a.offset + z * a.slice_pitch + y * a.row_pitch + VkDeviceSize{x} * a.texel_bytes;
  fmt::pack_aspect(image.desc.format, aspect, value, texel);
}

}  // namespace kiln::mem
