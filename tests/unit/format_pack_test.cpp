// Texel packing: known values from the spec's conversion rules, exhaustive checks of the scalar
// conversions against independent references, and round trips through every uncompressed format.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "memory/format_pack.h"
#include "memory/format_table.h"

namespace kiln::fmt {
namespace {

VkClearColorValue floats(float r, float g, float b, float a) {
  VkClearColorValue v{};
  v.float32[0] = r, v.float32[1] = g, v.float32[2] = b, v.float32[3] = a;
  return v;
}

// Packs `value` and returns the texel's first 8 bytes as a little-endian integer.
uint64_t pack_word(VkFormat format, const VkClearColorValue& value) {
  uint8_t texel[32] = {};
  EXPECT_TRUE(pack_color(format, value, texel));
  uint64_t word = 0;
  std::memcpy(&word, texel, sizeof(word));
  return word;
}

VkClearColorValue unpack_word(VkFormat format, uint64_t word) {
  uint8_t texel[32] = {};
  std::memcpy(texel, &word, sizeof(word));
  VkClearColorValue value{};
  EXPECT_TRUE(unpack_color(format, texel, &value));
  return value;
}

// --- Known values ---------------------------------------------------------------------------

TEST(FormatPack, UnormKnownValues) {
  EXPECT_EQ(pack_word(VK_FORMAT_R8G8B8A8_UNORM, floats(0.5f, 0.0f, 1.0f, 0.2f)), 0x33FF0080u);
  EXPECT_EQ(pack_word(VK_FORMAT_R8G8B8A8_UNORM, floats(-3.0f, 7.0f, NAN, 1.0f / 255)), 0x0100FF00u);  // clamp, NaN -> 0
  EXPECT_EQ(pack_word(VK_FORMAT_B8G8R8A8_UNORM, floats(1, 0, 0, 1)), 0xFFFF0000u);  // bytes B,G,R,A
  EXPECT_EQ(pack_word(VK_FORMAT_A2B10G10R10_UNORM_PACK32, floats(1, 0, 0, 1)), 0xC00003FFu);  // R at the LSB
  EXPECT_EQ(pack_word(VK_FORMAT_A2R10G10B10_UNORM_PACK32, floats(1, 0, 0, 1)), 0xFFF00000u);
  EXPECT_EQ(pack_word(VK_FORMAT_R5G6B5_UNORM_PACK16, floats(1, 0, 0, 0)), 0xF800u);
  EXPECT_EQ(pack_word(VK_FORMAT_B5G6R5_UNORM_PACK16, floats(1, 0, 0, 0)), 0x001Fu);
  EXPECT_EQ(pack_word(VK_FORMAT_B5G5R5A1_UNORM_PACK16, floats(0, 0, 1, 1)), 0xF801u);
  EXPECT_EQ(pack_word(VK_FORMAT_A1R5G5B5_UNORM_PACK16, floats(0, 1, 0, 1)), 0x83E0u);
  EXPECT_EQ(pack_word(VK_FORMAT_R4G4_UNORM_PACK8, floats(1, 0, 0, 0)), 0xF0u);
  EXPECT_EQ(pack_word(VK_FORMAT_A4B4G4R4_UNORM_PACK16, floats(1, 0, 0, 0)), 0x000Fu);
  EXPECT_EQ(pack_word(VK_FORMAT_R16_UNORM, floats(0.5f, 0, 0, 0)), 32768u);  // 32767.5 rounds to even
  EXPECT_EQ(pack_word(VK_FORMAT_R10X6_UNORM_PACK16, floats(1, 0, 0, 0)), 0xFFC0u);  // padding in the low bits
  EXPECT_EQ(pack_word(VK_FORMAT_R12X4G12X4_UNORM_2PACK16, floats(1, 1.0f / 4095, 0, 0)), 0x0010FFF0u);
  EXPECT_EQ(float_to_unorm(0.5f, 8), 128u);
  EXPECT_EQ(float_to_unorm(1.0f / 3, 8), 85u);
  EXPECT_EQ(float_to_unorm(1.0f, 24), 0xFFFFFFu);
  EXPECT_FLOAT_EQ(unorm_to_float(128, 8), 128.0f / 255.0f);
}

TEST(FormatPack, SnormKnownValues) {
  // -1.0 -> -(2^(b-1) - 1) = -127 = 0x81; the code -128 also decodes to -1.0.
  EXPECT_EQ(pack_word(VK_FORMAT_R8_SNORM, floats(-1.0f, 0, 0, 0)), 0x81u);
  EXPECT_EQ(pack_word(VK_FORMAT_R8_SNORM, floats(1.0f, 0, 0, 0)), 0x7Fu);
  EXPECT_EQ(pack_word(VK_FORMAT_R8_SNORM, floats(-5.0f, 0, 0, 0)), 0x81u);
  EXPECT_EQ(pack_word(VK_FORMAT_R8G8_SNORM, floats(0.5f, -0.5f, 0, 0)), 0xC040u);  // 63.5 -> 64, -63.5 -> -64
  EXPECT_EQ(float_to_snorm(-1.0f, 10), 0x201u);
  EXPECT_EQ(snorm_to_float(0x80, 8), -1.0f);
  EXPECT_EQ(snorm_to_float(0x81, 8), -1.0f);
  EXPECT_EQ(snorm_to_float(0x7F, 8), 1.0f);
  EXPECT_EQ(snorm_to_float(0x2, 2), -1.0f);
  EXPECT_EQ(unpack_word(VK_FORMAT_A2B10G10R10_SNORM_PACK32, 0x80000000u).float32[3], -1.0f);  // 2-bit A = -2
}

TEST(FormatPack, SrgbKnownValues) {
  // linear 0.5 -> 1.055 * 0.5^(1/2.4) - 0.055 = 0.7354 -> 187.52 -> 188; alpha stays linear.
  EXPECT_EQ(pack_word(VK_FORMAT_R8G8B8A8_SRGB, floats(0.5f, 0.0f, 1.0f, 0.5f)), 0x80FF00BCu);
  EXPECT_EQ(pack_word(VK_FORMAT_R8_SRGB, floats(0.002f, 0, 0, 0)), 7u);  // linear segment: 0.02584 * 255 = 6.59
  const VkClearColorValue decoded = unpack_word(VK_FORMAT_B8G8R8A8_SRGB, 0x80BC0000u);
  EXPECT_NEAR(decoded.float32[0], 0.5029f, 1e-4);  // code 188 -> ((188/255 + 0.055) / 1.055)^2.4
  EXPECT_EQ(decoded.float32[1], 0.0f);
  EXPECT_FLOAT_EQ(decoded.float32[3], 128.0f / 255.0f);
  EXPECT_NEAR(srgb_to_linear(0.04045f), 0.04045f / 12.92f, 1e-9);
  EXPECT_NEAR(linear_to_srgb(0.0031308f), 0.0031308f * 12.92f, 1e-7);
  EXPECT_EQ(linear_to_srgb(2.0f), 1.0f);
}

TEST(FormatPack, ScaledAndIntegerKnownValues) {
  EXPECT_EQ(pack_word(VK_FORMAT_R8G8_USCALED, floats(3.4f, 300.0f, 0, 0)), 0xFF03u);
  EXPECT_EQ(pack_word(VK_FORMAT_R8G8_SSCALED, floats(-2.6f, -300.0f, 0, 0)), 0x80FDu);
  VkClearColorValue u{};
  u.uint32[0] = 0x1FF, u.uint32[1] = 70000, u.uint32[2] = 7, u.uint32[3] = 3;
  EXPECT_EQ(pack_word(VK_FORMAT_R8_UINT, u), 0xFFu);  // cast to the smaller type
  EXPECT_EQ(pack_word(VK_FORMAT_R16G16_UINT, u), (70000ull & 0xFFFF) << 16 | 0x1FF);
  EXPECT_EQ(pack_word(VK_FORMAT_A2B10G10R10_UINT_PACK32, u),
            3ull << 30 | 7ull << 20 | (70000ull & 0x3FF) << 10 | 0x1FF);
  VkClearColorValue s{};
  s.int32[0] = -1, s.int32[1] = -32768, s.int32[2] = 5, s.int32[3] = -2;
  EXPECT_EQ(pack_word(VK_FORMAT_R8_SINT, s), 0xFFu);
  EXPECT_EQ(pack_word(VK_FORMAT_R16G16_SINT, s), 0x8000FFFFu);
  EXPECT_EQ(pack_word(VK_FORMAT_A2B10G10R10_SINT_PACK32, s), 0x805003FFu);  // A=-2 (0b10), B=5, G=0, R=-1 (0x3FF)
  const VkClearColorValue back = unpack_word(VK_FORMAT_A2B10G10R10_SINT_PACK32, 0x805003FFu);
  EXPECT_EQ(back.int32[0], -1);
  EXPECT_EQ(back.int32[1], 0);
  EXPECT_EQ(back.int32[2], 5);
  EXPECT_EQ(back.int32[3], -2);
  EXPECT_EQ(unpack_word(VK_FORMAT_R8G8_SSCALED, 0x80FDu).float32[1], -128.0f);
}

// Clears of scaled formats come as integers (scaled_clear_value): R16G16_USCALED from uint32
// {6553, 32767} stores those integers, R8G8_SSCALED from int32 {-5, 100} stores -5 and 100; a UNORM
// format's float value is left alone.
TEST(FormatPack, ScaledClearValuesAreIntegers) {
  VkClearColorValue u{};
  u.uint32[0] = 6553, u.uint32[1] = 32767;
  EXPECT_EQ(pack_word(VK_FORMAT_R16G16_USCALED, scaled_clear_value(VK_FORMAT_R16G16_USCALED, u)), 32767ull << 16 | 6553);
  VkClearColorValue s{};
  s.int32[0] = -5, s.int32[1] = 100;
  EXPECT_EQ(pack_word(VK_FORMAT_R8G8_SSCALED, scaled_clear_value(VK_FORMAT_R8G8_SSCALED, s)), 100ull << 8 | 0xFB);
  VkClearColorValue b{};
  b.uint32[0] = 1, b.uint32[1] = 2, b.uint32[2] = 3, b.uint32[3] = 4;  // B8G8R8A8: B is memory byte 0
  EXPECT_EQ(pack_word(VK_FORMAT_B8G8R8A8_USCALED, scaled_clear_value(VK_FORMAT_B8G8R8A8_USCALED, b)), 0x04010203u);
  const VkClearColorValue f = floats(0.5f, 0.25f, 0, 1);
  EXPECT_EQ(scaled_clear_value(VK_FORMAT_R8G8B8A8_UNORM, f).float32[1], 0.25f);
}

TEST(FormatPack, HalfKnownValues) {
  EXPECT_EQ(float_to_half(1.0f), 0x3C00);
  EXPECT_EQ(float_to_half(-2.0f), 0xC000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7BFF);
  EXPECT_EQ(float_to_half(65519.99f), 0x7BFF);
  EXPECT_EQ(float_to_half(65520.0f), 0x7C00);  // halfway to 2^16 rounds to even: infinity
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -24)), 0x0001);  // smallest denormal
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);  // half of it: ties to even -> 0
  EXPECT_EQ(float_to_half(std::ldexp(3.0f, -26)), 0x0001);
  EXPECT_EQ(float_to_half(std::ldexp(1023.0f, -24) + std::ldexp(1.0f, -25)), 0x0400);  // carries into normal
  EXPECT_EQ(float_to_half(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half(1.0f / 3), 0x3555);
  EXPECT_EQ(float_to_half(-INFINITY), 0xFC00);
  EXPECT_EQ(float_to_half(1e-10f), 0x0000);
  const uint16_t nan = float_to_half(NAN);
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);
  EXPECT_EQ(half_to_float(0x3555), 0.333251953125f);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(pack_word(VK_FORMAT_R16G16B16A16_SFLOAT, floats(1, -2, 0.5f, 65504)), 0x7BFF'3800'C000'3C00ull);
}

TEST(FormatPack, PackedFloatKnownValues) {
  // B10G11R11 of 1.0: exponent 15 in each field -> R 0x3C0, G 0x3C0 << 11, B 0x1E0 << 22.
  EXPECT_EQ(pack_word(VK_FORMAT_B10G11R11_UFLOAT_PACK32, floats(1, 1, 1, 1)), 0x781E03C0u);
  // Negative values and -inf become 0; B gets the 10-bit infinity.
  EXPECT_EQ(pack_word(VK_FORMAT_B10G11R11_UFLOAT_PACK32, floats(-1, -INFINITY, INFINITY, 0)), 0x3E0ull << 22);
  EXPECT_EQ(float_to_ufloat(65024.0f, 11), 0x7BFu);  // largest finite 11-bit value
  EXPECT_EQ(float_to_ufloat(64512.0f, 10), 0x3DFu);  // largest finite 10-bit value
  EXPECT_EQ(float_to_ufloat(1e9f, 10), 0x3E0u);      // overflow -> infinity
  EXPECT_EQ(ufloat_to_float(0x3C0, 11), 1.0f);
  EXPECT_TRUE(std::isnan(ufloat_to_float(float_to_ufloat(NAN, 11), 11)));
  const uint32_t negative_nan = float_to_ufloat(-NAN, 10);  // no sign bit to set: still a 10-bit NaN
  EXPECT_LT(negative_nan, 1u << 10);
  EXPECT_TRUE(std::isnan(ufloat_to_float(negative_nan, 10)));

  // E5B9G9R9 of (1,1,1): exp' = floor(log2 1) + 16 = 16, mantissas 1.0 / 2^(16-15-9) = 256.
  EXPECT_EQ(pack_word(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(1, 1, 1, 1)), 0x84020100u);
  EXPECT_EQ(pack_word(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(1e9f, 0, 0, 0)), 0xF80001FFu);  // clamped to max
  EXPECT_EQ(pack_word(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(-1, NAN, 0, 0)), 0u);
  // 511.75: max_shared = floor(511.75 / 2^(24-24) + 0.5) = 512 -> exponent raised to 25, mantissa 256.
  EXPECT_EQ(pack_word(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(511.75f, 0.5f, 0, 0)), (25u << 27) | 256u);
  const VkClearColorValue decoded = unpack_word(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 0x84020100u);
  EXPECT_EQ(decoded.float32[0], 1.0f);
  EXPECT_EQ(decoded.float32[2], 1.0f);
  EXPECT_EQ(decoded.float32[3], 1.0f);
}

TEST(FormatPack, SixtyFourBitComponentsUseTwoElements) {
  VkClearColorValue v{};
  const double r = 1.5, g = -0.25;
  std::memcpy(&v.uint32[0], &r, 8);
  std::memcpy(&v.uint32[2], &g, 8);
  uint8_t texel[32];
  std::memset(texel, 0xAB, sizeof(texel));
  ASSERT_TRUE(pack_color(VK_FORMAT_R64G64B64A64_SFLOAT, v, texel));
  double stored[4];
  std::memcpy(stored, texel, sizeof(stored));
  EXPECT_EQ(stored[0], 1.5);
  EXPECT_EQ(stored[1], -0.25);
  EXPECT_EQ(stored[2], 0.0);  // B and A cannot be given in a VkClearColorValue
  EXPECT_EQ(stored[3], 0.0);

  const uint64_t big = 0x0123456789ABCDEFull;
  std::memcpy(&v.uint32[0], &big, 8);
  EXPECT_EQ(pack_word(VK_FORMAT_R64_UINT, v), big);
  const VkClearColorValue back = unpack_word(VK_FORMAT_R64_UINT, big);
  EXPECT_EQ(back.uint32[0], 0x89ABCDEFu);
  EXPECT_EQ(back.uint32[1], 0x01234567u);
  EXPECT_EQ(back.uint32[2], 0u);  // missing G = 0 (no A in the 64-bit view)
  EXPECT_EQ(back.uint32[3], 0u);
}

TEST(FormatPack, MissingChannelsReadAsZeroAndOne) {
  const VkClearColorValue unorm = unpack_word(VK_FORMAT_R8_UNORM, 0xFF);
  EXPECT_EQ(unorm.float32[0], 1.0f);
  EXPECT_EQ(unorm.float32[1], 0.0f);
  EXPECT_EQ(unorm.float32[2], 0.0f);
  EXPECT_EQ(unorm.float32[3], 1.0f);
  const VkClearColorValue uint = unpack_word(VK_FORMAT_R32G32_UINT, 0x0000000700000005ull);
  EXPECT_EQ(uint.uint32[0], 5u);
  EXPECT_EQ(uint.uint32[1], 7u);
  EXPECT_EQ(uint.uint32[2], 0u);
  EXPECT_EQ(uint.uint32[3], 1u);
  EXPECT_EQ(unpack_word(VK_FORMAT_R10X6_UNORM_PACK16, 0xFFFF).float32[3], 1.0f);
  EXPECT_EQ(unpack_word(VK_FORMAT_R10X6_UNORM_PACK16, 0x003F).float32[0], 0.0f);  // padding ignored
}

TEST(FormatPack, RejectsFormatsItDoesNotHandle) {
  uint8_t texel[16] = {};
  VkClearColorValue v{};
  float depth = 0;
  EXPECT_FALSE(pack_color(VK_FORMAT_BC1_RGB_UNORM_BLOCK, v, texel));
  EXPECT_FALSE(unpack_color(VK_FORMAT_ASTC_4x4_UNORM_BLOCK, texel, &v));
  EXPECT_FALSE(pack_color(VK_FORMAT_D24_UNORM_S8_UINT, v, texel));
  EXPECT_FALSE(pack_color(VK_FORMAT_UNDEFINED, v, texel));
  EXPECT_FALSE(pack_color(VK_FORMAT_G8B8G8R8_422_UNORM, v, texel));
  EXPECT_FALSE(pack_depth(VK_FORMAT_S8_UINT, 0.5f, texel));
  EXPECT_FALSE(pack_depth(VK_FORMAT_R32_SFLOAT, 0.5f, texel));
  EXPECT_FALSE(unpack_depth(VK_FORMAT_R16_UNORM, texel, &depth));
}

// --- Depth ------------------------------------------------------------------------------------

TEST(FormatPack, DepthKnownValues) {
  uint32_t word = 0xFFFFFFFF;
  ASSERT_TRUE(pack_depth(VK_FORMAT_D24_UNORM_S8_UINT, 1.0f, &word));
  EXPECT_EQ(word, 0x00FFFFFFu);  // 24-bit value in the low bits, upper byte 0
  ASSERT_TRUE(pack_depth(VK_FORMAT_X8_D24_UNORM_PACK32, 0.5f, &word));
  EXPECT_EQ(word, 0x800000u);  // 8388607.5 rounds to even
  ASSERT_TRUE(pack_depth(VK_FORMAT_X8_D24_UNORM_PACK32, -0.5f, &word));
  EXPECT_EQ(word, 0u);

  uint16_t d16[2] = {0xAAAA, 0xAAAA};
  ASSERT_TRUE(pack_depth(VK_FORMAT_D16_UNORM_S8_UINT, 2.0f, d16));
  EXPECT_EQ(d16[0], 0xFFFF);
  EXPECT_EQ(d16[1], 0xAAAA);  // writes exactly 2 bytes
  ASSERT_TRUE(pack_depth(VK_FORMAT_D16_UNORM, 0.25f, d16));
  EXPECT_EQ(d16[0], 16384);  // 16383.75

  float d32 = 0;
  ASSERT_TRUE(pack_depth(VK_FORMAT_D32_SFLOAT_S8_UINT, 2.5f, &d32));
  EXPECT_EQ(d32, 2.5f);  // SFLOAT depth is stored as given
  float out = 0;
  ASSERT_TRUE(unpack_depth(VK_FORMAT_D32_SFLOAT, &d32, &out));
  EXPECT_EQ(out, 2.5f);
  word = 0xFF800000u;  // garbage in the unused byte must be ignored
  ASSERT_TRUE(unpack_depth(VK_FORMAT_D24_UNORM_S8_UINT, &word, &out));
  EXPECT_FLOAT_EQ(out, 8388608.0f / 16777215.0f);
}

TEST(FormatPack, D24RoundTripsSampledCodes) {
  for (uint32_t code = 0; code <= 0xFFFFFF; code += (code < 0xFFFF00 ? 97 : 1)) {
    float depth = -1;
    ASSERT_TRUE(unpack_depth(VK_FORMAT_D24_UNORM_S8_UINT, &code, &depth));
    uint32_t again = 0xFFFFFFFF;
    ASSERT_TRUE(pack_depth(VK_FORMAT_D24_UNORM_S8_UINT, depth, &again));
    ASSERT_EQ(again, code) << "depth " << depth;
  }
}

// --- Scalar conversions against references -------------------------------------------------

TEST(FormatPack, UnormAndSnormRoundTripEveryCode) {
  for (uint32_t bits : {1u, 2u, 4u, 5u, 6u, 8u, 10u, 12u, 16u}) {
    const uint32_t max = (1u << bits) - 1;
    for (uint32_t code = 0; code <= max; ++code) {
      ASSERT_EQ(float_to_unorm(unorm_to_float(code, bits), bits), code) << bits << " bits";
      if (bits < 2) continue;
      const uint32_t most_negative = 1u << (bits - 1);
      const uint32_t expected = code == most_negative ? code + 1 : code;  // -2^(b-1) decodes to -1.0
      ASSERT_EQ(float_to_snorm(snorm_to_float(code, bits), bits), expected) << bits << " bits";
    }
  }
}

TEST(FormatPack, UnormRoundsToNearest) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> dist(-0.25f, 1.25f);
  for (uint32_t bits : {2u, 5u, 8u, 10u, 16u, 24u}) {
    const double max = (1u << bits) - 1;
    for (int i = 0; i < 2000; ++i) {
      const float f = dist(rng);
      const double exact = std::clamp<double>(f, 0.0, 1.0) * max;
      ASSERT_LE(std::abs(float_to_unorm(f, bits) - exact), 0.5) << f << " at " << bits << " bits";
    }
  }
}

TEST(FormatPack, SrgbEightBitRoundTripsAndIsMonotonic) {
  float previous = -1;
  for (uint32_t code = 0; code < 256; ++code) {
    uint64_t word = code;
    const float linear = unpack_word(VK_FORMAT_R8_SRGB, word).float32[0];
    EXPECT_GT(linear, previous);
    previous = linear;
    EXPECT_EQ(pack_word(VK_FORMAT_R8_SRGB, floats(linear, 0, 0, 0)), code);
    // Encoding picks the code whose sRGB value is nearest to the exact encoded value.
    const double l = linear, encoded = l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1 / 2.4) - 0.055;
    EXPECT_LE(std::abs(encoded * 255 - code), 0.5);
  }
}

// The 8-bit sRGB codes (read from R8_SRGB texels, and from block decoders as code / 255.0f) decode to
// the spec's formula in double precision, rounded once to float: bit for bit, though both go
// through tables. Values between the codes still decode by the formula.
TEST(FormatPack, SrgbEightBitCodesDecodeToTheFormula) {
  auto formula = [](double e) { return static_cast<float>(e <= 0.04045 ? e / 12.92 : std::pow((e + 0.055) / 1.055, 2.4)); };
  for (uint32_t code = 0; code < 256; ++code) {
    uint64_t word = code;
    EXPECT_EQ(unpack_word(VK_FORMAT_R8_SRGB, word).float32[0], formula(code / 255.0)) << code;
    const float encoded = static_cast<float>(code) / 255.0f;
    EXPECT_EQ(srgb_to_linear(encoded), formula(encoded)) << code;
    const float between = std::nextafter(encoded, 2.0f);
    if (code < 255) EXPECT_EQ(srgb_to_linear(between), formula(between)) << code << " + 1 ulp";
  }
  EXPECT_EQ(srgb_to_linear(0.3f), formula(0.3f));
}

// The value of a small-float code computed straight from the definition (KDFS "16-bit / unsigned
// 11-bit / unsigned 10-bit floating-point numbers"): 5-bit exponent, bias 15.
double reference_small_float(uint32_t code, uint32_t mantissa_bits) {
  const uint32_t e = (code >> mantissa_bits) & 31, m = code & ((1u << mantissa_bits) - 1);
  const double fraction = m / std::pow(2.0, mantissa_bits);
  return e == 0 ? std::pow(2.0, -14) * fraction : std::pow(2.0, int(e) - 15) * (1 + fraction);
}

// Checks an encoder against round-to-nearest-even over every finite non-negative code:
// every code encodes to itself, every midpoint between neighbours goes to the even one, and
// values just off the midpoint go to the nearer one. Overflow is at 2^16 (infinity's place).
template <typename Encode>
void check_round_to_nearest_even(uint32_t mantissa_bits, Encode encode) {
  const uint32_t infinity = 31u << mantissa_bits;
  std::vector<std::pair<double, uint32_t>> values;
  for (uint32_t code = 0; code < infinity; ++code) {
    values.emplace_back(reference_small_float(code, mantissa_bits), code);
  }
  values.emplace_back(65536.0, infinity);
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    const auto [low, low_code] = values[i];
    const auto [high, high_code] = values[i + 1];
    ASSERT_EQ(encode(static_cast<float>(low)), low_code);
    const float mid = static_cast<float>((low + high) / 2);  // exact: one more bit than the format
    ASSERT_EQ(encode(mid), (low_code & 1) == 0 ? low_code : high_code) << "midpoint " << mid;
    ASSERT_EQ(encode(std::nextafter(mid, 0.0f)), low_code) << "below midpoint " << mid;
    ASSERT_EQ(encode(std::nextafter(mid, INFINITY)), high_code) << "above midpoint " << mid;
  }
  ASSERT_EQ(encode(std::numeric_limits<float>::max()), infinity);
  ASSERT_EQ(encode(INFINITY), infinity);
}

TEST(FormatPack, HalfRoundsToNearestEven) {
  check_round_to_nearest_even(10, [](float f) { return uint32_t(float_to_half(f)); });
  check_round_to_nearest_even(10, [](float f) { return uint32_t(float_to_half(-f)) ^ 0x8000u; });  // sign symmetry
}

TEST(FormatPack, UnsignedSmallFloatsRoundToNearestEven) {
  check_round_to_nearest_even(6, [](float f) { return float_to_ufloat(f, 11); });
  check_round_to_nearest_even(5, [](float f) { return float_to_ufloat(f, 10); });
}

TEST(FormatPack, SmallFloatsDecodeEveryCode) {
  for (uint32_t code = 0; code < 0x10000; ++code) {
    const float f = half_to_float(static_cast<uint16_t>(code));
    if ((code & 0x7C00) == 0x7C00) {
      EXPECT_EQ(std::isnan(f), (code & 0x3FF) != 0) << std::hex << code;
      if (std::isnan(f)) EXPECT_TRUE(std::isnan(half_to_float(float_to_half(f))));
      else EXPECT_EQ(float_to_half(f), code);
      continue;
    }
    const double magnitude = reference_small_float(code & 0x7FFF, 10);
    ASSERT_EQ(f, (code & 0x8000) ? -magnitude : magnitude) << std::hex << code;
    ASSERT_EQ(float_to_half(f), code) << std::hex << code;
  }
  for (uint32_t bits : {10u, 11u}) {
    for (uint32_t code = 0; code < (31u << (bits - 5)); ++code)
      ASSERT_EQ(ufloat_to_float(code, bits), reference_small_float(code, bits - 5)) << bits << " bits " << code;
  }
}

TEST(FormatPack, SharedExponentRoundTripsEveryCanonicalTexel) {
  // A texel is canonical when its exponent is the smallest that holds the largest mantissa.
  std::mt19937 rng(99);
  for (uint32_t exp = 0; exp < 32; ++exp) {
    for (int i = 0; i < 300; ++i) {
      const uint32_t r = rng() & 511, g = rng() & 511, b = rng() & 511;
      const uint32_t texel = exp << 27 | b << 18 | g << 9 | r;
      float rgb[3];
      rgb9e5_to_rgb(texel, rgb);
      EXPECT_EQ(rgb[0], std::ldexp(float(r), int(exp) - 24));
      const uint32_t again = rgb_to_rgb9e5(rgb);
      float rgb_again[3];
      rgb9e5_to_rgb(again, rgb_again);
      ASSERT_EQ(std::memcmp(rgb, rgb_again, sizeof(rgb)), 0) << std::hex << texel;  // value preserved
      const bool canonical = exp == 0 || std::max({r, g, b}) >= 256;
      if (canonical) {
        ASSERT_EQ(again, texel) << std::hex << texel;
      }
    }
  }
}

// --- Every uncompressed colour format --------------------------------------------------------

bool is_uncompressed_color(const FormatInfo& info) {
  return !info.is_compressed() && info.aspects == VK_IMAGE_ASPECT_COLOR_BIT;
}

uint64_t test_read_bits(const uint8_t* texel, uint32_t offset, uint32_t bits) {  // bit by bit, on purpose
  uint64_t v = 0;
  for (uint32_t i = 0; i < bits; ++i) v |= uint64_t((texel[(offset + i) / 8] >> ((offset + i) % 8)) & 1) << i;
  return v;
}

void test_clear_bits(uint8_t* texel, uint32_t offset, uint32_t bits) {
  for (uint32_t i = 0; i < bits; ++i) texel[(offset + i) / 8] &= uint8_t(~(1u << ((offset + i) % 8)));
}

// A texel that decodes and re-encodes to the same bytes: no 16/11/10-bit NaNs (their payloads are
// not kept; 32- and 64-bit floats are copied bit for bit) and no most-negative SNORM code (it means
// -1.0 like the code above it).
bool is_canonical(const FormatInfo& info, const uint8_t* texel) {
  if (info.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) return false;  // checked on its own above
  uint32_t offset = 0;
  for (int i = 0; i < info.component_count; ++i) {
    const Component& c = info.components[i];
    const uint64_t raw = test_read_bits(texel, offset, c.bits);
    offset += c.bits;
    if (c.kind == NumericKind::SNorm && raw == 1ull << (c.bits - 1)) return false;
    const bool is_float = c.kind == NumericKind::SFloat || c.kind == NumericKind::UFloat;
    if (!is_float || c.bits >= 32) continue;
    const uint32_t mantissa_bits = c.bits == 16 ? 10 : c.bits - 5;
    const uint64_t exponent_mask = 31ull << mantissa_bits;
    if ((raw & exponent_mask) == exponent_mask && (raw & ((1ull << mantissa_bits) - 1)) != 0) return false;
  }
  return true;
}

// Values of two unpacked texels are the same, counting NaN as equal to NaN.
bool same_values(const FormatInfo& info, const VkClearColorValue& a, const VkClearColorValue& b) {
  const Component& first = info.components[info.components[0].channel == Channel::X ? 1 : 0];
  const bool float32_values = first.bits != 64 && first.kind != NumericKind::UInt && first.kind != NumericKind::SInt;
  for (int i = 0; i < 4; ++i) {
    if (float32_values && std::isnan(a.float32[i]) && std::isnan(b.float32[i])) continue;
    if (a.uint32[i] != b.uint32[i]) return false;
  }
  return true;
}

TEST(FormatPack, EveryUncompressedColorFormatRoundTrips) {
  std::mt19937 rng(2024);
  int formats = 0;
  for (const FormatInfo* info = format_table_begin(); info != format_table_end(); ++info) {
    if (!is_uncompressed_color(*info)) continue;
    SCOPED_TRACE(info->name);
    ++formats;
    for (int i = 0; i < 500; ++i) {
      uint8_t texel[32];
      for (uint8_t& byte : texel) byte = static_cast<uint8_t>(rng());
      uint32_t offset = 0;
      for (int c = 0; c < info->component_count; ++c) {
        // Padding bits must be zero, and a VkClearColorValue cannot carry a 64-bit B or A.
        const Component& comp = info->components[c];
        const bool unrepresentable = comp.bits == 64 && (comp.channel == Channel::B || comp.channel == Channel::A);
        if (comp.channel == Channel::X || unrepresentable) test_clear_bits(texel, offset, comp.bits);
        offset += comp.bits;
      }
      VkClearColorValue value{}, value_again{};
      ASSERT_TRUE(unpack_color(info->format, texel, &value));
      uint8_t repacked[32] = {};
      ASSERT_TRUE(pack_color(info->format, value, repacked));
      ASSERT_TRUE(unpack_color(info->format, repacked, &value_again));
      ASSERT_TRUE(same_values(*info, value, value_again)) << "texel " << i;
      if (is_canonical(*info, texel)) {
        ASSERT_EQ(std::memcmp(texel, repacked, info->block_bytes), 0) << "texel " << i;
      }
    }
  }
  EXPECT_EQ(formats, 184 - 7 /*depth/stencil*/ - 54 /*BC, ETC2, EAC, ASTC LDR*/ + 4 /*R10X6, R12X4*/ + 2 /*4444*/);
}

// Each channel lands in the component the table places it in: pack distinct values and read the
// components back with an independent bit reader.
TEST(FormatPack, ChannelsLandWhereTheTableSays) {
  for (const FormatInfo* info = format_table_begin(); info != format_table_end(); ++info) {
    if (!is_uncompressed_color(*info) || info->format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) continue;
    SCOPED_TRACE(info->name);
    VkClearColorValue value{};
    for (uint32_t i = 0; i < 4; ++i) {
      const NumericKind kind = info->components[0].kind;
      const bool integer = kind == NumericKind::UInt || kind == NumericKind::SInt;
      if (integer) value.uint32[i] = i + 1;
      else value.float32[i] = (i + 1) / 4.0f;  // 0.25, 0.5, 0.75, 1.0: exact in every float format
    }
    if (info->components[0].bits == 64) {
      for (uint32_t i = 0; i < 2; ++i) {
        const uint64_t raw = 0x1111111111111111ull * (i + 1);
        std::memcpy(&value.uint32[2 * i], &raw, 8);
      }
    }
    uint8_t texel[32] = {};
    ASSERT_TRUE(pack_color(info->format, value, texel));
    uint32_t offset = 0;
    for (int c = 0; c < info->component_count; ++c) {
      const Component& comp = info->components[c];
      const uint64_t raw = test_read_bits(texel, offset, comp.bits);
      offset += comp.bits;
      const uint32_t channel = static_cast<uint32_t>(comp.channel);
      const float f = (channel + 1) / 4.0f;
      const uint64_t expected_64bit = channel < 2 ? 0x1111111111111111ull * (channel + 1) : 0;  // B, A: not given
      uint64_t expected = 0;
      switch (comp.kind) {
        case NumericKind::None: expected = 0; break;
        case NumericKind::UNorm: expected = float_to_unorm(f, comp.bits); break;
        case NumericKind::SRGB: expected = float_to_unorm(linear_to_srgb(f), comp.bits); break;
        case NumericKind::SNorm: expected = float_to_snorm(f, comp.bits); break;
        case NumericKind::UScaled: case NumericKind::SScaled:
          expected = channel >= 2 ? 1 : 0;  // 0.25 -> 0, 0.5 -> 0 (ties to even), 0.75 -> 1, 1.0 -> 1
          break;
        case NumericKind::UInt: case NumericKind::SInt:
          expected = comp.bits == 64 ? expected_64bit : (channel + 1) & ((1ull << comp.bits) - 1);  // A2: 4 -> 0
          break;
        case NumericKind::SFloat:
          expected = comp.bits == 64 ? expected_64bit
                     : comp.bits == 32 ? std::bit_cast<uint32_t>(f) : float_to_half(f);
          break;
        case NumericKind::UFloat: expected = float_to_ufloat(f, comp.bits); break;
      }
      EXPECT_EQ(raw, expected) << "component " << c;
    }
  }
}

}  // namespace
}  // namespace kiln::fmt

namespace kiln::fmt {
namespace {

// Depth and stencil through the per-aspect interface that copies and blits use: every
// depth/stencil format keeps its aspects apart, and each aspect round-trips its codes.
TEST(FormatPack, DepthStencilAspectsRoundTrip) {
  const VkFormat formats[] = {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT,
                              VK_FORMAT_S8_UINT, VK_FORMAT_D16_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT,
                              VK_FORMAT_D32_SFLOAT_S8_UINT};
  for (VkFormat format : formats) {
    const FormatInfo* info = format_info(format);
    SCOPED_TRACE(info->name);
    if (info->has_stencil()) {
      EXPECT_EQ(value_class(format, VK_IMAGE_ASPECT_STENCIL_BIT), ValueClass::UInt);
      for (uint32_t s = 0; s < 256; ++s) {
        uint8_t texel = 0;
        VkClearColorValue v{};
        v.uint32[0] = s + 0x100;  // only the low 8 bits are stored
        ASSERT_TRUE(pack_aspect(format, VK_IMAGE_ASPECT_STENCIL_BIT, v, &texel));
        VkClearColorValue back{};
        ASSERT_TRUE(unpack_aspect(format, VK_IMAGE_ASPECT_STENCIL_BIT, &texel, &back));
        EXPECT_EQ(back.uint32[0], s);
        EXPECT_EQ(back.uint32[3], 1u);
      }
    } else {
      uint8_t texel = 0;
      EXPECT_FALSE(pack_stencil(format, 1, &texel));
    }
    if (!info->has_depth()) {
      float d;
      EXPECT_FALSE(unpack_depth(format, "\0\0\0\0", &d));
      continue;
    }
    EXPECT_EQ(value_class(format, VK_IMAGE_ASPECT_DEPTH_BIT), ValueClass::Float);
    const uint32_t bytes = aspect_texel_bytes(format, VK_IMAGE_ASPECT_DEPTH_BIT);
    const bool is_float = format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
    const uint32_t bits = bytes == 2 ? 16 : 24;
    // UNORM depth: every 16-bit code and a spread of 24-bit codes survive unpack -> pack.
    for (uint32_t code = 0; !is_float && code < (1u << bits); code += bits == 16 ? 1 : 4099) {
      uint32_t texel = code, again = 0;
      VkClearColorValue v{};
      ASSERT_TRUE(unpack_aspect(format, VK_IMAGE_ASPECT_DEPTH_BIT, &texel, &v));
      ASSERT_EQ(v.float32[3], 1.0f);
      ASSERT_TRUE(pack_aspect(format, VK_IMAGE_ASPECT_DEPTH_BIT, v, &again));
      ASSERT_EQ(again, code) << code;
    }
    // Known values: 0.5 -> round(0.5 * (2^b - 1)) (ties to even), out-of-range clamps for UNORM.
    uint32_t texel = 0;
    ASSERT_TRUE(pack_depth(format, 0.5f, &texel));
    EXPECT_EQ(texel, is_float ? 0x3F000000u : bits == 16 ? 32768u : 8388608u);
    texel = 0;
    ASSERT_TRUE(pack_depth(format, 2.0f, &texel));
    if (!is_float) {
      EXPECT_EQ(texel, (1u << bits) - 1);
    }
  }
}

TEST(FormatPack, ValueClassFollowsTheNumericKind) {
  EXPECT_EQ(value_class(VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_ASPECT_COLOR_BIT), ValueClass::UInt);
  EXPECT_EQ(value_class(VK_FORMAT_A2B10G10R10_SINT_PACK32, VK_IMAGE_ASPECT_COLOR_BIT), ValueClass::SInt);
  EXPECT_EQ(value_class(VK_FORMAT_R64_SINT, VK_IMAGE_ASPECT_COLOR_BIT), ValueClass::SInt);
  EXPECT_EQ(value_class(VK_FORMAT_R8G8B8A8_SSCALED, VK_IMAGE_ASPECT_COLOR_BIT), ValueClass::Float);
  EXPECT_EQ(value_class(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, VK_IMAGE_ASPECT_COLOR_BIT), ValueClass::Float);
  EXPECT_EQ(value_class(VK_FORMAT_BC7_SRGB_BLOCK, VK_IMAGE_ASPECT_COLOR_BIT), ValueClass::Float);
}

}  // namespace
}  // namespace kiln::fmt
