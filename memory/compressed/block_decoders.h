#pragma once
// The individual block decoders behind fmt::decode_block (memory/block_decode.h). Each writes its
// texels row-major as RGBA floats holding the *stored* values: colour channels of sRGB formats stay
// sRGB-encoded (the caller linearises them), so one decoder serves both variants of a format.
#include <cstdint>

namespace kiln::fmt::compressed {

using Texels = float (*)[4];

// BC1..BC5 (S3TC / RGTC): 4x4 blocks.
enum class Bc1Alpha { Opaque, Punchthrough };
void decode_bc1(const uint8_t* block, Bc1Alpha alpha, Texels out);
void decode_bc2(const uint8_t* block, Texels out);
void decode_bc3(const uint8_t* block, Texels out);
void decode_bc4(const uint8_t* block, bool is_signed, Texels out);  // R; G = B = 0, A = 1
void decode_bc5(const uint8_t* block, bool is_signed, Texels out);  // RG

// BPTC.
void decode_bc6h(const uint8_t* block, bool is_signed, Texels out);
void decode_bc7(const uint8_t* block, Texels out);

// ETC2 / EAC: 4x4 blocks.
enum class Etc2Alpha { Opaque, Punchthrough, Eac8 };
void decode_etc2(const uint8_t* block, Etc2Alpha alpha, Texels out);
void decode_eac_r11(const uint8_t* block, bool is_signed, Texels out);
void decode_eac_rg11(const uint8_t* block, bool is_signed, Texels out);

// ASTC LDR, 2D blocks of width x height texels. `srgb` selects the sRGB decode path (8-bit
// results), which differs from linear LDR in how endpoints are expanded.
void decode_astc_ldr(const uint8_t* block, uint32_t width, uint32_t height, bool srgb, Texels out);

// --- Shared helpers ----------------------------------------------------------------------------

// Reads `count` (<= 32) bits starting at bit `offset` of a little-endian bit string.
inline uint32_t read_bits(const uint8_t* data, uint32_t offset, uint32_t count) {
  uint64_t value = 0;
  for (uint32_t i = 0; i < count; ++i) value |= uint64_t((data[(offset + i) / 8] >> ((offset + i) % 8)) & 1u) << i;
  return static_cast<uint32_t>(value);
}

inline void set_texel(Texels out, uint32_t index, float r, float g, float b, float a) {
  out[index][0] = r, out[index][1] = g, out[index][2] = b, out[index][3] = a;
}

}  // namespace kiln::fmt::compressed
