#pragma once
// Bilinear filtering of R8G8B8A8 / B8G8R8A8 UNORM levels for eight lanes at a time (AVX2), the
// inner loop of the fast path (memory/sampling_fast_path.h) for the most common texture format.
// Lane-for-lane it performs the scalar path's float operations in the same order (texel =
// code / 255.0f, which equals format_pack's value for every code; filter_lerp along x, then y),
// so results are bit-identical; tests/unit/sampling_test.cpp
// FastPathsEqualTheGenericRoutine checks it. Internal to the sampling code.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "memory/sampling.h"

namespace kiln::mem::sampling_detail {

// Fills view.table / view.table_ok (make_sampled_view, once per view): whether the view's levels can
// be addressed with 32-bit offsets from level 0's base.
inline void fill_level_table(SampledView* v) {
  const uint8_t* base = v->levels[0].base;
  v->table_ok = false;
  for (uint32_t l = 0; l < v->level_count; ++l) {
    const SampledLevel& L = v->levels[l];
    const int64_t offset = L.base - base;
    const uint64_t end = uint64_t(offset) + L.row_pitch * L.height;
    if (offset < 0 || end > uint64_t(INT32_MAX) || L.row_pitch > uint64_t(INT32_MAX)) return;
    v->table.offset[l] = int32_t(offset);
    v->table.pitch[l] = int32_t(L.row_pitch);
    v->table.width[l] = int32_t(L.width);
    v->table.height[l] = int32_t(L.height);
  }
  v->table_ok = true;
}

#define KILN_AVX2 __attribute__((target("avx2,fma"), always_inline)) inline

// One axis: filter_axis of coord * size - 0.5 (the lower texel and the fraction toward the upper one).
KILN_AVX2 void rgba8_axis(__m256 coord, __m256i size, __m256i* i0, __m256* frac) {
  const __m256 x = _mm256_sub_ps(_mm256_mul_ps(coord, _mm256_cvtepi32_ps(size)), _mm256_set1_ps(0.5f));
  // floor_to_int: NaN and values below -2^28 -> -2^28, above 2^28 -> 2^28 (max_ps returns its second
  // operand when the first is NaN).
  const __m256 clamped = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-float(1 << 28))), _mm256_set1_ps(float(1 << 28)));
  const __m256i lower = _mm256_cvttps_epi32(_mm256_floor_ps(clamped));
  const __m256 finite = _mm256_cmp_ps(_mm256_sub_ps(x, x), _mm256_setzero_ps(), _CMP_EQ_OQ);
  const __m256 fraction = _mm256_and_ps(_mm256_sub_ps(x, _mm256_floor_ps(x)), finite);
  // filter_axis: a fraction rounded up to 1 is 0 at the next texel (the mask is -1 there).
  const __m256 one = _mm256_cmp_ps(fraction, _mm256_set1_ps(1.0f), _CMP_EQ_OQ);
  *i0 = _mm256_sub_epi32(lower, _mm256_castps_si256(one));
  *frac = _mm256_andnot_ps(one, fraction);
}

template <bool kRepeat>
KILN_AVX2 __m256i rgba8_wrap(__m256i i, __m256i size) {
  if constexpr (kRepeat) {
    // positive_mod(i, size). Power-of-two sizes (the usual repeating texture): the two's complement
    // AND is the positive remainder.
    const __m256i minus_one = _mm256_sub_epi32(size, _mm256_set1_epi32(1));
    if (_mm256_testz_si256(size, minus_one)) return _mm256_and_si256(i, minus_one);
    // |i| < 2^22: floor(i / size) from the correctly rounded float quotient is exact: a quotient
    // that is not an integer lies at least 1 / size from the nearest one, more than half an ulp
    // there while |i| < 2^24, so it never rounds onto it.
    const __m256i small = _mm256_cmpgt_epi32(_mm256_set1_epi32(1 << 22), _mm256_abs_epi32(i));
    if (_mm256_movemask_epi8(small) == -1) {
      const __m256 q = _mm256_floor_ps(_mm256_div_ps(_mm256_cvtepi32_ps(i), _mm256_cvtepi32_ps(size)));
      return _mm256_sub_epi32(i, _mm256_mullo_epi32(_mm256_cvttps_epi32(q), size));
    }
    // Far outside (huge coordinates): per lane, AVX2 has no integer division.
    alignas(32) int32_t iv[8], sv[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(iv), i);
    _mm256_store_si256(reinterpret_cast<__m256i*>(sv), size);
    for (int k = 0; k < 8; ++k) {
      const int32_t r = iv[k] % sv[k];
      iv[k] = r < 0 ? r + sv[k] : r;
    }
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(iv));
  } else {
    return _mm256_min_epi32(_mm256_max_epi32(i, _mm256_setzero_si256()), _mm256_sub_epi32(size, _mm256_set1_epi32(1)));
  }
}

// The 8 bytes at base + offset[k] for four lanes k, as four 64-bit elements. Scalar loads: as fast
// as a four-element gather on the Zen 4 measured, and gathers are slow microcode on older CPUs.
KILN_AVX2 __m256i load_pairs(const uint8_t* base, __m128i offset) {
  alignas(16) int32_t at[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(at), offset);
  long long q[4];
  for (int k = 0; k < 4; ++k) std::memcpy(&q[k], base + at[k], 8);
  return _mm256_setr_epi64x(q[0], q[1], q[2], q[3]);
}

// The texels (x0, row) and (x1, row) of eight lanes (x wrapped, row = byte offset of the row; every
// width >= 2) from one 8-byte gather per lane at p = min(x0, width - 2): x0 and x1 are texel p or
// p + 1 except where REPEAT wraps x1 to 0, which a second, masked gather reads.
template <bool kRepeat>
KILN_AVX2 void rgba8_row_pair(const int* texels, __m256i row, __m256i x0, __m256i x1, __m256i width, __m256i* c0,
                              __m256i* c1) {
  const __m256i p = _mm256_min_epi32(x0, _mm256_sub_epi32(width, _mm256_set1_epi32(2)));
  const __m256i offset = _mm256_add_epi32(row, _mm256_slli_epi32(p, 2));
  const auto* bytes = reinterpret_cast<const uint8_t*>(texels);
  const __m256 q0 = _mm256_castsi256_ps(load_pairs(bytes, _mm256_castsi256_si128(offset)));
  const __m256 q1 = _mm256_castsi256_ps(load_pairs(bytes, _mm256_extracti128_si256(offset, 1)));
  // Texels p (low dwords) and p + 1 (high dwords) in lane order.
  const __m256 low = _mm256_castsi256_ps(_mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(q0, q1, 0x88)), 0xD8));
  const __m256 high = _mm256_castsi256_ps(_mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(q0, q1, 0xDD)), 0xD8));
  *c0 = _mm256_castps_si256(_mm256_blendv_ps(high, low, _mm256_castsi256_ps(_mm256_cmpeq_epi32(x0, p))));
  *c1 = _mm256_castps_si256(_mm256_blendv_ps(high, low, _mm256_castsi256_ps(_mm256_cmpeq_epi32(x1, p))));
  if constexpr (kRepeat) {
    const __m256i apart = _mm256_andnot_si256(
        _mm256_or_si256(_mm256_cmpeq_epi32(x1, p), _mm256_cmpeq_epi32(x1, _mm256_add_epi32(p, _mm256_set1_epi32(1)))),
        _mm256_set1_epi32(-1));
    if (!_mm256_testz_si256(apart, apart))
      *c1 = _mm256_mask_i32gather_epi32(*c1, texels, _mm256_add_epi32(row, _mm256_slli_epi32(x1, 2)), apart, 1);
  }
}

// code / 255.0f of byte k of each word, correctly rounded, in four cheap integer/convert steps.
// code / 255 is 0.cccccc... in base 256 (the byte repeated), so with n = code * 0x010101 (the byte
// copied into three bytes, exact in float): code / 255 = n * 2^-24 * (1 + 2^-24 + ...), which lies
// between half an ulp and one ulp above n * 2^-24, so it rounds to the next float up. In bits: the
// float n, exponent lowered by 24, plus one; code 0 comes out negative and is clamped to +0.
// Exhaustively equal to code / 255.0f (and so to format_pack's value) for every code; the fast-path
// unit test checks it through the generic routine.
template <int k>
KILN_AVX2 __m256 unorm8_channel_to_float(__m256i words) {
  constexpr char z = char(0x80);  // pshufb: a zero byte
  const __m256i spread = _mm256_setr_epi8(k, k, k, z, 4 + k, 4 + k, 4 + k, z, 8 + k, 8 + k, 8 + k, z, 12 + k, 12 + k, 12 + k, z,
                                          k, k, k, z, 4 + k, 4 + k, 4 + k, z, 8 + k, 8 + k, 8 + k, z, 12 + k, 12 + k, 12 + k, z);
  const __m256 n = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(words, spread));
  const __m256i scaled = _mm256_add_epi32(_mm256_castps_si256(n), _mm256_set1_epi32(1 - (24 << 23)));
  return _mm256_castsi256_ps(_mm256_max_epi32(scaled, _mm256_setzero_si256()));
}

// filter_lerp (memory/sampling_texels.h) of eight lanes: x + a (y - x), multiply and add separate as
// in the scalar path. The scalar path skips y where a == 0; here texels are finite, so x + 0 is x.
KILN_AVX2 __m256 filter_lerp_x8(__m256 x, __m256 y, __m256 a) {
  return _mm256_add_ps(x, _mm256_mul_ps(a, _mm256_sub_ps(y, x)));
}

// Channel k (byte k of the words) of four corners (x fastest) filtered at fractions (a, b): x
// first, then y, as the scalar path.
template <int k>
KILN_AVX2 __m256 rgba8_bilinear_channel(__m256i t00, __m256i t10, __m256i t01, __m256i t11, __m256 a, __m256 b) {
  const __m256 top = filter_lerp_x8(unorm8_channel_to_float<k>(t00), unorm8_channel_to_float<k>(t10), a);
  const __m256 bottom = filter_lerp_x8(unorm8_channel_to_float<k>(t01), unorm8_channel_to_float<k>(t11), a);
  return filter_lerp_x8(top, bottom, b);
}

// Filters eight lanes at per-lane `level`s and normalized (s, t) (arrays of 8); returns R, G, B, A
// (after the BGRA swap) in out[0..3]. Every level index must be valid.
// The table entries of eight lanes' levels.
KILN_AVX2 void level_parameters(const LevelTable& table, const int32_t* level, __m256i* width, __m256i* height,
                                __m256i* pitch, __m256i* base) {
  const __m256i lv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(level));
  if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(lv, _mm256_set1_epi32(level[0]))) == -1) {
    // One level for all eight lanes (the usual case): broadcasts instead of gathers.
    *width = _mm256_set1_epi32(table.width[level[0]]);
    *height = _mm256_set1_epi32(table.height[level[0]]);
    *pitch = _mm256_set1_epi32(table.pitch[level[0]]);
    *base = _mm256_set1_epi32(table.offset[level[0]]);
  } else {
    *width = _mm256_i32gather_epi32(table.width, lv, 4);
    *height = _mm256_i32gather_epi32(table.height, lv, 4);
    *pitch = _mm256_i32gather_epi32(table.pitch, lv, 4);
    *base = _mm256_i32gather_epi32(table.offset, lv, 4);
  }
}

template <bool kBgra, bool kRepeat>
KILN_AVX2 void rgba8_bilinear_x8(const SampledView& v, const LevelTable& table, const int32_t* level,
                                 const float* s, const float* t, __m256* out) {
  __m256i width, height, pitch, base;
  level_parameters(table, level, &width, &height, &pitch, &base);
  __m256i i0, j0;
  __m256 a, b;
  rgba8_axis(_mm256_loadu_ps(s), width, &i0, &a);
  rgba8_axis(_mm256_loadu_ps(t), height, &j0, &b);
  const __m256i ones = _mm256_set1_epi32(1);
  const __m256i x0 = rgba8_wrap<kRepeat>(i0, width);
  const __m256i x1 = rgba8_wrap<kRepeat>(_mm256_add_epi32(i0, ones), width);
  const __m256i y0 = _mm256_add_epi32(base, _mm256_mullo_epi32(rgba8_wrap<kRepeat>(j0, height), pitch));
  const __m256i y1 = _mm256_add_epi32(base, _mm256_mullo_epi32(rgba8_wrap<kRepeat>(_mm256_add_epi32(j0, ones), height), pitch));
  const int* texels = reinterpret_cast<const int*>(v.levels[0].base);
  __m256i t00, t10, t01, t11;
  if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(2), width))) == 0) {
    // Every level at least two texels wide: both corners of a row from one 8-byte read.
    rgba8_row_pair<kRepeat>(texels, y0, x0, x1, width, &t00, &t10);
    rgba8_row_pair<kRepeat>(texels, y1, x0, x1, width, &t01, &t11);
  } else {
    const __m256i b0 = _mm256_slli_epi32(x0, 2), b1 = _mm256_slli_epi32(x1, 2);
    t00 = _mm256_i32gather_epi32(texels, _mm256_add_epi32(y0, b0), 1);
    t10 = _mm256_i32gather_epi32(texels, _mm256_add_epi32(y0, b1), 1);
    t01 = _mm256_i32gather_epi32(texels, _mm256_add_epi32(y1, b0), 1);
    t11 = _mm256_i32gather_epi32(texels, _mm256_add_epi32(y1, b1), 1);
  }
  const __m256 r = rgba8_bilinear_channel<0>(t00, t10, t01, t11, a, b);
  const __m256 blue = rgba8_bilinear_channel<2>(t00, t10, t01, t11, a, b);
  out[0] = kBgra ? blue : r;
  out[1] = rgba8_bilinear_channel<1>(t00, t10, t01, t11, a, b);
  out[2] = kBgra ? r : blue;
  out[3] = rgba8_bilinear_channel<3>(t00, t10, t01, t11, a, b);
}

#undef KILN_AVX2

}  // namespace kiln::mem::sampling_detail
