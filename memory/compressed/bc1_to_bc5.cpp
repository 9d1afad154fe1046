// S3TC (BC1, BC2, BC3) and RGTC (BC4, BC5) blocks: Khronos Data Format Specification, "S3TC
// Compressed Texture Image Formats" and "RGTC Compressed Texture Image Formats". Interpolation is
// done in float on the exactly expanded endpoints, as the specification writes it.
#include <cstring>

#include "memory/compressed/block_decoders.h"

namespace kiln::fmt::compressed {
namespace {

uint16_t load16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

// The colour half shared by BC1, BC2 and BC3 (8 bytes). `always_four_colors`: BC2/BC3 ignore the
// colour0 <= colour1 three-colour mode.
void decode_color_block(const uint8_t* block, bool always_four_colors, bool punchthrough, Texels out) {
  const uint16_t c0 = load16(block), c1 = load16(block + 2);
  float palette[4][4];
  for (int i = 0; i < 2; ++i) {
    const uint16_t c = i == 0 ? c0 : c1;
    palette[i][0] = ((c >> 11) & 31) / 31.0f;
    palette[i][1] = ((c >> 5) & 63) / 63.0f;
    palette[i][2] = (c & 31) / 31.0f;
    palette[i][3] = 1.0f;
  }
  const bool four_colors = always_four_colors || c0 > c1;
  for (int ch = 0; ch < 3; ++ch) {
    const float a = palette[0][ch], b = palette[1][ch];
    if (four_colors) {
      palette[2][ch] = (2 * a + b) / 3;
      palette[3][ch] = (a + 2 * b) / 3;
    } else {
      palette[2][ch] = (a + b) / 2;
      palette[3][ch] = 0.0f;  // black
    }
  }
  palette[2][3] = 1.0f;
  palette[3][3] = four_colors || !punchthrough ? 1.0f : 0.0f;  // BC1 RGBA: transparent black
  for (uint32_t i = 0; i < 16; ++i) {
    const uint32_t code = (block[4 + i / 4] >> (2 * (i % 4))) & 3;
    std::memcpy(out[i], palette[code], sizeof(palette[code]));
  }
}

// One BC4-style channel (8 bytes) into channel `ch` of each texel.
void decode_rgtc_channel(const uint8_t* block, bool is_signed, int ch, Texels out) {
  float e[8];
  bool six_interpolated;
  if (is_signed) {
    const auto r0 = static_cast<int8_t>(block[0]), r1 = static_cast<int8_t>(block[1]);
    // -128 means -1.0 like -127; the mode is chosen on the raw values.
    e[0] = r0 == -128 ? -1.0f : r0 / 127.0f;
    e[1] = r1 == -128 ? -1.0f : r1 / 127.0f;
    six_interpolated = r0 > r1;
  } else {
    e[0] = block[0] / 255.0f;
    e[1] = block[1] / 255.0f;
    six_interpolated = block[0] > block[1];
  }
  if (six_interpolated) {
    for (int i = 1; i <= 6; ++i) e[i + 1] = ((7 - i) * e[0] + i * e[1]) / 7;
  } else {
    for (int i = 1; i <= 4; ++i) e[i + 1] = ((5 - i) * e[0] + i * e[1]) / 5;
    e[6] = is_signed ? -1.0f : 0.0f;
    e[7] = 1.0f;
  }
  for (uint32_t i = 0; i < 16; ++i) out[i][ch] = e[read_bits(block + 2, 3 * i, 3)];
}

}  // namespace

void decode_bc1(const uint8_t* block, Bc1Alpha alpha, Texels out) {
  decode_color_block(block, false, alpha == Bc1Alpha::Punchthrough, out);
}

void decode_bc2(const uint8_t* block, Texels out) {
  decode_color_block(block + 8, true, false, out);
  for (uint32_t i = 0; i < 16; ++i) out[i][3] = ((block[i / 2] >> (4 * (i % 2))) & 15) / 15.0f;
}

void decode_bc3(const uint8_t* block, Texels out) {
  decode_color_block(block + 8, true, false, out);
  decode_rgtc_channel(block, false, 3, out);
}

void decode_bc4(const uint8_t* block, bool is_signed, Texels out) {
  for (uint32_t i = 0; i < 16; ++i) set_texel(out, i, 0, 0, 0, 1);
  decode_rgtc_channel(block, is_signed, 0, out);
}

void decode_bc5(const uint8_t* block, bool is_signed, Texels out) {
  for (uint32_t i = 0; i < 16; ++i) set_texel(out, i, 0, 0, 0, 1);
  decode_rgtc_channel(block, is_signed, 0, out);
  decode_rgtc_channel(block + 8, is_signed, 1, out);
}

}  // namespace kiln::fmt::compressed
