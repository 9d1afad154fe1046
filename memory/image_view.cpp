#include "memory/image_view.h"

#include "memory/format_table.h"

namespace kiln::mem {

abi::ImageViewRecord make_shader_record(const ImageView& view) {
  abi::ImageViewRecord r{};
  if (!view.image || !view.image->data) return r;
  const VkImageAspectFlags mask = view.range.aspectMask;
  const VkImageAspectFlagBits aspect = (mask & VK_IMAGE_ASPECT_COLOR_BIT)   ? VK_IMAGE_ASPECT_COLOR_BIT
                                       : (mask & VK_IMAGE_ASPECT_DEPTH_BIT) ? VK_IMAGE_ASPECT_DEPTH_BIT
                                                                            : VK_IMAGE_ASPECT_STENCIL_BIT;
  const uint32_t level = view.range.baseMipLevel;
  // Layers of a 2D view of a 3D image are depth slices of one subresource (layer 0).
  const uint32_t layer = view.slices_of_3d ? 0 : view.range.baseArrayLayer;
  const SubresourceAddress sub = view.image->layout.address(aspect, level, layer);
  // Uncompressed views of compressed images (BLOCK_TEXEL_VIEW_COMPATIBLE) see one texel per block;
  // compressed views (sampled only) report texels, which is what size queries return.
  const fmt::FormatInfo* info = fmt::format_info(view.format);
  const VkExtent3D e = info && info->is_compressed() ? sub.extent : sub.extent_blocks;
  const uint32_t layers = view.range.layerCount;
  r.address = reinterpret_cast<uint64_t>(view.image->data + sub.offset);
  r.format = static_cast<uint32_t>(view.format);
  r.pitch[0] = sub.texel_bytes;
  r.level_count = view.range.levelCount;
  r.samples = view.image->desc.samples;
  r.size[0] = e.width;
  switch (view.type) {
    case VK_IMAGE_VIEW_TYPE_1D:
      r.size[1] = r.size[2] = 1;
      break;
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
      r.size[1] = layers;
      r.pitch[1] = sub.layer_pitch;
      r.size[2] = 1;
      break;
    case VK_IMAGE_VIEW_TYPE_3D:
      r.size[1] = e.height;
      r.pitch[1] = sub.row_pitch;
      r.size[2] = e.depth;
      r.pitch[2] = sub.slice_pitch;
      break;
    default:  // 2D, 2D_ARRAY, CUBE, CUBE_ARRAY: the third coordinate is the layer (or cube face)
      r.size[1] = e.height;
      r.pitch[1] = sub.row_pitch;
      r.size[2] = layers;
      r.pitch[2] = view.slices_of_3d ? sub.slice_pitch : sub.layer_pitch;
      if (view.slices_of_3d) r.address += uint64_t{view.range.baseArrayLayer} * sub.slice_pitch;
      break;
  }
  return r;
}

VkImageAspectFlags attachment_aspects(const ImageView& view) {
  const fmt::FormatInfo* info = fmt::format_info(view.format);
  return info ? info->aspects : 0;
}

void init_sampling(ImageView& view) {
  view.shader_record.sample = make_sampled_view(view, &view.sampled);
  view.shader_record.sampled_view = &view.sampled;
}

}  // namespace kiln::mem
