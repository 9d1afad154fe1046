#include "pipeline/graphics/block_coverage.h"

#include <immintrin.h>

#include <atomic>

namespace kiln::exec::gfx {
namespace {

constexpr int32_t kQuadRowStep = 2 * int32_t(kSubpixelOne);  // sub-pixel units from one quad row to the next

// The quad rows holding lanes of `region`: [first, last].
inline void region_rows(uint64_t region, uint32_t* first, uint32_t* last) {
  *first = uint32_t(__builtin_ctzll(region)) / 16;
  *last = uint32_t(63 - __builtin_clzll(region)) / 16;
}

std::atomic<bool> g_enabled{true};

// One edge's values at 16 lanes. The three edges are separate variables below: arrays of
// vectors were kept on the stack and reloaded.
__attribute__((target("avx512f,avx512vl,avx512bw"), always_inline)) inline __m512i edge_at(int32_t at, int32_t a,
                                                                                            int32_t b, __m512i x,
                                                                                            __m512i y) {
  return _mm512_add_epi32(_mm512_add_epi32(_mm512_set1_epi32(at), _mm512_mullo_epi32(_mm512_set1_epi32(a), x)),
                          _mm512_mullo_epi32(_mm512_set1_epi32(b), y));
}

// `region` is not empty.
__attribute__((target("avx512f,avx512vl,avx512bw"))) uint64_t block_coverage_avx512(const BlockEdges& e,
                                                                                      const BlockSamples& s,
                                                                                      uint64_t region,
                                                                                      uint32_t* coverage) {
  uint32_t first, last;
  region_rows(region, &first, &last);
  // From one quad row to the next (wrapping like the lanes do).
  const __m512i step0 = _mm512_set1_epi32(int32_t(uint32_t(e.b[0]) * uint32_t(kQuadRowStep)));
  const __m512i step1 = _mm512_set1_epi32(int32_t(uint32_t(e.b[1]) * uint32_t(kQuadRowStep)));
  const __m512i step2 = _mm512_set1_epi32(int32_t(uint32_t(e.b[2]) * uint32_t(kQuadRowStep)));
  const __m512i zero = _mm512_setzero_si512();
  const __m512i first_row_y = _mm512_set1_epi32(int32_t(first) * kQuadRowStep);
  uint64_t covered = 0;
  for (uint32_t i = 0; i < s.count; ++i) {
    const __m512i x = _mm512_load_si512(s.x[i]);
    const __m512i y = _mm512_add_epi32(_mm512_load_si512(s.y[i]), first_row_y);
    __m512i v0 = edge_at(e.at_corner[0], e.a[0], e.b[0], x, y);
    __m512i v1 = edge_at(e.at_corner[1], e.a[1], e.b[1], x, y);
    __m512i v2 = edge_at(e.at_corner[2], e.a[2], e.b[2], x, y);
    const __m512i bit = _mm512_set1_epi32(int32_t(s.bit[i]));
    for (uint32_t r = first; r <= last; ++r) {
      // Inside all three edges = no sign bit in v0 | v1 | v2 (one ternary OR, one compare,
      // instead of a chain of three dependent masked compares).
      const __m512i any_sign = _mm512_ternarylogic_epi32(v0, v1, v2, 0xFE);
      const __mmask16 inside = _mm512_mask_cmpge_epi32_mask(__mmask16(region >> (16 * r)), any_sign, zero);
      uint32_t* row = coverage + 16 * r;
      const __m512i samples = i == 0 ? _mm512_maskz_mov_epi32(inside, bit)
                                     : _mm512_mask_or_epi32(_mm512_load_si512(row), inside, _mm512_load_si512(row), bit);
      _mm512_store_si512(row, samples);
      covered |= uint64_t(inside) << (16 * r);
      v0 = _mm512_add_epi32(v0, step0);
      v1 = _mm512_add_epi32(v1, step1);
      v2 = _mm512_add_epi32(v2, step2);
    }
  }
  return covered;
}

bool cpu_has_avx512() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw");
  }();
  return has;
}

}  // namespace

BlockSamples::BlockSamples(const DrawContext& ctx, uint32_t sample_mask) {
  for (uint32_t s = 0; s < ctx.samples && s < kMaxSamples; ++s) {
    if (!(sample_mask & (1u << s))) continue;
    bit[count] = 1u << s;
    for (uint32_t l = 0; l < 16; ++l) {
      x[count][l] = block_lane_column(l) * int32_t(kSubpixelOne) + ctx.sample_x[s];
      y[count][l] = block_lane_row(l) * int32_t(kSubpixelOne) + ctx.sample_y[s];
    }
    ++count;
  }
}

uint64_t block_coverage_scalar(const BlockEdges& e, const BlockSamples& s, uint64_t region, uint32_t* coverage) {
  if (!region) return 0;
  uint32_t first, last;
  region_rows(region, &first, &last);
  uint64_t covered = 0;
  for (uint32_t r = first; r <= last; ++r)
    for (uint32_t l = 0; l < 16; ++l) {
      const uint32_t lane = 16 * r + l;
      uint32_t mask = 0;
      if (region >> lane & 1) {
        for (uint32_t i = 0; i < s.count; ++i) {
          const int64_t x = s.x[i][l], y = s.y[i][l] + int64_t(r) * kQuadRowStep;
          bool inside = true;
          for (int k = 0; k < 3; ++k) inside &= e.at_corner[k] + e.a[k] * x + e.b[k] * y >= 0;
          if (inside) mask |= s.bit[i];
        }
      }
      coverage[lane] = mask;
      covered |= uint64_t(mask != 0) << lane;
    }
  return covered;
}

uint64_t block_coverage(const BlockEdges& edges, const BlockSamples& samples, uint64_t region, uint32_t* coverage) {
  if (!region) return 0;
  if (cpu_has_avx512()) return block_coverage_avx512(edges, samples, region, coverage);
  return block_coverage_scalar(edges, samples, region, coverage);
}

BlockCoverageFn block_coverage_routine() {
  return cpu_has_avx512() && g_enabled.load(std::memory_order_relaxed) ? &block_coverage_avx512 : nullptr;
}

bool block_coverage_supported() { return cpu_has_avx512(); }

void enable_block_coverage(bool enabled) { g_enabled.store(enabled, std::memory_order_relaxed); }

}  // namespace kiln::exec::gfx
