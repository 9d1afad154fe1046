#pragma once
// Bilinear filtering of R8G8B8A8 / B8G8R8A8 UNORM levels for sixteen lanes at a time (AVX-512), the
// fast path's filter (memory/sampling_fast_path.h) when a call has 16 lanes, as fragment kernels on
// AVX-512 CPUs do: one pass over the call instead of two eight-lane passes of
// memory/sampling_rgba8_simd.h. It is that file's arithmetic lane for lane (same float operations in
// the same order, the same texel = code / 255 conversion), so results stay bit-identical to the
// generic routine; tests/unit/sampling_test.cpp FastPathsEqualTheGenericRoutine checks both widths.
// Internal to the sampling code.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "memory/sampling.h"

namespace kiln::mem::sampling_detail {

#define KILN_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"), always_inline)) inline

// One axis: filter_axis of coord * size - 0.5 (the lower texel and the fraction toward the upper
// one), as rgba8_axis.
KILN_AVX512 void rgba8_axis_x16(__m512 coord, __m512i size, __m512i* i0, __m512* frac) {
  const __m512 x = _mm512_sub_ps(_mm512_mul_ps(coord, _mm512_cvtepi32_ps(size)), _mm512_set1_ps(0.5f));
  // floor_to_int: NaN and values below -2^28 -> -2^28 (max_ps returns its second operand when the
  // first is NaN), above 2^28 -> 2^28.
  const __m512 clamped = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-float(1 << 28))), _mm512_set1_ps(float(1 << 28)));
  constexpr int kFloor = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;
  const __m512i lower = _mm512_cvt_roundps_epi32(clamped, kFloor);  // converts rounding down: floor in one step
  const __mmask16 finite = _mm512_cmp_ps_mask(_mm512_sub_ps(x, x), _mm512_setzero_ps(), _CMP_EQ_OQ);
  const __m512 fraction = _mm512_maskz_sub_ps(finite, x, _mm512_roundscale_ps(x, kFloor));
  // filter_axis: a fraction rounded up to 1 is 0 at the next texel.
  const __mmask16 one = _mm512_cmp_ps_mask(fraction, _mm512_set1_ps(1.0f), _CMP_EQ_OQ);
  *i0 = _mm512_mask_add_epi32(lower, one, lower, _mm512_set1_epi32(1));
  *frac = _mm512_mask_mov_ps(fraction, one, _mm512_setzero_ps());
}

// Address-mode wrap of texel indices, as rgba8_wrap (see there why the float quotient is exact).
template <bool kRepeat>
KILN_AVX512 __m512i rgba8_wrap_x16(__m512i i, __m512i size) {
  const __m512i minus_one = _mm512_sub_epi32(size, _mm512_set1_epi32(1));
  if constexpr (kRepeat) {
    if (_mm512_test_epi32_mask(size, minus_one) == 0) return _mm512_and_si512(i, minus_one);  // powers of two
    if (_mm512_cmplt_epi32_mask(_mm512_abs_epi32(i), _mm512_set1_epi32(1 << 22)) == 0xFFFF) {
      const __m512 q = _mm512_roundscale_ps(_mm512_div_ps(_mm512_cvtepi32_ps(i), _mm512_cvtepi32_ps(size)),
                                            _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
      return _mm512_sub_epi32(i, _mm512_mullo_epi32(_mm512_cvttps_epi32(q), size));
    }
    alignas(64) int32_t iv[16], sv[16];
    _mm512_store_si512(iv, i);
    _mm512_store_si512(sv, size);
    for (int k = 0; k < 16; ++k) {
      const int32_t r = iv[k] % sv[k];
      iv[k] = r < 0 ? r + sv[k] : r;
    }
    return _mm512_load_si512(iv);
  } else {
    return _mm512_min_epi32(_mm512_max_epi32(i, _mm512_setzero_si512()), minus_one);
  }
}

// The level table entries of sixteen lanes' levels (broadcasts when they share one, the usual case:
// then *uniform is that level, else -1).
KILN_AVX512 void level_parameters_x16(const LevelTable& table, __m512i lv, __m512i* width, __m512i* height,
                                      __m512i* pitch, __m512i* base, int32_t* uniform) {
  const int32_t first = _mm_cvtsi128_si32(_mm512_castsi512_si128(lv));
  if (_mm512_cmpeq_epi32_mask(lv, _mm512_set1_epi32(first)) == 0xFFFF) {
    *width = _mm512_set1_epi32(table.width[first]);
    *height = _mm512_set1_epi32(table.height[first]);
    *pitch = _mm512_set1_epi32(table.pitch[first]);
    *base = _mm512_set1_epi32(table.offset[first]);
    *uniform = first;
  } else {
    *width = _mm512_i32gather_epi32(lv, table.width, 4);
    *height = _mm512_i32gather_epi32(lv, table.height, 4);
    *pitch = _mm512_i32gather_epi32(lv, table.pitch, 4);
    *base = _mm512_i32gather_epi32(lv, table.offset, 4);
    *uniform = -1;
  }
}

// The texels (x0, row) and (x1, row) of sixteen lanes from one 8-byte read per lane at
// p = min(x0, width - 2), as rgba8_row_pair (every width >= 2; REPEAT may wrap x1 to 0, which a
// masked gather reads).
template <bool kRepeat>
KILN_AVX512 void rgba8_row_pair_x16(const int* texels, __m512i row, __m512i x0, __m512i x1, __m512i width, __m512i* c0,
                                    __m512i* c1) {
  const __m512i p = _mm512_min_epi32(x0, _mm512_sub_epi32(width, _mm512_set1_epi32(2)));
  const __m512i offset = _mm512_add_epi32(row, _mm512_slli_epi32(p, 2));
  const __m512i q0 = _mm512_i32gather_epi64(_mm512_castsi512_si256(offset), texels, 1);
  const __m512i q1 = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(offset, 1), texels, 1);
  // Texels p (even dwords of the pairs) and p + 1 (odd dwords) in lane order.
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i low = _mm512_permutex2var_epi32(q0, even, q1);
  const __m512i high = _mm512_permutex2var_epi32(q0, _mm512_add_epi32(even, _mm512_set1_epi32(1)), q1);
  const __mmask16 x1_low = _mm512_cmpeq_epi32_mask(x1, p);
  *c0 = _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(x0, p), high, low);
  *c1 = _mm512_mask_blend_epi32(x1_low, high, low);
  if constexpr (kRepeat) {
    const __mmask16 apart = __mmask16(~(x1_low | _mm512_cmpeq_epi32_mask(x1, _mm512_add_epi32(p, _mm512_set1_epi32(1)))));
    if (apart) *c1 = _mm512_mask_i32gather_epi32(*c1, apart, _mm512_add_epi32(row, _mm512_slli_epi32(x1, 2)), texels, 1);
  }
}

// One row of rgba8_span_x16: texels (x0, row) and (x1, row) from masked 64-byte loads of the
// texels first .. first + 15 (`inside`: those that exist; masked-off ones are never read, so never
// fault) of the first two distinct rows among the lanes; lanes of other rows are gathered.
KILN_AVX512 void rgba8_span_row_x16(const uint8_t* texels, int64_t first, __mmask16 inside, __m512i row, __m512i x0,
                                    __m512i x1, __m512i i0, __m512i i1, __m512i* c0, __m512i* c1) {
  // The first lane's row (lane 0 is always part of the call's vectors).
  int32_t at = _mm_cvtsi128_si32(_mm512_castsi512_si128(row));
  __mmask16 same = _mm512_cmpeq_epi32_mask(row, _mm512_set1_epi32(at));
  __m512i span = _mm512_maskz_loadu_epi32(inside, texels + at + first * 4);
  *c0 = _mm512_permutexvar_epi32(i0, span);
  *c1 = _mm512_permutexvar_epi32(i1, span);
  __mmask16 left = __mmask16(~same);
  if (!left) return;
  at = _mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_maskz_compress_epi32(left, row)));
  same = _mm512_mask_cmpeq_epi32_mask(left, row, _mm512_set1_epi32(at));
  span = _mm512_maskz_loadu_epi32(inside, texels + at + first * 4);
  *c0 = _mm512_mask_permutexvar_epi32(*c0, same, i0, span);
  *c1 = _mm512_mask_permutexvar_epi32(*c1, same, i1, span);
  left = __mmask16(left & ~same);
  if (!left) return;
  const int* base = reinterpret_cast<const int*>(texels);
  *c0 = _mm512_mask_i32gather_epi32(*c0, left, _mm512_add_epi32(row, _mm512_slli_epi32(x0, 2)), base, 1);
  *c1 = _mm512_mask_i32gather_epi32(*c1, left, _mm512_add_epi32(row, _mm512_slli_epi32(x1, 2)), base, 1);
}

// x0 - first and x1 - first in i0, i1; whether they all lie in 0 .. 15.
KILN_AVX512 bool span_indices_x16(int32_t first, __m512i x0, __m512i x1, __m512i* i0, __m512i* i1) {
  const __m512i from = _mm512_set1_epi32(first), sixteen = _mm512_set1_epi32(16);
  *i0 = _mm512_sub_epi32(x0, from);
  *i1 = _mm512_sub_epi32(x1, from);
  return (_mm512_cmplt_epu32_mask(*i0, sixteen) & _mm512_cmplt_epu32_mask(*i1, sixteen)) == 0xFFFF;
}

// The four corner texels of sixteen lanes when the level is the same for all lanes and every x0,
// x1 lies in a span of 16 texels (magnified or mildly minified textures: a call's lanes are
// neighbouring pixels): one masked 64-byte load per distinct row (usually one or two per footprint
// row) and permutes put each lane's texels in place, instead of a gather per row. Returns false
// (nothing written) when the span is wider.
// `lane0_x`: lane 0's x0 if the caller knows it sooner than from the vector x0 (any value in
// 0 .. width - 1 is safe: it only decides where the span starts, which every lane is checked against),
// else -1.
KILN_AVX512 bool rgba8_span_x16(const uint8_t* texels, int32_t width, int32_t lane0_x, __m512i x0, __m512i x1,
                                __m512i y0, __m512i y1, __m512i* t00, __m512i* t10, __m512i* t01, __m512i* t11) {
  // The span starts a little left of lane 0's texel (lane 0 is the call's top-left pixel: the span
  // usually fits without a reduction over the lanes, which would sit in the latency chain before
  // the loads), else at the lowest texel of the lanes.
  if (lane0_x < 0) lane0_x = _mm_cvtsi128_si32(_mm512_castsi512_si128(x0));
  int32_t first = std::max(0, lane0_x - 4);
  __m512i i0, i1;
  if (!span_indices_x16(first, x0, x1, &i0, &i1)) {
    const __m512i lowest = _mm512_min_epi32(x0, x1);
    const __m256i m8 = _mm256_min_epi32(_mm512_castsi512_si256(lowest), _mm512_extracti64x4_epi64(lowest, 1));
    __m128i m4 = _mm_min_epi32(_mm256_castsi256_si128(m8), _mm256_extracti128_si256(m8, 1));
    m4 = _mm_min_epi32(m4, _mm_shuffle_epi32(m4, 0x4E));
    m4 = _mm_min_epi32(m4, _mm_shuffle_epi32(m4, 0xB1));
    first = _mm_cvtsi128_si32(m4);
    if (!span_indices_x16(first, x0, x1, &i0, &i1)) return false;
  }
  const int32_t count = width - first;
  const __mmask16 inside = count >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << count) - 1);
  rgba8_span_row_x16(texels, first, inside, y0, x0, x1, i0, i1, t00, t10);
  rgba8_span_row_x16(texels, first, inside, y1, x0, x1, i0, i1, t01, t11);
  return true;
}

// code / 255.0f of byte k of each word, correctly rounded: unorm8_channel_to_float's byte
// replication (see there for why it is exact).
template <int k>
KILN_AVX512 __m512 unorm8_channel_to_float_x16(__m512i words) {
  constexpr char z = char(0x80);  // pshufb: a zero byte
  const __m512i spread = _mm512_broadcast_i32x4(
      _mm_setr_epi8(k, k, k, z, 4 + k, 4 + k, 4 + k, z, 8 + k, 8 + k, 8 + k, z, 12 + k, 12 + k, 12 + k, z));
  const __m512 n = _mm512_cvtepi32_ps(_mm512_shuffle_epi8(words, spread));
  const __m512i scaled = _mm512_add_epi32(_mm512_castps_si512(n), _mm512_set1_epi32(1 - (24 << 23)));
  return _mm512_castsi512_ps(_mm512_max_epi32(scaled, _mm512_setzero_si512()));
}

// filter_lerp (memory/sampling_texels.h) of sixteen lanes, multiply and add separate as in the
// scalar path (texels are finite, so x + 0 * (y - x) is x where the scalar path skips y).
KILN_AVX512 __m512 filter_lerp_x16(__m512 x, __m512 y, __m512 a) {
  return _mm512_add_ps(x, _mm512_mul_ps(a, _mm512_sub_ps(y, x)));
}

// Channel k of four corners (x fastest) filtered at fractions (a, b): x first, then y.
template <int k>
KILN_AVX512 __m512 rgba8_bilinear_channel_x16(__m512i t00, __m512i t10, __m512i t01, __m512i t11, __m512 a, __m512 b) {
  const __m512 top = filter_lerp_x16(unorm8_channel_to_float_x16<k>(t00), unorm8_channel_to_float_x16<k>(t10), a);
  const __m512 bottom = filter_lerp_x16(unorm8_channel_to_float_x16<k>(t01), unorm8_channel_to_float_x16<k>(t11), a);
  return filter_lerp_x16(top, bottom, b);
}

// Four channels of sixteen lanes. Returned by value, not through an array: GCC kept such arrays
// on the stack, and the results made a round trip through memory (a store-forwarding wait at
// the end of every call) before being stored to SampleArgs::out.
struct Rgba16 {
  __m512 r, g, b, a;
};

// Filters sixteen lanes at per-lane `level`s and normalized (s, t); returns R, G, B, A (after the
// BGRA swap). Every level index must be valid. kLevelZero: every lane reads level 0 (views of one
// level), known without comparing the lanes' levels.
template <bool kBgra, bool kRepeat, bool kLevelZero = false>
KILN_AVX512 Rgba16 rgba8_bilinear_x16(const SampledView& v, const LevelTable& table, __m512i level, __m512 s,
                                      __m512 t) {
  __m512i width, height, pitch, base;
  int32_t uniform_level = 0;
  if constexpr (kLevelZero) {
    width = _mm512_set1_epi32(table.width[0]);
    height = _mm512_set1_epi32(table.height[0]);
    pitch = _mm512_set1_epi32(table.pitch[0]);
    base = _mm512_setzero_si512();  // table.offset[0]: level 0 is where offsets count from
  } else {
    level_parameters_x16(table, level, &width, &height, &pitch, &base, &uniform_level);
  }
  __m512i i0, j0;
  __m512 a, b;
  rgba8_axis_x16(s, width, &i0, &a);
  rgba8_axis_x16(t, height, &j0, &b);
  const __m512i ones = _mm512_set1_epi32(1);
  const __m512i x0 = rgba8_wrap_x16<kRepeat>(i0, width);
  const __m512i x1 = rgba8_wrap_x16<kRepeat>(_mm512_add_epi32(i0, ones), width);
  const __m512i y0 = _mm512_add_epi32(base, _mm512_mullo_epi32(rgba8_wrap_x16<kRepeat>(j0, height), pitch));
  const __m512i y1 = _mm512_add_epi32(base, _mm512_mullo_epi32(rgba8_wrap_x16<kRepeat>(_mm512_add_epi32(j0, ones), height), pitch));
  const int* texels = reinterpret_cast<const int*>(v.levels[0].base);
  __m512i t00, t10, t01, t11;
  int32_t lane0_x = -1;
  if (!kRepeat && uniform_level >= 0) {
    // Lane 0's x0 (clamped to the edge) in scalar code from its coordinate, beside the vector
    // chain rather than at its end: the span's start and its loads wait for less.
    const int32_t w = table.width[uniform_level];
    const float x = _mm_cvtss_f32(_mm512_castps512_ps128(s)) * float(w) - 0.5f;
    lane0_x = x >= 0.0f ? (x < float(w) ? int32_t(x) : w - 1) : 0;  // NaN -> 0; int32_t(x) = floor(x) here
  }
  if (uniform_level >= 0 && rgba8_span_x16(v.levels[0].base, table.width[uniform_level], lane0_x, x0, x1, y0, y1,
                                           &t00, &t10, &t01, &t11)) {
    // done
  } else if (_mm512_cmplt_epi32_mask(width, _mm512_set1_epi32(2)) == 0) {
    rgba8_row_pair_x16<kRepeat>(texels, y0, x0, x1, width, &t00, &t10);
    rgba8_row_pair_x16<kRepeat>(texels, y1, x0, x1, width, &t01, &t11);
  } else {
    const __m512i b0 = _mm512_slli_epi32(x0, 2), b1 = _mm512_slli_epi32(x1, 2);
    t00 = _mm512_i32gather_epi32(_mm512_add_epi32(y0, b0), texels, 1);
    t10 = _mm512_i32gather_epi32(_mm512_add_epi32(y0, b1), texels, 1);
    t01 = _mm512_i32gather_epi32(_mm512_add_epi32(y1, b0), texels, 1);
    t11 = _mm512_i32gather_epi32(_mm512_add_epi32(y1, b1), texels, 1);
  }
  const __m512 r = rgba8_bilinear_channel_x16<0>(t00, t10, t01, t11, a, b);
  const __m512 g = rgba8_bilinear_channel_x16<1>(t00, t10, t01, t11, a, b);
  const __m512 blue = rgba8_bilinear_channel_x16<2>(t00, t10, t01, t11, a, b);
  const __m512 alpha = rgba8_bilinear_channel_x16<3>(t00, t10, t01, t11, a, b);
  return {kBgra ? blue : r, g, kBgra ? r : blue, alpha};
}

#undef KILN_AVX512

}  // namespace kiln::mem::sampling_detail
