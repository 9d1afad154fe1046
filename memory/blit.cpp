// The spec's "Image Copies With Scaling": each destination texel centre is mapped into the source
// region, and the source is sampled there with unnormalized coordinates and CLAMP_TO_EDGE (at the
// edges of the source mip level, not of the region).
#include "memory/blit.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

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

// Fast path for 2D blits between images of the same four-channel 8-bit UNORM format (RGBA8,
// BGRA8, ABGR8): every channel is filtered alike, so the channel order does not matter. It repeats
// the general path's arithmetic (texel = fmt::unorm_to_float, weights and sums in double, the
// result rounded to float and then encoded by round-to-nearest-even) in the same order, so its
// results are bit-identical (tests/unit/transfer_test.cpp checks); it only drops the per-texel
// format switches and reuses the column mapping for every row.
bool is_unorm8x4(VkFormat f) {
  return f == VK_FORMAT_R8G8B8A8_UNORM || f == VK_FORMAT_B8G8R8A8_UNORM || f == VK_FORMAT_A8B8G8R8_UNORM_PACK32;
}

struct Unorm8Table {
  double value[256];  // double(float(code / 255)), as unpacking gives it
  Unorm8Table() {
    for (uint32_t c = 0; c < 256; ++c) value[c] = double(fmt::unorm_to_float(c, 8));
  }
};

// Round to nearest even for 0 <= x < 2^51 (format_pack's rounding of an 8-bit code).
inline double round_half_even(double x) {
  constexpr double kMagic = 6755399441055744.0;  // 1.5 * 2^52
  return (x + kMagic) - kMagic;  // not folded: the compiler keeps IEEE semantics (no -ffast-math)
}

uint8_t encode_unorm8(double filtered) {
  const double x = std::clamp(double(static_cast<float>(filtered)) * 255.0, 0.0, 255.0);
  return static_cast<uint8_t>(round_half_even(x));
}

// One destination texel of a linear blit with AVX2: the four channels of a texel are one vector
// of doubles; the operations and their order are the scalar loop's below (texel = float(code) /
// 255 as float, which equals fmt::unorm_to_float for every code; weight * texel summed in double;
// rounded to float, scaled by 255, clamped and rounded to nearest even).
__attribute__((target("avx2"))) void blit_texel_avx2(const uint8_t* const rows[2], const int32_t cols[2],
                                                     const double wx[2], const double wy[2], uint8_t* out) {
  __m256d acc = _mm256_setzero_pd();
  const __m128 scale = _mm_set1_ps(255.0f);
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 2; ++i) {
      const double weight = wx[i] * wy[j] * 1.0;
      if (weight == 0.0) continue;
      int32_t word;
      std::memcpy(&word, rows[j] + uint64_t(cols[i]) * 4, 4);
      const __m128 texel = _mm_div_ps(_mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(word))), scale);
      acc = _mm256_add_pd(acc, _mm256_mul_pd(_mm256_set1_pd(weight), _mm256_cvtps_pd(texel)));
    }
  }
  const __m256d scaled = _mm256_mul_pd(_mm256_cvtps_pd(_mm256_cvtpd_ps(acc)), _mm256_set1_pd(255.0));
  const __m256d clamped = _mm256_min_pd(_mm256_max_pd(scaled, _mm256_setzero_pd()), _mm256_set1_pd(255.0));
  const __m128i codes = _mm256_cvtpd_epi32(_mm256_round_pd(clamped, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  const int32_t packed = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packus_epi32(codes, codes), _mm_setzero_si128()));
  std::memcpy(out, &packed, 4);
}

bool has_avx2() {
  static const bool avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return avx2;
}

void blit_unorm8x4(const Image& src, Image& dst, const VkImageBlit2& r, bool linear, const Axis& ax, const Axis& ay,
                   uint64_t first, uint64_t last) {
  const bool avx2 = has_avx2();
  static const Unorm8Table table;
  const uint32_t rows_per_layer = ay.dst_end - ay.dst_begin;
  const VkExtent3D e = mip_extent(src.desc.extent, r.srcSubresource.mipLevel);
  // Per destination column: the two source columns and their weights (or the nearest column).
  struct Column {
    int32_t i0, i1;
    double w0, w1;
  };
  std::vector<Column> columns(ax.dst_end - ax.dst_begin);
  for (int32_t dx = ax.dst_begin; dx < ax.dst_end; ++dx) {
    const double u = ax.source(dx);
    Column& c = columns[dx - ax.dst_begin];
    if (!linear) {
      c.i0 = c.i1 = clamp_index(std::floor(u), e.width);
      c.w0 = 1.0, c.w1 = 0.0;
      continue;
    }
    const double fu = u - 0.5;
    const int64_t iu = static_cast<int64_t>(std::floor(fu));
    const double tu = fu - iu;
    c = {clamp_index(iu, e.width), clamp_index(iu + 1, e.width), 1 - tu, tu};
  }
  for (uint64_t row = first; row < last; ++row) {
    const uint32_t layer = static_cast<uint32_t>(row / rows_per_layer);
    const int32_t dy = ay.dst_begin + static_cast<int32_t>(row % rows_per_layer);
    const SubresourceAddress sa = src.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, r.srcSubresource.mipLevel,
                                                     r.srcSubresource.baseArrayLayer + layer);
    const SubresourceAddress da = dst.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, r.dstSubresource.mipLevel,
                                                     r.dstSubresource.baseArrayLayer + layer);
    uint8_t* out = dst.data + da.offset + uint64_t(dy) * da.row_pitch;
    const double v = ay.source(dy);
    if (!linear) {
      const uint8_t* in = src.data + sa.offset + uint64_t(clamp_index(std::floor(v), e.height)) * sa.row_pitch;
      for (int32_t dx = ax.dst_begin; dx < ax.dst_end; ++dx)
        std::memcpy(out + uint64_t(dx) * 4, in + uint64_t(columns[dx - ax.dst_begin].i0) * 4, 4);
      continue;
    }
    const double fv = v - 0.5;
    const int64_t iv = static_cast<int64_t>(std::floor(fv));
    const double tv = fv - iv;
    const uint8_t* rows[2] = {src.data + sa.offset + uint64_t(clamp_index(iv, e.height)) * sa.row_pitch,
                              src.data + sa.offset + uint64_t(clamp_index(iv + 1, e.height)) * sa.row_pitch};
    const double wy[2] = {1 - tv, tv};
    for (int32_t dx = ax.dst_begin; dx < ax.dst_end; ++dx) {
      const Column& c = columns[dx - ax.dst_begin];
      const int32_t cols[2] = {c.i0, c.i1};
      const double wx[2] = {c.w0, c.w1};
      if (avx2) {
        blit_texel_avx2(rows, cols, wx, wy, out + uint64_t(dx) * 4);
        continue;
      }
      double acc[4] = {0, 0, 0, 0};
      for (int j = 0; j < 2; ++j) {
        for (int i = 0; i < 2; ++i) {
          const double weight = wx[i] * wy[j] * 1.0;  // the general path's (k ? tw : 1 - tw) factor, tw = 0
          if (weight == 0.0) continue;
          const uint8_t* t = rows[j] + uint64_t(cols[i]) * 4;
          for (int ch = 0; ch < 4; ++ch) acc[ch] += weight * table.value[t[ch]];
        }
      }
      for (int ch = 0; ch < 4; ++ch) out[uint64_t(dx) * 4 + ch] = encode_unorm8(acc[ch]);
    }
  }
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
  if (src.desc.format == dst.desc.format && is_unorm8x4(src.desc.format) && src.desc.type == VK_IMAGE_TYPE_2D &&
      dst.desc.type == VK_IMAGE_TYPE_2D && r.srcSubresource.aspectMask == VK_IMAGE_ASPECT_COLOR_BIT) {
    blit_unorm8x4(src, dst, r, linear, ax, ay, first, last);
    return;
  }

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
