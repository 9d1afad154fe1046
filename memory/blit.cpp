// The spec's "Image Copies With Scaling": each destination texel centre is mapped into the source
// region, and the source is sampled there with unnormalized coordinates and CLAMP_TO_EDGE (at the
// edges of the source mip level, not of the region).
#include "memory/blit.h"

#include <algorithm>
#include <cmath>

#include "memory/format_pack.h"
#include "memory/format_table.h"
#include "memory/texel_access.h"

namespace kiln::mem {
namespace {

// One axis of the mapping: u = src0 + (d + 0.5 - dst0) * scale, in source texels.
struct Axis {
  double src0, scale;
  int32_t dst_begin, dst_end;  // destination texels [begin, end)
  double source(int32_t d) const { return src0 + (d + 0.5 - dst_begin_origin) * scale; }
  double dst_begin_origin;
};

Axis make_axis(int32_t s0, int32_t s1, int32_t d0, int32_t d1) {
  Axis a;
  a.src0 = s0;
  a.scale = d1 == d0 ? 0.0 : double(s1 - s0) / double(d1 - d0);
  a.dst_begin_origin = d0;
  a.dst_begin = std::min(d0, d1);
  a.dst_end = std::max(d0, d1);
  return a;
}

int32_t clamp_index(int64_t i, uint32_t size) { return static_cast<int32_t>(std::clamp<int64_t>(i, 0, size - 1)); }

// Saturates integer values to the destination's component ranges (blits between integer formats
// of different widths clamp rather than wrap).
void saturate_integers(const fmt::FormatInfo& info, fmt::ValueClass cls, VkClearColorValue* v) {
  for (uint32_t i = 0; i < info.component_count; ++i) {
    const fmt::Component& c = info.components[i];
    if (c.channel > fmt::Channel::A || c.bits >= 32) continue;
    const uint32_t ch = static_cast<uint32_t>(c.channel);
    if (cls == fmt::ValueClass::UInt) {
      v->uint32[ch] = std::min<uint32_t>(v->uint32[ch], (1u << c.bits) - 1);
    } else if (cls == fmt::ValueClass::SInt) {
      const int32_t hi = (1 << (c.bits - 1)) - 1;
      v->int32[ch] = std::clamp(v->int32[ch], -hi - 1, hi);
    }
  }
}

uint32_t layer_count(const Image& image, const VkImageSubresourceLayers& sub) {
  return sub.layerCount == VK_REMAINING_ARRAY_LAYERS ? image.desc.array_layers - sub.baseArrayLayer : sub.layerCount;
}

bool offsets_inside(const Image& image, uint32_t mip, const VkOffset3D (&o)[2]) {
  const VkExtent3D e = mip_extent(image.desc.extent, mip);
  for (const VkOffset3D& p : o) {
    if (p.x < 0 || p.y < 0 || p.z < 0 || uint32_t(p.x) > e.width || uint32_t(p.y) > e.height ||
        uint32_t(p.z) > e.depth)
      return false;
  }
  return true;
}

}  // namespace

bool blit_region_valid(const Image& src, const Image& dst, const VkImageBlit2& r, VkFilter filter) {
  if (!src.data || !dst.data) return false;
  const fmt::FormatInfo* si = fmt::format_info(src.desc.format);
  const fmt::FormatInfo* di = fmt::format_info(dst.desc.format);
  if (!si || !di || di->is_compressed() || src.desc.samples != 1 || dst.desc.samples != 1) return false;
  const VkImageAspectFlags aspects = r.srcSubresource.aspectMask;
  if (aspects == 0 || aspects != r.dstSubresource.aspectMask || (aspects & ~si->aspects) || (aspects & ~di->aspects))
    return false;
  if (r.srcSubresource.mipLevel >= src.desc.mip_levels || r.dstSubresource.mipLevel >= dst.desc.mip_levels) return false;
  const uint32_t sl = layer_count(src, r.srcSubresource), dl = layer_count(dst, r.dstSubresource);
  if (r.srcSubresource.baseArrayLayer >= src.desc.array_layers || sl > src.desc.array_layers - r.srcSubresource.baseArrayLayer ||
      r.dstSubresource.baseArrayLayer >= dst.desc.array_layers || dl > dst.desc.array_layers - r.dstSubresource.baseArrayLayer ||
      sl != dl)
    return false;
  if (!offsets_inside(src, r.srcSubresource.mipLevel, r.srcOffsets) ||
      !offsets_inside(dst, r.dstSubresource.mipLevel, r.dstOffsets))
    return false;
  // Integer and floating-point values never mix; LINEAR needs float values (and no depth/stencil).
  const auto aspect = static_cast<VkImageAspectFlagBits>(aspects & -aspects);
  const fmt::ValueClass sc = fmt::value_class(src.desc.format, aspect), dc = fmt::value_class(dst.desc.format, aspect);
  if (sc != dc) return false;
  if (filter == VK_FILTER_LINEAR && (sc != fmt::ValueClass::Float || aspects != VK_IMAGE_ASPECT_COLOR_BIT)) return false;
  if (filter != VK_FILTER_LINEAR && filter != VK_FILTER_NEAREST) return false;
  if (aspects != VK_IMAGE_ASPECT_COLOR_BIT && src.desc.format != dst.desc.format) return false;
  return true;
}

uint64_t blit_row_count(const VkImageBlit2& r, const Image& dst) {
  const uint64_t h = std::abs(r.dstOffsets[1].y - r.dstOffsets[0].y);
  const uint64_t d = std::abs(r.dstOffsets[1].z - r.dstOffsets[0].z);
  return h * d * layer_count(dst, r.dstSubresource);
}

void blit_image(const Image& src, Image& dst, const VkImageBlit2& r, VkFilter filter, WorkPart part) {
  const Axis ax = make_axis(r.srcOffsets[0].x, r.srcOffsets[1].x, r.dstOffsets[0].x, r.dstOffsets[1].x);
  const Axis ay = make_axis(r.srcOffsets[0].y, r.srcOffsets[1].y, r.dstOffsets[0].y, r.dstOffsets[1].y);
  const Axis az = make_axis(r.srcOffsets[0].z, r.srcOffsets[1].z, r.dstOffsets[0].z, r.dstOffsets[1].z);
  const uint32_t layers = layer_count(dst, r.dstSubresource);
  const uint32_t rows_per_slice = ay.dst_end - ay.dst_begin, slices = az.dst_end - az.dst_begin;
  const uint64_t total_rows = uint64_t{rows_per_slice} * slices * layers;
  const uint64_t first = total_rows * part.index / part.count, last = total_rows * (part.index + 1) / part.count;
  const VkExtent3D src_extent = mip_extent(src.desc.extent, r.srcSubresource.mipLevel);
  const bool linear = filter == VK_FILTER_LINEAR;
  const bool is_3d = src.desc.type == VK_IMAGE_TYPE_3D;
  const fmt::FormatInfo& dst_info = *fmt::format_info(dst.desc.format);

  for (VkImageAspectFlags bit = VK_IMAGE_ASPECT_COLOR_BIT; bit <= VK_IMAGE_ASPECT_STENCIL_BIT; bit <<= 1) {
    if (!(r.srcSubresource.aspectMask & bit)) continue;
    const auto aspect = static_cast<VkImageAspectFlagBits>(bit);
    const fmt::ValueClass cls = fmt::value_class(dst.desc.format, aspect);
    for (uint64_t row = first; row < last; ++row) {
      const uint32_t layer = static_cast<uint32_t>(row / (uint64_t{rows_per_slice} * slices));
      const uint32_t in_layer = static_cast<uint32_t>(row % (uint64_t{rows_per_slice} * slices));
      const int32_t dz = az.dst_begin + static_cast<int32_t>(in_layer / rows_per_slice);
      const int32_t dy = ay.dst_begin + static_cast<int32_t>(in_layer % rows_per_slice);
      TexelReader reader(src, aspect, r.srcSubresource.mipLevel, r.srcSubresource.baseArrayLayer + layer);
      const double v = ay.source(dy), w = az.source(dz);
      for (int32_t dx = ax.dst_begin; dx < ax.dst_end; ++dx) {
        const double u = ax.source(dx);
        VkClearColorValue out{};
        if (!linear) {
          out = reader.read(clamp_index(std::floor(u), src_extent.width), clamp_index(std::floor(v), src_extent.height),
                            clamp_index(std::floor(w), src_extent.depth));
          if (cls != fmt::ValueClass::Float) saturate_integers(dst_info, cls, &out);
        } else {
          // Bilinear (trilinear for 3D) between the texel centres around (u, v, w).
          const double fu = u - 0.5, fv = v - 0.5, fw = is_3d ? w - 0.5 : std::floor(w);
          const int64_t iu = static_cast<int64_t>(std::floor(fu)), iv = static_cast<int64_t>(std::floor(fv));
          const int64_t iw = static_cast<int64_t>(std::floor(fw));
          const double tu = fu - iu, tv = fv - iv, tw = is_3d ? fw - iw : 0.0;
          double acc[4] = {};
          for (int k = 0; k < (is_3d ? 2 : 1); ++k) {
            for (int j = 0; j < 2; ++j) {
              for (int i = 0; i < 2; ++i) {
                const double weight = (i ? tu : 1 - tu) * (j ? tv : 1 - tv) * (k ? tw : 1 - tw);
                if (weight == 0.0) continue;
                const VkClearColorValue t = reader.read(clamp_index(iu + i, src_extent.width),
                                                        clamp_index(iv + j, src_extent.height),
                                                        clamp_index(iw + k, src_extent.depth));
                for (int c = 0; c < 4; ++c) acc[c] += weight * t.float32[c];
              }
            }
          }
          for (int c = 0; c < 4; ++c) out.float32[c] = static_cast<float>(acc[c]);
        }
        write_texel(dst, aspect, r.dstSubresource.mipLevel, r.dstSubresource.baseArrayLayer + layer,
                    static_cast<uint32_t>(dx), static_cast<uint32_t>(dy), static_cast<uint32_t>(dz), out);
      }
    }
  }
}

}  // namespace kiln::mem
