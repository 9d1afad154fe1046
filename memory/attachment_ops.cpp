#include "memory/attachment_ops.h"

#include <algorithm>
#include <cstring>

#include "memory/format_pack.h"
#include "memory/format_table.h"

namespace kiln::mem {
namespace {

// Where layer `layer` (relative to the view) of one aspect of a view's base mip level lives.
struct ViewPlane {
  uint8_t* base = nullptr;  // texel (0, 0)
  VkDeviceSize row_pitch = 0;
  uint32_t texel_bytes = 0;  // all samples of one texel
  uint32_t samples = 1;
  VkExtent3D extent{};
};

ViewPlane plane_of(const ImageView& view, VkImageAspectFlagBits aspect, uint32_t layer) {
  const Image& image = *view.image;
  const uint32_t mip = view.range.baseMipLevel;
  // A 2D view of a 3D image addresses depth slices of layer 0; other views address array layers.
  const uint32_t array_layer = view.slices_of_3d ? 0 : view.range.baseArrayLayer + layer;
  const SubresourceAddress a = image.layout.address(aspect, mip, array_layer);
  ViewPlane p;
  p.base = image.data + a.offset + (view.slices_of_3d ? (view.range.baseArrayLayer + layer) * a.slice_pitch : 0);
  p.row_pitch = a.row_pitch;
  p.texel_bytes = a.texel_bytes;
  p.samples = image.desc.samples;
  p.extent = a.extent;
  return p;
}

// The rectangle clipped to the plane's extent; false when nothing is left.
bool clip(const VkRect2D& rect, const VkExtent3D& extent, uint32_t* x0, uint32_t* y0, uint32_t* x1, uint32_t* y1) {
  const int64_t left = std::max<int64_t>(rect.offset.x, 0), top = std::max<int64_t>(rect.offset.y, 0);
  const int64_t right = std::min<int64_t>(int64_t{rect.offset.x} + rect.extent.width, extent.width);
  const int64_t bottom = std::min<int64_t>(int64_t{rect.offset.y} + rect.extent.height, extent.height);
  if (left >= right || top >= bottom) return false;
  *x0 = static_cast<uint32_t>(left), *y0 = static_cast<uint32_t>(top);
  *x1 = static_cast<uint32_t>(right), *y1 = static_cast<uint32_t>(bottom);
  return true;
}

// Calls fn(layer) for each view-relative layer of the set that exists in the view.
template <typename Fn>
void for_each_layer(const ImageView& view, const LayerSet& layers, Fn fn) {
  const uint32_t view_layers = view.range.layerCount;
  if (layers.view_mask) {
    for (uint32_t bit = 0; bit < 32 && bit < view_layers; ++bit)
      if (layers.view_mask & (1u << bit)) fn(bit);
    return;
  }
  for (uint32_t l = layers.base; l < view_layers && l - layers.base < layers.count; ++l) fn(l);
}

void fill_rect(const ViewPlane& p, const uint8_t* texel, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  for (uint32_t y = y0; y < y1; ++y) {
    uint8_t* row = p.base + y * p.row_pitch;
    for (uint32_t x = x0; x < x1; ++x) memcpy(row + VkDeviceSize{x} * p.texel_bytes, texel, p.texel_bytes);
  }
}

// The format whose values the aspect's plane holds: the view's format for colour (an sRGB view of
// a UNORM image clears in sRGB), the image's for depth/stencil planes.
VkFormat plane_format(const ImageView& view, VkImageAspectFlagBits aspect) {
  return aspect == VK_IMAGE_ASPECT_COLOR_BIT ? view.format : view.image->desc.format;
}

}  // namespace

VkResolveModeFlagBits color_resolve_mode(VkFormat format) {
  return fmt::value_class(format, VK_IMAGE_ASPECT_COLOR_BIT) == fmt::ValueClass::Float ? VK_RESOLVE_MODE_AVERAGE_BIT
                                                                                       : VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
}

bool clear_view_rect(const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value, const VkRect2D& rect,
                     const LayerSet& layers) {
  const fmt::FormatInfo* info = fmt::format_info(view.format);
  if (!info || !view.image || !view.image->data) return false;
  aspects &= view.range.aspectMask;
  for (VkImageAspectFlags bit = 1; bit <= VK_IMAGE_ASPECT_STENCIL_BIT; bit <<= 1) {
    if (!(aspects & bit)) continue;
    const auto aspect = static_cast<VkImageAspectFlagBits>(bit);
    const VkFormat format = plane_format(view, aspect);
    uint8_t one[16] = {};
    bool packed = false;
    if (aspect == VK_IMAGE_ASPECT_COLOR_BIT) packed = fmt::pack_color(format, value.color, one);
    else if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT) packed = fmt::pack_depth(format, value.depthStencil.depth, one);
    else packed = fmt::pack_stencil(format, value.depthStencil.stencil, one);
    if (!packed) return false;
    for_each_layer(view, layers, [&](uint32_t layer) {
      const ViewPlane p = plane_of(view, aspect, layer);
      const uint32_t sample_bytes = p.texel_bytes / p.samples;
      uint8_t texel[16 * 64];
      if (p.texel_bytes > sizeof texel) return;
      for (uint32_t s = 0; s < p.samples; ++s) memcpy(texel + s * sample_bytes, one, sample_bytes);
      uint32_t x0, y0, x1, y1;
      if (clip(rect, p.extent, &x0, &y0, &x1, &y1)) fill_rect(p, texel, x0, y0, x1, y1);
    });
  }
  return true;
}

bool resolve_view_rect(const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect, VkResolveModeFlagBits mode,
                       const VkRect2D& rect, const LayerSet& layers) {
  if (!src.image || !dst.image || !src.image->data || !dst.image->data) return false;
  if (!(src.range.aspectMask & aspect) || !(dst.range.aspectMask & aspect)) return false;
  const VkFormat src_format = plane_format(src, aspect), dst_format = plane_format(dst, aspect);
  const fmt::ValueClass kind = fmt::value_class(src_format, aspect);
  // Integers cannot be averaged (the spec allows only SAMPLE_ZERO, MIN and MAX for them).
  if (mode == VK_RESOLVE_MODE_AVERAGE_BIT && kind != fmt::ValueClass::Float) mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
  bool ok = true;
  for_each_layer(src, layers, [&](uint32_t layer) {
    if (layer >= dst.range.layerCount) return;
    const ViewPlane s = plane_of(src, aspect, layer), d = plane_of(dst, aspect, layer);
    const uint32_t sample_bytes = s.texel_bytes / s.samples;
    uint32_t x0, y0, x1, y1;
    const VkExtent3D both{std::min(s.extent.width, d.extent.width), std::min(s.extent.height, d.extent.height), 1};
    if (!clip(rect, both, &x0, &y0, &x1, &y1)) return;
    for (uint32_t y = y0; y < y1 && ok; ++y) {
      for (uint32_t x = x0; x < x1; ++x) {
        const uint8_t* texel = s.base + y * s.row_pitch + VkDeviceSize{x} * s.texel_bytes;
        VkClearColorValue out{}, v{};
        if (!fmt::unpack_aspect(src_format, aspect, texel, &out)) { ok = false; break; }
        for (uint32_t i = 1; i < s.samples && mode != VK_RESOLVE_MODE_SAMPLE_ZERO_BIT; ++i) {
          fmt::unpack_aspect(src_format, aspect, texel + i * sample_bytes, &v);
          for (int c = 0; c < 4; ++c) {
            if (kind == fmt::ValueClass::Float) {
              if (mode == VK_RESOLVE_MODE_AVERAGE_BIT) out.float32[c] += v.float32[c];
              else if (mode == VK_RESOLVE_MODE_MIN_BIT) out.float32[c] = std::min(out.float32[c], v.float32[c]);
              else out.float32[c] = std::max(out.float32[c], v.float32[c]);
            } else if (kind == fmt::ValueClass::SInt) {
              out.int32[c] = mode == VK_RESOLVE_MODE_MIN_BIT ? std::min(out.int32[c], v.int32[c]) : std::max(out.int32[c], v.int32[c]);
            } else {
              out.uint32[c] = mode == VK_RESOLVE_MODE_MIN_BIT ? std::min(out.uint32[c], v.uint32[c]) : std::max(out.uint32[c], v.uint32[c]);
            }
          }
        }
        if (mode == VK_RESOLVE_MODE_AVERAGE_BIT)
          for (int c = 0; c < 4; ++c) out.float32[c] /= static_cast<float>(s.samples);
        uint8_t packed[16];
        if (!fmt::pack_aspect(dst_format, aspect, out, packed)) { ok = false; break; }
        uint8_t* to = d.base + y * d.row_pitch + VkDeviceSize{x} * d.texel_bytes;
        for (uint32_t i = 0; i < d.samples; ++i) memcpy(to + i * (d.texel_bytes / d.samples), packed, d.texel_bytes / d.samples);
      }
    }
  });
  return ok;
}

}  // namespace kiln::mem
