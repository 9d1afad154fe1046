// Compressed block decoders against hand-derived blocks: each block below is assembled bit by bit
// from the Khronos Data Format Specification's layout tables, and its expected texels are worked
// out from the specification's formulas (the derivation is in the comments).
#include "memory/block_decode.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>

#include "memory/format_pack.h"
#include "memory/format_table.h"

namespace kiln::fmt {
namespace {

// A little-endian 128-bit block assembled field by field.
struct BlockBits {
  uint8_t bytes[16] = {};
  void set(uint32_t offset, uint32_t count, uint64_t value) {
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t bit = offset + i;
      bytes[bit / 8] = static_cast<uint8_t>((bytes[bit / 8] & ~(1u << (bit % 8))) | (((value >> i) & 1) << (bit % 8)));
    }
  }
};

// Big-endian 64-bit ETC2/EAC block from a word.
void store_be64(uint64_t word, uint8_t* out) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(word >> (56 - 8 * i));
}

struct Decoded {
  float t[kMaxBlockTexels][4];
  const float* at(uint32_t i) const { return t[i]; }
};

Decoded decode(VkFormat format, const void* block) {
  Decoded d{};
  EXPECT_TRUE(decode_block(format, block, d.t)) << format;
  return d;
}

void expect_texel(const Decoded& d, uint32_t i, std::initializer_list<float> rgba, float tolerance = 1e-6f) {
  int ch = 0;
  for (float v : rgba) {
    EXPECT_NEAR(d.t[i][ch], v, tolerance) << "texel " << i << " channel " << ch;
    ++ch;
  }
}

// --- BC1..BC5 -----------------------------------------------------------------------------------

TEST(BlockDecode, Bc1FourColorModeInterpolatesThirds) {
  // colour0 = 0xF800 (red) > colour1 = 0x001F (blue): four-colour mode. Index byte 0xE4 gives the
  // codes 0, 1, 2, 3 along each row.
  const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
  const Decoded d = decode(VK_FORMAT_BC1_RGB_UNORM_BLOCK, block);
  for (uint32_t row = 0; row < 4; ++row) {
    expect_texel(d, row * 4 + 0, {1, 0, 0, 1});
    expect_texel(d, row * 4 + 1, {0, 0, 1, 1});
    expect_texel(d, row * 4 + 2, {2.0f / 3, 0, 1.0f / 3, 1});
    expect_texel(d, row * 4 + 3, {1.0f / 3, 0, 2.0f / 3, 1});
  }
}

TEST(BlockDecode, Bc1ThreeColorModeHasBlackOrTransparentBlack) {
  // colour0 = 0x001F <= colour1 = 0xF800: code 2 is the average, code 3 black (BC1 RGB) or
  // transparent black (BC1 RGBA).
  const uint8_t block[8] = {0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4};
  const Decoded rgb = decode(VK_FORMAT_BC1_RGB_UNORM_BLOCK, block);
  expect_texel(rgb, 2, {0.5f, 0, 0.5f, 1});
  expect_texel(rgb, 3, {0, 0, 0, 1});
  const Decoded rgba = decode(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, block);
  expect_texel(rgba, 3, {0, 0, 0, 0});
  expect_texel(rgba, 0, {0, 0, 1, 1});
}

TEST(BlockDecode, Bc1SrgbDecodesToLinear) {
  const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
  const Decoded d = decode(VK_FORMAT_BC1_RGB_SRGB_BLOCK, block);
  expect_texel(d, 2, {srgb_to_linear(2.0f / 3), 0, srgb_to_linear(1.0f / 3), 1});
}

TEST(BlockDecode, Bc2ExplicitAlphaAndAlwaysFourColors) {
  uint8_t block[16] = {};
  for (int i = 0; i < 8; ++i) block[i] = static_cast<uint8_t>(0x10 * (2 * i + 1) + 2 * i);  // texel 2i: 2i, 2i+1: 2i+1
  // Colour half with colour0 < colour1: BC2 still uses the four-colour interpolation.
  const uint8_t color[8] = {0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4};
  std::memcpy(block + 8, color, 8);
  const Decoded d = decode(VK_FORMAT_BC2_UNORM_BLOCK, block);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_NEAR(d.t[i][3], i / 15.0f, 1e-6f);
  expect_texel(d, 2, {1.0f / 3, 0, 2.0f / 3});
  expect_texel(d, 3, {2.0f / 3, 0, 1.0f / 3});
}

TEST(BlockDecode, Bc3AndBc4InterpolateSevenths) {
  // alpha0 = 200 > alpha1 = 100: codes 2..7 are (6a0 + a1)/7 ... (a0 + 6a1)/7. Texel i has code i % 8.
  uint8_t bc4[8] = {200, 100};
  BlockBits bits;
  for (uint32_t i = 0; i < 16; ++i) bits.set(3 * i, 3, i % 8);
  std::memcpy(bc4 + 2, bits.bytes, 6);
  const float a0 = 200 / 255.0f, a1 = 100 / 255.0f;
  const float expected[8] = {a0, a1, (6 * a0 + a1) / 7, (5 * a0 + 2 * a1) / 7, (4 * a0 + 3 * a1) / 7,
                             (3 * a0 + 4 * a1) / 7, (2 * a0 + 5 * a1) / 7, (a0 + 6 * a1) / 7};
  const Decoded r = decode(VK_FORMAT_BC4_UNORM_BLOCK, bc4);
  for (uint32_t i = 0; i < 16; ++i) expect_texel(r, i, {expected[i % 8], 0, 0, 1});

  uint8_t bc3[16] = {};
  std::memcpy(bc3, bc4, 8);
  const uint8_t color[8] = {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0};  // all red
  std::memcpy(bc3 + 8, color, 8);
  const Decoded rgba = decode(VK_FORMAT_BC3_UNORM_BLOCK, bc3);
  for (uint32_t i = 0; i < 16; ++i) expect_texel(rgba, i, {1, 0, 0, expected[i % 8]});
}

TEST(BlockDecode, Bc4FifthsModeHasZeroAndOne) {
  uint8_t block[8] = {50, 250};
  BlockBits bits;
  for (uint32_t i = 0; i < 8; ++i) bits.set(3 * i, 3, i);
  std::memcpy(block + 2, bits.bytes, 6);
  const Decoded d = decode(VK_FORMAT_BC4_UNORM_BLOCK, block);
  const float r0 = 50 / 255.0f, r1 = 250 / 255.0f;
  EXPECT_NEAR(d.t[2][0], (4 * r0 + r1) / 5, 1e-6f);
  EXPECT_NEAR(d.t[5][0], (r0 + 4 * r1) / 5, 1e-6f);
  EXPECT_EQ(d.t[6][0], 0.0f);
  EXPECT_EQ(d.t[7][0], 1.0f);
}

TEST(BlockDecode, Bc4SignedClampsMinus128AndBc5HasTwoChannels) {
  // red0 = -128 (reads as -1.0), red1 = 127; -128 <= 127 selects the fifths mode on the raw values.
  uint8_t block[16] = {0x80, 0x7F, 0, 0, 0, 0, 0, 0, 0x7F, 0x80, 0, 0, 0, 0, 0, 0};
  BlockBits bits;
  bits.set(3, 3, 1);   // texel 1: code 1
  bits.set(18, 3, 6);  // texel 6: code 6 -> -1 in the signed fifths mode
  std::memcpy(block + 2, bits.bytes, 6);
  const Decoded r = decode(VK_FORMAT_BC4_SNORM_BLOCK, block);
  expect_texel(r, 0, {-1, 0, 0, 1});
  expect_texel(r, 1, {1, 0, 0, 1});
  expect_texel(r, 6, {-1, 0, 0, 1});
  const Decoded rg = decode(VK_FORMAT_BC5_SNORM_BLOCK, block);
  expect_texel(rg, 0, {-1, 1, 0, 1});  // G block: red0 = 127 > -128, code 0 -> 1.0
}

// --- BC6H ---------------------------------------------------------------------------------------

TEST(BlockDecode, Bc6hMode3UnquantizesEndpoints) {
  // Mode 3 (M = 00011): six raw 10-bit endpoints, one subset, 4-bit indices from bit 65 (the
  // first, an anchor, has 3 bits).
  BlockBits b;
  b.set(0, 5, 0x03);
  b.set(5, 10, 0x3FF);  // R0: all ones -> 0xFFFF -> (0xFFFF * 31) >> 6 = 0x7BFF = 65504
  b.set(15, 10, 0);     // G0
  b.set(25, 10, 512);   // B0: ((512 << 15) + 0x4000) >> 9 = 32800 -> (32800 * 31) >> 6 = 15887
  b.set(35, 10, 0);     // R1
  b.set(45, 10, 0x3FF); // G1
  b.set(55, 10, 0);     // B1
  b.set(65 + 3, 4, 15); // texel 1: index 15 -> weight 64 -> E1
  b.set(65 + 7, 4, 8);  // texel 2: index 8 -> weight 34
  const Decoded d = decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, b.bytes);
  expect_texel(d, 0, {65504.0f, 0, half_to_float(15887), 1});
  expect_texel(d, 1, {0, 65504.0f, 0, 1});
  // Weight 34 of 64 between 0xFFFF and 0: (30 * 0xFFFF + 32) >> 6 = 30720 -> (30720 * 31) >> 6 = 14880.
  EXPECT_EQ(d.t[2][0], half_to_float(14880));
}

TEST(BlockDecode, Bc6hSignedEndpointsAndReservedModes) {
  BlockBits b;
  b.set(0, 5, 0x03);
  b.set(5, 10, 0x1FF);  // R0 = +511: the largest value -> 0x7FFF -> (0x7FFF * 31) >> 5 = 0x7BFF
  b.set(15, 10, 0x200); // G0 = -512 -> -0x7FFF -> 0xFBFF = -65504
  const Decoded d = decode(VK_FORMAT_BC6H_SFLOAT_BLOCK, b.bytes);
  expect_texel(d, 0, {65504.0f, -65504.0f, 0, 1});

  BlockBits reserved;
  reserved.set(0, 5, 19);  // modes 19, 23, 27, 31 are reserved
  reserved.set(5, 60, ~0ull);
  expect_texel(decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, reserved.bytes), 5, {0, 0, 0, 1});
}

TEST(BlockDecode, Bc6hMode0AddsDeltasToTheBase) {
  // Mode 0: transformed endpoints, 10-bit base, 5-bit signed deltas. The fields are scattered
  // (G2^4 at bit 2, ...); only R0 (bits 5..14) and R1 (bits 35..39) are set here.
  BlockBits b;
  b.set(0, 2, 0);
  b.set(5, 10, 100);  // R0 = 100
  b.set(35, 5, 0x1F); // R1 delta = -1 -> R1 = 99
  b.set(82 + 2, 3, 7);  // texel 1 (subset 0 for partition 0): index 7 -> E1
  const Decoded d = decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, b.bytes);
  auto unq = [](int x) { return ((x << 15) + 0x4000) >> 9; };
  EXPECT_EQ(d.t[0][0], half_to_float(static_cast<uint16_t>((unq(100) * 31) >> 6)));
  EXPECT_EQ(d.t[1][0], half_to_float(static_cast<uint16_t>((unq(99) * 31) >> 6)));
}

// --- BC7 ----------------------------------------------------------------------------------------

TEST(BlockDecode, Bc7Mode6EndpointsPbitsAndWeights) {
  // Mode 6: one subset, 7-bit RGBA endpoints plus one P-bit per endpoint, 4-bit indices from bit 65.
  BlockBits b;
  b.set(0, 7, 0x40);
  for (uint32_t ch = 0; ch < 4; ++ch) {
    b.set(7 + 14 * ch, 7, 0);      // endpoint 0: 0 with P = 0 -> 0
    b.set(14 + 14 * ch, 7, 127);   // endpoint 1: 127 with P = 1 -> 255
  }
  b.set(63, 1, 0);
  b.set(64, 1, 1);
  b.set(65 + 3, 4, 15);  // texel 1 -> 255
  b.set(65 + 7, 4, 8);   // texel 2: weight 34 -> (34 * 255 + 32) >> 6 = 135
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, b.bytes);
  expect_texel(d, 0, {0, 0, 0, 0});
  expect_texel(d, 1, {1, 1, 1, 1});
  expect_texel(d, 2, {135 / 255.0f, 135 / 255.0f, 135 / 255.0f, 135 / 255.0f});
}

TEST(BlockDecode, Bc7Mode1UsesThePartitionTable) {
  // Mode 1, partition 0: columns 0-1 are subset 0, columns 2-3 subset 1. Subset 1's endpoints are
  // 63 with shared P-bit 1 -> 7 bits 1111111 -> 255; subset 0 is black. All indices 0.
  BlockBits b;
  b.set(0, 2, 0x2);
  for (uint32_t ch = 0; ch < 3; ++ch) {
    b.set(8 + 24 * ch + 12, 6, 63);
    b.set(8 + 24 * ch + 18, 6, 63);
  }
  b.set(81, 1, 1);
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, b.bytes);
  for (uint32_t i = 0; i < 16; ++i) {
    const float v = (i % 4) >= 2 ? 1.0f : 0.0f;
    expect_texel(d, i, {v, v, v, 1});
  }
}

TEST(BlockDecode, Bc7ReservedModeIsZero) {
  uint8_t block[16];
  std::memset(block, 0xFF, sizeof block);
  block[0] = 0;
  expect_texel(decode(VK_FORMAT_BC7_UNORM_BLOCK, block), 7, {0, 0, 0, 0});
}

// --- ETC2 / EAC ---------------------------------------------------------------------------------

TEST(BlockDecode, Etc2IndividualModeSubblocks) {
  // Individual mode (diff = 0, flip = 0): left sub-block base (15, 0, 0) -> (255, 0, 0), right
  // (0, 15, 0); table 0, all pixel indices 0 -> modifier +2 (clamped at 255).
  const uint64_t w = (0xFull << 60) | (0xFull << 48);  // R1 = 15, G2 = 15
  uint8_t block[8];
  store_be64(w, block);
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, block);
  for (uint32_t y = 0; y < 4; ++y) {
    expect_texel(d, y * 4 + 0, {1, 2 / 255.0f, 2 / 255.0f, 1});
    expect_texel(d, y * 4 + 3, {2 / 255.0f, 1, 2 / 255.0f, 1});
  }
}

TEST(BlockDecode, Etc2PlanarModeIsAGradient) {
  // diff = 1 and blue base + delta < 0 (bit 42: dB = -4) selects planar mode. O = 0, RH = 63,
  // BV = 63: red = (x * 255 + 2) >> 2 along x, blue the same along y.
  uint64_t w = (1ull << 33) | (1ull << 42);
  w |= 0x1Full << 34 | 1ull << 32;  // RH = 11111 1
  w |= 0x3Full;                      // BV
  uint8_t block[8];
  store_be64(w, block);
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, block);
  const int ramp[4] = {0, 64, 128, 191};
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) expect_texel(d, y * 4 + x, {ramp[x] / 255.0f, 0, ramp[y] / 255.0f, 1});
}

TEST(BlockDecode, Etc2TModeAndPunchthroughTransparency) {
  // diff = 1, R = 0 with dR = -4 (bit 58) selects T mode. c1 = (0, 15, 0) -> (0, 255, 0),
  // c2 = (15, 0, 0) -> (255, 0, 0), distance index 0 -> 3. Paint colours: c1, c2 + 3, c2, c2 - 3.
  // Pixel p (column-major, p = 4x + y) takes index 0 (p0), 1 (p1: x=0,y=1), 2 (p4: x=1,y=0).
  uint64_t w = (1ull << 33) | (1ull << 58) | (0xFull << 52) | (0xFull << 44);
  w |= 1ull << 1;   // pixel 1: lsb
  w |= 1ull << 20;  // pixel 4: msb
  uint8_t block[8];
  store_be64(w, block);
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, block);
  expect_texel(d, 0, {0, 1, 0, 1});
  expect_texel(d, 4, {1, 3 / 255.0f, 3 / 255.0f, 1});  // (x=0, y=1)
  expect_texel(d, 1, {1, 0, 0, 1});                     // (x=1, y=0)
  // The same block as punch-through with the opaque bit clear: index 2 is transparent black.
  store_be64(w & ~(1ull << 33), block);
  const Decoded p = decode(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, block);
  expect_texel(p, 1, {0, 0, 0, 0});
  expect_texel(p, 0, {0, 1, 0, 1});
}

TEST(BlockDecode, EacR11AndEtc2Alpha) {
  // base 128, multiplier 1, table 0, pixel 0 index 7 (+14), pixel 1 index 0 (-3).
  uint64_t w = (128ull << 56) | (1ull << 52) | (7ull << 45);
  uint8_t block[16];
  store_be64(w, block);
  Decoded d = decode(VK_FORMAT_EAC_R11_UNORM_BLOCK, block);
  EXPECT_NEAR(d.t[0][0], (128 * 8 + 4 + 14 * 8) / 2047.0f, 1e-6f);
  EXPECT_NEAR(d.t[4][0], (128 * 8 + 4 - 3 * 8) / 2047.0f, 1e-6f);  // pixel 1 is (x=0, y=1)
  // Multiplier 0 means 1/8 in the 11-bit formats.
  store_be64(w & ~(0xFull << 52), block);
  d = decode(VK_FORMAT_EAC_R11_UNORM_BLOCK, block);
  EXPECT_NEAR(d.t[0][0], (128 * 8 + 4 + 14) / 2047.0f, 1e-6f);
  // Signed: base -128 reads as -127; index 4 is +2; results clamp at -1023.
  store_be64((0x80ull << 56) | (1ull << 52) | (4ull << 45), block);
  d = decode(VK_FORMAT_EAC_R11_SNORM_BLOCK, block);
  EXPECT_NEAR(d.t[0][0], (-127 * 8 + 2 * 8) / 1023.0f, 1e-6f);
  EXPECT_EQ(d.t[4][0], -1.0f);  // index 0: -3 -> -1016 - 24 clamps
  // ETC2 RGBA8: the first 8 bytes are an 8-bit EAC alpha (base 100 + 9 * 2, table 13 index 7).
  store_be64((100ull << 56) | (2ull << 52) | (13ull << 48) | (7ull << 45), block);
  store_be64(0, block + 8);
  d = decode(VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, block);
  EXPECT_NEAR(d.t[0][3], 118 / 255.0f, 1e-6f);
}

// --- ASTC ---------------------------------------------------------------------------------------

BlockBits astc_void_extent(uint16_t r, uint16_t g, uint16_t b, uint16_t a) {
  BlockBits bits;
  bits.set(0, 9, 0x1FC);
  bits.set(10, 2, 3);
  bits.set(12, 52, ~0ull);  // all-ones extent: a constant-colour block
  bits.set(64, 16, r), bits.set(80, 16, g), bits.set(96, 16, b), bits.set(112, 16, a);
  return bits;
}

TEST(BlockDecode, AstcVoidExtentEveryBlockSize) {
  const BlockBits bits = astc_void_extent(0xFFFF, 0, 0x8000, 0x4000);
  int formats = 0;
  for (const FormatInfo* info = format_table_begin(); info != format_table_end(); ++info) {
    if (!info->compression || std::string(info->compression) != "ASTC LDR") continue;
    SCOPED_TRACE(info->name);
    ++formats;
    const Decoded d = decode(info->format, bits.bytes);
    const bool srgb = info->components[0].kind == NumericKind::SRGB;
    for (uint32_t i = 0; i < uint32_t{info->block_width} * info->block_height; ++i) {
      if (srgb)  // top 8 bits: 0xFF, 0x00, 0x80, 0x40; colour linearised
        expect_texel(d, i, {1, 0, srgb_to_linear(128 / 255.0f), 64 / 255.0f});
      else
        expect_texel(d, i, {1, 0, 0.5f, 0.25f});
    }
  }
  EXPECT_EQ(formats, 28);
}

TEST(BlockDecode, AstcErrorColorForHdrAndReservedBlocks) {
  BlockBits hdr = astc_void_extent(0, 0, 0, 0);
  hdr.set(9, 1, 1);
  expect_texel(decode(VK_FORMAT_ASTC_4x4_UNORM_BLOCK, hdr.bytes), 0, {1, 0, 1, 1});
  const uint8_t zeros[16] = {};  // block mode 0: reserved
  expect_texel(decode(VK_FORMAT_ASTC_8x8_UNORM_BLOCK, zeros), 63, {1, 0, 1, 1});
}

// Block mode 0x13: weight grid 4x2 with 3-bit weights (range 0..7, 24 bits), one partition.
BlockBits astc_luminance_block() {
  BlockBits bits;
  bits.set(0, 11, 0x13);
  bits.set(13, 4, 0);     // CEM 0: luminance, direct; 87 bits remain -> 8-bit endpoints
  bits.set(17, 8, 0);     // v0
  bits.set(25, 8, 255);   // v1
  const uint32_t weights[8] = {0, 7, 0, 7, 7, 7, 7, 7};  // grid row 0, row 1
  for (uint32_t k = 0; k < 8; ++k)
    for (uint32_t j = 0; j < 3; ++j) bits.set(127 - (3 * k + j), 1, (weights[k] >> j) & 1);
  return bits;
}

TEST(BlockDecode, AstcWeightInfillAndInterpolation) {
  // 4x4 texels over a 4x2 grid: texel columns map onto grid columns exactly; rows y = 0, 1, 2, 3
  // map to grid t = 0, 5/16, 11/16, 1. Texel (0, 1): i = (0 * 11 + 64 * 5 + 8) >> 4 = 20;
  // C = (65535 * 20 + 32) / 64 = 20480 -> 20480 / 65536 = 0.3125.
  const BlockBits bits = astc_luminance_block();
  const Decoded d = decode(VK_FORMAT_ASTC_4x4_UNORM_BLOCK, bits.bytes);
  const float row0[4] = {0, 1, 0, 1};
  for (uint32_t x = 0; x < 4; ++x) expect_texel(d, x, {row0[x], row0[x], row0[x], 1});
  expect_texel(d, 4, {0.3125f, 0.3125f, 0.3125f, 1});
  expect_texel(d, 5, {1, 1, 1, 1});
  for (uint32_t x = 0; x < 4; ++x) expect_texel(d, 12 + x, {1, 1, 1, 1});
  // sRGB expands endpoints as (v << 8) | 0x80: C = (0x80 * 44 + 0xFF80 * 20 + 32) / 64 = 20488,
  // top 8 bits 80.
  const Decoded s = decode(VK_FORMAT_ASTC_4x4_SRGB_BLOCK, bits.bytes);
  const float l = srgb_to_linear(80 / 255.0f);
  expect_texel(s, 4, {l, l, l, 1});
}

TEST(BlockDecode, AstcTwoPartitionsSplitTheBlock) {
  // Two partitions (seed 5), shared CEM 0; partition 0 black, partition 1 white, all weights 0.
  // Every texel is one endpoint colour, and both partitions occur.
  BlockBits bits;
  bits.set(0, 11, 0x13);
  bits.set(11, 2, 1);
  bits.set(13, 10, 5);
  bits.set(23, 6, 0);
  bits.set(29, 8, 0), bits.set(37, 8, 0), bits.set(45, 8, 255), bits.set(53, 8, 255);
  const Decoded d = decode(VK_FORMAT_ASTC_6x6_UNORM_BLOCK, bits.bytes);
  int white = 0;
  for (uint32_t i = 0; i < 36; ++i) {
    ASSERT_TRUE(d.t[i][0] == 0.0f || d.t[i][0] == 1.0f) << i;
    white += d.t[i][0] == 1.0f;
  }
  EXPECT_GT(white, 0);
  EXPECT_LT(white, 36);
}

// A final trit or quint block holding fewer than 5 or 3 values is cut short; its missing high bits
// read as 0 ("Integer Sequence Encoding"). The colour endpoint sequence can end right below the
// weights, so reading past its end would take weight bits instead. Both blocks below set those
// weight bits to 1.

// ASTC 4x4, one partition, CEM 12 (RGBA direct: 8 values). Block mode 0x253: 4x4 weight grid of
// 5-bit weights (80 bits), so 128 - 17 - 80 = 31 bits remain for colour and the largest range
// whose 8 values fit is 0..11 (one trit + 2 bits: 13 + 8 * 2 = 29 bits). Values 5..7 form a short
// final trit block: its T0..T4 are stored, T5..T7 read as 0. With T[4:2] = 111 the spec gives
// C = {T[7:5], T[1:0]} = 0, so t0 = t1 = t2 = 0. (Read from the weight bits, T[7:5] = 111 would
// give C = 11100: t1 = t2 = 2, turning the alphas into 46 and 209.)
TEST(BlockDecode, AstcShortFinalTritBlockReadsMissingBitsAsZero) {
  BlockBits bits;
  bits.set(0, 11, 0x253);
  bits.set(13, 4, 12);
  // Values R0 R1 G0 G1 B0 B1 A0 A1 = 0 255 0 255 0 255 0 255, each trit 0 with m = 0 or 1. Trit
  // ranges with 2 bits: T = t * 93 + B (B = 0 as m's bit 1 is 0), T ^= A (0x1FF if m's bit 0 is
  // set), result (A & 0x80) | (T >> 2): m = 0 -> 0, m = 1 -> 0x80 | 0x7F = 255.
  // A trit block is m0 T1:T0 m1 T3:T2 m2 T4 m3 T6:T5 m4 T7; the first (values 0..4, from bit 17)
  // has T = 0, so only its m fields are set.
  const uint32_t first_block_m_offsets[5] = {17, 21, 25, 28, 32};
  for (uint32_t i = 0; i < 5; ++i) bits.set(first_block_m_offsets[i], 2, i % 2);
  // The second (values 5..7) from bit 35 ends after T4, at bit 46 = 17 + 29.
  bits.set(35, 2, 1), bits.set(37, 2, 0b00);  // m5, T1:T0
  bits.set(39, 2, 0), bits.set(41, 2, 0b11);  // m6, T3:T2
  bits.set(43, 2, 1), bits.set(45, 1, 1);     // m7, T4
  // Weights from bit 127 down, 5 bits each: texel 0 gets 0, texels 1..15 get 31 (-> 64). Weight 15
  // occupies bits 52..48, where a decoder reading on would find T5, T6 (bits 48, 49) and T7 (52).
  for (uint32_t w = 1; w < 16; ++w) bits.set(127 - 5 * w - 4, 5, 0x1F);
  for (VkFormat format : {VK_FORMAT_ASTC_4x4_UNORM_BLOCK, VK_FORMAT_ASTC_4x4_SRGB_BLOCK}) {
    SCOPED_TRACE(format);
    const Decoded d = decode(format, bits.bytes);
    expect_texel(d, 0, {0, 0, 0, 0});  // endpoint 0: (0, 0, 0, A0 = 0)
    for (uint32_t i = 1; i < 16; ++i) expect_texel(d, i, {1, 1, 1, 1});  // endpoint 1, A1 = 255
  }
}

// ASTC 8x8, one partition, CEM 0 (luminance direct: 2 values). Block mode 0x57: 8x4 grid of 3-bit
// weights (96 bits), so 15 bits remain and the largest range whose 2 values fit is 0..159 (one quint
// + 5 bits: 5 + 2 * 5 = 15 bits). The final quint block holds 2 of 3 values: Q0..Q4 are stored,
// Q5 and Q6 read as 0. With Q[2:1] = 11 and Q[6:5] = 00 the spec gives q0 = q1 = 4. (Read from the
// weight bits, Q[6:5] = 11 would give C = 0: q0 = q1 = 0, i.e. L0 = 0 and L1 = 255.)
TEST(BlockDecode, AstcShortFinalQuintBlockReadsMissingBitsAsZero) {
  BlockBits bits;
  bits.set(0, 11, 0x57);
  bits.set(13, 4, 0);
  // v0 = 4 * 32 + 0, v1 = 4 * 32 + 1. Quint ranges with 5 bits: T = q * 6 + B (B = 0 here, as m's
  // bits 4..1 are 0), T ^= A, result (A & 0x80) | (T >> 2): L0 = 24 >> 2 = 6;
  // L1 = 0x80 | ((24 ^ 0x1FF) >> 2) = 0x80 | 0x79 = 249.
  bits.set(17, 5, 0), bits.set(22, 3, 0b110);  // m0, Q2:Q0
  bits.set(25, 5, 1), bits.set(30, 2, 0b00);   // m1, Q4:Q3
  // Weights from bit 127 down, 3 bits each: grid point (0, 0) gets 0, all others 7 (-> 64). Bits 37
  // and 38, where a decoder reading on would find Q5 and Q6, hold bit 0 of weight 30 and bit 2 of
  // weight 29.
  for (uint32_t w = 1; w < 32; ++w) bits.set(127 - 3 * w - 2, 3, 7);
  // Texel (0, 0) sits on grid point (0, 0) and texel (7, 7) on grid point (7, 3): endpoints 0 and 1.
  // Linear: 6 * 257 / 65536 is exact in FP16; 249 * 257 = 63993 / 65536 truncates to 1999 / 2048.
  const Decoded d = decode(VK_FORMAT_ASTC_8x8_UNORM_BLOCK, bits.bytes);
  const float l0 = 1542 / 65536.0f, l1 = 1999 / 2048.0f;
  expect_texel(d, 0, {l0, l0, l0, 1});
  expect_texel(d, 63, {l1, l1, l1, 1});
  // sRGB keeps the top 8 bits of (L << 8) | 0x80.
  const Decoded s = decode(VK_FORMAT_ASTC_8x8_SRGB_BLOCK, bits.bytes);
  const float s0 = srgb_to_linear(6 / 255.0f), s1 = srgb_to_linear(249 / 255.0f);
  expect_texel(s, 0, {s0, s0, s0, 1});
  expect_texel(s, 63, {s1, s1, s1, 1});
}

TEST(BlockDecode, RejectsUncompressedFormats) {
  float texels[kMaxBlockTexels][4];
  const uint8_t block[16] = {};
  EXPECT_FALSE(decode_block(VK_FORMAT_R8G8B8A8_UNORM, block, texels));
  EXPECT_FALSE(decode_block(VK_FORMAT_UNDEFINED, block, texels));
}

}  // namespace
}  // namespace kiln::fmt
