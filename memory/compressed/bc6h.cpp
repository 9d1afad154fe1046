// BC6H blocks: Khronos Data Format Specification, "BPTC Compressed Texture Image Formats" (BC6H).
// Bit-exact to the specification's integer pipeline; the final 16-bit pattern is a half float.
#include "memory/compressed/block_decoders.h"
#include "memory/compressed/bptc_partitions.h"
#include "memory/format_pack.h"

namespace kiln::fmt::compressed {
namespace {

// Fields of the bit layout: the mode bits, R0..R3, G0..G3, B0..B3 and the partition bits.
enum Field : uint8_t { M = 0, R0 = 1, G0 = 5, B0 = 9, PB = 13, kFieldCount = 14 };

// One run of block bits: consecutive block bits go to bits b, b +/- 1, ..., a of `field` (the
// specification's v^a..b notation, read LSB first).
struct Segment {
  uint8_t field, a, b;
};

struct Bc6hLayout {
  uint8_t number;
  Segment segments[25];  // unused entries are {0, 0, 0}
};

constexpr Bc6hLayout kLayouts[] = {
#include "memory/compressed/bc6h_layout.inc"
};

struct ModeParameters {
  uint8_t number;
  bool transformed;
  uint8_t partition_bits;
  uint8_t endpoint_bits;
  uint8_t delta_bits[3];
};
// "Endpoint and partition parameters for BPTC block modes".
constexpr ModeParameters kParameters[] = {
    {0, true, 5, 10, {5, 5, 5}},  {1, true, 5, 7, {6, 6, 6}},      {2, true, 5, 11, {5, 4, 4}},
    {6, true, 5, 11, {4, 5, 4}},  {10, true, 5, 11, {4, 4, 5}},    {14, true, 5, 9, {5, 5, 5}},
    {18, true, 5, 8, {6, 5, 5}},  {22, true, 5, 8, {5, 6, 5}},     {26, true, 5, 8, {5, 5, 6}},
    {30, false, 5, 6, {6, 6, 6}}, {3, false, 0, 10, {10, 10, 10}}, {7, true, 0, 11, {9, 9, 9}},
    {11, true, 0, 12, {8, 8, 8}}, {15, true, 0, 16, {4, 4, 4}},
};

int32_t sign_extend(uint32_t v, uint32_t bits) {
  const uint32_t sign = 1u << (bits - 1);
  return static_cast<int32_t>((v & ((sign << 1) - 1)) ^ sign) - static_cast<int32_t>(sign);
}

int32_t unquantize(int32_t x, uint32_t bits, bool is_signed) {
  if (!is_signed) {
    if (bits >= 15) return x;
    if (x == 0) return 0;
    if (x == (1 << bits) - 1) return 0xFFFF;
    return ((x << 15) + 0x4000) >> (bits - 1);
  }
  if (bits >= 16) return x;
  const bool negative = x < 0;
  if (negative) x = -x;
  int32_t unq;
  if (x == 0) unq = 0;
  else if (x >= (1 << (bits - 1)) - 1) unq = 0x7FFF;
  else unq = ((x << 15) + 0x4000) >> (bits - 1);
  return negative ? -unq : unq;
}

uint16_t finish(int32_t i, bool is_signed) {
  if (!is_signed) return static_cast<uint16_t>((i * 31) >> 6);
  return static_cast<uint16_t>(i < 0 ? (((-i) * 31) >> 5) | 0x8000 : (i * 31) >> 5);
}

}  // namespace

void decode_bc6h(const uint8_t* block, bool is_signed, Texels out) {
  const uint32_t low2 = block[0] & 3;
  const uint32_t mode = low2 < 2 ? low2 : (block[0] & 31);
  const Bc6hLayout* layout = nullptr;
  const ModeParameters* params = nullptr;
  for (const auto& l : kLayouts)
    if (l.number == mode) layout = &l;
  for (const auto& p : kParameters)
    if (p.number == mode) params = &p;
  if (!layout || !params) {  // reserved mode numbers decode to (0, 0, 0, 1)
    for (uint32_t i = 0; i < 16; ++i) set_texel(out, i, 0, 0, 0, 1);
    return;
  }

  uint32_t fields[kFieldCount] = {};
  uint32_t pos = 0;
  for (const Segment& s : layout->segments) {
    if (s.field == M && s.a == 0 && s.b == 0) break;  // end of the list (mode bits always come first)
    const int count = s.a >= s.b ? s.a - s.b + 1 : s.b - s.a + 1;
    const int step = s.a >= s.b ? 1 : -1;
    for (int k = 0; k < count; ++k) fields[s.field] |= read_bits(block, pos++, 1) << (s.b + step * k);
  }

  const uint32_t subsets = params->partition_bits ? 2 : 1;
  const uint32_t partition = fields[PB];
  const uint32_t ep_bits = params->endpoint_bits;
  int32_t endpoints[4][3];  // [endpoint][channel]
  for (uint32_t ch = 0; ch < 3; ++ch) {
    const uint32_t base_field = ch == 0 ? R0 : ch == 1 ? G0 : B0;
    const uint32_t mask = (1u << ep_bits) - 1;
    const uint32_t e0 = fields[base_field];
    endpoints[0][ch] = is_signed ? sign_extend(e0, ep_bits) : static_cast<int32_t>(e0);
    for (uint32_t e = 1; e < 2 * subsets; ++e) {
      const uint32_t raw = fields[base_field + e];
      // Transformed endpoints are signed offsets from E0, wrapped to the endpoint width.
      uint32_t value = raw;
      if (params->transformed) value = (e0 + static_cast<uint32_t>(sign_extend(raw, params->delta_bits[ch]))) & mask;
      endpoints[e][ch] = is_signed ? sign_extend(value, ep_bits) : static_cast<int32_t>(value);
    }
    for (uint32_t e = 0; e < 2 * subsets; ++e) endpoints[e][ch] = unquantize(endpoints[e][ch], ep_bits, is_signed);
  }

  const uint32_t index_bits = subsets == 2 ? 3 : 4;
  pos = subsets == 2 ? 82 : 65;
  for (uint32_t i = 0; i < 16; ++i) {
    const bool anchor = i == 0 || (subsets == 2 && i == kAnchor2[partition]);
    const uint32_t bits = index_bits - (anchor ? 1 : 0);
    const uint32_t index = read_bits(block, pos, bits);
    pos += bits;
    const int32_t w = static_cast<int32_t>(index_bits == 3 ? index * 9 + (index >> 2)
                                                           : (index << 2) + (index >> 2) + ((index >> 1) & 1));
    const uint32_t s = subsets == 2 ? (kPartitions2[partition] >> (2 * i)) & 3 : 0;
    float rgb[3];
    for (uint32_t ch = 0; ch < 3; ++ch) {
      const int32_t a = endpoints[2 * s][ch], b = endpoints[2 * s + 1][ch];
      rgb[ch] = half_to_float(finish((a * (64 - w) + b * w + 32) >> 6, is_signed));
    }
    set_texel(out, i, rgb[0], rgb[1], rgb[2], 1.0f);
  }
}

}  // namespace kiln::fmt::compressed
