#pragma once
// Render-target texel access for the graphics back end: where texel (x, y, layer, sample) of an
// image view's mip level lives (asked of ImageLayout, the one place for address math), and
// fast pack/unpack for the formats draws use most. Every other format falls back to
// memory/format_pack, which stays the reference (tests/unit/attachment_access_test.cpp checks
// the fast paths against it).
// GCC 12 warns that the AVX-512 intrinsics' own undefined pass-through operands "may be used
// uninitialized" wherever they are inlined (GCC bug 105593): silenced for the intrinsics only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#include <vulkan/vulkan.h>

#include <cstdint>

#include "memory/image_view.h"

namespace kiln::mem {

// One aspect of an image view's base mip level, seen as a render target.
struct AttachmentSurface {
  uint8_t* base = nullptr;  // texel (0, 0), sample 0, of the view's first layer
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  uint64_t row_pitch = 0, layer_pitch = 0;
  uint32_t sample_bytes = 0;  // bytes of one sample; a texel's samples are adjacent
  uint32_t samples = 1;
  uint32_t width = 0, height = 0, layers = 0;

  uint8_t* texel(uint32_t x, uint32_t y, uint32_t layer, uint32_t sample) const {
    return base + layer * layer_pitch + y * row_pitch + uint64_t{x} * samples * sample_bytes +
           uint64_t{sample} * sample_bytes;
  }
};

// False when the view's format has no such aspect (attachment_aspects), its image has no memory,
// or the format is unknown.
bool make_attachment_surface(const ImageView& view, VkImageAspectFlagBits aspect, AttachmentSurface* out);

// 8-bit UNORM channels exactly as fmt::float_to_unorm / unorm_to_float, inline for the back end's
// lane loops: clamp (NaN -> 0), scale, round to nearest even. v * 255 is exact in double, and
// adding and subtracting 1.5 * 2^52 rounds it to an integer in the default rounding mode.
inline uint32_t encode_unorm8(float v) {
  const float positive = v > 0.0f ? v : 0.0f;  // maxss: NaN -> 0, branch-free so lane loops vectorise
  const float c = positive < 1.0f ? positive : 1.0f;
  constexpr double kRound = 6755399441055744.0;
  return static_cast<uint32_t>(static_cast<int32_t>((static_cast<double>(c) * 255.0 + kRound) - kRound));
}
// encode_unorm8 of four lanes in SSE2 (GCC keeps the scalar form's clamps as branches): maxps
// returns its second operand for NaN, exactly like the scalar select.
inline __m128i encode_unorm8_x4(__m128 v) {
  const __m128 c = _mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(1.0f));
  const __m128d scale = _mm_set1_pd(255.0), round = _mm_set1_pd(6755399441055744.0);
  const __m128d lo = _mm_sub_pd(_mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(c), scale), round), round);
  const __m128d hi = _mm_sub_pd(_mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(c, c)), scale), round), round);
  return _mm_unpacklo_epi64(_mm_cvttpd_epi32(lo), _mm_cvttpd_epi32(hi));
}
// encode_unorm8 of 16 lanes with AVX-512F (callers need the target), in two instructions after the
// clamp: round-to-nearest-even of c * 255 is floor(c * 255 + 0.5) — the one tie, c = 0.5 (127.5),
// rounds up to even 128 either way — and an FMA rounded down keeps that floor exact, as does the
// conversion rounded down (embedded rounding, whatever MXCSR says). Checked against the scalar
// form for every float in [0, 1]; the unit test samples them.
__attribute__((target("avx512f"), always_inline)) inline __m512i encode_unorm8_x16(__m512 v) {
  const __m512 c = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(1.0f));
  constexpr int kDown = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;
  return _mm512_cvt_roundps_epi32(_mm512_fmadd_round_ps(c, _mm512_set1_ps(255.0f), _mm512_set1_ps(0.5f), kDown), kDown);
}
// RGBA8 (kBgra false: R in the low byte) or BGRA8 words of 16 lanes, each channel encode_unorm8_x16.
template <bool kBgra>
__attribute__((target("avx512f"), always_inline)) inline __m512i encode_unorm8_words_x16(__m512 r, __m512 g, __m512 b,
                                                                                       __m512 a) {
  constexpr int kRedShift = kBgra ? 16 : 0, kBlueShift = kBgra ? 0 : 16;
  return _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi32(encode_unorm8_x16(r), kRedShift),
                                         _mm512_slli_epi32(encode_unorm8_x16(g), 8)),
                         _mm512_or_si512(_mm512_slli_epi32(encode_unorm8_x16(b), kBlueShift),
                                         _mm512_slli_epi32(encode_unorm8_x16(a), 24)));
}
// RGBA8 (kBgra false: R in the low byte) or BGRA8 words of n lanes from four channel arrays,
// each channel as encode_unorm8: 16 lanes per step with AVX-512, 8 with AVX2, else 4 with SSE2
// (the same double arithmetic in every width, so the words are identical).
void encode_unorm8_words(bool bgra, const float* r, const float* g, const float* b, const float* a, uint32_t n,
                         uint32_t* words);
// Decoded value of each 8-bit UNORM code.
const float* unorm8_decode_table();
// unorm8_decode_table of four codes (0..255 in 32-bit lanes): code / 255 in float is correctly
// rounded, as is the table's double quotient rounded to float (1/255's binary expansion repeats
// every 8 bits, so the double never lies on a float rounding midpoint; a unit test checks all 256).
inline __m128 decode_unorm8_x4(__m128i codes) { return _mm_div_ps(_mm_cvtepi32_ps(codes), _mm_set1_ps(255.0f)); }
// decode_unorm8_x4 of 16 lanes with AVX-512F, without the slow division: code * (1/255) refined
// by one Newton step on its exact remainder (two FMAs) is the correctly rounded quotient for every
// code 0..255 (a unit test checks all of them against the table).
__attribute__((target("avx512f"), always_inline)) inline __m512 decode_unorm8_x16(__m512i codes) {
  const __m512 code = _mm512_cvtepi32_ps(codes), reciprocal = _mm512_set1_ps(1.0f / 255.0f);
  const __m512 estimate = _mm512_mul_ps(code, reciprocal);
  const __m512 remainder = _mm512_fnmadd_ps(estimate, _mm512_set1_ps(255.0f), code);  // exact
  return _mm512_fmadd_ps(remainder, reciprocal, estimate);
}

// Texel <-> VkClearColorValue conversions with fmt::pack_color/unpack_color semantics, picked
// once per format (fast paths for 8-bit RGBA/BGRA UNORM/SRGB and RGBA32 SFLOAT).
struct ColorCodec {
  // Formats whose texel is four 8-bit UNORM channels in a 32-bit word, which callers may
  // encode inline with encode_unorm8 (RGBA: R in the low byte; BGRA: B in the low byte).
  enum class Layout : uint8_t { Other, Rgba8Unorm, Bgra8Unorm };
  Layout layout = Layout::Other;
  VkFormat format = VK_FORMAT_UNDEFINED;
  void (*unpack_fn)(VkFormat format, const void* texel, VkClearColorValue* out) = nullptr;
  void (*pack_fn)(VkFormat format, const VkClearColorValue& value, void* texel) = nullptr;
  explicit operator bool() const { return unpack_fn != nullptr; }
  void unpack(const void* texel, VkClearColorValue* out) const { unpack_fn(format, texel, out); }
  void pack(const VkClearColorValue& value, void* texel) const { pack_fn(format, value, texel); }
};
// Null functions for formats without a colour aspect.
ColorCodec color_codec(VkFormat format);

// The depth aspect as float, with fmt::pack_depth/unpack_depth semantics (fast D16, D24, D32).
struct DepthCodec {
  float (*unpack)(const void* texel) = nullptr;
  void (*pack)(float depth, void* texel) = nullptr;
  explicit operator bool() const { return unpack != nullptr; }
};
DepthCodec depth_codec(VkFormat format);

}  // namespace kiln::mem
