#include "memory/attachment_access.h"

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

}  // namespace kiln::mem
