#pragma once
// Decoding of compressed texel blocks (BC1-7, ETC2/EAC, ASTC LDR): the CPU reference that copies,
// blits and readbacks use, and that JIT-compiled sampling is tested against. Each scheme lives in
// its own file under memory/compressed/, written from the Khronos Data Format Specification.
#include <vulkan/vulkan.h>

#include <cstdint>

namespace kiln::fmt {

// The largest block Vulkan has (ASTC 12x12).
constexpr uint32_t kMaxBlockTexels = 12 * 12;

// Decodes one block of a compressed `format` into block_width * block_height texels, row-major
// (texel (x, y) at index y * block_width + x), as RGBA floats: UNORM/SNORM/UFLOAT/SFLOAT values as
// the format defines them, sRGB colour channels decoded to linear, missing channels G = B = 0,
// A = 1. Invalid encodings give the error colour the scheme defines (ASTC: magenta; BC6H/BC7:
// zeros). Returns false for formats that are not compressed or not handled (ASTC HDR).
bool decode_block(VkFormat format, const void* block, float (*texels_out)[4]);

}  // namespace kiln::fmt
