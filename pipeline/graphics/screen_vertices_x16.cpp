#include "pipeline/graphics/screen_vertices_x16.h"

#include <immintrin.h>

#include <cstring>
#include <limits>

namespace kiln::exec::gfx {

#define KILN_X16 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

namespace {

KILN_X16 inline __m512i bit_if_outside(__mmask16 inside, int bit) {
  return _mm512_maskz_mov_epi32(__mmask16(~inside), _mm512_set1_epi32(1 << bit));
}

// to_fixed4 (setup.cpp) on 16 floats: clamp, exact v * 256, truncation and fraction, a step away
// from zero when |fraction| >= 1/2; NaN and infinities give 0.
KILN_X16 inline __m512i to_fixed_x16(__m512 v) {
  const __m512 limit = _mm512_set1_ps(4.0f * kGuardBandPixels), neg_limit = _mm512_set1_ps(-4.0f * kGuardBandPixels);
  const __m512 scaled = _mm512_mul_ps(_mm512_min_ps(_mm512_max_ps(v, neg_limit), limit), _mm512_set1_ps(float(kSubpixelOne)));
  const __m512i truncated = _mm512_cvttps_epi32(scaled);
  const __m512 fraction = _mm512_sub_ps(scaled, _mm512_cvtepi32_ps(truncated));
  const __mmask16 round = _mm512_cmp_ps_mask(_mm512_abs_ps(fraction), _mm512_set1_ps(0.5f), _CMP_GE_OQ);
  const __m512i step = _mm512_or_si512(_mm512_srai_epi32(_mm512_castps_si512(fraction), 31), _mm512_set1_epi32(1));
  const __mmask16 finite = _mm512_cmp_ps_mask(_mm512_sub_ps(v, v), _mm512_setzero_ps(), _CMP_EQ_OQ);
  return _mm512_maskz_add_epi32(finite, truncated, _mm512_maskz_mov_epi32(round, step));
}

// 16 records (fx, fy, z, inv_w) from four component vectors: a 4x16 transpose.
KILN_X16 inline void store_records(__m512i fx, __m512i fy, __m512 z, __m512 inv_w, PackedScreenVertex* out) {
  const __m512i zi = _mm512_castps_si512(z), wi = _mm512_castps_si512(inv_w);
  const __m512i xy_lo = _mm512_unpacklo_epi32(fx, fy), xy_hi = _mm512_unpackhi_epi32(fx, fy);
  const __m512i zw_lo = _mm512_unpacklo_epi32(zi, wi), zw_hi = _mm512_unpackhi_epi32(zi, wi);
  // rec_k holds vertex 4L + k in its 128-bit lane L.
  const __m512i rec0 = _mm512_unpacklo_epi64(xy_lo, zw_lo), rec1 = _mm512_unpackhi_epi64(xy_lo, zw_lo);
  const __m512i rec2 = _mm512_unpacklo_epi64(xy_hi, zw_hi), rec3 = _mm512_unpackhi_epi64(xy_hi, zw_hi);
  const __m512i t0 = _mm512_shuffle_i32x4(rec0, rec1, 0x44), t1 = _mm512_shuffle_i32x4(rec2, rec3, 0x44);
  const __m512i t2 = _mm512_shuffle_i32x4(rec0, rec1, 0xEE), t3 = _mm512_shuffle_i32x4(rec2, rec3, 0xEE);
  __m512i* dst = reinterpret_cast<__m512i*>(out);
  _mm512_storeu_si512(dst + 0, _mm512_shuffle_i32x4(t0, t1, 0x88));  // vertices 0-3
  _mm512_storeu_si512(dst + 1, _mm512_shuffle_i32x4(t0, t1, 0xDD));  // 4-7
  _mm512_storeu_si512(dst + 2, _mm512_shuffle_i32x4(t2, t3, 0x88));  // 8-11
  _mm512_storeu_si512(dst + 3, _mm512_shuffle_i32x4(t2, t3, 0xDD));  // 12-15
}

KILN_X16 void run_x16(const DrawContext& ctx, const ViewportTransform& vp, const float* positions, size_t count,
                      uint32_t* outcodes, PackedScreenVertex* packed) {
  const float *pos_x = positions, *pos_y = positions + count, *pos_z = positions + 2 * count,
              *pos_w = positions + 3 * count;
  // clip_outcodes' fixed planes.
  const __m512 zero = _mm512_setzero_ps();
  const __m512 lo_x = _mm512_set1_ps(vp.guard_lo[0]), hi_x = _mm512_set1_ps(vp.guard_hi[0]);
  const __m512 lo_y = _mm512_set1_ps(vp.guard_lo[1]), hi_y = _mm512_set1_ps(vp.guard_hi[1]);
  const __m512 min_w = _mm512_set1_ps(1e-20f);
  const bool depth_clip = ctx.state->rasterization.depth_clip;
  // to_screen_vertices' transform.
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 scale_x = _mm512_set1_ps(vp.scale[0]), scale_y = _mm512_set1_ps(vp.scale[1]);
  const __m512 scale_z = _mm512_set1_ps(vp.scale[2]);
  const __m512 offset_x = _mm512_set1_ps(vp.offset[0]), offset_y = _mm512_set1_ps(vp.offset[1]);
  const __m512 offset_z = _mm512_set1_ps(vp.offset[2]);
  const __m512i not_finite = _mm512_set1_epi32(kNotFiniteFixed);
  alignas(64) PackedScreenVertex tail[16];
  for (size_t i = 0; i < count; i += 16) {
    const size_t lanes = count - i < 16 ? count - i : 16;
    const __mmask16 live = __mmask16((1u << lanes) - 1);
    const __m512 x = _mm512_maskz_loadu_ps(live, pos_x + i), y = _mm512_maskz_loadu_ps(live, pos_y + i);
    const __m512 z = _mm512_maskz_loadu_ps(live, pos_z + i), w = _mm512_maskz_loadu_ps(live, pos_w + i);
    __m512i code = bit_if_outside(_mm512_cmp_ps_mask(_mm512_sub_ps(x, _mm512_mul_ps(lo_x, w)), zero, _CMP_GE_OQ), 0);
    code = _mm512_or_si512(code, bit_if_outside(_mm512_cmp_ps_mask(_mm512_sub_ps(_mm512_mul_ps(hi_x, w), x), zero, _CMP_GE_OQ), 1));
    code = _mm512_or_si512(code, bit_if_outside(_mm512_cmp_ps_mask(_mm512_sub_ps(y, _mm512_mul_ps(lo_y, w)), zero, _CMP_GE_OQ), 2));
    code = _mm512_or_si512(code, bit_if_outside(_mm512_cmp_ps_mask(_mm512_sub_ps(_mm512_mul_ps(hi_y, w), y), zero, _CMP_GE_OQ), 3));
    if (depth_clip) {
      const __m512 near = vp.near_at_minus_w ? _mm512_add_ps(z, w) : z;
      code = _mm512_or_si512(code, bit_if_outside(_mm512_cmp_ps_mask(near, zero, _CMP_GE_OQ), 4));
      code = _mm512_or_si512(code, bit_if_outside(_mm512_cmp_ps_mask(_mm512_sub_ps(w, z), zero, _CMP_GE_OQ), 5));
    }
    code = _mm512_or_si512(code, bit_if_outside(_mm512_cmp_ps_mask(_mm512_sub_ps(w, min_w), zero, _CMP_GE_OQ), 6));
    _mm512_mask_storeu_epi32(outcodes + i, live, code);
    const __m512 inv_w = _mm512_div_ps(one, w);
    const __m512 sx = _mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(x, inv_w), scale_x), offset_x);
    const __m512 sy = _mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(y, inv_w), scale_y), offset_y);
    const __m512 sz = _mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(z, inv_w), scale_z), offset_z);
    // pack(): kNotFiniteFixed for x where x, y or z is not finite.
    const __mmask16 all_finite = _mm512_cmp_ps_mask(_mm512_sub_ps(sx, sx), zero, _CMP_EQ_OQ) &
                                 _mm512_cmp_ps_mask(_mm512_sub_ps(sy, sy), zero, _CMP_EQ_OQ) &
                                 _mm512_cmp_ps_mask(_mm512_sub_ps(sz, sz), zero, _CMP_EQ_OQ);
    const __m512i px = _mm512_mask_blend_epi32(all_finite, not_finite, to_fixed_x16(sx));
    if (lanes == 16) {
      store_records(px, to_fixed_x16(sy), sz, inv_w, packed + i);
    } else {
      store_records(px, to_fixed_x16(sy), sz, inv_w, tail);
      memcpy(packed + i, tail, lanes * sizeof(PackedScreenVertex));
    }
  }
}

}  // namespace

bool screen_vertices_x16_supported() {
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  }();
  return supported;
}

void screen_vertices_x16(const DrawContext& ctx, const ViewportTransform& vp, const float* positions,
                         size_t count, uint32_t* outcodes, PackedScreenVertex* packed) {
  run_x16(ctx, vp, positions, count, outcodes, packed);
}

}  // namespace kiln::exec::gfx
