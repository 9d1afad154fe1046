#pragma once
// Texel decoders of the sampling routines (memory/sampling.cpp): the template parameter that
// specialises a routine per format. Internal to the sampling code; included by sampling.cpp only.
// Every decoder agrees bit for bit with memory/format_pack (or the block decoders), which
// tests/unit/sampling_test.cpp checks.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "memory/block_decode.h"
#include "memory/format_pack.h"
#include "memory/sampling.h"

namespace kiln::mem::sampling_detail {

// One texel's four values: floats, or integers for UINT/SINT formats (bit patterns either way).
struct Texel {
  union {
    float f[4];
    uint32_t u[4];
  };
};

// Linear filtering's step between neighbouring texels (or between two rows or slices already
// interpolated) x and y, at fraction a of the way to y: x + a (y - x), so equal neighbours (a solid
// colour) come back bit for bit (CTS sampler.exact_sampling), where a weighted sum of four corners
// is off by an ulp when the weights do not add up to exactly 1. Every filter (the generic routine,
// the fast paths and their SIMD kernels) interpolates x first, then y, then z, with separate
// multiplies and adds, so they agree bit for bit. Callers do not read y when a == 0: a texel of
// zero weight is never read, and an infinite or NaN one does not leak in.
inline float filter_lerp(float x, float y, float a) { return x + a * (y - x); }

// floor() as an integer that stays far from overflow (NaN -> the low end).
inline int32_t floor_to_int(float x) {
  constexpr float kLimit = 1 << 28;
  if (!(x >= -kLimit)) x = -kLimit;
  if (x > kLimit) x = kLimit;
  return static_cast<int32_t>(std::floor(x));
}

// One axis of a linear filter's footprint at texel-space x (the coordinate - 0.5): returns the
// lower texel, floor(x), and sets *a to the fraction toward the upper one, x - floor(x). A fraction
// that rounds up to 1 (x just below an integer) becomes 0 at the upper texel, where all the weight
// is, so that filter_lerp never has to return its upper value exactly; a non-finite x has 0.
inline int32_t filter_axis(float x, float* a) {
  int32_t i = floor_to_int(x);
  float fraction = std::isfinite(x) ? x - std::floor(x) : 0.0f;
  if (fraction == 1.0f) {
    fraction = 0.0f;
    ++i;
  }
  *a = fraction;
  return i;
}

// ----- Texel decoders: the template parameter of the routines --------------------------------
// decode(view, texel bytes, x, y) -> Texel. `x`, `y` are the texel's position inside its block for
// block-compressed formats (kBlocks), unused otherwise.

// Any uncompressed format (and the depth aspect) through the reference unpacking.
struct AnyFormat {
  static constexpr bool kBlocks = false;
  static Texel decode(const SampledView& v, const uint8_t* p, uint32_t, uint32_t) {
    VkClearColorValue c{};
    fmt::unpack_aspect(v.format, v.aspect, p, &c);
    Texel t;
    std::memcpy(t.u, c.uint32, sizeof(t.u));
    return t;
  }
};

// Decoded blocks of compressed formats, one cache per thread, so that a bilinear footprint (and
// neighbouring lanes and subgroups) decode a 4x4 block once instead of once per texel. Entries are
// keyed by (block address, format) and live for one sampling epoch: advance_sampling_epoch()
// (memory/sampling.h, called before every dispatch and draw) retires them all, because image memory
// may change between commands. Direct-mapped: a miss costs one decode, as without the cache.
class BlockCache {
 public:
  static constexpr uint32_t kEntries = 64;
  static constexpr uint32_t kMaxTexels = 16;  // blocks of up to 4x4 texels: texels()
  // ASTC's larger blocks (up to 12x12) in a few entries of their own: large_texels(). Without them
  // every texel read decoded its whole block (a CTS ASTC 12x10 sRGB case took over a minute).
  static constexpr uint32_t kLargeEntries = 8;
  static constexpr uint32_t kMaxLargeTexels = 144;
  static_assert(kMaxLargeTexels >= fmt::kMaxBlockTexels, "every block format fits an entry");

  // Retires the entries of earlier epochs; call before texels() (once per routine call is enough).
  void sync() {
    const uint64_t now = sampling_epoch();
    if (epoch_ != now) {
      for (const uint8_t*& t : small_.tag) t = nullptr;
      for (const uint8_t*& t : large_.tag) t = nullptr;
      epoch_ = now;
    }
  }

  // The decoded texels of `block` (zeros if the format cannot be decoded): blocks of at most
  // kMaxTexels texels, and of at most kMaxLargeTexels.
  const float (*texels(const uint8_t* block, VkFormat format))[4] { return lookup(small_, block, format); }
  const float (*large_texels(const uint8_t* block, VkFormat format))[4] { return lookup(large_, block, format); }
  // Either, by the view's block size (at most kMaxLargeTexels texels).
  const float (*texels_of(const SampledView& v, const uint8_t* block))[4] {
    return v.block_width * v.block_height <= kMaxTexels ? texels(block, v.format) : large_texels(block, v.format);
  }

 private:
  template <uint32_t kCount, uint32_t kTexels>
  struct Entries {
    const uint8_t* tag[kCount] = {};
    VkFormat format[kCount] = {};
    float data[kCount][kTexels][4];
  };
  template <uint32_t kCount, uint32_t kTexels>
  static const float (*lookup(Entries<kCount, kTexels>& e, const uint8_t* block, VkFormat format))[4] {
    static_assert((kCount & (kCount - 1)) == 0, "a power of two: the hash's top bits index it");
    // Fibonacci hashing of the block address spreads rows of blocks over the entries.
    constexpr uint32_t kShift = 64 - std::countr_zero(kCount);
    const uint32_t i = uint32_t((uint64_t(reinterpret_cast<uintptr_t>(block) >> 3) * 0x9E3779B97F4A7C15ull) >> kShift);
    if (e.tag[i] != block || e.format[i] != format) {
      if (!fmt::decode_block(format, block, e.data[i])) std::memset(e.data[i], 0, sizeof(e.data[i]));
      e.tag[i] = block;
      e.format[i] = format;
    }
    return e.data[i];
  }

  uint64_t epoch_ = 0;
  Entries<kEntries, kMaxTexels> small_;
  Entries<kLargeEntries, kMaxLargeTexels> large_;
};

inline BlockCache& block_cache() {
  static thread_local BlockCache cache;
  return cache;
}

// Block-compressed formats: the texel is picked out of its decoded block, through the cache.
struct AnyCompressed {
  static constexpr bool kBlocks = true;
  static Texel decode(const SampledView& v, const uint8_t* p, uint32_t x, uint32_t y) {
    BlockCache& cache = block_cache();
    cache.sync();
    return decode_cached(cache, v, p, x, y);
  }
  // Through a cache already synced for this call (fast paths fetch it once per call: thread-local
  // access in a shared library is a function call).
  static Texel decode_cached(BlockCache& cache, const SampledView& v, const uint8_t* p, uint32_t x, uint32_t y) {
    Texel t;
    std::memcpy(t.f, cache.texels_of(v, p)[y * v.block_width + x], sizeof(t.f));
    return t;
  }
};

// 8-bit UNORM and sRGB codes -> float, built once from the reference unpacking so the fast
// decoders below agree with it bit for bit.
struct Byte8Tables {
  float unorm[256], srgb[256];
  Byte8Tables() {
    for (uint32_t i = 0; i < 256; ++i) {
      const uint8_t texel[4] = {uint8_t(i), uint8_t(i), uint8_t(i), uint8_t(i)};
      VkClearColorValue v{};
      fmt::unpack_color(VK_FORMAT_R8G8B8A8_SRGB, texel, &v);
      srgb[i] = v.float32[0];
      unorm[i] = v.float32[3];
    }
  }
};
inline const Byte8Tables& byte8() {
  static const Byte8Tables tables;
  return tables;
}

// The common 8-bit and float formats, decoded without looking at the format table. sRGB is
// decoded per texel, before filtering, as the spec requires.
template <bool kBgra, bool kSrgb>
struct Rgba8 {
  static constexpr bool kBlocks = false;
  static Texel decode(const SampledView&, const uint8_t* p, uint32_t, uint32_t) {
    static const Byte8Tables& t8 = byte8();
    const float* rgb = kSrgb ? t8.srgb : t8.unorm;
    Texel t;
    t.f[0] = rgb[p[kBgra ? 2 : 0]];
    t.f[1] = rgb[p[1]];
    t.f[2] = rgb[p[kBgra ? 0 : 2]];
    t.f[3] = t8.unorm[p[3]];
    return t;
  }
};

template <int N>
struct Float32 {
  static constexpr bool kBlocks = false;
  static Texel decode(const SampledView&, const uint8_t* p, uint32_t, uint32_t) {
    Texel t{};
    std::memcpy(t.f, p, N * sizeof(float));
    if (N < 4) t.f[3] = 1.0f;
    return t;
  }
};

}  // namespace kiln::mem::sampling_detail
