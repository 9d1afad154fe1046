#include "memory/transfer.h"

#include <emmintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "memory/format_pack.h"
#include "memory/format_table.h"

namespace kiln::mem {
namespace {

uint32_t div_up(uint32_t v, uint32_t d) { return (v + d - 1) / d; }

// [begin, end) of `total` units that part `p` owns; shares are multiples of `granule` units.
struct Span {
  uint64_t begin, end;
};
Span share_of(uint64_t total, WorkPart p, uint64_t granule = 1) {
  const uint64_t granules = (total + granule - 1) / granule;
  const uint64_t begin = granules * p.index / p.count * granule;
  const uint64_t end = granules * (p.index + 1) / p.count * granule;
  return {std::min(begin, total), std::min(end, total)};
}

// Array layers and depth slices are both "slices" for copies: 3D images have one layer and many
// slices, arrays many layers of one slice. Copies between 2D arrays and 3D images map one onto the other.
struct SliceWalk {
  uint32_t first_layer, layer_count, first_slice, slice_count;
};

SliceWalk slices_of(const Image& image, const VkImageSubresourceLayers& sub, int32_t z, uint32_t depth) {
  if (image.desc.type == VK_IMAGE_TYPE_3D) return {0, 1, static_cast<uint32_t>(z), depth};
  uint32_t layers = sub.layerCount == VK_REMAINING_ARRAY_LAYERS ? image.desc.array_layers - sub.baseArrayLayer
                                                               : sub.layerCount;
  return {sub.baseArrayLayer, layers, 0, 1};
}

// Address of texel block (x, y) in the n-th slice (layer or depth slice) of a subresource walk.
uint8_t* texel_address(const Image& image, VkImageAspectFlagBits aspect, uint32_t mip, const SliceWalk& walk,
                       uint32_t n, uint32_t block_x, uint32_t block_y) {
  uint32_t layer = walk.first_layer + (walk.layer_count > 1 ? n : 0);
  uint32_t slice = walk.first_slice + (walk.layer_count > 1 ? 0 : n);
  SubresourceAddress a = image.layout.address(aspect, mip, layer);
  return image.data + a.offset + slice * a.slice_pitch + block_y * a.row_pitch + VkDeviceSize{block_x} * a.texel_bytes;
}

// Writes `texel` (of `texel_bytes`) into every texel of a subresource range of one aspect; part
// `part` of the rows of all its subresources.
void fill_texels(Image& image, VkImageAspectFlagBits aspect, const VkImageSubresourceRange& range,
                 const uint8_t* texel, uint32_t texel_bytes, WorkPart part) {
  // Every layer of a level has the same number of rows; count all rows to split them evenly.
  uint64_t total_rows = 0;
  for (uint32_t level = range.baseMipLevel; level < range.baseMipLevel + range.levelCount; ++level) {
    SubresourceAddress a = image.layout.address(aspect, level, 0);
    total_rows += uint64_t{a.extent_blocks.height} * a.extent_blocks.depth * range.layerCount;
  }
  const Span mine = share_of(total_rows, part);
  uint64_t row_index = 0;  // of the first row of the current subresource
  for (uint32_t level = range.baseMipLevel; level < range.baseMipLevel + range.levelCount; ++level) {
    for (uint32_t layer = range.baseArrayLayer; layer < range.baseArrayLayer + range.layerCount; ++layer) {
      SubresourceAddress a = image.layout.address(aspect, level, layer);
      const uint64_t rows = uint64_t{a.extent_blocks.height} * a.extent_blocks.depth;
      const uint64_t first = std::max(mine.begin, row_index), last = std::min(mine.end, row_index + rows);
      row_index += rows;
      if (first >= last) continue;
      // Fill one row texel by texel, then replicate that row (fast for big images).
      uint8_t* row = image.data + a.offset + (first - (row_index - rows)) * a.row_pitch;
      for (uint32_t x = 0; x < a.extent_blocks.width; ++x) memcpy(row + x * texel_bytes, texel, texel_bytes);
      for (uint64_t r = 1; r < last - first; ++r) memcpy(row + r * a.row_pitch, row, a.row_pitch);
    }
  }
}

// The subresource region [offset, offset+extent) lies inside the image.
bool image_region_in_bounds(const Image& image, const VkImageSubresourceLayers& sub, VkOffset3D offset, VkExtent3D extent) {
  const auto& d = image.desc;
  if (sub.mipLevel >= d.mip_levels) return false;
  uint32_t layers = sub.layerCount == VK_REMAINING_ARRAY_LAYERS ? d.array_layers - sub.baseArrayLayer : sub.layerCount;
  if (sub.baseArrayLayer >= d.array_layers || layers > d.array_layers - sub.baseArrayLayer) return false;
  if (offset.x < 0 || offset.y < 0 || offset.z < 0) return false;
  // Only 3D images have depth; for the others the region's depth counts array layers (2D↔3D copies).
  if (d.type != VK_IMAGE_TYPE_3D) extent.depth = 1;
  const VkExtent3D e = mip_extent(d.extent, sub.mipLevel);
  return uint64_t(offset.x) + extent.width <= e.width && uint64_t(offset.y) + extent.height <= e.height &&
         uint64_t(offset.z) + extent.depth <= e.depth;
}

// Fills of at least this many bytes (per part) bypass the caches: the data would evict the cache
// long before anything read it back, and ordinary stores first read every line they write.
constexpr uint64_t kStreamingFillBytes = 1u << 20;

// Writes the 4-byte `data` over `bytes` (a multiple of 4) at `p` (4-byte aligned) with non-temporal
// stores: the lines are written without being read first, which ordinary stores (and glibc 2.36's
// memset at these sizes) do — half the memory traffic of a fill.
void fill_streaming(uint8_t* p, uint64_t bytes, uint32_t data) {
  uint64_t i = 0;
  for (; i < bytes && (reinterpret_cast<uintptr_t>(p + i) & 15); i += 4) memcpy(p + i, &data, 4);
  const __m128i pattern = _mm_set1_epi32(int32_t(data));  // aligned to 4 bytes, so the pattern stays in phase
  for (; i + 16 <= bytes; i += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(p + i), pattern);
  for (; i < bytes; i += 4) memcpy(p + i, &data, 4);
  _mm_sfence();  // the streaming stores are weakly ordered: visible before the command completes
}

}  // namespace

bool buffer_copy_in_bounds(const Buffer& src, const Buffer& dst, const VkBufferCopy2& r) {
  return src.data && dst.data && r.srcOffset <= src.size && r.size <= src.size - r.srcOffset &&
         r.dstOffset <= dst.size && r.size <= dst.size - r.dstOffset;
}

VkDeviceSize buffer_image_copy_end(const Image& image, const VkBufferImageCopy2& r) {
  if (r.imageExtent.width == 0 || r.imageExtent.height == 0 || r.imageExtent.depth == 0) return r.bufferOffset;
  const VkImageAspectFlags aspect = r.imageSubresource.aspectMask;
  const SubresourceAddress a = image.layout.address(static_cast<VkImageAspectFlagBits>(aspect), r.imageSubresource.mipLevel, 0);
  const uint32_t row_texels = r.bufferRowLength ? r.bufferRowLength : r.imageExtent.width;
  const uint32_t image_rows = r.bufferImageHeight ? r.bufferImageHeight : r.imageExtent.height;
  const uint64_t row_pitch = uint64_t(div_up(row_texels, a.block_width)) * a.texel_bytes;
  const uint64_t slice_pitch = row_pitch * div_up(image_rows, a.block_height);
  SliceWalk walk = slices_of(image, r.imageSubresource, r.imageOffset.z, r.imageExtent.depth);
  const uint64_t slices = walk.layer_count > 1 ? walk.layer_count : walk.slice_count;
  return r.bufferOffset + (slices - 1) * slice_pitch + (div_up(r.imageExtent.height, a.block_height) - 1) * row_pitch +
         uint64_t(div_up(r.imageExtent.width, a.block_width)) * a.texel_bytes;
}

bool buffer_image_copy_in_bounds(const Buffer& buffer, const Image& image, const VkBufferImageCopy2& r) {
  if (!buffer.data || !image.data) return false;
  const VkImageAspectFlags aspect = r.imageSubresource.aspectMask;
  if (aspect != VK_IMAGE_ASPECT_COLOR_BIT && aspect != VK_IMAGE_ASPECT_DEPTH_BIT && aspect != VK_IMAGE_ASPECT_STENCIL_BIT)
    return false;
  if (!image_region_in_bounds(image, r.imageSubresource, r.imageOffset, r.imageExtent)) return false;
  return buffer_image_copy_end(image, r) <= buffer.size;
}

bool image_copy_in_bounds(const Image& src, const Image& dst, const VkImageCopy2& r) {
  if (!src.data || !dst.data) return false;
  const fmt::FormatInfo* s = fmt::format_info(src.desc.format);
  const fmt::FormatInfo* d = fmt::format_info(dst.desc.format);
  // The destination extent is the source extent converted through both formats' block sizes.
  VkExtent3D dst_extent = {div_up(r.extent.width, s->block_width) * d->block_width,
                           div_up(r.extent.height, s->block_height) * d->block_height, r.extent.depth};
  const VkExtent3D src_mip = mip_extent(src.desc.extent, std::min(r.srcSubresource.mipLevel, src.desc.mip_levels - 1));
  const VkExtent3D dst_mip = mip_extent(dst.desc.extent, std::min(r.dstSubresource.mipLevel, dst.desc.mip_levels - 1));
  // Block-compressed extents may run to the (unaligned) edge of the mip level.
  dst_extent.width = std::min<uint32_t>(dst_extent.width, dst_mip.width - std::min<uint32_t>(dst_mip.width, std::max(0, r.dstOffset.x)));
  dst_extent.height = std::min<uint32_t>(dst_extent.height, dst_mip.height - std::min<uint32_t>(dst_mip.height, std::max(0, r.dstOffset.y)));
  VkExtent3D src_extent = r.extent;
  src_extent.width = std::min<uint32_t>(src_extent.width, src_mip.width);
  src_extent.height = std::min<uint32_t>(src_extent.height, src_mip.height);
  // Copies move whole texels, all samples at once: the sample counts must match (as the spec asks).
  if (src.desc.samples != dst.desc.samples) return false;
  if (s->block_bytes != d->block_bytes && !(s->has_depth() || s->has_stencil())) return false;
  return image_region_in_bounds(src, r.srcSubresource, r.srcOffset, src_extent) &&
         image_region_in_bounds(dst, r.dstSubresource, r.dstOffset, dst_extent);
}

bool range_in_bounds(const Image& image, const VkImageSubresourceRange& range) {
  if (!image.data) return false;
  const VkImageSubresourceRange r = resolve_range(image, range);
  return r.baseMipLevel < image.desc.mip_levels && r.levelCount <= image.desc.mip_levels - r.baseMipLevel &&
         r.baseArrayLayer < image.desc.array_layers && r.layerCount <= image.desc.array_layers - r.baseArrayLayer;
}

VkImageSubresourceRange resolve_range(const Image& image, const VkImageSubresourceRange& range) {
  VkImageSubresourceRange r = range;
  if (r.levelCount == VK_REMAINING_MIP_LEVELS) r.levelCount = image.desc.mip_levels - r.baseMipLevel;
  if (r.layerCount == VK_REMAINING_ARRAY_LAYERS) r.layerCount = image.desc.array_layers - r.baseArrayLayer;
  return r;
}

void copy_buffer(const Buffer& src, Buffer& dst, const VkBufferCopy2& region, WorkPart part) {
  const Span mine = share_of(region.size, part, 64);
  // Parts only split non-overlapping copies (Vulkan forbids overlapping regions); memmove keeps
  // a single-part copy correct even for an application that gets this wrong.
  memmove(dst.data + region.dstOffset + mine.begin, src.data + region.srcOffset + mine.begin, mine.end - mine.begin);
}

void fill_buffer(Buffer& dst, VkDeviceSize offset, VkDeviceSize size, uint32_t data, WorkPart part) {
  const Span mine = share_of(size, part, 64);
  uint8_t* p = dst.data + offset + mine.begin;
  const uint64_t bytes = mine.end - mine.begin;
  if (bytes >= kStreamingFillBytes) return fill_streaming(p, bytes, data);
  if ((data & 0xFF) * 0x01010101u == data) {
    memset(p, data & 0xFF, bytes);
    return;
  }
  for (uint64_t i = 0; i + 4 <= bytes; i += 4) memcpy(p + i, &data, 4);
}

void update_buffer(Buffer& dst, VkDeviceSize offset, VkDeviceSize size, const void* data) {
  memcpy(dst.data + offset, data, size);
}

void copy_buffer_image(Buffer& buffer, Image& image, const VkBufferImageCopy2& region, CopyDirection direction,
                       WorkPart part) {
  const auto aspect = static_cast<VkImageAspectFlagBits>(region.imageSubresource.aspectMask);
  const SubresourceAddress a = image.layout.address(aspect, region.imageSubresource.mipLevel, 0);
  // Buffer texel size of an aspect equals the image plane's (depth/stencil copy rules), per sample 1.
  const uint32_t texel_bytes = a.texel_bytes;
  const uint32_t row_texels = region.bufferRowLength ? region.bufferRowLength : region.imageExtent.width;
  const uint32_t image_rows = region.bufferImageHeight ? region.bufferImageHeight : region.imageExtent.height;
  const VkDeviceSize buffer_row_pitch = VkDeviceSize{div_up(row_texels, a.block_width)} * texel_bytes;
  const VkDeviceSize buffer_slice_pitch = buffer_row_pitch * div_up(image_rows, a.block_height);
  const uint32_t block_x = region.imageOffset.x / a.block_width;
  const uint32_t block_y = region.imageOffset.y / a.block_height;
  const uint32_t blocks_w = div_up(region.imageExtent.width, a.block_width);
  const uint32_t blocks_h = div_up(region.imageExtent.height, a.block_height);
  const VkDeviceSize row_bytes = VkDeviceSize{blocks_w} * texel_bytes;

  SliceWalk walk = slices_of(image, region.imageSubresource, region.imageOffset.z, region.imageExtent.depth);
  const uint32_t slices = walk.layer_count > 1 ? walk.layer_count : walk.slice_count;
  const Span mine = share_of(uint64_t{slices} * blocks_h, part);
  for (uint64_t r = mine.begin; r < mine.end; ++r) {
    const uint32_t n = static_cast<uint32_t>(r / blocks_h), y = static_cast<uint32_t>(r % blocks_h);
    uint8_t* img = texel_address(image, aspect, region.imageSubresource.mipLevel, walk, n, block_x, block_y + y);
    uint8_t* buf = buffer.data + region.bufferOffset + n * buffer_slice_pitch + y * buffer_row_pitch;
    if (direction == CopyDirection::BufferToImage) memcpy(img, buf, row_bytes);
    else memcpy(buf, img, row_bytes);
  }
}

void copy_image(const Image& src, Image& dst, const VkImageCopy2& region, WorkPart part) {
  const auto src_aspect = static_cast<VkImageAspectFlagBits>(region.srcSubresource.aspectMask);
  const auto dst_aspect = static_cast<VkImageAspectFlagBits>(region.dstSubresource.aspectMask);
  // Copies may name several aspects at once (depth and stencil): copy each plane.
  for (VkImageAspectFlags bit = 1; bit <= VK_IMAGE_ASPECT_STENCIL_BIT; bit <<= 1) {
    if (!(src_aspect & bit)) continue;
    const auto sa = static_cast<VkImageAspectFlagBits>(bit);
    // Colour↔colour copies keep COLOR; a multi-planar mapping is not needed for the formats Kiln has.
    const auto da = (dst_aspect & bit) ? sa : static_cast<VkImageAspectFlagBits>(dst_aspect);
    const SubresourceAddress s = src.layout.address(sa, region.srcSubresource.mipLevel, 0);
    const SubresourceAddress d = dst.layout.address(da, region.dstSubresource.mipLevel, 0);
    // The extent is in source texels; size-compatible formats share the block byte size, and a
    // compressed↔uncompressed copy maps one source block onto one destination texel (or back).
    const uint32_t blocks_w = div_up(region.extent.width, s.block_width);
    const uint32_t blocks_h = div_up(region.extent.height, s.block_height);
    const VkDeviceSize row_bytes = VkDeviceSize{blocks_w} * s.texel_bytes;
    SliceWalk sw = slices_of(src, region.srcSubresource, region.srcOffset.z, region.extent.depth);
    SliceWalk dw = slices_of(dst, region.dstSubresource, region.dstOffset.z, region.extent.depth);
    const uint32_t slices = sw.layer_count > 1 ? sw.layer_count : sw.slice_count;
    const Span mine = share_of(uint64_t{slices} * blocks_h, part);
    for (uint64_t r = mine.begin; r < mine.end; ++r) {
      const uint32_t n = static_cast<uint32_t>(r / blocks_h), y = static_cast<uint32_t>(r % blocks_h);
      const uint8_t* from = texel_address(src, sa, region.srcSubresource.mipLevel, sw, n,
                                          region.srcOffset.x / s.block_width, region.srcOffset.y / s.block_height + y);
      uint8_t* to = texel_address(dst, da, region.dstSubresource.mipLevel, dw, n,
                                  region.dstOffset.x / d.block_width, region.dstOffset.y / d.block_height + y);
      memmove(to, from, row_bytes);
    }
  }
}

bool clear_color_image(Image& image, const VkClearColorValue& color, const VkImageSubresourceRange& range,
                       WorkPart part) {
  uint8_t texel[16 * 8];
  const fmt::FormatInfo* info = fmt::format_info(image.desc.format);
  if (!info || !fmt::pack_color(image.desc.format, color, texel)) return false;
  const uint32_t bytes = info->block_bytes;
  for (uint32_t s = 1; s < image.desc.samples; ++s) memcpy(texel + s * bytes, texel, bytes);
  fill_texels(image, VK_IMAGE_ASPECT_COLOR_BIT, resolve_range(image, range), texel, bytes * image.desc.samples, part);
  return true;
}

bool clear_depth_stencil_image(Image& image, const VkClearDepthStencilValue& value, const VkImageSubresourceRange& range,
                               WorkPart part) {
  const VkImageSubresourceRange r = resolve_range(image, range);
  uint8_t texel[4 * 8];
  if (r.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) {
    const uint32_t bytes = fmt::aspect_texel_bytes(image.desc.format, VK_IMAGE_ASPECT_DEPTH_BIT);
    if (!fmt::pack_depth(image.desc.format, value.depth, texel)) return false;
    for (uint32_t s = 1; s < image.desc.samples; ++s) memcpy(texel + s * bytes, texel, bytes);
    fill_texels(image, VK_IMAGE_ASPECT_DEPTH_BIT, r, texel, bytes * image.desc.samples, part);
  }
  if (r.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) {
    memset(texel, static_cast<uint8_t>(value.stencil), sizeof texel);
    fill_texels(image, VK_IMAGE_ASPECT_STENCIL_BIT, r, texel, image.desc.samples, part);
  }
  return true;
}

}  // namespace kiln::mem
