#pragma once
// Bilinear filtering of BC1 UNORM levels for eight lanes at a time (AVX2+FMA), decoding each
// corner texel straight from its 8-byte block instead of through the decoded-block cache (whose
// lookups, one per lane and block, cost more than decoding one texel in SIMD). Lane-for-lane it
// performs the block decoder's float operations (memory/compressed/bc1_to_bc5.cpp: endpoints
// c / 31 and c / 63, palette (2a + b) / 3, (a + 2b) / 3 or (a + b) / 2) and the fast path's
// filtering (filter_lerp along x, then y), so results are bit-identical;
// tests/unit/sampling_test.cpp FastPathsEqualTheGenericRoutine checks it. Divisions by 31, 63 and
// 3 are a product with the reciprocal plus one fused residual correction; bc1_divisions_exact()
// checks once, over every value they can see, that this equals the division (if it ever did not,
// the fast path would simply not be used). Internal to the sampling code.
#include <immintrin.h>

#include <cstdint>

#include "memory/sampling_rgba8_simd.h"

namespace kiln::mem::sampling_detail {

#define KILN_AVX2 __attribute__((target("avx2,fma"), always_inline)) inline

// x / d for the values the BC1 decoder divides, given r = 1.0f / d (see the top of this file).
KILN_AVX2 __m256 bc1_divide(__m256 x, float d, float r) {
  const __m256 q = _mm256_mul_ps(x, _mm256_set1_ps(r));
  const __m256 residual = _mm256_fnmadd_ps(q, _mm256_set1_ps(d), x);
  return _mm256_fmadd_ps(residual, _mm256_set1_ps(r), q);
}

// Whether bc1_divide equals the division for every endpoint code (c / 31, c / 63) and every
// palette numerator (2a + b, a + 2b of two endpoints). Computed once.
bool bc1_divisions_exact();

// One decoded channel of the corner texels: endpoints e0 = code0 / max, e1 = code1 / max, then the
// palette entry `index` selects (four-colour or three-colour mode per lane). Only the selected
// interpolated entry is computed: (2a + b) / 3 for index 2 and (2b + a) / 3 for index 3 (the
// decoder's a + 2b: addition commutes exactly), so one division instead of two.
KILN_AVX2 __m256 bc1_channel(__m256i code0, __m256i code1, float max, __m256 bit0, __m256 bit1, __m256 four_colors) {
  const float r = 1.0f / max;
  const __m256 a = bc1_divide(_mm256_cvtepi32_ps(code0), max, r);
  const __m256 b = bc1_divide(_mm256_cvtepi32_ps(code1), max, r);
  const __m256 first = _mm256_blendv_ps(a, b, bit0), second = _mm256_blendv_ps(b, a, bit0);
  const __m256 four = bc1_divide(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(2.0f), first), second), 3.0f, 1.0f / 3.0f);
  // Three-colour mode: index 2 is (a + b) / 2 (exact as a product with 0.5), index 3 black.
  const __m256 three = _mm256_andnot_ps(bit0, _mm256_mul_ps(_mm256_add_ps(a, b), _mm256_set1_ps(0.5f)));
  return _mm256_blendv_ps(first, _mm256_blendv_ps(three, four, four_colors), bit1);
}

// The texels (x, y) (wrapped, per lane) of eight lanes' levels: R, G, B, A in rgba[0..3].
template <bool kPunchthrough>
KILN_AVX2 void bc1_texel(const uint8_t* base0, __m256i level_offset, __m256i pitch, __m256i x, __m256i y, __m256* rgba) {
  // Block byte offsets: level + (y / 4) * pitch + (x / 4) * 8; then both halves of every block.
  const __m256i offset = _mm256_add_epi32(
      level_offset, _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srli_epi32(y, 2), pitch), _mm256_slli_epi32(_mm256_srli_epi32(x, 2), 3)));
  const auto* base = reinterpret_cast<const long long*>(base0);
  const __m256i q0 = _mm256_i32gather_epi64(base, _mm256_castsi256_si128(offset), 1);       // lanes 0..3
  const __m256i q1 = _mm256_i32gather_epi64(base, _mm256_extracti128_si256(offset, 1), 1);  // lanes 4..7
  // Low dwords (endpoints) and high dwords (indices) of the eight blocks, in lane order.
  const __m256 f0 = _mm256_castsi256_ps(q0), f1 = _mm256_castsi256_ps(q1);
  const __m256i colors = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(f0, f1, 0x88)), 0xD8);
  const __m256i indices = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(f0, f1, 0xDD)), 0xD8);
  const __m256i shift = _mm256_slli_epi32(
      _mm256_add_epi32(_mm256_slli_epi32(_mm256_and_si256(y, _mm256_set1_epi32(3)), 2), _mm256_and_si256(x, _mm256_set1_epi32(3))), 1);
  const __m256i index = _mm256_and_si256(_mm256_srlv_epi32(indices, shift), _mm256_set1_epi32(3));
  const __m256i c0 = _mm256_and_si256(colors, _mm256_set1_epi32(0xFFFF));
  const __m256i c1 = _mm256_srli_epi32(colors, 16);
  const __m256 four_colors = _mm256_castsi256_ps(_mm256_cmpgt_epi32(c0, c1));
  const __m256i m5 = _mm256_set1_epi32(31), m6 = _mm256_set1_epi32(63);
  // Index bits as lane masks (blends read only the sign bit; the three-colour black needs all bits).
  const __m256 bit0 = _mm256_castsi256_ps(_mm256_srai_epi32(_mm256_slli_epi32(index, 31), 31));
  const __m256 bit1 = _mm256_castsi256_ps(_mm256_slli_epi32(index, 30));
  const __m256 r = bc1_channel(_mm256_srli_epi32(c0, 11), _mm256_srli_epi32(c1, 11), 31.0f, bit0, bit1, four_colors);
  const __m256 g = bc1_channel(_mm256_and_si256(_mm256_srli_epi32(c0, 5), m6), _mm256_and_si256(_mm256_srli_epi32(c1, 5), m6),
                               63.0f, bit0, bit1, four_colors);
  const __m256 b = bc1_channel(_mm256_and_si256(c0, m5), _mm256_and_si256(c1, m5), 31.0f, bit0, bit1, four_colors);
  const __m256 one = _mm256_set1_ps(1.0f);
  __m256 alpha = one;
  if constexpr (kPunchthrough) {
    // Index 3 of a three-colour block is transparent black.
    const __m256 transparent =
        _mm256_andnot_ps(four_colors, _mm256_castsi256_ps(_mm256_cmpeq_epi32(index, _mm256_set1_epi32(3))));
    alpha = _mm256_andnot_ps(transparent, one);
  }
  rgba[0] = r;
  rgba[1] = g;
  rgba[2] = b;
  rgba[3] = alpha;
}

// Filters eight lanes at per-lane `level`s and normalized (s, t); returns R, G, B, A in out[0..3].
// `table` describes block levels: offset and pitch in bytes (pitch between rows of blocks), width
// and height in texels. Every level index must be valid.
template <bool kPunchthrough, bool kRepeat>
KILN_AVX2 void bc1_bilinear_x8(const SampledView& v, const LevelTable& table, const int32_t* level, const float* s,
                               const float* t, __m256* out) {
  __m256i width, height, pitch, base;
  level_parameters(table, level, &width, &height, &pitch, &base);
  __m256i i0, j0;
  __m256 a, b;
  rgba8_axis(_mm256_loadu_ps(s), width, &i0, &a);
  rgba8_axis(_mm256_loadu_ps(t), height, &j0, &b);
  const __m256i ones = _mm256_set1_epi32(1);
  const __m256i x0 = rgba8_wrap<kRepeat>(i0, width), x1 = rgba8_wrap<kRepeat>(_mm256_add_epi32(i0, ones), width);
  const __m256i y0 = rgba8_wrap<kRepeat>(j0, height), y1 = rgba8_wrap<kRepeat>(_mm256_add_epi32(j0, ones), height);
  const uint8_t* base0 = v.levels[0].base;
  __m256 t00[4], t10[4], t01[4], t11[4];
  bc1_texel<kPunchthrough>(base0, base, pitch, x0, y0, t00);
  bc1_texel<kPunchthrough>(base0, base, pitch, x1, y0, t10);
  bc1_texel<kPunchthrough>(base0, base, pitch, x0, y1, t01);
  bc1_texel<kPunchthrough>(base0, base, pitch, x1, y1, t11);
  // filter_lerp along x, then y (texels are finite: the scalar path's skipped zero-fraction corners
  // change nothing).
  for (int k = 0; k < 4; ++k)
    out[k] = filter_lerp_x8(filter_lerp_x8(t00[k], t10[k], a), filter_lerp_x8(t01[k], t11[k], a), b);
}

#undef KILN_AVX2

}  // namespace kiln::mem::sampling_detail
