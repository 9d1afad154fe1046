#include "pipeline/graphics/setup_batch.h"

#include <immintrin.h>

#include <cstddef>
#include <cstring>

#include "pipeline/graphics/screen_vertices_x16.h"

namespace kiln::exec::gfx {

// The AVX-512 code is compiled for its target function by function, so this file builds for the
// baseline ISA and setup_x16_supported() decides at run time.
#define KILN_X16 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,bmi2")))

namespace {

// Where the 32 bytes after a RasterTriangle's positions and bounds are (the tail is written as
// one 256-bit store).
static_assert(offsetof(RasterTriangle, bounds) == 48 && offsetof(RasterTriangle, values) == 64);
static_assert(offsetof(RasterTriangle, primitive_id) == 68 && offsetof(RasterTriangle, depth_bias) == 72);
static_assert(offsetof(RasterTriangle, point_origin) == 76 && offsetof(RasterTriangle, point_size) == 84);
static_assert(offsetof(RasterTriangle, viewport) == 88 && offsetof(RasterTriangle, kind) == 89);
static_assert(offsetof(RasterTriangle, front_facing) == 90 && offsetof(RasterTriangle, flat_only) == 91);
static_assert(offsetof(RasterTriangle, layer) == 92 && offsetof(RasterTriangle, line) == 94);
static_assert(uint8_t(PrimitiveKind::Triangle) == 0);

// holds_sample_position's test on one axis for 16 boxes [lo, hi] and one sample offset: the
// first pixel whose sample is at or after lo is ceil((lo - offset) / 256), an arithmetic shift of
// (lo - offset + 255); everything fits int32 (setup clamps positions to +-2^25).
KILN_X16 inline __mmask16 holds_sample_x16(__m512i lo, __m512i hi, __m512i offset) {
  const __m512i first = _mm512_sub_epi32(lo, offset);
  const __m512i pixel = _mm512_srai_epi32(_mm512_add_epi32(first, _mm512_set1_epi32(kSubpixelOne - 1)), kSubpixelBits);
  return _mm512_cmple_epi32_mask(_mm512_add_epi32(_mm512_slli_epi32(pixel, kSubpixelBits), offset), hi);
}

// The sign of area2 = dx1 * dy2 - dy1 * dx2 in 16 lanes, exact: the products need 53 bits, so
// even and odd lanes are multiplied as int64 separately and their compare masks interleaved.
KILN_X16 inline void area_signs_x16(__m512i dx1, __m512i dy2, __m512i dy1, __m512i dx2, __mmask16* negative,
                                    __mmask16* nonzero) {
  const __m512i even = _mm512_sub_epi64(_mm512_mul_epi32(dx1, dy2), _mm512_mul_epi32(dy1, dx2));
  const __m512i odd = _mm512_sub_epi64(_mm512_mul_epi32(_mm512_srli_epi64(dx1, 32), _mm512_srli_epi64(dy2, 32)),
                                       _mm512_mul_epi32(_mm512_srli_epi64(dy1, 32), _mm512_srli_epi64(dx2, 32)));
  const __m512i zero = _mm512_setzero_si512();
  *negative = __mmask16(_pdep_u32(_mm512_cmplt_epi64_mask(even, zero), 0x5555u) |
                        _pdep_u32(_mm512_cmplt_epi64_mask(odd, zero), 0xAAAAu));
  *nonzero = __mmask16(_pdep_u32(_mm512_cmpneq_epi64_mask(even, zero), 0x5555u) |
                       _pdep_u32(_mm512_cmpneq_epi64_mask(odd, zero), 0xAAAAu));
}

KILN_X16 void setup_x16(const DrawContext& ctx, const BatchVertices& v, const PendingTriangles& tris,
                        BatchOutput& out) {
  const size_t count = tris.size();
  const RasterizationState& rs = ctx.state->rasterization;
  const bool ccw_front = rs.front_face == VK_FRONT_FACE_COUNTER_CLOCKWISE;
  const bool cull_front = rs.cull_mode & VK_CULL_MODE_FRONT_BIT, cull_back = rs.cull_mode & VK_CULL_MODE_BACK_BIT;
  const bool has_bias = rs.depth_bias_enable;
  const bool has_values = ctx.vertex_format.raster_values() != 0;
  const Rect scissor = ctx.viewports[0].triangle_scissor;  // polygon mode FILL: triangles only
  __m512i sample_x[kMaxSamples], sample_y[kMaxSamples];
  for (uint32_t s = 0; s < ctx.samples; ++s) {
    sample_x[s] = _mm512_set1_epi32(ctx.sample_x[s]);
    sample_y[s] = _mm512_set1_epi32(ctx.sample_y[s]);
  }
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
  const __m512i low16 = _mm512_set1_epi32(0xFFFF), line_none = _mm512_set1_epi32(int(uint32_t{kNoLineRaster} << 16));
  const __m512i front_word = _mm512_set1_epi32(1 << 16);  // front_facing, the third byte
  const int* packed = reinterpret_cast<const int*>(v.packed);
  // Three packed vertices and the bounds (x0, y0, x1, y1) in the four 128-bit lanes of a register
  // -> x[3], y[3], z[3], inv_w[3], bounds: the first 64 bytes of a RasterTriangle.
  const __m512i to_triangle = _mm512_setr_epi32(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 12, 13, 14, 15);
  // The kept triangles' fields, packed to the front: oriented vertex slots, lane, PrimitiveId, and
  // the tail's facing (viewport, kind, front_facing, flat_only) and layer (layer, line) words.
  alignas(64) uint32_t kept_a[16], kept_b[16], kept_c[16], kept_lane[16], kept_id[16], kept_facing[16], kept_layer[16];
  const bool slow_tail = has_bias || has_values;
  alignas(64) int32_t bounds[4][16];  // triangle j's bounds at bounds[j % 4][4 * (j / 4)]
  for (size_t base = 0; base < count; base += 16) {
    const size_t lanes = count - base < 16 ? count - base : 16;
    const __mmask16 live = __mmask16((1u << lanes) - 1);
    const __m512i sa = _mm512_maskz_loadu_epi32(live, tris.slots(0) + base);
    const __m512i sb = _mm512_maskz_loadu_epi32(live, tris.slots(1) + base);
    const __m512i sc = _mm512_maskz_loadu_epi32(live, tris.slots(2) + base);
    const __m512i ia = _mm512_slli_epi32(sa, 2), ib = _mm512_slli_epi32(sb, 2), ic = _mm512_slli_epi32(sc, 2);
    const __m512i ax = _mm512_mask_i32gather_epi32(zero, live, ia, packed + 0, 4);
    const __m512i ay = _mm512_mask_i32gather_epi32(zero, live, ia, packed + 1, 4);
    const __m512i bx = _mm512_mask_i32gather_epi32(zero, live, ib, packed + 0, 4);
    const __m512i by = _mm512_mask_i32gather_epi32(zero, live, ib, packed + 1, 4);
    const __m512i cx = _mm512_mask_i32gather_epi32(zero, live, ic, packed + 0, 4);
    const __m512i cy = _mm512_mask_i32gather_epi32(zero, live, ic, packed + 1, 4);
    // setup_screen_triangle's rejections, all lanes at once (their order does not matter).
    const __m512i min_x = _mm512_min_epi32(ax, _mm512_min_epi32(bx, cx));
    const __m512i max_x = _mm512_max_epi32(ax, _mm512_max_epi32(bx, cx));
    const __m512i min_y = _mm512_min_epi32(ay, _mm512_min_epi32(by, cy));
    const __m512i max_y = _mm512_max_epi32(ay, _mm512_max_epi32(by, cy));
    __mmask16 holds = 0;
    for (uint32_t s = 0; s < ctx.samples; ++s)
      holds |= holds_sample_x16(min_x, max_x, sample_x[s]) & holds_sample_x16(min_y, max_y, sample_y[s]);
    __mmask16 negative, nonzero;
    area_signs_x16(_mm512_sub_epi32(bx, ax), _mm512_sub_epi32(cy, ay), _mm512_sub_epi32(by, ay),
                   _mm512_sub_epi32(cx, ax), &negative, &nonzero);
    // pack() marked vertices with a coordinate that is not finite (the other tests' lanes are
    // meaningless there, and dropped).
    const __m512i not_finite = _mm512_set1_epi32(kNotFiniteFixed);
    const __mmask16 finite = _mm512_cmpneq_epi32_mask(ax, not_finite) & _mm512_cmpneq_epi32_mask(bx, not_finite) &
                             _mm512_cmpneq_epi32_mask(cx, not_finite);
    // is_front: Vulkan's counter-clockwise is a negative fixed-point area (y points down).
    const __mmask16 front = ccw_front ? negative : __mmask16(~negative);
    __mmask16 keep = live & holds & nonzero & finite;
    if (cull_front) keep &= ~front;
    if (cull_back) keep &= front;
    // store_triangle's pixel bounds ∩ scissor; empty ones are dropped.
    const __m512i x0 = _mm512_max_epi32(_mm512_srai_epi32(min_x, kSubpixelBits), _mm512_set1_epi32(scissor.x0));
    const __m512i y0 = _mm512_max_epi32(_mm512_srai_epi32(min_y, kSubpixelBits), _mm512_set1_epi32(scissor.y0));
    const __m512i x1 = _mm512_min_epi32(_mm512_add_epi32(_mm512_srai_epi32(max_x, kSubpixelBits), one),
                                        _mm512_set1_epi32(scissor.x1));
    const __m512i y1 = _mm512_min_epi32(_mm512_add_epi32(_mm512_srai_epi32(max_y, kSubpixelBits), one),
                                        _mm512_set1_epi32(scissor.y1));
    keep &= _mm512_cmplt_epi32_mask(x0, x1) & _mm512_cmplt_epi32_mask(y0, y1);
    if (keep == 0) continue;
    // The kept triangles packed to the front, their bounds as (x0, y0, x1, y1) records.
    _mm512_store_si512(kept_a, _mm512_maskz_compress_epi32(keep, sa));
    // emit_triangle's orientation: b and c swap where the area is negative.
    _mm512_store_si512(kept_b, _mm512_maskz_compress_epi32(keep, _mm512_mask_blend_epi32(negative, sb, sc)));
    _mm512_store_si512(kept_c, _mm512_maskz_compress_epi32(keep, _mm512_mask_blend_epi32(negative, sc, sb)));
    _mm512_store_si512(kept_lane, _mm512_maskz_compress_epi32(keep, lane));
    _mm512_store_si512(kept_id, _mm512_maskz_compress_epi32(keep, _mm512_maskz_loadu_epi32(live, tris.primitive_id() + base)));
    const __m512i layer = _mm512_maskz_loadu_epi32(live, tris.layer() + base);
    _mm512_store_si512(kept_layer, _mm512_maskz_compress_epi32(keep, _mm512_or_si512(_mm512_and_si512(layer, low16),
                                                                                    line_none)));
    _mm512_store_si512(kept_facing, _mm512_maskz_compress_epi32(keep, _mm512_maskz_mov_epi32(front, front_word)));
    const __m512i kx0 = _mm512_maskz_compress_epi32(keep, x0), ky0 = _mm512_maskz_compress_epi32(keep, y0);
    const __m512i kx1 = _mm512_maskz_compress_epi32(keep, x1), ky1 = _mm512_maskz_compress_epi32(keep, y1);
    const __m512i lo0 = _mm512_unpacklo_epi32(kx0, ky0), hi0 = _mm512_unpackhi_epi32(kx0, ky0);
    const __m512i lo1 = _mm512_unpacklo_epi32(kx1, ky1), hi1 = _mm512_unpackhi_epi32(kx1, ky1);
    _mm512_store_si512(bounds[0], _mm512_unpacklo_epi64(lo0, lo1));
    _mm512_store_si512(bounds[1], _mm512_unpackhi_epi64(lo0, lo1));
    _mm512_store_si512(bounds[2], _mm512_unpacklo_epi64(hi0, hi1));
    _mm512_store_si512(bounds[3], _mm512_unpackhi_epi64(hi0, hi1));
    const uint32_t kept_negative = _pext_u32(negative, keep);  // for the depth bias's vertex order
    const uint32_t kept = uint32_t(__builtin_popcount(keep));
    // Grown by the kept triangles only: sizing for all of them up front default-constructs (zeroes
    // the bounds of) triangles that are mostly dropped in dense meshes, and grows the batch's
    // list beyond what it keeps.
    const size_t first = out.triangles.size();
    out.triangles.resize(first + kept);  // every byte is written below
    RasterTriangle* dst = out.triangles.data() + first;
    // The tail without the per-triangle words: values (when there are none), depth bias 0,
    // point_origin and point_size 0.
    const __m256i tail_template =
        _mm256_setr_epi32(int(out.values.size()), 0, 0, 0, 0, 0, 0, int(uint32_t{kNoLineRaster} << 16));
    for (uint32_t j = 0; j < kept; ++j) {
      const uint32_t a = kept_a[j], b = kept_b[j], c = kept_c[j];
      __m512i head = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v.packed + a)));
      head = _mm512_inserti32x4(head, _mm_loadu_si128(reinterpret_cast<const __m128i*>(v.packed + b)), 1);
      head = _mm512_inserti32x4(head, _mm_loadu_si128(reinterpret_cast<const __m128i*>(v.packed + c)), 2);
      head = _mm512_inserti32x4(head, _mm_load_si128(reinterpret_cast<const __m128i*>(&bounds[j & 3][4 * (j >> 2)])), 3);
      _mm512_storeu_si512(dst + j, _mm512_permutexvar_epi32(to_triangle, head));
      // The tail: the template, then this triangle's words over it.
      uint8_t* const tail = reinterpret_cast<uint8_t*>(dst + j) + 64;
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(tail), tail_template);
      memcpy(tail + (offsetof(RasterTriangle, primitive_id) - 64), &kept_id[j], 4);
      memcpy(tail + (offsetof(RasterTriangle, viewport) - 64), &kept_facing[j], 4);
      memcpy(tail + (offsetof(RasterTriangle, layer) - 64), &kept_layer[j], 4);
      if (!slow_tail) continue;
      if (has_bias) {  // from the vertices in their original order, as setup_screen_triangle does
        const bool swapped = (kept_negative >> j) & 1;
        const float bias = triangle_depth_bias(ctx, v.screen[a], v.screen[swapped ? c : b], v.screen[swapped ? b : c]);
        memcpy(tail + (offsetof(RasterTriangle, depth_bias) - 64), &bias, 4);
      }
      if (has_values) {
        const uint32_t* const rows[3] = {v.shaded + size_t(a) * v.stride, v.shaded + size_t(b) * v.stride,
                                         v.shaded + size_t(c) * v.stride};
        const uint32_t provoking = tris.provoking()[base + kept_lane[j]];
        const uint32_t values = append_triangle_values(ctx, v.shaded + size_t(provoking) * v.stride, rows, out);
        memcpy(tail + (offsetof(RasterTriangle, values) - 64), &values, 4);
      }
    }
  }
}

}  // namespace

bool setup_x16_supported() {
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi2");
  }();
  return supported;
}

void setup_screen_triangles_scalar(const DrawContext& ctx, const BatchVertices& v, const PendingTriangles& tris,
                                   BatchOutput& out) {
  for (size_t i = 0; i < tris.size(); ++i) {
    PrimitiveInfo info{};
    info.primitive_id = tris.primitive_id()[i];
    info.provoking = v.shaded + size_t(tris.provoking()[i]) * v.stride;
    info.layer = tris.layer()[i];
    setup_screen_triangle(ctx, info, v.screen[tris.slots(0)[i]], v.screen[tris.slots(1)[i]],
                          v.screen[tris.slots(2)[i]], out);
  }
}

void setup_screen_triangles_x16(const DrawContext& ctx, const BatchVertices& v, const PendingTriangles& tris,
                                BatchOutput& out) {
  setup_x16(ctx, v, tris, out);
}

bool front_end_avx512 = setup_x16_supported() && screen_vertices_x16_supported();

namespace {
bool uses_x16(const DrawContext& ctx) {
  return front_end_avx512 && ctx.state->rasterization.polygon_mode == VK_POLYGON_MODE_FILL;
}
}  // namespace

bool setup_reads_screen_vertices(const DrawContext& ctx) {
  return !uses_x16(ctx) || ctx.state->rasterization.depth_bias_enable;
}

void setup_screen_triangles(const DrawContext& ctx, const BatchVertices& v, const PendingTriangles& tris,
                            BatchOutput& out) {
  if (uses_x16(ctx)) setup_x16(ctx, v, tris, out);
  else setup_screen_triangles_scalar(ctx, v, tris, out);
}

}  // namespace kiln::exec::gfx
