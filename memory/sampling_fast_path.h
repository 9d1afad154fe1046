#pragma once
// Fast paths of the sampling routines (memory/sampling.cpp), chosen once per call: when every lane
// of the call samples the same 2D view through the same sampler with a plain filtered sample
// (explicit, implicit or gradient LOD, optional bias; no compare, offsets, Proj or MinLod) and the
// sampler is the common kind (same min/mag filter, U and V both CLAMP_TO_EDGE or both REPEAT,
// weighted average, no anisotropy), the lanes run through FastSampler<Decoder, Wrap, Linear>:
// the generic routine's arithmetic, in the same order (so results are bit-identical, which
// tests/unit/sampling_test.cpp checks), without its per-texel switches on view type, address mode,
// border, cube face, compare and reduction mode. Internal to the sampling code.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/abi/kernel_abi.h"
#include "memory/image_view.h"
#include "memory/sampling_bc1_simd.h"
#include "memory/sampling_rgba8_avx512.h"
#include "memory/sampling_rgba8_simd.h"
#include "memory/sampling_texels.h"

namespace kiln::mem::sampling_detail {

// The widest SIMD filters the fast paths use: 16 lanes (AVX-512), 8 (AVX2+FMA) or 1 (portable code),
// the CPU's capability lowered by limit_sampling_simd_lanes (memory/sampling.h; tests).
// Read on every call, hence inline: a global set when the library loads (the CPU's width) and by
// limit_sampling_simd_lanes.
extern std::atomic<uint32_t> g_simd_lanes;
inline uint32_t simd_lanes() { return g_simd_lanes.load(std::memory_order_relaxed); }

enum class Wrap { ClampToEdge, Repeat };
// The eight-lane filters of run_avx2.
enum class SimdFilter { Rgba8, Bgra8, Bc1Opaque, Bc1Punchthrough };

template <class D, Wrap kWrap, bool kLinear>
struct FastSampler {
  static int32_t wrap(int32_t i, int32_t n) {
    if constexpr (kWrap == Wrap::ClampToEdge) {
      return std::clamp(i, 0, n - 1);
    } else {
      const int32_t r = i % n;
      return r < 0 ? r + n : r;
    }
  }

  // `cache`: the synced block cache for compressed formats, else nullptr.
  static Texel load(const SampledView& v, const SampledLevel& L, int32_t x, int32_t y, BlockCache* cache) {
    if constexpr (D::kBlocks) {
      // x, y are wrapped (never negative); 4x4 blocks (BC, ETC2, ASTC 4x4) avoid integer divisions.
      const bool four = v.block_width == 4 && v.block_height == 4;
      const uint32_t qx = four ? uint32_t(x) >> 2 : uint32_t(x) / v.block_width;
      const uint32_t qy = four ? uint32_t(y) >> 2 : uint32_t(y) / v.block_height;
      const uint8_t* p = L.base + uint64_t(qy) * L.row_pitch + uint64_t(qx) * v.texel_bytes;
      const uint32_t bx = uint32_t(x) - qx * v.block_width, by = uint32_t(y) - qy * v.block_height;
      return cache ? D::decode_cached(*cache, v, p, bx, by) : D::decode(v, p, bx, by);
    } else {
      return D::decode(v, L.base + uint64_t(y) * L.row_pitch + uint64_t(x) * v.texel_bytes, 0, 0);
    }
  }

  // Texel (x, y) (wrapped) of a compressed level, in the block cache.
  static const float* cached_texel(const SampledView& v, const SampledLevel& L, int32_t x, int32_t y, BlockCache& cache) {
    const bool four = v.block_width == 4 && v.block_height == 4;
    const uint32_t qx = four ? uint32_t(x) >> 2 : uint32_t(x) / v.block_width;
    const uint32_t qy = four ? uint32_t(y) >> 2 : uint32_t(y) / v.block_height;
    const uint8_t* p = L.base + uint64_t(qy) * L.row_pitch + uint64_t(qx) * v.texel_bytes;
    const uint32_t bx = uint32_t(x) - qx * v.block_width, by = uint32_t(y) - qy * v.block_height;
    return cache.texels_of(v, p)[by * v.block_width + bx];
  }

  // Bilinear filtering of four corners (x fastest) at fractions (a, b): the generic routine's nested
  // filter_lerp steps on four channels at once; corner(n) -> __m128 is called only for the corners
  // the result uses (not the upper ones along an axis of fraction 0).
  template <class Corner>
  __attribute__((always_inline)) static inline Texel bilinear_sse(float a, float b, Corner&& corner) {
    auto lerp = [](__m128 x, __m128 y, float f) {
      return _mm_add_ps(x, _mm_mul_ps(_mm_set1_ps(f), _mm_sub_ps(y, x)));
    };
    auto row = [&](uint32_t n0) {
      const __m128 lower = corner(n0);
      return a == 0.0f ? lower : lerp(lower, corner(n0 + 1), a);
    };
    const __m128 top = row(0);
    Texel out;
    _mm_storeu_ps(out.f, b == 0.0f ? top : lerp(top, row(2), b));
    return out;
  }

  // Bilinear filtering of a level of 4x4 blocks through the block cache: at_level's arithmetic,
  // but inlined into the lane loop and with one cache lookup per distinct block of the footprint
  // (usually one) instead of one per corner.
  __attribute__((always_inline)) static inline Texel bilinear_4x4_cached(const SampledView& v, const SampledLevel& L,
                                                                         float s, float t, BlockCache& cache) {
    float a, b;
    const int32_t i0 = filter_axis(s * float(L.width) - 0.5f, &a), j0 = filter_axis(t * float(L.height) - 0.5f, &b);
    const int32_t w = int32_t(L.width), h = int32_t(L.height);
    const uint32_t i[2] = {uint32_t(wrap(i0, w)), uint32_t(wrap(i0 + 1, w))};
    const uint32_t j[2] = {uint32_t(wrap(j0, h)), uint32_t(wrap(j0 + 1, h))};
    const uint8_t* rows[2] = {L.base + uint64_t(j[0] >> 2) * L.row_pitch, L.base + uint64_t(j[1] >> 2) * L.row_pitch};
    const uint8_t* block = nullptr;
    const float(*texels)[4] = nullptr;
    return bilinear_sse(a, b, [&](uint32_t n) {
      const uint32_t tx = i[n & 1], ty = j[n >> 1];
      const uint8_t* p = rows[n >> 1] + uint64_t(tx >> 2) * v.texel_bytes;
      // A lookup may evict an entry an earlier lookup returned, so the texels are re-fetched
      // whenever the block changes rather than kept per block.
      if (p != block) {
        block = p;
        texels = cache.texels(p, v.format);
      }
      return _mm_loadu_ps(texels[(ty & 3) * 4 + (tx & 3)]);
    });
  }

  // The filtered value at normalized (s, t) of one level.
  static Texel at_level(const SampledView& v, uint32_t level, float s, float t, BlockCache* cache) {
    const SampledLevel& L = v.levels[level];
    const int32_t w = int32_t(L.width), h = int32_t(L.height);
    const float u = s * float(L.width), vv = t * float(L.height);
    if constexpr (!kLinear) {
      return load(v, L, wrap(floor_to_int(u), w), wrap(floor_to_int(vv), h), cache);
    } else {
      float a, b;
      const int32_t i0 = filter_axis(u - 0.5f, &a), j0 = filter_axis(vv - 0.5f, &b);
      const int32_t i[2] = {wrap(i0, w), wrap(i0 + 1, w)};
      const int32_t j[2] = {wrap(j0, h), wrap(j0 + 1, h)};
      if constexpr (D::kBlocks) {
        if (cache) {
          // Cached blocks: the four channels of a texel are one SSE vector read in place.
          return bilinear_sse(a, b, [&](uint32_t n) {
            return _mm_loadu_ps(cached_texel(v, L, i[n & 1], j[n >> 1], *cache));
          });
        }
      }
      return bilinear_sse(a, b, [&](uint32_t n) {
        const Texel texel = load(v, L, i[n & 1], j[n >> 1], cache);
        return _mm_loadu_ps(texel.f);
      });
    }
  }

  static uint32_t swizzled(const SampledView& v, const Texel& t, uint32_t c) {
    const uint8_t s = v.swizzle[c];
    return s < 4 ? t.u[s] : s == 5 ? 0x3F800000u : 0u;
  }

  // Whether eight lanes at a time go through rgba8_bilinear_x8 (AVX2+FMA CPUs, RGBA8/BGRA8 UNORM),
  // or sixteen through rgba8_bilinear_x16 (AVX-512 CPUs, calls of 16 lanes).
  static constexpr bool kSimdDecoder = std::is_same_v<D, Rgba8<false, false>> || std::is_same_v<D, Rgba8<true, false>>;
  static bool simd_available() { return simd_lanes() >= 8; }

  // Phase 1, per lane: coordinates, LOD, the level(s) and the weight of the second level; returns
  // whether any lane blends two levels. Inlined into both the portable and the AVX2 run().
  __attribute__((always_inline)) static inline bool lane_levels(const abi::SampleArgs* a, uint32_t lanes,
                                                                const SampledView& v, const Sampler& s, float* ps,
                                                                float* pt, int32_t* hi, int32_t* lo, float* delta) {
    const uint32_t op = a->op;
    const uint32_t lod_mode = op & abi::kSampleLodMask;
    const float scale[2] = {float(v.levels[0].width), float(v.levels[0].height)};
    const float bias_sampler = s.mip_lod_bias;
    const float q = float(v.level_count - 1);
    const bool linear_mips = s.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR;
    auto coord = [&](uint32_t c, uint32_t lane) {
      float f;
      std::memcpy(&f, &a->coord[c][lane], sizeof(f));
      return f;
    };
    bool second_level = false;
    uint32_t lambda_quad = ~0u;  // the quad whose implicit λ_base is quad_lambda
    float quad_lambda = 0.0f;
    for (uint32_t rest = lanes; rest; rest &= rest - 1) {
      const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(rest));
      ps[lane] = coord(0, lane);
      pt[lane] = coord(1, lane);
      float lambda_base;
      if (lod_mode == abi::kSampleExplicitLod) {
        lambda_base = a->lod[lane];
      } else {
        float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
        if (lod_mode == abi::kSampleGrad) {
          for (uint32_t d = 0; d < 2; ++d) {
            dx[d] = a->grad[0][d][lane] * scale[d];
            dy[d] = a->grad[1][d][lane] * scale[d];
          }
          lambda_base = lod_from_gradients(dx, dy);
        } else {
          // Implicit LOD: coarse derivatives (quad_derivatives), so one λ (two square roots and a
          // log2) per quad serves its four lanes.
          const uint32_t quad = lane & ~3u;
          if (quad != lambda_quad) {
            for (uint32_t d = 0; d < 2; ++d) {
              dx[d] = (coord(d, quad + 1) - coord(d, quad)) * scale[d];
              dy[d] = (coord(d, quad + 2) - coord(d, quad)) * scale[d];
            }
            quad_lambda = lod_from_gradients(dx, dy);
            lambda_quad = quad;
          }
          lambda_base = quad_lambda;
        }
      }
      float bias = bias_sampler;
      if ((op & abi::kSampleBias) && lod_mode == abi::kSampleImplicitLod) bias += a->lod[lane];
      const float lambda_prime = lambda_base + std::clamp(bias, -16.0f, 16.0f);
      float lambda = std::min(std::max(lambda_prime, s.min_lod), s.max_lod);
      if (std::isnan(lambda)) lambda = 0.0f;
      const float d_prime = std::clamp(lambda, 0.0f, q);
      if (!linear_mips) {
        const float d = d_prime <= 0.5f ? 0.0f : std::ceil(d_prime + 0.5f) - 1.0f;
        hi[lane] = lo[lane] = int32_t(std::clamp(d, 0.0f, q));
      } else {
        hi[lane] = int32_t(std::floor(d_prime));
        lo[lane] = int32_t(std::min(uint32_t(hi[lane]) + 1, v.level_count - 1));
        delta[lane] = d_prime - float(hi[lane]);
        if (delta[lane] > 0.0f && lo[lane] != hi[lane]) second_level = true;
      }
    }
    return second_level;
  }

  // The call's lanes through the widest SIMD filter that applies, else run_portable. Inlined into
  // the format's routine (with try_fast_path), so the usual call (16 lanes of RGBA8, AVX-512) goes
  // routine -> run_avx512 with no frames between: those calls' prologues (register saves, the
  // realigned frame of run_portable's arrays) cost as much as a tenth of the sampling time.
  __attribute__((always_inline)) static inline void run(abi::SampleArgs* a, uint32_t lanes, const SampledView& v,
                                                        const Sampler& s) {
    if constexpr (kSimdDecoder && kLinear) {
      constexpr bool kBgra = std::is_same_v<D, Rgba8<true, false>>;
      const uint32_t simd = simd_lanes();
      if (simd >= 16 && a->width == 16 && run_avx512<kBgra>(a, lanes, v, s)) return;
      if (simd >= 8 && run_avx2<kBgra ? SimdFilter::Bgra8 : SimdFilter::Rgba8>(a, lanes, v, s)) return;
    }
    if constexpr (D::kBlocks && kLinear) {
      // BC1 UNORM, decoded per corner texel in SIMD (memory/sampling_bc1_simd.h).
      const bool bc1 = v.format == VK_FORMAT_BC1_RGB_UNORM_BLOCK || v.format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
      if (bc1 && simd_available() && bc1_divisions_exact()) {
        const bool done = v.format == VK_FORMAT_BC1_RGB_UNORM_BLOCK ? run_avx2<SimdFilter::Bc1Opaque>(a, lanes, v, s)
                                                                    : run_avx2<SimdFilter::Bc1Punchthrough>(a, lanes, v, s);
        if (done) return;
      }
    }
    run_portable(a, lanes, v, s);
  }

  // run without SIMD filters: levels per lane (or eight at a time for explicit LODs), then each
  // lane's filter.
  __attribute__((noinline)) static void run_portable(abi::SampleArgs* a, uint32_t lanes, const SampledView& v,
                                                     const Sampler& s) {
    alignas(32) float ps[abi::kMaxSampleLanes] = {}, pt[abi::kMaxSampleLanes] = {}, delta[abi::kMaxSampleLanes] = {};
    alignas(32) int32_t hi[abi::kMaxSampleLanes] = {}, lo[abi::kMaxSampleLanes] = {};
    if (v.level_count == 1) {
      // Every LOD selects the only level (d' = clamp(lambda, 0, 0)): levels and delta stay zero.
      std::memcpy(ps, a->coord[0], sizeof(ps));
      std::memcpy(pt, a->coord[1], sizeof(pt));
    } else if ((a->op & abi::kSampleLodMask) == abi::kSampleExplicitLod && simd_available()) {
      explicit_levels_avx2(a, v, s, ps, pt, hi, lo, delta);
    } else {
      lane_levels(a, lanes, v, s, ps, pt, hi, lo, delta);
    }
    BlockCache* cache = nullptr;
    if constexpr (D::kBlocks) {
      cache = &block_cache();
      cache->sync();
    }
    if constexpr (D::kBlocks && kLinear) {
      if (cache && v.block_width == 4 && v.block_height == 4) {
        for (uint32_t rest = lanes; rest; rest &= rest - 1) {
          const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(rest));
          Texel t = bilinear_4x4_cached(v, v.levels[hi[lane]], ps[lane], pt[lane], *cache);
          if (delta[lane] > 0.0f && lo[lane] != hi[lane]) {
            const Texel t2 = bilinear_4x4_cached(v, v.levels[lo[lane]], ps[lane], pt[lane], *cache);
            for (int k = 0; k < 4; ++k) t.f[k] = (1.0f - delta[lane]) * t.f[k] + delta[lane] * t2.f[k];
          }
          for (uint32_t c = 0; c < 4; ++c) a->out[c][lane] = swizzled(v, t, c);
        }
        return;
      }
    }
    for (uint32_t rest = lanes; rest; rest &= rest - 1) {
      const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(rest));
      Texel t = at_level(v, uint32_t(hi[lane]), ps[lane], pt[lane], cache);
      if (delta[lane] > 0.0f && lo[lane] != hi[lane]) {
        const Texel t2 = at_level(v, uint32_t(lo[lane]), ps[lane], pt[lane], cache);
        for (int k = 0; k < 4; ++k) t.f[k] = (1.0f - delta[lane]) * t.f[k] + delta[lane] * t2.f[k];
      }
      for (uint32_t c = 0; c < 4; ++c) a->out[c][lane] = swizzled(v, t, c);
    }
  }

  // lane_levels for explicit LODs, eight lanes at a time (every lane, active or not: inactive lanes
  // get some valid level and are never stored). The blends spell out std::max/min/clamp's
  // comparisons so NaNs travel exactly as in the scalar code.
  __attribute__((target("avx2"))) static bool explicit_levels_avx2(const abi::SampleArgs* a, const SampledView& v,
                                                                   const Sampler& s, float* ps, float* pt,
                                                                   int32_t* hi, int32_t* lo, float* delta) {
    const __m256 bias = _mm256_set1_ps(std::clamp(s.mip_lod_bias, -16.0f, 16.0f));
    const __m256 min_lod = _mm256_set1_ps(s.min_lod), max_lod = _mm256_set1_ps(s.max_lod);
    const __m256 zero = _mm256_setzero_ps(), q = _mm256_set1_ps(float(v.level_count - 1));
    const __m256i last = _mm256_set1_epi32(int32_t(v.level_count - 1));
    const bool linear_mips = s.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR;
    __m256 any_second = zero;
    const uint32_t width = std::min(a->width, abi::kMaxSampleLanes);
    for (uint32_t at = 0; at < width; at += 8) {
      _mm256_storeu_ps(ps + at, _mm256_loadu_ps(reinterpret_cast<const float*>(&a->coord[0][at])));
      _mm256_storeu_ps(pt + at, _mm256_loadu_ps(reinterpret_cast<const float*>(&a->coord[1][at])));
      const __m256 lambda_prime = _mm256_add_ps(_mm256_loadu_ps(a->lod + at), bias);
      // std::max(lambda', min_lod), then std::min(that, max_lod), NaN -> 0, std::clamp(that, 0, q).
      __m256 lambda = _mm256_blendv_ps(lambda_prime, min_lod, _mm256_cmp_ps(lambda_prime, min_lod, _CMP_LT_OQ));
      lambda = _mm256_blendv_ps(lambda, max_lod, _mm256_cmp_ps(max_lod, lambda, _CMP_LT_OQ));
      lambda = _mm256_blendv_ps(lambda, zero, _mm256_cmp_ps(lambda, lambda, _CMP_UNORD_Q));
      __m256 d_prime = _mm256_blendv_ps(lambda, zero, _mm256_cmp_ps(lambda, zero, _CMP_LT_OQ));
      d_prime = _mm256_blendv_ps(d_prime, q, _mm256_cmp_ps(q, d_prime, _CMP_LT_OQ));
      if (!linear_mips) {
        // d = d' <= 0.5 ? 0 : ceil(d' + 0.5) - 1, clamped to [0, q] (d' is already in it).
        const __m256 up = _mm256_sub_ps(_mm256_ceil_ps(_mm256_add_ps(d_prime, _mm256_set1_ps(0.5f))), _mm256_set1_ps(1.0f));
        __m256 d = _mm256_blendv_ps(up, zero, _mm256_cmp_ps(d_prime, _mm256_set1_ps(0.5f), _CMP_LE_OQ));
        d = _mm256_blendv_ps(d, q, _mm256_cmp_ps(q, d, _CMP_LT_OQ));
        const __m256i level = _mm256_cvttps_epi32(d);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(hi + at), level);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(lo + at), level);
        _mm256_storeu_ps(delta + at, zero);
      } else {
        const __m256i h = _mm256_cvttps_epi32(_mm256_floor_ps(d_prime));
        const __m256i l = _mm256_min_epi32(_mm256_add_epi32(h, _mm256_set1_epi32(1)), last);
        const __m256 dl = _mm256_sub_ps(d_prime, _mm256_cvtepi32_ps(h));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(hi + at), h);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(lo + at), l);
        _mm256_storeu_ps(delta + at, dl);
        const __m256 differ = _mm256_castsi256_ps(_mm256_xor_si256(_mm256_cmpeq_epi32(h, l), _mm256_set1_epi32(-1)));
        any_second = _mm256_or_ps(any_second, _mm256_and_ps(_mm256_cmp_ps(dl, zero, _CMP_GT_OQ), differ));
      }
    }
    return _mm256_movemask_ps(any_second) != 0;
  }

  // Phase 1 of run_avx2: every lane of the call's width gets a valid level in hi (and lo, delta
  // for the second level); returns whether any lane blends two levels. With one level every LOD
  // selects it (d' = clamp(lambda, 0, 0)): the coordinates are read in place and no LOD is computed;
  // *s_coord and *t_coord say where the coordinates to filter are.
  __attribute__((target("avx2,fma"), always_inline)) static inline bool simd_levels(
      abi::SampleArgs* a, uint32_t lanes, const SampledView& v, const Sampler& s, float* ps, float* pt, int32_t* hi,
      int32_t* lo, float* delta, const float** s_coord, const float** t_coord) {
    std::memset(hi, 0, sizeof(int32_t) * abi::kMaxSampleLanes);
    if (v.level_count == 1) {
      *s_coord = reinterpret_cast<const float*>(a->coord[0]);
      *t_coord = reinterpret_cast<const float*>(a->coord[1]);
      return false;
    }
    std::memset(ps, 0, sizeof(float) * abi::kMaxSampleLanes);
    std::memset(pt, 0, sizeof(float) * abi::kMaxSampleLanes);
    std::memset(delta, 0, sizeof(float) * abi::kMaxSampleLanes);
    std::memset(lo, 0, sizeof(int32_t) * abi::kMaxSampleLanes);
    *s_coord = ps;
    *t_coord = pt;
    return (a->op & abi::kSampleLodMask) == abi::kSampleExplicitLod ? explicit_levels_avx2(a, v, s, ps, pt, hi, lo, delta)
                                                                     : lane_levels(a, lanes, v, s, ps, pt, hi, lo, delta);
  }

  // Levels of sixteen lanes from lambda' (= lambda_base + the clamped bias): lane_levels' clamps and
  // mip selection with the comparisons spelled out so NaNs travel as in the scalar code. Returns
  // whether any lane blends two levels.
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"), always_inline)) static inline bool
  levels_x16(__m512 lambda_prime, const SampledView& v, const Sampler& s, __m512i* hi, __m512i* lo, __m512* delta) {
    const __m512 zero = _mm512_setzero_ps(), q = _mm512_set1_ps(float(v.level_count - 1));
    const __m512 min_lod = _mm512_set1_ps(s.min_lod), max_lod = _mm512_set1_ps(s.max_lod);
    // std::max(lambda', min_lod), then std::min(that, max_lod), NaN -> 0, std::clamp(that, 0, q).
    __m512 lambda = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(lambda_prime, min_lod, _CMP_LT_OQ), lambda_prime, min_lod);
    lambda = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(max_lod, lambda, _CMP_LT_OQ), lambda, max_lod);
    lambda = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(lambda, lambda, _CMP_UNORD_Q), lambda, zero);
    __m512 d_prime = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(lambda, zero, _CMP_LT_OQ), lambda, zero);
    d_prime = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(q, d_prime, _CMP_LT_OQ), d_prime, q);
    if (s.mipmap_mode != VK_SAMPLER_MIPMAP_MODE_LINEAR) {
      // d = d' <= 0.5 ? 0 : ceil(d' + 0.5) - 1, clamped to [0, q] (d' is already in it).
      const __m512 up = _mm512_sub_ps(_mm512_roundscale_ps(_mm512_add_ps(d_prime, _mm512_set1_ps(0.5f)),
                                                           _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC),
                                      _mm512_set1_ps(1.0f));
      __m512 d = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(d_prime, _mm512_set1_ps(0.5f), _CMP_LE_OQ), up, zero);
      d = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(q, d, _CMP_LT_OQ), d, q);
      *hi = *lo = _mm512_cvttps_epi32(d);
      *delta = zero;
      return false;
    }
    *hi = _mm512_cvttps_epi32(_mm512_roundscale_ps(d_prime, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
    *lo = _mm512_min_epi32(_mm512_add_epi32(*hi, _mm512_set1_epi32(1)), _mm512_set1_epi32(int32_t(v.level_count - 1)));
    *delta = _mm512_sub_ps(d_prime, _mm512_cvtepi32_ps(*hi));
    return (_mm512_cmp_ps_mask(*delta, zero, _CMP_GT_OQ) & _mm512_cmpneq_epi32_mask(*hi, *lo)) != 0;
  }

  // lambda' of sixteen lanes for explicit LODs (the sampler's bias) and implicit ones (coarse
  // derivatives: one lambda_base per quad from lod_from_gradients, as lane_levels computes it, plus
  // the sampler's and the shader's bias). Every quad gets a value; those of inactive quads are
  // never stored.
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"), always_inline)) static inline __m512
  lambda_prime_x16(const abi::SampleArgs* a, const SampledView& v, const Sampler& s) {
    const uint32_t lod_mode = a->op & abi::kSampleLodMask;
    if (lod_mode == abi::kSampleExplicitLod)
      return _mm512_add_ps(_mm512_loadu_ps(a->lod), _mm512_set1_ps(std::clamp(s.mip_lod_bias, -16.0f, 16.0f)));
    const float scale[2] = {float(v.levels[0].width), float(v.levels[0].height)};
    auto coord = [&](uint32_t c, uint32_t lane) {
      float f;
      std::memcpy(&f, &a->coord[c][lane], sizeof(f));
      return f;
    };
    alignas(16) float quad_lambda[4];
    for (uint32_t quad = 0; quad < 4; ++quad) {
      const uint32_t at = quad * 4;
      float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
      for (uint32_t d = 0; d < 2; ++d) {
        dx[d] = (coord(d, at + 1) - coord(d, at)) * scale[d];
        dy[d] = (coord(d, at + 2) - coord(d, at)) * scale[d];
      }
      quad_lambda[quad] = lod_from_gradients(dx, dy);
    }
    const __m512 lambda_base = _mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
                                                     _mm512_castps128_ps512(_mm_load_ps(quad_lambda)));
    __m512 bias = _mm512_set1_ps(s.mip_lod_bias);
    if (a->op & abi::kSampleBias) bias = _mm512_add_ps(bias, _mm512_loadu_ps(a->lod));
    // std::clamp(bias, -16, 16).
    const __m512 low = _mm512_set1_ps(-16.0f), high = _mm512_set1_ps(16.0f);
    bias = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(bias, low, _CMP_LT_OQ), bias, low);
    bias = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(high, bias, _CMP_LT_OQ), bias, high);
    return _mm512_add_ps(lambda_base, bias);
  }

  // Levels of sixteen lanes with gradients, through lane_levels' arrays. Out of line (its arrays
  // would give run_avx512 a realigned frame) and returning a struct, not through pointers to
  // run_avx512's vectors, which then lived on the stack on every path.
  struct GradientLevels {
    __m512 s, t, delta;
    __m512i hi, lo;
    bool second_level;
  };
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"), noinline)) static GradientLevels
  gradient_levels_x16(const abi::SampleArgs* a, uint32_t lanes, const SampledView& v, const Sampler& s) {
    alignas(64) float ps[abi::kMaxSampleLanes] = {}, pt[abi::kMaxSampleLanes] = {}, dl[abi::kMaxSampleLanes] = {};
    alignas(64) int32_t h[abi::kMaxSampleLanes] = {}, l[abi::kMaxSampleLanes] = {};
    GradientLevels out;
    out.second_level = lane_levels(a, lanes, v, s, ps, pt, h, l, dl);
    out.s = _mm512_load_ps(ps);
    out.t = _mm512_load_ps(pt);
    out.hi = _mm512_load_si512(h);
    out.lo = _mm512_load_si512(l);
    out.delta = _mm512_load_ps(dl);
    return out;
  }

  // RGBA8/BGRA8 UNORM with linear filtering, a call of 16 lanes on an AVX-512 CPU: levels,
  // filtering, the level blend and the stores sixteen lanes at a time. Returns false (nothing
  // written) when the view's levels cannot be addressed with 32-bit offsets.
  template <bool kBgra>
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"))) static bool run_avx512(
      abi::SampleArgs* a, uint32_t lanes, const SampledView& v, const Sampler& s) {
    if (!v.table_ok) return false;
    // Levels, the second level's weight and the coordinates in registers: levels_x16 for explicit
    // and implicit LODs, lane_levels' arrays for gradients, or level 0 for views of one level (every
    // LOD selects it).
    __m512i hi = _mm512_setzero_si512(), lo = hi;
    __m512 delta = _mm512_setzero_ps();
    __m512 s_coord = _mm512_loadu_ps(reinterpret_cast<const float*>(a->coord[0]));
    __m512 t_coord = _mm512_loadu_ps(reinterpret_cast<const float*>(a->coord[1]));
    bool second_level = false;
    if (v.level_count > 1) {
      if ((a->op & abi::kSampleLodMask) != abi::kSampleGrad) {
        second_level = levels_x16(lambda_prime_x16(a, v, s), v, s, &hi, &lo, &delta);
      } else {
        const GradientLevels g = gradient_levels_x16(a, lanes, v, s);
        s_coord = g.s;
        t_coord = g.t;
        hi = g.hi;
        lo = g.lo;
        delta = g.delta;
        second_level = g.second_level;
      }
    }
    constexpr bool kRepeat = kWrap == Wrap::Repeat;
    Rgba16 t = v.level_count == 1 ? rgba8_bilinear_x16<kBgra, kRepeat, true>(v, v.table, hi, s_coord, t_coord)
                                  : rgba8_bilinear_x16<kBgra, kRepeat>(v, v.table, hi, s_coord, t_coord);
    if (second_level) {
      // t = (1 - delta) t + delta t2 where delta > 0 and the levels differ.
      const Rgba16 t2 = rgba8_bilinear_x16<kBgra, kRepeat>(v, v.table, lo, s_coord, t_coord);
      const __mmask16 blend = _mm512_cmp_ps_mask(delta, _mm512_setzero_ps(), _CMP_GT_OQ) & _mm512_cmpneq_epi32_mask(hi, lo);
      const __m512 keep = _mm512_sub_ps(_mm512_set1_ps(1.0f), delta);
      auto mix = [&](__m512 x, __m512 y) __attribute__((always_inline, target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"))) {
        return _mm512_mask_blend_ps(blend, x, _mm512_add_ps(_mm512_mul_ps(keep, x), _mm512_mul_ps(delta, y)));
      };
      t = {mix(t.r, t2.r), mix(t.g, t2.g), mix(t.b, t2.b), mix(t.a, t2.a)};
    }
    // This call's lanes only, unless the kernel proved the descriptors uniform (see run_avx2).
    const __mmask16 mask = (a->op & abi::kSampleUniform) ? __mmask16(0xFFFF) : __mmask16(lanes);
    uint32_t swizzle;
    std::memcpy(&swizzle, v.swizzle, sizeof swizzle);
    if (swizzle == 0x03020100u && mask == 0xFFFF) {  // the identity, every lane: t as it is
      _mm512_storeu_ps(reinterpret_cast<float*>(a->out[0]), t.r);
      _mm512_storeu_ps(reinterpret_cast<float*>(a->out[1]), t.g);
      _mm512_storeu_ps(reinterpret_cast<float*>(a->out[2]), t.b);
      _mm512_storeu_ps(reinterpret_cast<float*>(a->out[3]), t.a);
      return true;
    }
    for (uint32_t c = 0; c < 4; ++c) {
      __m512 value;
      switch (v.swizzle[c]) {
        case 0: value = t.r; break;
        case 1: value = t.g; break;
        case 2: value = t.b; break;
        case 3: value = t.a; break;
        case 5: value = _mm512_set1_ps(1.0f); break;
        default: value = _mm512_setzero_ps(); break;
      }
      float* out = reinterpret_cast<float*>(a->out[c]);
      if (mask == 0xFFFF) _mm512_storeu_ps(out, value);
      else _mm512_mask_storeu_ps(out, mask, value);
    }
    return true;
  }

  // RGBA8/BGRA8 UNORM or BC1 UNORM with linear filtering on AVX2 CPUs: phase 1 compiled for AVX2
  // too, filtering and the level blend eight lanes at a time. Returns false (nothing written) when
  // the view's levels cannot be addressed with 32-bit offsets.
  template <SimdFilter kFilter>
  __attribute__((target("avx2,fma"))) static bool run_avx2(abi::SampleArgs* a, uint32_t lanes, const SampledView& v,
                                                       const Sampler& s) {
    if (!v.table_ok) return false;
    const LevelTable& table = v.table;
    alignas(32) float ps[abi::kMaxSampleLanes], pt[abi::kMaxSampleLanes], delta[abi::kMaxSampleLanes];
    alignas(32) int32_t hi[abi::kMaxSampleLanes], lo[abi::kMaxSampleLanes];
    const float *s_coord, *t_coord;
    const bool second_level = simd_levels(a, lanes, v, s, ps, pt, hi, lo, delta, &s_coord, &t_coord);
    const uint32_t width = std::min(a->width, abi::kMaxSampleLanes);
    constexpr bool kRepeat = kWrap == Wrap::Repeat;
    auto filter = [&](const int32_t* level, uint32_t at, __m256* out) __attribute__((always_inline, target("avx2,fma"))) {
      if constexpr (kFilter == SimdFilter::Rgba8 || kFilter == SimdFilter::Bgra8)
        rgba8_bilinear_x8<kFilter == SimdFilter::Bgra8, kRepeat>(v, table, level + at, s_coord + at, t_coord + at, out);
      else
        bc1_bilinear_x8<kFilter == SimdFilter::Bc1Punchthrough, kRepeat>(v, table, level + at, s_coord + at, t_coord + at, out);
    };
    for (uint32_t at = 0; at < width; at += 8) {
      __m256 t[4], t2[4];
      filter(hi, at, t);
      if (second_level) {
        filter(lo, at, t2);
        // t = (1 - delta) t + delta t2 where delta > 0 and the levels differ.
        const __m256 d = _mm256_loadu_ps(delta + at);
        const __m256i differ = _mm256_xor_si256(
            _mm256_cmpeq_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(hi + at)),
                               _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lo + at))),
            _mm256_set1_epi32(-1));
        const __m256 blend = _mm256_and_ps(_mm256_cmp_ps(d, _mm256_setzero_ps(), _CMP_GT_OQ), _mm256_castsi256_ps(differ));
        const __m256 keep = _mm256_sub_ps(_mm256_set1_ps(1.0f), d);
        for (int k = 0; k < 4; ++k)
          t[k] = _mm256_blendv_ps(t[k], _mm256_add_ps(_mm256_mul_ps(keep, t[k]), _mm256_mul_ps(d, t2[k])), blend);
      }
      // Store the swizzled components of this call's lanes only (other lanes may belong to another
      // routine that already wrote them). When the kernel proved the descriptors uniform, no other
      // routine serves this instruction and lanes outside the call are inactive: whole vectors are
      // stored (masked stores are slow microcode on some CPUs).
      const uint32_t bits = (lanes >> at) & 0xFFu;
      if (!bits) continue;
      const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
      const __m256i mask = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(int(bits)), lane_bit), lane_bit);
      const bool whole = bits == 0xFFu || (a->op & abi::kSampleUniform);
      for (uint32_t c = 0; c < 4; ++c) {
        const uint8_t sw = v.swizzle[c];
        const __m256 value = sw < 4 ? t[sw] : _mm256_set1_ps(sw == 5 ? 1.0f : 0.0f);
        float* out = reinterpret_cast<float*>(&a->out[c][at]);
        if (whole) _mm256_storeu_ps(out, value);
        else _mm256_maskstore_ps(out, mask, value);
      }
    }
    return true;
  }
};

// Runs the call through a fast path if it qualifies (see the top of this file); returns whether it did.
template <class D>
__attribute__((always_inline)) inline bool try_fast_path(abi::SampleArgs* a, uint32_t lanes) {
  constexpr uint32_t kAllowedFlags = abi::kSampleOpMask | abi::kSampleLodMask | abi::kSampleBias | abi::kSampleUniform |
                                     abi::kSampleUniformRecords;
  if ((a->op & abi::kSampleOpMask) != abi::kSampleOpSample || (a->op & ~kAllowedFlags) != 0 || lanes == 0) return false;
  const uint32_t first = static_cast<uint32_t>(__builtin_ctz(lanes));
  const bool scalar_records = a->op & abi::kSampleUniformRecords;
  const abi::ImageViewRecord* record = scalar_records ? a->uniform_view : a->view[first];
  const void* sampler = scalar_records ? a->uniform_sampler : a->sampler[first];
  if (!sampler) return false;
  if (!(a->op & abi::kSampleUniform)) {
    for (uint32_t rest = lanes; rest; rest &= rest - 1) {
      const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(rest));
      if (a->view[lane] != record || a->sampler[lane] != sampler) return false;
    }
  }
  const SampledView& v = *static_cast<const SampledView*>(record->sampled_view);
  const Sampler& s = *static_cast<const Sampler*>(sampler);
  if (v.type != VK_IMAGE_VIEW_TYPE_2D || v.value_class != fmt::ValueClass::Float || a->coord_count < 2) return false;
  if (s.unnormalized_coordinates || s.reduction_mode != VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE ||
      s.mag_filter != s.min_filter || s.address[0] != s.address[1])
    return false;
  if (s.max_anisotropy > 1.0f && (a->op & abi::kSampleLodMask) != abi::kSampleExplicitLod) return false;
  const bool linear = s.min_filter == VK_FILTER_LINEAR;
  switch (s.address[0]) {
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE:
      if (linear) FastSampler<D, Wrap::ClampToEdge, true>::run(a, lanes, v, s);
      else FastSampler<D, Wrap::ClampToEdge, false>::run(a, lanes, v, s);
      return true;
    case VK_SAMPLER_ADDRESS_MODE_REPEAT:
      if (linear) FastSampler<D, Wrap::Repeat, true>::run(a, lanes, v, s);
      else FastSampler<D, Wrap::Repeat, false>::run(a, lanes, v, s);
      return true;
    default:
      return false;
  }
}

}  // namespace kiln::mem::sampling_detail
