#include "pipeline/graphics/output_merge.h"

#include <algorithm>
#include <cstring>

#include "common/log.h"
#include "memory/format_table.h"

namespace kiln::exec::gfx {
namespace {

bool compare(VkCompareOp op, float a, float b) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return a < b;
    case VK_COMPARE_OP_EQUAL: return a == b;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return a <= b;
    case VK_COMPARE_OP_GREATER: return a > b;
    case VK_COMPARE_OP_NOT_EQUAL: return a != b;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return a >= b;
    default: return true;  // ALWAYS
  }
}
bool compare(VkCompareOp op, uint32_t a, uint32_t b) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return a < b;
    case VK_COMPARE_OP_EQUAL: return a == b;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return a <= b;
    case VK_COMPARE_OP_GREATER: return a > b;
    case VK_COMPARE_OP_NOT_EQUAL: return a != b;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return a >= b;
    default: return true;
  }
}

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

}  // namespace

OutputMerger::OutputMerger(const DrawContext& ctx) : ctx_(ctx) {
  const DepthStencilState& ds = ctx.state->depth_stencil;
  depth_or_stencil_ = (ctx.has_depth && (ds.depth_test || ds.depth_bounds_test)) || (ctx.has_stencil && ds.stencil_test);
  const ColorBlendState& cb = ctx.state->color_blend;
  for (uint32_t i = 0; i < abi::kMaxColorAttachments; ++i) {
    ColorTarget& t = targets_[i];
    if (!ctx.has_color[i]) continue;
    const fmt::FormatInfo* info = fmt::format_info(ctx.color[i].format);
    if (!info) continue;
    t.enabled = true;
    t.texel_bytes = ctx.color[i].sample_bytes;
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

uint32_t OutputMerger::depth_stencil(uint32_t x, uint32_t y, uint32_t layer, uint32_t coverage, const float* depth,
                                     bool front_facing, uint32_t viewport) const {
  const DepthStencilState& ds = ctx_.state->depth_stencil;
  const bool depth_test = ctx_.has_depth && ds.depth_test;
  const bool bounds_test = ctx_.has_depth && ds.depth_bounds_test;
  const bool stencil_test = ctx_.has_stencil && ds.stencil_test;
  if (!depth_test && !bounds_test && !stencil_test) return coverage;
  const StencilFaceState& face = front_facing ? ds.front : ds.back;
  const RasterizationState& rs = ctx_.state->rasterization;
  uint32_t passed = 0;
  for (uint32_t s = 0; s < ctx_.samples; ++s) {
    if (!(coverage & (1u << s))) continue;
    uint8_t* dtexel = ctx_.has_depth ? ctx_.depth.texel(x, y, layer, s) : nullptr;
    const float stored = dtexel ? ctx_.depth_codec.unpack(dtexel) : 0.0f;
    if (bounds_test && !(stored >= ds.min_depth_bounds && stored <= ds.max_depth_bounds)) continue;
    // The fragment's depth as the attachment would store it (clamped to the depth range with
    // depth clamp, converted to the format), so that equal comparisons behave.
    float z = depth[s];
    if (rs.depth_clamp) {
      const ViewportTransform& vp = ctx_.viewports[viewport];
      z = std::clamp(z, vp.min_depth, vp.max_depth);
    }
    uint8_t zbuf[4];
    float zq = z;
    if (dtexel) {
      ctx_.depth_codec.pack(z, zbuf);
      zq = ctx_.depth_codec.unpack(zbuf);
    }
    bool pass = true;
    uint8_t* stexel = stencil_test ? ctx_.stencil.texel(x, y, layer, s) : nullptr;
    if (stencil_test) {
      const uint32_t value = *stexel;
      const bool stencil_pass = compare(face.compare_op, face.reference & face.compare_mask, value & face.compare_mask);
      VkStencilOp op;
      if (!stencil_pass) {
        op = face.fail_op;
        pass = false;
      } else if (depth_test && !compare(ds.depth_compare, zq, stored)) {
        op = face.depth_fail_op;
        pass = false;
      } else {
        op = face.pass_op;
      }
      const uint32_t next = stencil_op(op, value, face.reference);
      *stexel = static_cast<uint8_t>((value & ~face.write_mask) | (next & face.write_mask));
    } else if (depth_test && !compare(ds.depth_compare, zq, stored)) {
      pass = false;
    }
    if (!pass) continue;
    if (depth_test && ds.depth_write) memcpy(dtexel, zbuf, ctx_.depth.sample_bytes);
    passed |= 1u << s;
  }
  return passed;
}

void OutputMerger::blend(uint32_t index, const float src[4], const float dst[4], float out[4]) const {
  const VkPipelineColorBlendAttachmentState& a = ctx_.state->color_blend.attachments[index];
  const ColorTarget& t = targets_[index];
  float c[4];
  memcpy(c, ctx_.state->color_blend.blend_constants, sizeof(c));
  if (t.kind == Kind::UNorm || t.kind == Kind::SNorm) {
    const float lo = t.kind == Kind::UNorm ? 0.0f : -1.0f;
    for (int i = 0; i < 4; ++i) c[i] = std::clamp(c[i], lo, 1.0f);
  }
  auto factor = [&](VkBlendFactor f, int i) -> float {
    switch (f) {
      case VK_BLEND_FACTOR_ZERO: return 0.0f;
      case VK_BLEND_FACTOR_ONE: return 1.0f;
      case VK_BLEND_FACTOR_SRC_COLOR: return src[i];
      case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1.0f - src[i];
      case VK_BLEND_FACTOR_DST_COLOR: return dst[i];
      case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1.0f - dst[i];
      case VK_BLEND_FACTOR_SRC_ALPHA: return src[3];
      case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1.0f - src[3];
      case VK_BLEND_FACTOR_DST_ALPHA: return dst[3];
      case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1.0f - dst[3];
      case VK_BLEND_FACTOR_CONSTANT_COLOR: return c[i];
      case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1.0f - c[i];
      case VK_BLEND_FACTOR_CONSTANT_ALPHA: return c[3];
      case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1.0f - c[3];
      case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return i == 3 ? 1.0f : std::min(src[3], 1.0f - dst[3]);
      default:  // SRC1_*: dual-source blending is not supported (dualSrcBlend is FALSE)
        KILN_LOG_ONCE(LogLevel::Warn, "draw: dual-source blend factors are not supported; using 0");
        return 0.0f;
    }
  };
  for (int i = 0; i < 4; ++i) {
    const bool alpha = i == 3;
    const VkBlendOp op = alpha ? a.alphaBlendOp : a.colorBlendOp;
    const float sf = factor(alpha ? a.srcAlphaBlendFactor : a.srcColorBlendFactor, i);
    const float df = factor(alpha ? a.dstAlphaBlendFactor : a.dstColorBlendFactor, i);
    switch (op) {
      case VK_BLEND_OP_SUBTRACT: out[i] = src[i] * sf - dst[i] * df; break;
      case VK_BLEND_OP_REVERSE_SUBTRACT: out[i] = dst[i] * df - src[i] * sf; break;
      case VK_BLEND_OP_MIN: out[i] = std::min(src[i], dst[i]); break;
      case VK_BLEND_OP_MAX: out[i] = std::max(src[i], dst[i]); break;
      default: out[i] = src[i] * sf + dst[i] * df; break;  // ADD (advanced ops are not exposed)
    }
  }
}

void OutputMerger::write_color(uint32_t x, uint32_t y, uint32_t layer, uint32_t coverage, const uint32_t* outputs,
                               uint32_t W, uint32_t lane) const {
  const abi::FragmentInterface& fi = ctx_.kernels->fragment_interface;
  const ColorBlendState& cb = ctx_.state->color_blend;
  for (uint32_t i = 0; i < abi::kMaxColorAttachments; ++i) {
    const ColorTarget& t = targets_[i];
    if (!t.enabled || !(fi.output_location_mask & (1u << i))) continue;
    if (i < cb.attachment_count && cb.attachments[i].colorWriteMask == 0) continue;
    VkClearColorValue src;
    for (uint32_t c = 0; c < 4; ++c) src.uint32[c] = outputs[(i * 4 + c) * W + lane];
    if (ctx_.state->multisample.alpha_to_one && t.kind != Kind::Int) src.float32[3] = 1.0f;
    const bool blending = t.kind != Kind::Int && !t.logic_op && i < cb.attachment_count && cb.attachments[i].blendEnable;
    if (blending && (t.kind == Kind::UNorm || t.kind == Kind::SNorm)) {
      const float lo = t.kind == Kind::UNorm ? 0.0f : -1.0f;
      for (float& v : src.float32) v = std::clamp(v, lo, 1.0f);
    }
    const mem::ColorCodec& codec = ctx_.color_codec[i];
    for (uint32_t s = 0; s < ctx_.samples; ++s) {
      if (!(coverage & (1u << s))) continue;
      uint8_t* texel = ctx_.color[i].texel(x, y, layer, s);
      VkClearColorValue value = src;
      if (blending) {
        VkClearColorValue dst;
        codec.unpack(texel, &dst);
        blend(i, src.float32, dst.float32, value.float32);
      }
      uint8_t packed[32];
      codec.pack(value, packed);
      if (t.logic_op) {
        // Bitwise on the stored representation, 32 bits at a time (padding bits are masked below).
        for (uint32_t b = 0; b < t.texel_bytes; b += 4) {
          uint32_t sw = 0, dw = 0;
          const uint32_t n = std::min(4u, t.texel_bytes - b);
          memcpy(&sw, packed + b, n);
          memcpy(&dw, texel + b, n);
          const uint32_t r = logic_op(cb.logic_op, sw, dw);
          memcpy(packed + b, &r, n);
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
}

}  // namespace kiln::exec::gfx
