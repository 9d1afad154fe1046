#include "memory/attachment_ops.h"

#include <algorithm>
#include <cstring>

#include "memory/attachment_access.h"
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

ViewPlane plane_of_image(const Image& image, VkImageAspectFlagBits aspect, uint32_t mip, uint32_t array_layer) {
  const SubresourceAddress a = image.layout.address(aspect, mip, array_layer);
  ViewPlane p;
  p.base = image.data + a.offset;
  p.row_pitch = a.row_pitch;
  p.texel_bytes = a.texel_bytes;
  p.samples = image.desc.samples;
  p.extent = a.extent;
  return p;
}

ViewPlane plane_of(const ImageView& view, VkImageAspectFlagBits aspect, uint32_t layer) {
  // A 2D view of a 3D image addresses depth slices of layer 0; other views address array layers.
  const uint32_t array_layer = view.slices_of_3d ? 0 : view.range.baseArrayLayer + layer;
  ViewPlane p = plane_of_image(*view.image, aspect, view.range.baseMipLevel, array_layer);
  if (view.slices_of_3d)
    p.base += (view.range.baseArrayLayer + layer) * view.image->layout.address(aspect, view.range.baseMipLevel, 0).slice_pitch;
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

// The first row by doubling (one texel, then copies of what is already filled: a few large memcpy
// calls instead of one per texel), every other row a copy of it.
void fill_rect(const ViewPlane& p, const uint8_t* texel, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  uint8_t* const first = p.base + y0 * p.row_pitch + VkDeviceSize{x0} * p.texel_bytes;
  const size_t row_bytes = size_t{x1 - x0} * p.texel_bytes;
  memcpy(first, texel, p.texel_bytes);
  for (size_t filled = p.texel_bytes; filled < row_bytes;) {
    const size_t n = std::min(filled, row_bytes - filled);
    memcpy(first + filled, first, n);
    filled += n;
  }
  for (uint32_t y = y0 + 1; y < y1; ++y) memcpy(p.base + y * p.row_pitch + VkDeviceSize{x0} * p.texel_bytes, first, row_bytes);
}

// The format whose values the aspect's plane holds: the view's format for colour (an sRGB view of
// a UNORM image clears in sRGB), the image's for depth/stencil planes.
VkFormat plane_format(const ImageView& view, VkImageAspectFlagBits aspect) {
  return aspect == VK_IMAGE_ASPECT_COLOR_BIT ? view.format : view.image->desc.format;
}

// The formats of a resolve's source and destination planes, and the aspect they hold.
struct PlaneFormats {
  VkFormat src, dst;
  VkImageAspectFlagBits aspect;
};

// One resolved value: the samples of `texel` combined by `mode` (AVERAGE only for float values).
VkClearColorValue resolve_texel(const uint8_t* texel, uint32_t samples, uint32_t sample_bytes, const PlaneFormats& f,
                                fmt::ValueClass kind, VkResolveModeFlagBits mode) {
  VkClearColorValue out{}, v{};
  fmt::unpack_aspect(f.src, f.aspect, texel, &out);
  for (uint32_t i = 1; i < samples && mode != VK_RESOLVE_MODE_SAMPLE_ZERO_BIT; ++i) {
    fmt::unpack_aspect(f.src, f.aspect, texel + i * sample_bytes, &v);
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
    for (int c = 0; c < 4; ++c) out.float32[c] /= static_cast<float>(samples);
  return out;
}

// Formats whose every component is an 8-bit UNORM byte (RGBA8, BGRA8, R8, ...): their AVERAGE
// resolve works byte by byte, without the per-texel unpack/pack calls.
bool is_unorm8_bytes(VkFormat format) {
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (!info || info->is_compressed() || info->packed_bits > 8 * 4 || info->component_count == 0) return false;
  for (uint32_t c = 0; c < info->component_count; ++c)
    if (info->components[c].kind != fmt::NumericKind::UNorm || info->components[c].bits != 8) return false;
  return info->block_bytes == info->component_count;
}

// True when the `count` samples of `sample_bytes` at `texel` are bytewise identical. A resolve of
// such a texel is sample 0 for every mode (averaging equal values gives the value back; doing it
// in float could only add rounding error), so interior pixels of multisampled images are a copy.
bool samples_agree(const uint8_t* texel, uint32_t count, uint32_t sample_bytes) {
  if (sample_bytes == 4) {
    uint32_t first, next;
    memcpy(&first, texel, 4);
    for (uint32_t i = 1; i < count; ++i) {
      memcpy(&next, texel + 4 * i, 4);
      if (next != first) return false;
    }
    return true;
  }
  for (uint32_t i = 1; i < count; ++i)
    if (memcmp(texel, texel + i * sample_bytes, sample_bytes) != 0) return false;
  return true;
}

// AVERAGE of an 8-bit UNORM byte over the samples, exactly as resolve_texel computes it through
// unpack_color/pack_color: the decoded values summed in sample order in float, divided by the
// sample count, encoded with round-to-nearest-even (tests/unit/attachment_ops_test.cpp compares
// both paths over many texels).
uint8_t average_unorm8(const uint8_t* texel, uint32_t samples, uint32_t sample_bytes, const float* decode) {
  float sum = decode[texel[0]];
  for (uint32_t i = 1; i < samples; ++i) sum += decode[texel[i * sample_bytes]];
  return static_cast<uint8_t>(encode_unorm8(sum / static_cast<float>(samples)));
}

// Resolves the width x height texels at (sx, sy) of `s` into (dx, dy) of `d` (every sample of a
// multisampled destination gets the value). False when a format cannot be converted.
bool resolve_rect(const ViewPlane& s, const ViewPlane& d, const PlaneFormats& f, VkResolveModeFlagBits mode, uint32_t sx,
                  uint32_t sy, uint32_t width, uint32_t height, uint32_t dx, uint32_t dy) {
  const fmt::ValueClass kind = fmt::value_class(f.src, f.aspect);
  // Integers cannot be averaged (the spec allows only SAMPLE_ZERO, MIN and MAX for them).
  if (mode == VK_RESOLVE_MODE_AVERAGE_BIT && kind != fmt::ValueClass::Float) mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
  const uint32_t src_sample_bytes = s.texel_bytes / s.samples, dst_sample_bytes = d.texel_bytes / d.samples;
  uint8_t probe[16];
  VkClearColorValue zero{};
  if (!fmt::unpack_aspect(f.src, f.aspect, s.base, &zero) || !fmt::pack_aspect(f.dst, f.aspect, zero, probe)) return false;
  // Texels whose samples agree are copied when both planes hold the same format; AVERAGE of
  // 8-bit UNORM bytes skips the unpack/pack calls. Everything else goes through resolve_texel.
  const bool same_format = f.src == f.dst && src_sample_bytes == dst_sample_bytes && src_sample_bytes <= 16;
  const bool unorm8_average = same_format && mode == VK_RESOLVE_MODE_AVERAGE_BIT && is_unorm8_bytes(f.src);
  const float* decode = unorm8_decode_table();
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const uint8_t* texel = s.base + (sy + y) * s.row_pitch + VkDeviceSize{sx + x} * s.texel_bytes;
      uint8_t packed[16];
      if (same_format && samples_agree(texel, s.samples, src_sample_bytes)) {
        memcpy(packed, texel, src_sample_bytes);
      } else if (unorm8_average) {
        for (uint32_t b = 0; b < src_sample_bytes; ++b)
          packed[b] = average_unorm8(texel + b, s.samples, src_sample_bytes, decode);
      } else {
        const VkClearColorValue value = resolve_texel(texel, s.samples, src_sample_bytes, f, kind, mode);
        fmt::pack_aspect(f.dst, f.aspect, value, packed);
      }
      uint8_t* to = d.base + (dy + y) * d.row_pitch + VkDeviceSize{dx + x} * d.texel_bytes;
      for (uint32_t i = 0; i < d.samples; ++i) memcpy(to + i * dst_sample_bytes, packed, dst_sample_bytes);
    }
  }
  return true;
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
  aspects &= attachment_aspects(view);
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
  if (!(attachment_aspects(src) & aspect) || !(attachment_aspects(dst) & aspect)) return false;
  const PlaneFormats formats{plane_format(src, aspect), plane_format(dst, aspect), aspect};
  bool ok = true;
  for_each_layer(src, layers, [&](uint32_t layer) {
    if (layer >= dst.range.layerCount) return;
    const ViewPlane s = plane_of(src, aspect, layer), d = plane_of(dst, aspect, layer);
    uint32_t x0, y0, x1, y1;
    const VkExtent3D both{std::min(s.extent.width, d.extent.width), std::min(s.extent.height, d.extent.height), 1};
    if (!clip(rect, both, &x0, &y0, &x1, &y1)) return;
    ok = ok && resolve_rect(s, d, formats, mode, x0, y0, x1 - x0, y1 - y0, x0, y0);
  });
  return ok;
}

bool resolve_region_valid(const Image& src, const Image& dst, const VkImageResolve2& r) {
  if (!src.data || !dst.data || src.desc.format != dst.desc.format || dst.desc.samples != VK_SAMPLE_COUNT_1_BIT)
    return false;
  if (r.srcSubresource.aspectMask != VK_IMAGE_ASPECT_COLOR_BIT || r.dstSubresource.aspectMask != VK_IMAGE_ASPECT_COLOR_BIT)
    return false;
  auto inside = [&](const Image& image, const VkImageSubresourceLayers& sub, const VkOffset3D& offset) {
    if (sub.mipLevel >= image.desc.mip_levels || sub.baseArrayLayer >= image.desc.array_layers ||
        r.srcSubresource.layerCount > image.desc.array_layers - sub.baseArrayLayer || offset.x < 0 || offset.y < 0)
      return false;
    const VkExtent3D e = mip_extent(image.desc.extent, sub.mipLevel);
    return uint64_t(offset.x) + r.extent.width <= e.width && uint64_t(offset.y) + r.extent.height <= e.height;
  };
  return r.srcSubresource.layerCount == r.dstSubresource.layerCount && inside(src, r.srcSubresource, r.srcOffset) &&
         inside(dst, r.dstSubresource, r.dstOffset);
}

bool resolve_image(const Image& src, Image& dst, const VkImageResolve2& r) {
  const PlaneFormats formats{src.desc.format, dst.desc.format, VK_IMAGE_ASPECT_COLOR_BIT};
  const VkResolveModeFlagBits mode = color_resolve_mode(src.desc.format);
  bool ok = true;
  for (uint32_t l = 0; l < r.srcSubresource.layerCount && ok; ++l) {
    const ViewPlane s = plane_of_image(src, VK_IMAGE_ASPECT_COLOR_BIT, r.srcSubresource.mipLevel, r.srcSubresource.baseArrayLayer + l);
    const ViewPlane d = plane_of_image(dst, VK_IMAGE_ASPECT_COLOR_BIT, r.dstSubresource.mipLevel, r.dstSubresource.baseArrayLayer + l);
    ok = resolve_rect(s, d, formats, mode, uint32_t(r.srcOffset.x), uint32_t(r.srcOffset.y), r.extent.width,
                      r.extent.height, uint32_t(r.dstOffset.x), uint32_t(r.dstOffset.y));
  }
  return ok;
}

}  // namespace kiln::mem
