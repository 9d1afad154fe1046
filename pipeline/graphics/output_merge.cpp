#include "pipeline/graphics/output_merge.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "common/log.h"
#include "memory/format_table.h"
#include "common/compare_op.h"

namespace kiln::exec::gfx {
namespace {

uint32_t logic_op(VkLogicOp op, uint32_t s, uint32_t d) {
  switch (op) {
    case VK_LOGIC_OP_CLEAR: return 0;
    case VK_LOGIC_OP_AND: return s & d;
    case VK_LOGIC_OP_AND_REVERSE: return s & ~d;
    case VK_LOGIC_OP_COPY: return s;
    case VK_LOGIC_OP_AND_INVERTED: return ~s & d;
    case VK_LOGIC_OP_NO_OP: return d;
    case VK_LOGIC_OP_XOR: return s ^ d;
    case VK_LOGIC_OP_OR: return s | d;
    case VK_LOGIC_OP_NOR: return ~(s | d);
    case VK_LOGIC_OP_EQUIVALENT: return ~(s ^ d);
    case VK_LOGIC_OP_INVERT: return ~d;
    case VK_LOGIC_OP_OR_REVERSE: return s | ~d;
    case VK_LOGIC_OP_COPY_INVERTED: return ~s;
    case VK_LOGIC_OP_OR_INVERTED: return ~s | d;
    case VK_LOGIC_OP_NAND: return ~(s & d);
    default: return ~0u;  // SET
  }
}

// Stores `word` into all `samples` adjacent 32-bit samples of a pixel (a fully covered pixel of
// a multisampled target), 16 bytes at a time for 4 and 8 samples.
inline void fill_samples(uint8_t* pixel, uint32_t word, uint32_t samples) {
  if (samples % 4 == 0) {
    const __m128i w = _mm_set1_epi32(int(word));
    for (uint32_t s = 0; s < samples; s += 4) _mm_storeu_si128(reinterpret_cast<__m128i*>(pixel + 4 * s), w);
    return;
  }
  for (uint32_t s = 0; s < samples; ++s) memcpy(pixel + 4 * s, &word, 4);
}

}  // namespace

bool OutputMerger::avx512_stores = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
}();

OutputMerger::OutputMerger(const DrawContext& ctx) : ctx_(ctx) {
  const DepthStencilState& ds = ctx.state->depth_stencil;
  depth_or_stencil_ = (ctx.has_depth && (ds.depth_test || ds.depth_bounds_test)) || (ctx.has_stencil && ds.stencil_test);
  // The depth test alone (no stencil test, bounds or clamp) runs with its compare op fixed per
  // draw; D32 attachments additionally skip the codec and compare four values at once.
  depth_only_ = ctx.has_depth && ds.depth_test && !ds.depth_bounds_test && !(ctx.has_stencil && ds.stencil_test) &&
                !ctx.state->rasterization.depth_clamp && ctx.depth_codec;
  depth_d32_ = ctx.depth.sample_bytes == 4 &&
               (ctx.depth.format == VK_FORMAT_D32_SFLOAT || ctx.depth.format == VK_FORMAT_D32_SFLOAT_S8_UINT);
  const ColorBlendState& cb = ctx.state->color_blend;
  for (uint32_t i = 0; i < abi::kMaxColorAttachments; ++i) {
    ColorTarget& t = targets_[i];
    if (!ctx.has_color[i]) continue;
    const fmt::FormatInfo* info = fmt::format_info(ctx.color[i].format);
    if (!info) continue;
    t.enabled = true;
    t.texel_bytes = ctx.color[i].sample_bytes;
    t.avx512 = avx512_stores && ctx.samples == 1 && ctx.color[i].samples == 1;
    switch (info->components[0].kind) {
      case fmt::NumericKind::UNorm: t.kind = Kind::UNorm; break;
      case fmt::NumericKind::SRGB: t.kind = Kind::UNorm; t.srgb = true; break;
      case fmt::NumericKind::SNorm: t.kind = Kind::SNorm; break;
      case fmt::NumericKind::UInt:
      case fmt::NumericKind::SInt: t.kind = Kind::Int; break;
      default: t.kind = Kind::Float; break;
    }
    // Logic ops apply to integer and normalized (not sRGB, not float) attachments.
    t.logic_op = cb.logic_op_enable && !t.srgb && t.kind != Kind::Float;
    t.blending = t.kind != Kind::Int && !t.logic_op && i < cb.attachment_count && cb.attachments[i].blendEnable;
    const VkColorComponentFlags mask = i < cb.attachment_count ? cb.attachments[i].colorWriteMask : 0xF;
    // Byte mask of the kept channels; bit offsets are the sum of the bits before each component.
    uint32_t bit = 0;
    uint8_t keep[32] = {};
    bool whole_texel_channel = info->format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32;
    for (uint32_t c = 0; c < info->component_count; ++c) {
      const fmt::Component& comp = info->components[c];
      const uint32_t channel_bit = comp.channel == fmt::Channel::R   ? VK_COLOR_COMPONENT_R_BIT
                                   : comp.channel == fmt::Channel::G ? VK_COLOR_COMPONENT_G_BIT
                                   : comp.channel == fmt::Channel::B ? VK_COLOR_COMPONENT_B_BIT
                                   : comp.channel == fmt::Channel::A ? VK_COLOR_COMPONENT_A_BIT
                                                                     : 0;
      if (channel_bit && (mask & channel_bit))
        for (uint32_t b = bit; b < bit + comp.bits && b / 8 < 32; ++b) keep[b / 8] |= uint8_t(1u << (b % 8));
      bit += comp.bits;
    }
    if (whole_texel_channel) memset(keep, (mask & 7) == 7 ? 0xFF : 0, sizeof(keep));
    t.full_write = true;
    for (uint32_t b = 0; b < t.texel_bytes && b < 32; ++b) {
      t.write_bytes[b] = keep[b];
      if (keep[b] != 0xFF) t.full_write = false;
    }
    memcpy(&t.keep_word, t.write_bytes, 4);
    // Which store routine serves the attachment, decided once per draw.
    const mem::ColorCodec::Layout layout = t.logic_op ? mem::ColorCodec::Layout::Other : ctx.color_codec[i].layout;
    const bool bgra = layout == mem::ColorCodec::Layout::Bgra8Unorm;
    if (layout == mem::ColorCodec::Layout::Other) {
      t.path = StorePath::Gathered;
    } else if (!t.blending) {
      t.path = bgra ? StorePath::Bgra8 : StorePath::Rgba8;
    } else {
      // The classic "source over" (every channel SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD) is
      // specialised; every other blend state goes through the factor switches.
      const VkPipelineColorBlendAttachmentState& a = cb.attachments[i];
      const bool source_over = a.srcColorBlendFactor == VK_BLEND_FACTOR_SRC_ALPHA &&
                               a.srcAlphaBlendFactor == VK_BLEND_FACTOR_SRC_ALPHA &&
                               a.dstColorBlendFactor == VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA &&
                               a.dstAlphaBlendFactor == VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA &&
                               a.colorBlendOp == VK_BLEND_OP_ADD && a.alphaBlendOp == VK_BLEND_OP_ADD;
      t.path = source_over ? (bgra ? StorePath::Bgra8SourceOver : StorePath::Rgba8SourceOver)
                           : (bgra ? StorePath::Bgra8Blended : StorePath::Rgba8Blended);
    }
    // Written by the shader and not masked off entirely.
    if (ctx.kernels && (ctx.kernels->fragment_interface.output_location_mask & (1u << i)) && mask != 0)
      active_targets_ |= 1u << i;
  }
}

uint32_t OutputMerger::stencil_op(VkStencilOp op, uint32_t value, uint32_t reference) const {
  switch (op) {
    case VK_STENCIL_OP_KEEP: return value;
    case VK_STENCIL_OP_ZERO: return 0;
    case VK_STENCIL_OP_REPLACE: return reference & 0xFF;
    case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return value < 255 ? value + 1 : 255;
    case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return value > 0 ? value - 1 : 0;
    case VK_STENCIL_OP_INVERT: return ~value & 0xFF;
    case VK_STENCIL_OP_INCREMENT_AND_WRAP: return (value + 1) & 0xFF;
    case VK_STENCIL_OP_DECREMENT_AND_WRAP: return (value - 1) & 0xFF;
    default: return value;
  }
}

bool OutputMerger::test_sample(uint32_t x, uint32_t y, uint32_t layer, uint32_t s, float fragment_depth,
                               const RasterTriangle& t, const uint32_t* stencil_reference) const {
  const DepthStencilState& ds = ctx_.state->depth_stencil;
  const bool depth_test = ctx_.has_depth && ds.depth_test;
  const bool bounds_test = ctx_.has_depth && ds.depth_bounds_test;
  const bool stencil_test = ctx_.has_stencil && ds.stencil_test;
  const StencilFaceState& face = t.front_facing ? ds.front : ds.back;
  uint8_t* dtexel = ctx_.has_depth ? ctx_.depth.texel(x, y, layer, s) : nullptr;
  const float stored = dtexel ? ctx_.depth_codec.unpack(dtexel) : 0.0f;
  if (bounds_test && !(stored >= ds.min_depth_bounds && stored <= ds.max_depth_bounds)) return false;
  // The fragment's depth as the attachment would store it (clamped to the depth range with
  // depth clamp, converted to the format), so that equal comparisons behave.
  float z = fragment_depth;
  if (ctx_.state->rasterization.depth_clamp) {
    const ViewportTransform& vp = ctx_.viewports[t.viewport];
    z = std::clamp(z, vp.min_depth, vp.max_depth);
  }
  uint8_t zbuf[4];
  float zq = z;
  if (dtexel) {
    ctx_.depth_codec.pack(z, zbuf);
    zq = ctx_.depth_codec.unpack(zbuf);
  }
  bool pass = true;
  if (stencil_test) {
    uint8_t* stexel = ctx_.stencil.texel(x, y, layer, s);
    const uint32_t value = *stexel;
    const uint32_t reference = stencil_reference ? *stencil_reference : face.reference;
    const bool stencil_pass = compare_op(face.compare_op, reference & face.compare_mask, value & face.compare_mask);
    VkStencilOp op;
    if (!stencil_pass) {
      op = face.fail_op;
      pass = false;
    } else if (depth_test && !compare_op(ds.depth_compare, zq, stored)) {
      op = face.depth_fail_op;
      pass = false;
    } else {
      op = face.pass_op;
    }
    const uint32_t next = stencil_op(op, value, reference);
    *stexel = static_cast<uint8_t>((value & ~face.write_mask) | (next & face.write_mask));
  } else if (depth_test && !compare_op(ds.depth_compare, zq, stored)) {
    pass = false;
  }
  if (pass && depth_test && ds.depth_write) memcpy(dtexel, zbuf, ctx_.depth.sample_bytes);
  return pass;
}

namespace {

// compare_op() of four lanes, with its NaN behaviour: ordered predicates, except NOT_EQUAL.
template <VkCompareOp kOp>
__m128 compare_x4(__m128 a, __m128 b) {
  if constexpr (kOp == VK_COMPARE_OP_NEVER) return _mm_setzero_ps();
  else if constexpr (kOp == VK_COMPARE_OP_LESS) return _mm_cmplt_ps(a, b);
  else if constexpr (kOp == VK_COMPARE_OP_EQUAL) return _mm_cmpeq_ps(a, b);
  else if constexpr (kOp == VK_COMPARE_OP_LESS_OR_EQUAL) return _mm_cmple_ps(a, b);
  else if constexpr (kOp == VK_COMPARE_OP_GREATER) return _mm_cmpgt_ps(a, b);
  else if constexpr (kOp == VK_COMPARE_OP_NOT_EQUAL) return _mm_cmpneq_ps(a, b);
  else if constexpr (kOp == VK_COMPARE_OP_GREATER_OR_EQUAL) return _mm_cmpge_ps(a, b);
  else return _mm_castsi128_ps(_mm_set1_epi32(-1));
}

// `passed` lanes of `fresh`, the others of `old`.
inline __m128 select(__m128 passed, __m128 fresh, __m128 old) {
  return _mm_or_ps(_mm_and_ps(passed, fresh), _mm_andnot_ps(passed, old));
}

}  // namespace

// The depth test of a D32 attachment without stencil, bounds or clamp, with the compare op fixed
// at compile time. Single-sampled quads inside the surface test their four pixels at once (two
// 8-byte rows of the depth plane); multisampled lanes test four samples at once (a pixel's
// samples are adjacent, as are the lane's sample depths). Results are those of test_sample.
template <VkCompareOp kOp>
void OutputMerger::depth_only_d32_op(const QuadBatch& batch, uint32_t* coverage, const float* depth,
                                     uint32_t layer) const {
  const mem::AttachmentSurface& surface = ctx_.depth;
  const bool write = ctx_.state->depth_stencil.depth_write;
  const uint32_t samples = ctx_.samples;
  for (uint32_t q = 0; q < batch.quads; ++q) {
    uint32_t* const c = coverage + 4 * q;
    if (!(c[0] | c[1] | c[2] | c[3])) continue;
    const uint32_t x = uint32_t(batch.quad_x[q]), y = uint32_t(batch.quad_y[q]);
    const float* const z = depth + size_t{4} * q * kMaxSamples;
    if (samples == 1 && x + 1 < surface.width && y + 1 < surface.height) {
      uint8_t* const top = surface.texel(x, y, layer, 0);
      uint8_t* const bottom = top + surface.row_pitch;
      const __m128 stored = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(top)),
                                         reinterpret_cast<const __m64*>(bottom));
      const __m128 fragment = _mm_setr_ps(z[0], z[kMaxSamples], z[2 * kMaxSamples], z[3 * kMaxSamples]);
      // Four scalar loads, not one 16-byte load: the coverage was just written lane by lane, and a
      // wide load of narrow recent stores cannot be store-forwarded (a stall per quad).
      const __m128i coverage4 = _mm_setr_epi32(int(c[0]), int(c[1]), int(c[2]), int(c[3]));
      const __m128i lane_covered = _mm_cmpeq_epi32(coverage4, _mm_setzero_si128());
      const __m128 passed = _mm_andnot_ps(_mm_castsi128_ps(lane_covered), compare_x4<kOp>(fragment, stored));
      const int bits = _mm_movemask_ps(passed);
      for (uint32_t i = 0; i < 4; ++i) c[i] &= 0u - ((uint32_t(bits) >> i) & 1u);
      if (write && bits) {
        const __m128 merged = select(passed, fragment, stored);
        _mm_storel_pi(reinterpret_cast<__m64*>(top), merged);
        _mm_storeh_pi(reinterpret_cast<__m64*>(bottom), merged);
      }
      continue;
    }
    for (uint32_t i = 0; i < 4; ++i) {
      if (!c[i]) continue;
      const uint32_t l = 4 * q + i;
      uint8_t* const texel = surface.texel(uint32_t(batch.x(l)), uint32_t(batch.y(l)), layer, 0);
      const float* const zl = depth + size_t{l} * kMaxSamples;
      uint32_t passed_samples = 0;
      uint32_t s = 0;
      for (; s + 4 <= samples; s += 4) {
        const __m128 stored = _mm_loadu_ps(reinterpret_cast<const float*>(texel + 4 * s));
        const __m128 fragment = _mm_setr_ps(zl[s], zl[s + 1], zl[s + 2], zl[s + 3]);  // written lane by lane
        const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
        const __m128i covered = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(int(c[i] >> s)), bit), bit);
        const __m128 passed = _mm_and_ps(_mm_castsi128_ps(covered), compare_x4<kOp>(fragment, stored));
        const uint32_t bits = uint32_t(_mm_movemask_ps(passed));
        passed_samples |= bits << s;
        if (write && bits) _mm_storeu_ps(reinterpret_cast<float*>(texel + 4 * s), select(passed, fragment, stored));
      }
      for (; s < samples; ++s) {
        if (!(c[i] & (1u << s))) continue;
        float stored;
        memcpy(&stored, texel + 4 * s, 4);
        if (!compare_op(kOp, zl[s], stored)) continue;
        passed_samples |= 1u << s;
        if (write) memcpy(texel + 4 * s, &zl[s], 4);
      }
      c[i] = passed_samples;
    }
  }
}

// The depth test of D16/D24 attachments (no stencil, bounds or clamp) with the compare op fixed
// at compile time: test_sample's arithmetic (the fragment depth quantised by pack -> unpack, so
// EQUAL behaves) without its per-sample state lookups.
template <VkCompareOp kOp>
void OutputMerger::depth_only_quantized_op(const QuadBatch& batch, uint32_t* coverage, const float* depth,
                                           uint32_t layer) const {
  const mem::DepthCodec& codec = ctx_.depth_codec;
  const bool write = ctx_.state->depth_stencil.depth_write;
  const uint32_t bytes = ctx_.depth.sample_bytes;
  for (uint32_t l = 0; l < batch.lanes(); ++l) {
    if (!coverage[l]) continue;
    uint8_t* const pixel = ctx_.depth.texel(uint32_t(batch.x(l)), uint32_t(batch.y(l)), layer, 0);
    uint32_t passed = 0;
    for (uint32_t s = 0; s < ctx_.samples; ++s) {
      if (!(coverage[l] & (1u << s))) continue;
      uint8_t* const texel = pixel + s * bytes;
      uint8_t z[4];
      codec.pack(depth[l * kMaxSamples + s], z);
      if (!compare_op(kOp, codec.unpack(z), codec.unpack(texel))) continue;
      passed |= 1u << s;
      if (write) memcpy(texel, z, bytes);
    }
    coverage[l] = passed;
  }
}

template <VkCompareOp kOp>
void OutputMerger::depth_only_op(const QuadBatch& batch, uint32_t* coverage, const float* depth, uint32_t layer) const {
  if (depth_d32_)
    depth_only_d32_op<kOp>(batch, coverage, depth, layer);
  else
    depth_only_quantized_op<kOp>(batch, coverage, depth, layer);
}

void OutputMerger::depth_only(const QuadBatch& batch, uint32_t* coverage, const float* depth, uint32_t layer) const {
  switch (ctx_.state->depth_stencil.depth_compare) {
    case VK_COMPARE_OP_NEVER: return depth_only_op<VK_COMPARE_OP_NEVER>(batch, coverage, depth, layer);
    case VK_COMPARE_OP_LESS: return depth_only_op<VK_COMPARE_OP_LESS>(batch, coverage, depth, layer);
    case VK_COMPARE_OP_EQUAL: return depth_only_op<VK_COMPARE_OP_EQUAL>(batch, coverage, depth, layer);
    case VK_COMPARE_OP_LESS_OR_EQUAL:
      return depth_only_op<VK_COMPARE_OP_LESS_OR_EQUAL>(batch, coverage, depth, layer);
    case VK_COMPARE_OP_GREATER: return depth_only_op<VK_COMPARE_OP_GREATER>(batch, coverage, depth, layer);
    case VK_COMPARE_OP_NOT_EQUAL: return depth_only_op<VK_COMPARE_OP_NOT_EQUAL>(batch, coverage, depth, layer);
    case VK_COMPARE_OP_GREATER_OR_EQUAL:
      return depth_only_op<VK_COMPARE_OP_GREATER_OR_EQUAL>(batch, coverage, depth, layer);
    default: return depth_only_op<VK_COMPARE_OP_ALWAYS>(batch, coverage, depth, layer);
  }
}

void OutputMerger::depth_stencil(const QuadBatch& batch, uint32_t* coverage, const float* depth, const RasterTriangle& t,
                                 const uint32_t* stencil_references) const {
  if (!depth_or_stencil_) return;
  if (depth_only_) return depth_only(batch, coverage, depth, t.layer);
  for (uint32_t l = 0; l < batch.lanes(); ++l) {
    if (!coverage[l]) continue;
    uint32_t passed = 0;
    const uint32_t* reference = stencil_references ? stencil_references + l : nullptr;
    for (uint32_t s = 0; s < ctx_.samples; ++s)
      if ((coverage[l] & (1u << s)) &&
          test_sample(uint32_t(batch.x(l)), uint32_t(batch.y(l)), t.layer, s, depth[l * kMaxSamples + s], t, reference))
        passed |= 1u << s;
    coverage[l] = passed;
  }
}

// The covered lanes of one sample index of one attachment: where they go and what to store.
struct OutputMerger::SampleLanes {
  uint32_t n = 0;
  uint8_t* texel[QuadBatch::kMaxLanes];
  float value[4][QuadBatch::kMaxLanes];  // raw 32-bit outputs (float bits, or int bits for integer targets)
  float value1[4][QuadBatch::kMaxLanes];  // dual-source blending's second source (0 without one)
};

void OutputMerger::blend(uint32_t index, uint32_t n, const float* const src[4], const float* const src1[4],
                         const float* const dst[4], float* const out[4]) const {
  const VkPipelineColorBlendAttachmentState& a = ctx_.state->color_blend.attachments[index];
  const ColorTarget& t = targets_[index];
  float c[4];
  memcpy(c, ctx_.state->color_blend.blend_constants, sizeof(c));
  if (t.kind == Kind::UNorm || t.kind == Kind::SNorm) {
    const float lo = t.kind == Kind::UNorm ? 0.0f : -1.0f;
    for (float& v : c) v = std::clamp(v, lo, 1.0f);
  }
  // Factor `f` of component `i` for all n lanes (the switch runs once per batch, not per pixel).
  auto factor = [&](VkBlendFactor f, int i, float* out_factor) {
    auto fill = [&](float v) { for (uint32_t k = 0; k < n; ++k) out_factor[k] = v; };
    auto copy = [&](const float* v) { for (uint32_t k = 0; k < n; ++k) out_factor[k] = v[k]; };
    auto one_minus = [&](const float* v) { for (uint32_t k = 0; k < n; ++k) out_factor[k] = 1.0f - v[k]; };
    switch (f) {
      case VK_BLEND_FACTOR_ZERO: return fill(0.0f);
      case VK_BLEND_FACTOR_ONE: return fill(1.0f);
      case VK_BLEND_FACTOR_SRC_COLOR: return copy(src[i]);
      case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return one_minus(src[i]);
      case VK_BLEND_FACTOR_DST_COLOR: return copy(dst[i]);
      case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return one_minus(dst[i]);
      case VK_BLEND_FACTOR_SRC_ALPHA: return copy(src[3]);
      case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return one_minus(src[3]);
      case VK_BLEND_FACTOR_DST_ALPHA: return copy(dst[3]);
      case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return one_minus(dst[3]);
      case VK_BLEND_FACTOR_CONSTANT_COLOR: return fill(c[i]);
      case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return fill(1.0f - c[i]);
      case VK_BLEND_FACTOR_CONSTANT_ALPHA: return fill(c[3]);
      case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return fill(1.0f - c[3]);
      case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE:
        if (i == 3) return fill(1.0f);
        for (uint32_t k = 0; k < n; ++k) out_factor[k] = std::min(src[3][k], 1.0f - dst[3][k]);
        return;
      case VK_BLEND_FACTOR_SRC1_COLOR: return copy(src1[i]);
      case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return one_minus(src1[i]);
      case VK_BLEND_FACTOR_SRC1_ALPHA: return copy(src1[3]);
      case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return one_minus(src1[3]);
      default: return fill(0.0f);
    }
  };
  float sf[QuadBatch::kMaxLanes], df[QuadBatch::kMaxLanes];
  // Alpha last: colour factors may read the source alpha and `out` may alias `src`.
  for (int i = 0; i < 4; ++i) {
    const bool alpha = i == 3;
    factor(alpha ? a.srcAlphaBlendFactor : a.srcColorBlendFactor, i, sf);
    factor(alpha ? a.dstAlphaBlendFactor : a.dstColorBlendFactor, i, df);
    const float* s = src[i];
    const float* d = dst[i];
    float* o = out[i];
    switch (alpha ? a.alphaBlendOp : a.colorBlendOp) {
      case VK_BLEND_OP_SUBTRACT:
        for (uint32_t k = 0; k < n; ++k) o[k] = s[k] * sf[k] - d[k] * df[k];
        break;
      case VK_BLEND_OP_REVERSE_SUBTRACT:
        for (uint32_t k = 0; k < n; ++k) o[k] = d[k] * df[k] - s[k] * sf[k];
        break;
      case VK_BLEND_OP_MIN:
        for (uint32_t k = 0; k < n; ++k) o[k] = std::min(s[k], d[k]);
        break;
      case VK_BLEND_OP_MAX:
        for (uint32_t k = 0; k < n; ++k) o[k] = std::max(s[k], d[k]);
        break;
      default:  // ADD (advanced ops are not exposed)
        for (uint32_t k = 0; k < n; ++k) o[k] = s[k] * sf[k] + d[k] * df[k];
        break;
    }
  }
}


void OutputMerger::store_word(uint32_t index, uint8_t* texel, uint32_t word) const {
  const ColorTarget& t = targets_[index];
  if (!t.full_write) {
    uint32_t old;
    memcpy(&old, texel, 4);
    word = (old & ~t.keep_word) | (word & t.keep_word);
  }
  memcpy(texel, &word, 4);
}

// Unblended RGBA8/BGRA8: every lane is encoded straight from the kernel's outputs, then the words
// go to each covered sample (no per-sample gathering: all samples of a pixel store the same word).
template <bool kBgra>
void OutputMerger::write_unorm8_unblended(uint32_t index, const QuadBatch& batch, const uint32_t* coverage,
                                          const float* outputs, uint32_t W, uint32_t layer) const {
  const uint32_t n = batch.lanes();
  const float* channel = outputs + size_t(index) * 4 * W;
  float one[QuadBatch::kMaxLanes];
  const float* alpha = channel + 3 * W;
  if (ctx_.state->multisample.alpha_to_one) {
    for (uint32_t k = 0; k < n; ++k) one[k] = 1.0f;
    alpha = one;
  }
  uint32_t words[QuadBatch::kMaxLanes];
  mem::encode_unorm8_words(kBgra, channel, channel + W, channel + 2 * W, alpha, n, words);
  // Quad by quad: one address per quad; a fully covered quad of a plain single-sample target is
  // two 8-byte row stores (lane order is (0,0) (1,0) (0,1) (1,1)).
  const mem::AttachmentSurface& surface = ctx_.color[index];
  const bool plain = ctx_.samples == 1 && targets_[index].full_write;
  const uint64_t pixel_bytes = uint64_t{surface.samples} * surface.sample_bytes;
  const uint32_t all_samples = (1u << ctx_.samples) - 1;
  for (uint32_t q = 0; q < batch.quads; ++q) {
    const uint32_t* c = coverage + 4 * q;
    if (!(c[0] | c[1] | c[2] | c[3])) continue;
    uint8_t* const quad = surface.texel(uint32_t(batch.quad_x[q]), uint32_t(batch.quad_y[q]), layer, 0);
    if (plain && c[0] && c[1] && c[2] && c[3]) {
      memcpy(quad, words + 4 * q, 8);
      memcpy(quad + surface.row_pitch, words + 4 * q + 2, 8);
      continue;
    }
    for (uint32_t i = 0; i < 4; ++i) {
      if (!c[i]) continue;
      uint8_t* const pixel = quad + (i >> 1) * surface.row_pitch + (i & 1) * pixel_bytes;
      if (c[i] == all_samples && targets_[index].full_write) {
        fill_samples(pixel, words[4 * q + i], ctx_.samples);
        continue;
      }
      for (uint32_t s = 0; s < ctx_.samples; ++s)
        if (c[i] & (1u << s)) store_word(index, pixel + uint64_t{s} * surface.sample_bytes, words[4 * q + i]);
    }
  }
}

namespace {

// The blend inputs of a group of lanes, one GCC vector per channel (Floats4 for SSE2, Floats16 for
// AVX-512): source and destination colours and the splatted constants, so that one template of
// blend()'s arithmetic serves every width. (Plain vector types: template arguments would drop
// __m128's attributes; the templates are always inlined into code of the right ISA, so the ABI
// of 64-byte vectors in their signatures never matters.)
using Floats4 = float __attribute__((vector_size(16)));
using Floats16 = float __attribute__((vector_size(64)));
// (GCC reports -Wpsabi where it instantiates them, at the end of the file: off for the file.)
#pragma GCC diagnostic ignored "-Wpsabi"
template <class V>
struct BlendLanes {
  V src[4], src1[4], dst[4];  // src1: dual-source blending's second source (0 without one)
  V constant[4];              // the blend constants, clamped
  V one;
};

// A product as blend() rounds it: GCC fuses a multiply feeding an add into an FMA in C++ (its
// default -ffp-contract=fast) wherever the target has one, which would change the results.
template <class V>
[[gnu::always_inline]] inline V rounded(const V& product) {
  V v = product;
#ifdef __clang__
  // clang (the sanitizer and fuzzer builds) rejects a 64-byte "+v" operand outside AVX-512
  // functions; a trip through memory is the same barrier.
  asm("" : "+m"(v));
#else
  asm("" : "+v"(v));
#endif
  return v;
}
// minps/maxps: the second operand when either is NaN, like std::min(b, a) / std::max(b, a).
template <class V>
[[gnu::always_inline]] inline V vmin(const V& a, const V& b) { return a < b ? a : b; }
template <class V>
[[gnu::always_inline]] inline V vmax(const V& a, const V& b) { return a > b ? a : b; }

// blend()'s factor `f` of channel `i`: the same single-precision operations lane by lane.
template <class V>
[[gnu::always_inline]] inline V blend_factor(VkBlendFactor f, int i, const BlendLanes<V>& in) {
  switch (f) {
    case VK_BLEND_FACTOR_ZERO: return V{};
    case VK_BLEND_FACTOR_ONE: return in.one;
    case VK_BLEND_FACTOR_SRC_COLOR: return in.src[i];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return in.one - in.src[i];
    case VK_BLEND_FACTOR_DST_COLOR: return in.dst[i];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return in.one - in.dst[i];
    case VK_BLEND_FACTOR_SRC_ALPHA: return in.src[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return in.one - in.src[3];
    case VK_BLEND_FACTOR_DST_ALPHA: return in.dst[3];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return in.one - in.dst[3];
    case VK_BLEND_FACTOR_CONSTANT_COLOR: return in.constant[i];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return in.one - in.constant[i];
    case VK_BLEND_FACTOR_CONSTANT_ALPHA: return in.constant[3];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return in.one - in.constant[3];
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE:
      // std::min(a, b) is (b < a ? b : a), which vmin(b, a) computes (NaN included).
      return i == 3 ? in.one : vmin(in.one - in.dst[3], in.src[3]);
    case VK_BLEND_FACTOR_SRC1_COLOR: return in.src1[i];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return in.one - in.src1[i];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return in.src1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return in.one - in.src1[3];
    default: return V{};
  }
}

// blend()'s equation for channel `i` (std::min/std::max with the operands ordered so NaN and
// signed zeros pick the same lane value).
template <class V>
[[gnu::always_inline]] inline V blend_channel(const VkPipelineColorBlendAttachmentState& a, int i,
                                              const BlendLanes<V>& in) {
  const bool alpha = i == 3;
  const VkBlendOp op = alpha ? a.alphaBlendOp : a.colorBlendOp;
  if (op == VK_BLEND_OP_MIN) return vmin(in.dst[i], in.src[i]);
  if (op == VK_BLEND_OP_MAX) return vmax(in.dst[i], in.src[i]);
  const V s = rounded(in.src[i] * blend_factor(alpha ? a.srcAlphaBlendFactor : a.srcColorBlendFactor, i, in));
  const V d = rounded(in.dst[i] * blend_factor(alpha ? a.dstAlphaBlendFactor : a.dstColorBlendFactor, i, in));
  if (op == VK_BLEND_OP_SUBTRACT) return s - d;
  if (op == VK_BLEND_OP_REVERSE_SUBTRACT) return d - s;
  return s + d;
}

// The specialised source over (SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD) of channel `i`: blend_channel
// without the switches.
template <class V>
[[gnu::always_inline]] inline V source_over(int i, const BlendLanes<V>& in) {
  return rounded(in.src[i] * in.src[3]) + rounded(in.dst[i] * (in.one - in.src[3]));
}

}  // namespace

// Blended RGBA8/BGRA8 in SSE2, per sample index: first every covered destination word of the
// batch is loaded (the loads of all quads are in flight together: the rows are often not in
// cache), then each quad is decoded and blended four lanes at once, then the batch is encoded
// (encode_unorm8_words, the widest SIMD the CPU has) and stored.
// Bit-identical to write_gathered (blend(), the decode table and encode_unorm8);
// tests/unit/draw_output_test.cpp compares the two over many values.
template <bool kBgra, bool kSourceOver>
void OutputMerger::write_unorm8_blended(uint32_t index, const QuadBatch& batch, const uint32_t* coverage,
                                        const float* outputs, uint32_t W, uint32_t layer) const {
  const VkPipelineColorBlendAttachmentState& a = ctx_.state->color_blend.attachments[index];
  float constants[4];
  for (int c = 0; c < 4; ++c) constants[c] = std::clamp(ctx_.state->color_blend.blend_constants[c], 0.0f, 1.0f);
  const float* const channel = outputs + size_t(index) * 4 * W;
  const float* const source1 = dual_source(index) ? outputs + size_t(abi::kDualSourceOutputSlot) * 4 * W : nullptr;
  const bool alpha_to_one = ctx_.state->multisample.alpha_to_one;
  const mem::AttachmentSurface& surface = ctx_.color[index];
  const uint64_t pixel_bytes = uint64_t{surface.samples} * surface.sample_bytes;
  const bool full_write = targets_[index].full_write;
  constexpr int kRedShift = kBgra ? 16 : 0, kBlueShift = kBgra ? 0 : 16;
  constexpr int kShift[4] = {kRedShift, 8, kBlueShift, 24};
  const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
  const __m128i byte = _mm_set1_epi32(0xFF);
  BlendLanes<Floats4> in;
  in.one = one;
  for (int c = 0; c < 4; ++c) in.constant[c] = _mm_set1_ps(constants[c]);
  alignas(16) uint32_t words[QuadBatch::kMaxLanes];
  alignas(16) float out[4][QuadBatch::kMaxLanes];
  uint8_t* texel[QuadBatch::kMaxLanes];
  for (uint32_t s = 0; s < ctx_.samples; ++s) {
    const uint32_t bit = 1u << s;
    uint32_t quad_mask = 0;  // quads with a lane covering sample s
    for (uint32_t q = 0; q < batch.quads; ++q) {
      const uint32_t* const c = coverage + 4 * q;
      if (!((c[0] | c[1] | c[2] | c[3]) & bit)) continue;
      quad_mask |= 1u << q;
      uint8_t* const quad = surface.texel(uint32_t(batch.quad_x[q]), uint32_t(batch.quad_y[q]), layer, s);
      for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t l = 4 * q + i;
        words[l] = 0;
        texel[l] = (c[i] & bit) ? quad + (i >> 1) * surface.row_pitch + (i & 1) * pixel_bytes : nullptr;
        if (texel[l]) memcpy(&words[l], texel[l], 4);
      }
    }
    for (uint32_t q = 0; q < batch.quads; ++q) {
      if (!(quad_mask & (1u << q))) {
        for (int ch = 0; ch < 4; ++ch) _mm_store_ps(out[ch] + 4 * q, zero);
        continue;
      }
      for (int ch = 0; ch < 4; ++ch) {
        // std::clamp(v, 0, 1) keeps NaN: maxps/minps return their second operand for NaN.
        in.src[ch] = ch == 3 && alpha_to_one
                         ? one
                         : _mm_min_ps(one, _mm_max_ps(zero, _mm_loadu_ps(channel + ch * W + 4 * q)));
        in.src1[ch] = source1 ? _mm_min_ps(one, _mm_max_ps(zero, _mm_loadu_ps(source1 + ch * W + 4 * q))) : zero;
      }
      // Scalar loads of the words stored lane by lane above (store-forwardable, unlike one wide load).
      const uint32_t* const w = words + 4 * q;
      const __m128i dst_words = _mm_setr_epi32(int(w[0]), int(w[1]), int(w[2]), int(w[3]));
      for (int ch = 0; ch < 4; ++ch)
        in.dst[ch] = mem::decode_unorm8_x4(_mm_and_si128(_mm_srli_epi32(dst_words, kShift[ch]), byte));
      for (int ch = 0; ch < 4; ++ch)
        _mm_store_ps(out[ch] + 4 * q, kSourceOver ? source_over(ch, in) : blend_channel(a, ch, in));
    }
    // Encoded for the whole batch at once (16 lanes per step with AVX-512).
    mem::encode_unorm8_words(kBgra, out[0], out[1], out[2], out[3], batch.lanes(), words);
    for (uint32_t q = 0; q < batch.quads; ++q) {
      if (!(quad_mask & (1u << q))) continue;
      for (uint32_t l = 4 * q; l < 4 * q + 4; ++l) {
        if (!texel[l]) continue;
        if (full_write) memcpy(texel[l], &words[l], 4);
        else store_word(index, texel[l], words[l]);
      }
    }
  }
}

namespace {

#define KILN_AVX512 __attribute__((target("avx512f,avx512vl")))

// Quad q of a batch is lanes 4q..4q+3: its top row (lanes 4q, 4q+1, 8 bytes) and bottom row
// (4q+2, 4q+3), which one 128-bit register holds in lane order. `lanes` has a bit per covered
// lane of the quad; uncovered lanes are neither read (they load as 0) nor written, which also keeps
// the accesses inside the image where a quad sticks out of it.
KILN_AVX512 inline __m128i load_quad(const uint8_t* top, uint64_t pitch, uint32_t lanes) {
  const uint32_t upper = lanes & 3, lower = lanes >> 2;
  const __m128i t = upper == 3 ? _mm_loadl_epi64(reinterpret_cast<const __m128i*>(top))
                               : _mm_maskz_loadu_epi32(__mmask8(upper), top);
  const __m128i b = lower == 3 ? _mm_loadl_epi64(reinterpret_cast<const __m128i*>(top + pitch))
                               : _mm_maskz_loadu_epi32(__mmask8(lower), top + pitch);
  return _mm_unpacklo_epi64(t, b);
}
KILN_AVX512 inline void store_quad(uint8_t* top, uint64_t pitch, uint32_t lanes, __m128i v) {
  const uint32_t upper = lanes & 3, lower = lanes >> 2;
  const __m128i b = _mm_unpackhi_epi64(v, v);
  if (upper == 3) _mm_storel_epi64(reinterpret_cast<__m128i*>(top), v);
  else if (upper) _mm_mask_storeu_epi32(top, __mmask8(upper), v);
  if (lower == 3) _mm_storel_epi64(reinterpret_cast<__m128i*>(top + pitch), b);
  else if (lower) _mm_mask_storeu_epi32(top + pitch, __mmask8(lower), b);
}

// Up to four quads (16 lanes) of a single-sample 32-bit attachment layer: lanes has a bit per
// covered lane.
struct QuadGroup {
  uint8_t* layer;  // texel (0, 0) of the layer
  uint64_t pitch;
  const int32_t* x;  // upper-left pixel of each quad
  const int32_t* y;
  uint32_t lanes;
  // Four full quads side by side on one row pair: the rows are 32 bytes each.
  bool strip;
  uint8_t* quad(uint32_t q) const { return layer + uint64_t(uint32_t(y[q])) * pitch + uint64_t(uint32_t(x[q])) * 4; }
};

KILN_AVX512 inline __m512i load_group(const QuadGroup& g) {
  if (g.strip) {
    // Rows (top 8 pixels, bottom 8 pixels) to lane order: quad q is qwords q and 4 + q.
    const __m512i rows = _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(g.quad(0)))),
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g.quad(0) + g.pitch)), 1);
    return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 4, 1, 5, 2, 6, 3, 7), rows);
  }
  __m512i v = _mm512_setzero_si512();
  if (g.lanes & 0xF) v = _mm512_inserti32x4(v, load_quad(g.quad(0), g.pitch, g.lanes & 0xF), 0);
  if (g.lanes & 0xF0) v = _mm512_inserti32x4(v, load_quad(g.quad(1), g.pitch, (g.lanes >> 4) & 0xF), 1);
  if (g.lanes & 0xF00) v = _mm512_inserti32x4(v, load_quad(g.quad(2), g.pitch, (g.lanes >> 8) & 0xF), 2);
  if (g.lanes & 0xF000) v = _mm512_inserti32x4(v, load_quad(g.quad(3), g.pitch, g.lanes >> 12), 3);
  return v;
}

KILN_AVX512 inline void store_group(const QuadGroup& g, __m512i v) {
  if (g.strip) {
    const __m512i rows = _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), v);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(g.quad(0)), _mm512_castsi512_si256(rows));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(g.quad(0) + g.pitch), _mm512_extracti64x4_epi64(rows, 1));
    return;
  }
  if (g.lanes & 0xF) store_quad(g.quad(0), g.pitch, g.lanes & 0xF, _mm512_castsi512_si128(v));
  if (g.lanes & 0xF0) store_quad(g.quad(1), g.pitch, (g.lanes >> 4) & 0xF, _mm512_extracti32x4_epi32(v, 1));
  if (g.lanes & 0xF00) store_quad(g.quad(2), g.pitch, (g.lanes >> 8) & 0xF, _mm512_extracti32x4_epi32(v, 2));
  if (g.lanes & 0xF000) store_quad(g.quad(3), g.pitch, g.lanes >> 12, _mm512_extracti32x4_epi32(v, 3));
}

// A bit per lane of the first 4 * quads lanes (quads <= 4) that covers a sample. The tile back end
// has just stored the coverage, lane by lane or a quad at a time, and a load spanning several of
// those stores cannot be forwarded (a 64-byte load stalled until they reached the cache): each
// quad is one 16-byte load (see load_quad_coverage).
KILN_AVX512 inline __m128i load_quad_coverage(const uint32_t* c) {
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
  asm("" : "+v"(v));  // one load per quad: keeps GCC from merging the quads' loads into one
  return v;
}
KILN_AVX512 inline uint32_t covered_lanes(const uint32_t* coverage, uint32_t quads) {
  __m512i v = _mm512_castsi128_si512(load_quad_coverage(coverage));
  if (quads > 1) v = _mm512_inserti32x4(v, load_quad_coverage(coverage + 4), 1);
  if (quads > 2) v = _mm512_inserti32x4(v, load_quad_coverage(coverage + 8), 2);
  if (quads > 3) v = _mm512_inserti32x4(v, load_quad_coverage(coverage + 12), 3);
  const __mmask16 valid = __mmask16((1u << (4 * quads)) - 1);
  return _mm512_mask_test_epi32_mask(valid, v, v);
}

// std::clamp(v, 0, 1) keeps NaN: maxps/minps return their second operand for NaN.
KILN_AVX512 inline __m512 clamp_unorm(__m512 v) {
  return _mm512_min_ps(_mm512_set1_ps(1.0f), _mm512_max_ps(_mm512_setzero_ps(), v));
}

}  // namespace

// Single-sample RGBA8/BGRA8 with AVX-512, 16 lanes (four quads) per step: coverage, sources,
// destination words, blend and encode all stay in registers; each quad's two rows are loaded
// and stored as 8-byte pairs (masked where a quad is partly covered), and four full quads side by
// side as two 32-byte rows. Bit-identical to write_gathered like the SSE2 paths (same blend
// template, correctly rounded decode, encode_unorm8_words_x16); tests/unit/draw_output_test.cpp
// compares them.
template <bool kBgra, OutputMerger::Unorm8Blend kBlend>
KILN_AVX512 void OutputMerger::write_unorm8_avx512(uint32_t index, const QuadBatch& batch, const uint32_t* coverage,
                                                  const float* outputs, uint32_t W, uint32_t layer) const {
  const ColorTarget& target = targets_[index];
  const mem::AttachmentSurface& surface = ctx_.color[index];
  const float* const channel = outputs + size_t(index) * 4 * W;
  const float* const source1 = kBlend == Unorm8Blend::Factors && dual_source(index)
                                   ? outputs + size_t(abi::kDualSourceOutputSlot) * 4 * W
                                   : nullptr;
  const VkPipelineColorBlendAttachmentState& a = ctx_.state->color_blend.attachments[index];
  const bool alpha_to_one = ctx_.state->multisample.alpha_to_one;
  const bool full_write = target.full_write;
  const __m512i keep = _mm512_set1_epi32(int(target.keep_word));
  const __m512i byte = _mm512_set1_epi32(0xFF);
  constexpr int kRedShift = kBgra ? 16 : 0, kBlueShift = kBgra ? 0 : 16;
  constexpr int kShift[4] = {kRedShift, 8, kBlueShift, 24};
  BlendLanes<Floats16> in;
  in.one = _mm512_set1_ps(1.0f);
  for (int c = 0; c < 4; ++c) {
    in.constant[c] = _mm512_set1_ps(std::clamp(ctx_.state->color_blend.blend_constants[c], 0.0f, 1.0f));
    in.src1[c] = _mm512_setzero_ps();
  }
  QuadGroup group;
  group.pitch = surface.row_pitch;
  group.layer = surface.texel(0, 0, layer, 0);
  const uint32_t n = batch.lanes();
  for (uint32_t base = 0; base < n; base += 16) {
    const uint32_t quads = std::min(4u, (n - base) / 4);
    const __mmask16 valid = __mmask16((1u << (4 * quads)) - 1);
    group.lanes = covered_lanes(coverage + base, quads);
    if (!group.lanes) continue;
    const int32_t* const qx = group.x = batch.quad_x + base / 4;
    const int32_t* const qy = group.y = batch.quad_y + base / 4;
    group.strip = group.lanes == 0xFFFF && qy[1] == qy[0] && qy[2] == qy[0] && qy[3] == qy[0] && qx[1] == qx[0] + 2 &&
                  qx[2] == qx[0] + 4 && qx[3] == qx[0] + 6;
    __m512i dst = _mm512_setzero_si512();
    if (kBlend != Unorm8Blend::None || !full_write) dst = load_group(group);
    __m512 src[4];
    for (int c = 0; c < 4; ++c) src[c] = _mm512_maskz_loadu_ps(valid, channel + c * W + base);
    if (alpha_to_one) src[3] = in.one;
    __m512i words;
    if constexpr (kBlend == Unorm8Blend::None) {
      words = mem::encode_unorm8_words_x16<kBgra>(src[0], src[1], src[2], src[3]);
    } else {
#ifdef __clang__
      __builtin_trap();  // not used with clang: see kAvx512Blending
#else
      for (int c = 0; c < 4; ++c) {
        in.src[c] = c == 3 && alpha_to_one ? in.one : clamp_unorm(src[c]);
        const __m512i code = _mm512_srli_epi32(dst, kShift[c]);
        in.dst[c] = mem::decode_unorm8_x16(kShift[c] == 24 ? code : _mm512_and_si512(code, byte));
        if (source1) in.src1[c] = clamp_unorm(_mm512_maskz_loadu_ps(valid, source1 + c * W + base));
      }
      __m512 out[4];
      for (int c = 0; c < 4; ++c)
        out[c] = kBlend == Unorm8Blend::SourceOver ? source_over(c, in) : blend_channel(a, c, in);
      words = mem::encode_unorm8_words_x16<kBgra>(out[0], out[1], out[2], out[3]);
#endif
    }
    if (!full_write) words = _mm512_or_si512(_mm512_and_si512(keep, words), _mm512_andnot_si512(keep, dst));
    store_group(group, words);
  }
}

void OutputMerger::store_generic(uint32_t index, SampleLanes& lanes) const {
  const ColorTarget& t = targets_[index];
  const mem::ColorCodec& codec = ctx_.color_codec[index];
  const VkLogicOp op = ctx_.state->color_blend.logic_op;
  for (uint32_t k = 0; k < lanes.n; ++k) {
    VkClearColorValue value;
    for (uint32_t c = 0; c < 4; ++c) memcpy(&value.uint32[c], &lanes.value[c][k], 4);
    uint8_t* texel = lanes.texel[k];
    uint8_t packed[32];
    codec.pack(value, packed);
    if (t.logic_op) {
      // Bitwise on the stored representation, 32 bits at a time (padding bits are masked below).
      for (uint32_t b = 0; b < t.texel_bytes; b += 4) {
        uint32_t sw = 0, dw = 0;
        const uint32_t bytes = std::min(4u, t.texel_bytes - b);
        memcpy(&sw, packed + b, bytes);
        memcpy(&dw, texel + b, bytes);
        const uint32_t r = logic_op(op, sw, dw);
        memcpy(packed + b, &r, bytes);
      }
    }
    if (t.full_write) {
      memcpy(texel, packed, t.texel_bytes);
    } else {
      for (uint32_t b = 0; b < t.texel_bytes; ++b)
        texel[b] = static_cast<uint8_t>((texel[b] & ~t.write_bytes[b]) | (packed[b] & t.write_bytes[b]));
    }
  }
}

// clang (the sanitizer and fuzzer builds) rejects calls of the V-generic blend helpers from an
// AVX-512 function (64-byte vectors passed to a function without the target change the ABI): there
// blended RGBA8/BGRA8 targets take the SSE path, with the same results.
#ifdef __clang__
constexpr bool kAvx512Blending = false;
#else
constexpr bool kAvx512Blending = true;
#endif

void OutputMerger::write_color(const QuadBatch& batch, const uint32_t* coverage, const float* outputs, uint32_t W,
                               uint32_t layer) const {
  for (uint32_t active = active_targets_; active; active &= active - 1) {
    const uint32_t i = uint32_t(__builtin_ctz(active));
    switch (targets_[i].path) {
      case StorePath::Rgba8:
        if (targets_[i].avx512) write_unorm8_avx512<false, Unorm8Blend::None>(i, batch, coverage, outputs, W, layer);
        else write_unorm8_unblended<false>(i, batch, coverage, outputs, W, layer);
        break;
      case StorePath::Bgra8:
        if (targets_[i].avx512) write_unorm8_avx512<true, Unorm8Blend::None>(i, batch, coverage, outputs, W, layer);
        else write_unorm8_unblended<true>(i, batch, coverage, outputs, W, layer);
        break;
      case StorePath::Rgba8Blended:
        if (kAvx512Blending && targets_[i].avx512) write_unorm8_avx512<false, Unorm8Blend::Factors>(i, batch, coverage, outputs, W, layer);
        else write_unorm8_blended<false, false>(i, batch, coverage, outputs, W, layer);
        break;
      case StorePath::Bgra8Blended:
        if (kAvx512Blending && targets_[i].avx512) write_unorm8_avx512<true, Unorm8Blend::Factors>(i, batch, coverage, outputs, W, layer);
        else write_unorm8_blended<true, false>(i, batch, coverage, outputs, W, layer);
        break;
      case StorePath::Rgba8SourceOver:
        if (kAvx512Blending && targets_[i].avx512) write_unorm8_avx512<false, Unorm8Blend::SourceOver>(i, batch, coverage, outputs, W, layer);
        else write_unorm8_blended<false, true>(i, batch, coverage, outputs, W, layer);
        break;
      case StorePath::Bgra8SourceOver:
        if (kAvx512Blending && targets_[i].avx512) write_unorm8_avx512<true, Unorm8Blend::SourceOver>(i, batch, coverage, outputs, W, layer);
        else write_unorm8_blended<true, true>(i, batch, coverage, outputs, W, layer);
        break;
      case StorePath::Gathered: write_gathered(i, batch, coverage, outputs, W, layer); break;
    }
  }
}

// Every other format, logic ops included: the covered lanes of each sample index are gathered,
// unpacked with the ColorCodec, blended with blend() and packed back — the reference the fast
// paths are tested against.
void OutputMerger::write_gathered(uint32_t i, const QuadBatch& batch, const uint32_t* coverage, const float* outputs,
                                  uint32_t W, uint32_t layer) const {
  const ColorTarget& t = targets_[i];
  const mem::ColorCodec& codec = ctx_.color_codec[i];
  const bool dual = dual_source(i);
  SampleLanes lanes;
  float dst[4][QuadBatch::kMaxLanes];
  for (uint32_t s = 0; s < ctx_.samples; ++s) {
    lanes.n = 0;
    for (uint32_t l = 0; l < batch.lanes(); ++l) {
      if (!(coverage[l] & (1u << s))) continue;
      const uint32_t k = lanes.n++;
      lanes.texel[k] = ctx_.color[i].texel(uint32_t(batch.x(l)), uint32_t(batch.y(l)), layer, s);
      for (uint32_t c = 0; c < 4; ++c) memcpy(&lanes.value[c][k], &outputs[(i * 4 + c) * W + l], 4);
      for (uint32_t c = 0; c < 4; ++c)
        lanes.value1[c][k] = dual ? outputs[(abi::kDualSourceOutputSlot * 4 + c) * W + l] : 0.0f;
    }
    if (lanes.n == 0) continue;
    if (ctx_.state->multisample.alpha_to_one && t.kind != Kind::Int)
      for (uint32_t k = 0; k < lanes.n; ++k) lanes.value[3][k] = 1.0f;
    if (t.blending) {
      if (t.kind == Kind::UNorm || t.kind == Kind::SNorm) {
        const float lo = t.kind == Kind::UNorm ? 0.0f : -1.0f;
        for (auto& channel : lanes.value)
          for (uint32_t k = 0; k < lanes.n; ++k) channel[k] = std::clamp(channel[k], lo, 1.0f);
        for (auto& channel : lanes.value1)
          for (uint32_t k = 0; k < lanes.n; ++k) channel[k] = std::clamp(channel[k], lo, 1.0f);
      }
      for (uint32_t k = 0; k < lanes.n; ++k) {
        VkClearColorValue d;
        codec.unpack(lanes.texel[k], &d);
        for (uint32_t c = 0; c < 4; ++c) dst[c][k] = d.float32[c];
      }
      float* const value[4] = {lanes.value[0], lanes.value[1], lanes.value[2], lanes.value[3]};
      const float* const src[4] = {value[0], value[1], value[2], value[3]};
      const float* const src1[4] = {lanes.value1[0], lanes.value1[1], lanes.value1[2], lanes.value1[3]};
      const float* const dsts[4] = {dst[0], dst[1], dst[2], dst[3]};
      blend(i, lanes.n, src, src1, dsts, value);
    }
    store_generic(i, lanes);
  }
}

}  // namespace kiln::exec::gfx
