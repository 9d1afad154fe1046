#include "memory/attachment_access.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "memory/format_pack.h"
#include "memory/format_table.h"

namespace kiln::mem {

bool make_attachment_surface(const ImageView& view, VkImageAspectFlagBits aspect, AttachmentSurface* out) {
  if (!view.image || !view.image->data || !(attachment_aspects(view) & aspect)) return false;
  const Image& image = *view.image;
  // Layers of a 2D(-array) view of a 3D image are depth slices of the mip level's one subresource.
  const uint32_t layer = view.slices_of_3d ? 0 : view.range.baseArrayLayer;
  const SubresourceAddress sub = image.layout.address(aspect, view.range.baseMipLevel, layer);
  if (sub.texel_bytes == 0) return false;
  AttachmentSurface s;
  s.format = view.format;
  s.aspect = aspect;
  s.samples = static_cast<uint32_t>(image.desc.samples);
  s.sample_bytes = sub.texel_bytes / s.samples;
  s.row_pitch = sub.row_pitch;
  s.layer_pitch = view.slices_of_3d ? sub.slice_pitch : sub.layer_pitch;
  s.base = image.data + sub.offset + (view.slices_of_3d ? uint64_t{view.range.baseArrayLayer} * sub.slice_pitch : 0);
  s.width = sub.extent.width;
  s.height = sub.extent.height;
  s.layers = view.range.layerCount;
  *out = s;
  return true;
}

namespace {

// The word encoders: each channel's codes shifted into place and or-ed together.
template <bool kBgra>
uint32_t pack_words_scalar(float r, float g, float b, float a) {
  constexpr int kRedShift = kBgra ? 16 : 0, kBlueShift = kBgra ? 0 : 16;
  return encode_unorm8(r) << kRedShift | encode_unorm8(g) << 8 | encode_unorm8(b) << kBlueShift |
         encode_unorm8(a) << 24;
}

template <bool kBgra>
void encode_words_sse2(const float* r, const float* g, const float* b, const float* a, uint32_t n, uint32_t* words) {
  constexpr int kRedShift = kBgra ? 16 : 0, kBlueShift = kBgra ? 0 : 16;
  uint32_t k = 0;
  for (; k + 4 <= n; k += 4) {
    const __m128i word = _mm_or_si128(
        _mm_or_si128(_mm_slli_epi32(encode_unorm8_x4(_mm_loadu_ps(r + k)), kRedShift),
                     _mm_slli_epi32(encode_unorm8_x4(_mm_loadu_ps(g + k)), 8)),
        _mm_or_si128(_mm_slli_epi32(encode_unorm8_x4(_mm_loadu_ps(b + k)), kBlueShift),
                     _mm_slli_epi32(encode_unorm8_x4(_mm_loadu_ps(a + k)), 24)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(words + k), word);
  }
  for (; k < n; ++k) words[k] = pack_words_scalar<kBgra>(r[k], g[k], b[k], a[k]);
}

// encode_unorm8 of 8 lanes: the SSE2 arithmetic on 256-bit registers (maxps keeps NaN -> 0).
__attribute__((target("avx2"))) inline __m256i encode_unorm8_x8(__m256 v) {
  const __m256 c = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
  const __m256d scale = _mm256_set1_pd(255.0), round = _mm256_set1_pd(6755399441055744.0);
  const __m256d lo = _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(c)), scale), round), round);
  const __m256d hi = _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(c, 1)), scale), round), round);
  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm256_cvttpd_epi32(lo)), _mm256_cvttpd_epi32(hi), 1);
}

template <bool kBgra>
__attribute__((target("avx2"))) void encode_words_avx2(const float* r, const float* g, const float* b, const float* a,
                                                       uint32_t n, uint32_t* words) {
  constexpr int kRedShift = kBgra ? 16 : 0, kBlueShift = kBgra ? 0 : 16;
  uint32_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m256i word = _mm256_or_si256(
        _mm256_or_si256(_mm256_slli_epi32(encode_unorm8_x8(_mm256_loadu_ps(r + k)), kRedShift),
                        _mm256_slli_epi32(encode_unorm8_x8(_mm256_loadu_ps(g + k)), 8)),
        _mm256_or_si256(_mm256_slli_epi32(encode_unorm8_x8(_mm256_loadu_ps(b + k)), kBlueShift),
                        _mm256_slli_epi32(encode_unorm8_x8(_mm256_loadu_ps(a + k)), 24)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(words + k), word);
  }
  encode_words_sse2<kBgra>(r + k, g + k, b + k, a + k, n - k, words + k);
}

template <bool kBgra>
__attribute__((target("avx512f"))) void encode_words_avx512(const float* r, const float* g, const float* b,
                                                             const float* a, uint32_t n, uint32_t* words) {
  uint32_t k = 0;
  for (; k + 16 <= n; k += 16)
    _mm512_storeu_si512(words + k, encode_unorm8_words_x16<kBgra>(_mm512_loadu_ps(r + k), _mm512_loadu_ps(g + k),
                                                                  _mm512_loadu_ps(b + k), _mm512_loadu_ps(a + k)));
  encode_words_sse2<kBgra>(r + k, g + k, b + k, a + k, n - k, words + k);
}

using EncodeWordsFn = void (*)(const float*, const float*, const float*, const float*, uint32_t, uint32_t*);
struct WordEncoders {
  EncodeWordsFn rgba, bgra;
  WordEncoders() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
      rgba = encode_words_avx512<false>, bgra = encode_words_avx512<true>;
    } else if (__builtin_cpu_supports("avx2")) {
      rgba = encode_words_avx2<false>, bgra = encode_words_avx2<true>;
    } else {
      rgba = encode_words_sse2<false>, bgra = encode_words_sse2<true>;
    }
  }
};
const WordEncoders word_encoders;

struct Unorm8Tables {
  float unorm[256], srgb[256];
  Unorm8Tables() {
    // Built with the reference itself, so the fast path cannot drift from it.
    for (uint32_t c = 0; c < 256; ++c) {
      const uint8_t code = static_cast<uint8_t>(c);
      VkClearColorValue v{};
      fmt::unpack_color(VK_FORMAT_R8_UNORM, &code, &v);
      unorm[c] = v.float32[0];
      fmt::unpack_color(VK_FORMAT_R8_SRGB, &code, &v);
      srgb[c] = v.float32[0];
    }
  }
};
const Unorm8Tables& tables() {
  static const Unorm8Tables t;
  return t;
}

// Channel order in memory: RGBA (swap = false) or BGRA (swap = true).
template <bool kSwap, bool kSrgb>
void unpack_rgba8(VkFormat, const void* texel, VkClearColorValue* out) {
  const uint8_t* b = static_cast<const uint8_t*>(texel);
  const float* rgb = kSrgb ? tables().srgb : tables().unorm;
  out->float32[0] = rgb[b[kSwap ? 2 : 0]];
  out->float32[1] = rgb[b[1]];
  out->float32[2] = rgb[b[kSwap ? 0 : 2]];
  out->float32[3] = tables().unorm[b[3]];
}
template <bool kSwap>
void pack_unorm8(VkFormat, const VkClearColorValue& v, void* texel) {
  uint8_t* b = static_cast<uint8_t*>(texel);
  b[kSwap ? 2 : 0] = static_cast<uint8_t>(encode_unorm8(v.float32[0]));
  b[1] = static_cast<uint8_t>(encode_unorm8(v.float32[1]));
  b[kSwap ? 0 : 2] = static_cast<uint8_t>(encode_unorm8(v.float32[2]));
  b[3] = static_cast<uint8_t>(encode_unorm8(v.float32[3]));
}
void copy16_in(VkFormat, const void* texel, VkClearColorValue* out) { memcpy(out, texel, 16); }
void copy16_out(VkFormat, const VkClearColorValue& v, void* texel) { memcpy(texel, &v, 16); }
// The reference, for every other format.
void reference_unpack(VkFormat f, const void* texel, VkClearColorValue* out) { fmt::unpack_color(f, texel, out); }
void reference_pack(VkFormat f, const VkClearColorValue& v, void* texel) { fmt::pack_color(f, v, texel); }

float unpack_d32(const void* t) { float f; memcpy(&f, t, 4); return f; }
void pack_d32(float d, void* t) { memcpy(t, &d, 4); }
float unpack_d24(const void* t) { uint32_t c; memcpy(&c, t, 4); return fmt::unorm_to_float(c & 0xFFFFFFu, 24); }
void pack_d24(float d, void* t) { const uint32_t c = fmt::float_to_unorm(d, 24); memcpy(t, &c, 4); }
float unpack_d16(const void* t) { uint16_t c; memcpy(&c, t, 2); return fmt::unorm_to_float(c, 16); }
void pack_d16(float d, void* t) { const uint16_t c = static_cast<uint16_t>(fmt::float_to_unorm(d, 16)); memcpy(t, &c, 2); }

}  // namespace

const float* unorm8_decode_table() { return tables().unorm; }

ColorCodec color_codec(VkFormat format) {
  using Layout = ColorCodec::Layout;
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM: return {Layout::Rgba8Unorm, format, &unpack_rgba8<false, false>, &pack_unorm8<false>};
    case VK_FORMAT_B8G8R8A8_UNORM: return {Layout::Bgra8Unorm, format, &unpack_rgba8<true, false>, &pack_unorm8<true>};
    // sRGB encoding is left to the reference (pow); decoding is a table.
    case VK_FORMAT_R8G8B8A8_SRGB: return {Layout::Other, format, &unpack_rgba8<false, true>, &reference_pack};
    case VK_FORMAT_B8G8R8A8_SRGB: return {Layout::Other, format, &unpack_rgba8<true, true>, &reference_pack};
    case VK_FORMAT_R32G32B32A32_SFLOAT:
    case VK_FORMAT_R32G32B32A32_UINT:
    case VK_FORMAT_R32G32B32A32_SINT: return {Layout::Other, format, &copy16_in, &copy16_out};
    default: break;
  }
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (!info || info->is_compressed() || !(info->aspects & VK_IMAGE_ASPECT_COLOR_BIT)) return {};
  return {Layout::Other, format, &reference_unpack, &reference_pack};
}

DepthCodec depth_codec(VkFormat format) {
  switch (format) {
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: return {&unpack_d32, &pack_d32};
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: return {&unpack_d24, &pack_d24};
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: return {&unpack_d16, &pack_d16};
    default: return {};
  }
}

void encode_unorm8_words(bool bgra, const float* r, const float* g, const float* b, const float* a, uint32_t n,
                         uint32_t* words) {
  (bgra ? word_encoders.bgra : word_encoders.rgba)(r, g, b, a, n, words);
}

}  // namespace kiln::mem
