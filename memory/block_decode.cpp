// Chooses the block decoder for a compressed format and applies what all decoders share: the
// sRGB transfer function of *_SRGB formats.
#include "memory/block_decode.h"

#include <string_view>

#include "memory/compressed/block_decoders.h"
#include "memory/format_pack.h"
#include "memory/format_table.h"

namespace kiln::fmt {
namespace {

using namespace compressed;

bool decode_stored(VkFormat format, const uint8_t* b, const FormatInfo& info, bool srgb, Texels out) {
  switch (format) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK: decode_bc1(b, Bc1Alpha::Opaque, out); return true;
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: decode_bc1(b, Bc1Alpha::Punchthrough, out); return true;
    case VK_FORMAT_BC2_UNORM_BLOCK:
    case VK_FORMAT_BC2_SRGB_BLOCK: decode_bc2(b, out); return true;
    case VK_FORMAT_BC3_UNORM_BLOCK:
    case VK_FORMAT_BC3_SRGB_BLOCK: decode_bc3(b, out); return true;
    case VK_FORMAT_BC4_UNORM_BLOCK: decode_bc4(b, false, out); return true;
    case VK_FORMAT_BC4_SNORM_BLOCK: decode_bc4(b, true, out); return true;
    case VK_FORMAT_BC5_UNORM_BLOCK: decode_bc5(b, false, out); return true;
    case VK_FORMAT_BC5_SNORM_BLOCK: decode_bc5(b, true, out); return true;
    case VK_FORMAT_BC6H_UFLOAT_BLOCK: decode_bc6h(b, false, out); return true;
    case VK_FORMAT_BC6H_SFLOAT_BLOCK: decode_bc6h(b, true, out); return true;
    case VK_FORMAT_BC7_UNORM_BLOCK:
    case VK_FORMAT_BC7_SRGB_BLOCK: decode_bc7(b, out); return true;
    case VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK: decode_etc2(b, Etc2Alpha::Opaque, out); return true;
    case VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK: decode_etc2(b, Etc2Alpha::Punchthrough, out); return true;
    case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK: decode_etc2(b, Etc2Alpha::Eac8, out); return true;
    case VK_FORMAT_EAC_R11_UNORM_BLOCK: decode_eac_r11(b, false, out); return true;
    case VK_FORMAT_EAC_R11_SNORM_BLOCK: decode_eac_r11(b, true, out); return true;
    case VK_FORMAT_EAC_R11G11_UNORM_BLOCK: decode_eac_rg11(b, false, out); return true;
    case VK_FORMAT_EAC_R11G11_SNORM_BLOCK: decode_eac_rg11(b, true, out); return true;
    default: break;
  }
  if (info.compression && std::string_view(info.compression) == "ASTC LDR" && info.block_depth == 1) {
    decode_astc_ldr(b, info.block_width, info.block_height, srgb, out);
    return true;
  }
  return false;
}

}  // namespace

bool decode_block(VkFormat format, const void* block, float (*texels_out)[4]) {
  const FormatInfo* info = format_info(format);
  if (info == nullptr || !info->is_compressed()) return false;
  const bool srgb = info->components[0].kind == NumericKind::SRGB;
  if (!decode_stored(format, static_cast<const uint8_t*>(block), *info, srgb, texels_out)) return false;
  if (srgb) {
    const uint32_t texels = uint32_t{info->block_width} * info->block_height;
    for (uint32_t i = 0; i < texels; ++i)
      for (int ch = 0; ch < 3; ++ch) texels_out[i][ch] = srgb_to_linear(texels_out[i][ch]);
  }
  return true;
}

}  // namespace kiln::fmt
