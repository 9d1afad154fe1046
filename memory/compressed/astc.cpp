// ASTC blocks in the LDR profile (2D): Khronos Data Format Specification, "ASTC Compressed Texture
// Image Formats". Invalid blocks and HDR content decode to the error colour, opaque magenta.
// Linear LDR results follow decode_float16 (UNORM16 / 65536 rounded toward zero to FP16, 65535 ->
// 1.0); sRGB results are the top 8 bits of the UNORM16 value.
#include <algorithm>
#include <bit>
#include <cstring>

#include "memory/compressed/block_decoders.h"

namespace kiln::fmt::compressed {
namespace {

constexpr uint32_t kMaxWeights = 64;

// A value range of the integer sequence encoding: trits or quints (at most one) plus `bits` bits.
struct Range {
  uint8_t trits, quints, bits;
  uint32_t max() const { return (trits ? 3u : quints ? 5u : 1u) * (1u << bits) - 1; }
};

uint32_t ise_bit_count(uint32_t count, Range r) {
  return (count * 8 * r.trits + 4) / 5 + (count * 7 * r.quints + 2) / 3 + count * r.bits;
}

// Colour endpoint ranges, largest first ("Data Size Determination").
constexpr Range kColorRanges[] = {{0, 0, 8}, {1, 0, 6}, {0, 1, 5}, {0, 0, 7}, {1, 0, 5}, {0, 1, 4}, {0, 0, 6},
                                  {1, 0, 4}, {0, 1, 3}, {0, 0, 5}, {1, 0, 3}, {0, 1, 2}, {0, 0, 4}, {1, 0, 2},
                                  {0, 1, 1}, {0, 0, 3}, {1, 0, 1}};

// Weight ranges by (P, rho) ("ASTC weight range encodings"); rho 0 and 1 are invalid.
constexpr Range kWeightRanges[2][8] = {
    {{}, {}, {0, 0, 1}, {1, 0, 0}, {0, 0, 2}, {0, 1, 0}, {1, 0, 1}, {0, 0, 3}},
    {{}, {}, {0, 1, 1}, {1, 0, 2}, {0, 0, 4}, {0, 1, 2}, {1, 0, 3}, {0, 0, 5}},
};

// The block's 128 bits as a little-endian bit string.
struct Bits {
  uint8_t bytes[16];
  uint32_t get(uint32_t offset, uint32_t count) const { return read_bits(bytes, offset, count); }
};

// Decodes `count` values of range `r` from the bit string starting at `offset`. The sequence is
// exactly ise_bit_count(count, r) bits long: a final trit or quint block with fewer than 5 or 3
// values has its missing high bits read as 0 ("Integer Sequence Encoding"), not taken from
// whatever field follows the sequence in the block.
void decode_ise(const uint8_t* data, uint32_t offset, uint32_t count, Range r, uint8_t* out) {
  const uint32_t end = offset + ise_bit_count(count, r);
  auto take = [&](uint32_t& pos, uint32_t n) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < n; ++i, ++pos)
      if (pos < end) v |= read_bits(data, pos, 1) << i;
    return v;
  };
  uint32_t pos = offset;
  if (r.trits) {
    for (uint32_t first = 0; first < count; first += 5) {
      uint32_t m[5], t = 0;
      const uint32_t n = r.bits;
      // m0 T0..1 m1 T2..3 m2 T4 m3 T5..6 m4 T7
      static constexpr uint8_t kTritBits[5] = {2, 2, 1, 2, 1};
      uint32_t tpos = 0;
      for (int k = 0; k < 5; ++k) {
        m[k] = take(pos, n);
        t |= take(pos, kTritBits[k]) << tpos;
        tpos += kTritBits[k];
      }
      uint32_t tr[5], c;
      if (((t >> 2) & 7) == 7) {
        c = (((t >> 5) & 7) << 2) | (t & 3);
        tr[4] = tr[3] = 2;
      } else {
        c = t & 31;
        if (((t >> 5) & 3) == 3) tr[4] = 2, tr[3] = (t >> 7) & 1;
        else tr[4] = (t >> 7) & 1, tr[3] = (t >> 5) & 3;
      }
      if ((c & 3) == 3) {
        tr[2] = 2, tr[1] = (c >> 4) & 1, tr[0] = (((c >> 3) & 1) << 1) | (((c >> 2) & 1) & ~((c >> 3) & 1));
      } else if (((c >> 2) & 3) == 3) {
        tr[2] = 2, tr[1] = 2, tr[0] = c & 3;
      } else {
        tr[2] = (c >> 4) & 1, tr[1] = (c >> 2) & 3, tr[0] = (((c >> 1) & 1) << 1) | ((c & 1) & ~((c >> 1) & 1));
      }
      for (uint32_t k = 0; k < 5 && first + k < count; ++k) out[first + k] = static_cast<uint8_t>((tr[k] << n) | m[k]);
    }
  } else if (r.quints) {
    for (uint32_t first = 0; first < count; first += 3) {
      uint32_t m[3], q = 0;
      const uint32_t n = r.bits;
      static constexpr uint8_t kQuintBits[3] = {3, 2, 2};
      uint32_t qpos = 0;
      for (int k = 0; k < 3; ++k) {
        m[k] = take(pos, n);
        q |= take(pos, kQuintBits[k]) << qpos;
        qpos += kQuintBits[k];
      }
      uint32_t qu[3];
      if (((q >> 1) & 3) == 3 && ((q >> 5) & 3) == 0) {
        const uint32_t q0 = q & 1;
        qu[2] = (q0 << 2) | ((((q >> 4) & 1) & ~q0) << 1) | (((q >> 3) & 1) & ~q0);
        qu[1] = qu[0] = 4;
      } else {
        uint32_t c;
        if (((q >> 1) & 3) == 3) {
          qu[2] = 4;
          c = (((q >> 3) & 3) << 3) | ((~(q >> 5) & 3) << 1) | (q & 1);
        } else {
          qu[2] = (q >> 5) & 3;
          c = q & 31;
        }
        if ((c & 7) == 5) qu[1] = 4, qu[0] = (c >> 3) & 3;
        else qu[1] = (c >> 3) & 3, qu[0] = c & 7;
      }
      for (uint32_t k = 0; k < 3 && first + k < count; ++k) out[first + k] = static_cast<uint8_t>((qu[k] << n) | m[k]);
    }
  } else {
    for (uint32_t k = 0; k < count; ++k) out[k] = static_cast<uint8_t>(take(pos, r.bits));
  }
}

// "Endpoint Unquantization": a value of range `r` -> 0..255.
uint32_t unquantize_color(uint32_t v, Range r) {
  if (!r.trits && !r.quints) {  // bit replication
    uint32_t out = 0;
    for (int shift = 8 - r.bits; shift > -static_cast<int>(r.bits); shift -= r.bits)
      out |= shift >= 0 ? v << shift : v >> -shift;
    return out & 0xFF;
  }
  const uint32_t n = r.bits;
  const uint32_t m = v & ((1u << n) - 1), d = v >> n;
  const uint32_t a = (m & 1) ? 0x1FF : 0;
  auto bit = [&](int i) { return (m >> i) & 1; };
  uint32_t b = 0, c = 0;
  if (r.trits) {
    switch (n) {
      case 1: c = 204; break;
      case 2: b = bit(1) * 0x116; c = 93; break;  // b000b0bb0
      case 3: b = (bit(2) << 8) | (bit(1) << 7) | (bit(2) << 3) | (bit(1) << 2) | (bit(2) << 1) | bit(1); c = 44; break;
      case 4: b = (bit(3) << 8) | (bit(2) << 7) | (bit(1) << 6) | (bit(3) << 2) | (bit(2) << 1) | bit(1); c = 22; break;
      case 5:
        b = (bit(4) << 8) | (bit(3) << 7) | (bit(2) << 6) | (bit(1) << 5) | (bit(4) << 1) | bit(3);
        c = 11;
        break;
      default:
        b = (bit(5) << 8) | (bit(4) << 7) | (bit(3) << 6) | (bit(2) << 5) | (bit(1) << 4) | bit(5);
        c = 5;
        break;
    }
  } else {
    switch (n) {
      case 1: c = 113; break;
      case 2: b = bit(1) * 0x10C; c = 54; break;  // b0000bb00
      case 3: b = (bit(2) << 8) | (bit(1) << 7) | (bit(2) << 2) | (bit(1) << 1) | bit(2); c = 26; break;
      case 4: b = (bit(3) << 8) | (bit(2) << 7) | (bit(1) << 6) | (bit(3) << 1) | bit(2); c = 13; break;
      default: b = (bit(4) << 8) | (bit(3) << 7) | (bit(2) << 6) | (bit(1) << 5) | bit(4); c = 6; break;
    }
  }
  uint32_t unq = d * c + b;
  unq ^= a;
  return ((a & 0x80) | (unq >> 2)) & 0xFF;
}

// "Weight Unquantization": a value of range `r` -> 0..64.
uint32_t unquantize_weight(uint32_t v, Range r) {
  uint32_t unq;
  if (!r.trits && !r.quints) {
    unq = 0;
    for (int shift = 6 - r.bits; shift > -static_cast<int>(r.bits); shift -= r.bits)
      unq |= shift >= 0 ? v << shift : v >> -shift;
    unq &= 0x3F;
  } else if (r.bits == 0) {
    static constexpr uint8_t kTrit[3] = {0, 32, 63}, kQuint[5] = {0, 16, 32, 47, 63};
    unq = r.trits ? kTrit[v] : kQuint[v];
  } else {
    const uint32_t n = r.bits;
    const uint32_t m = v & ((1u << n) - 1), d = v >> n;
    const uint32_t a = (m & 1) ? 0x7F : 0;
    auto bit = [&](int i) { return (m >> i) & 1; };
    uint32_t b = 0, c = 0;
    if (r.trits) {
      if (n == 1) c = 50;
      else if (n == 2) b = (bit(1) << 6) | (bit(1) << 2) | bit(1), c = 23;
      else b = (bit(2) << 6) | (bit(1) << 5) | (bit(2) << 1) | bit(1), c = 11;
    } else {
      if (n == 1) c = 28;
      else b = (bit(1) << 6) | (bit(1) << 1), c = 13;
    }
    unq = d * c + b;
    unq ^= a;
    unq = (a & 0x20) | (unq >> 2);
  }
  return unq > 32 ? unq + 1 : unq;
}

uint32_t hash52(uint32_t p) {
  p ^= p >> 15; p -= p << 17; p += p << 7; p += p << 4;
  p ^= p >> 5;  p += p << 16; p ^= p >> 7; p ^= p >> 3;
  p ^= p << 6;  p ^= p >> 17;
  return p;
}

uint32_t select_partition(int seed, int x, int y, int z, int partition_count, bool small_block) {
  if (small_block) x <<= 1, y <<= 1, z <<= 1;
  seed += (partition_count - 1) * 1024;
  const uint32_t rnum = hash52(static_cast<uint32_t>(seed));
  uint8_t s[12] = {
      static_cast<uint8_t>(rnum & 0xF),         static_cast<uint8_t>((rnum >> 4) & 0xF),
      static_cast<uint8_t>((rnum >> 8) & 0xF),  static_cast<uint8_t>((rnum >> 12) & 0xF),
      static_cast<uint8_t>((rnum >> 16) & 0xF), static_cast<uint8_t>((rnum >> 20) & 0xF),
      static_cast<uint8_t>((rnum >> 24) & 0xF), static_cast<uint8_t>((rnum >> 28) & 0xF),
      static_cast<uint8_t>((rnum >> 18) & 0xF), static_cast<uint8_t>((rnum >> 22) & 0xF),
      static_cast<uint8_t>((rnum >> 26) & 0xF), static_cast<uint8_t>(((rnum >> 30) | (rnum << 2)) & 0xF)};
  for (uint8_t& v : s) v = static_cast<uint8_t>(v * v);
  int sh1, sh2;
  if (seed & 1) {
    sh1 = (seed & 2) ? 4 : 5;
    sh2 = partition_count == 3 ? 6 : 5;
  } else {
    sh1 = partition_count == 3 ? 6 : 5;
    sh2 = (seed & 2) ? 4 : 5;
  }
  const int sh3 = (seed & 0x10) ? sh1 : sh2;
  for (int i = 0; i < 8; ++i) s[i] = static_cast<uint8_t>(s[i] >> ((i % 2) ? sh2 : sh1));
  for (int i = 8; i < 12; ++i) s[i] = static_cast<uint8_t>(s[i] >> sh3);
  int a = (s[0] * x + s[1] * y + s[10] * z + static_cast<int>(rnum >> 14)) & 0x3F;
  int b = (s[2] * x + s[3] * y + s[11] * z + static_cast<int>(rnum >> 10)) & 0x3F;
  int c = (s[4] * x + s[5] * y + s[8] * z + static_cast<int>(rnum >> 6)) & 0x3F;
  int d = (s[6] * x + s[7] * y + s[9] * z + static_cast<int>(rnum >> 2)) & 0x3F;
  if (partition_count < 4) d = 0;
  if (partition_count < 3) c = 0;
  if (a >= b && a >= c && a >= d) return 0;
  if (b >= c && b >= d) return 1;
  if (c >= d) return 2;
  return 3;
}

void bit_transfer_signed(int& a, int& b) {
  b >>= 1;
  b |= a & 0x80;
  a >>= 1;
  a &= 0x3F;
  if (a & 0x20) a -= 0x40;
}

struct Color {
  int c[4];
};
Color blue_contract(int r, int g, int b, int a) { return {{(r + b) >> 1, (g + b) >> 1, b, a}}; }
void clamp_unorm8(Color& c) {
  for (int& v : c.c) v = std::clamp(v, 0, 255);
}

// "LDR Endpoint Decoding". False for HDR endpoint modes (error colour in LDR).
bool decode_endpoints(uint32_t cem, const uint32_t* v, Color* e0, Color* e1) {
  int x[8];
  for (int i = 0; i < 8; ++i) x[i] = static_cast<int>(v[i]);
  switch (cem) {
    case 0:
      *e0 = {{x[0], x[0], x[0], 0xFF}}, *e1 = {{x[1], x[1], x[1], 0xFF}};
      return true;
    case 1: {
      const int l0 = (x[0] >> 2) | (x[1] & 0xC0);
      const int l1 = std::min(l0 + (x[1] & 0x3F), 0xFF);
      *e0 = {{l0, l0, l0, 0xFF}}, *e1 = {{l1, l1, l1, 0xFF}};
      return true;
    }
    case 4:
      *e0 = {{x[0], x[0], x[0], x[2]}}, *e1 = {{x[1], x[1], x[1], x[3]}};
      return true;
    case 5:
      bit_transfer_signed(x[1], x[0]);
      bit_transfer_signed(x[3], x[2]);
      *e0 = {{x[0], x[0], x[0], x[2]}};
      *e1 = {{x[0] + x[1], x[0] + x[1], x[0] + x[1], x[2] + x[3]}};
      clamp_unorm8(*e0), clamp_unorm8(*e1);
      return true;
    case 6:
      *e0 = {{x[0] * x[3] >> 8, x[1] * x[3] >> 8, x[2] * x[3] >> 8, 0xFF}};
      *e1 = {{x[0], x[1], x[2], 0xFF}};
      return true;
    case 8:
    case 12: {
      const int a0 = cem == 12 ? x[6] : 0xFF, a1 = cem == 12 ? x[7] : 0xFF;
      if (x[1] + x[3] + x[5] >= x[0] + x[2] + x[4]) {
        *e0 = {{x[0], x[2], x[4], a0}}, *e1 = {{x[1], x[3], x[5], a1}};
      } else {
        *e0 = blue_contract(x[1], x[3], x[5], a1), *e1 = blue_contract(x[0], x[2], x[4], a0);
      }
      return true;
    }
    case 9:
    case 13: {
      bit_transfer_signed(x[1], x[0]);
      bit_transfer_signed(x[3], x[2]);
      bit_transfer_signed(x[5], x[4]);
      int a0 = 0xFF, a1 = 0xFF;
      if (cem == 13) {
        bit_transfer_signed(x[7], x[6]);
        a0 = x[6], a1 = x[6] + x[7];
      }
      if (x[1] + x[3] + x[5] >= 0) {
        *e0 = {{x[0], x[2], x[4], a0}};
        *e1 = {{x[0] + x[1], x[2] + x[3], x[4] + x[5], a1}};
      } else {
        *e0 = blue_contract(x[0] + x[1], x[2] + x[3], x[4] + x[5], a1);
        *e1 = blue_contract(x[0], x[2], x[4], a0);
      }
      clamp_unorm8(*e0), clamp_unorm8(*e1);
      return true;
    }
    case 10:
      *e0 = {{x[0] * x[3] >> 8, x[1] * x[3] >> 8, x[2] * x[3] >> 8, x[4]}};
      *e1 = {{x[0], x[1], x[2], x[5]}};
      return true;
    default:
      return false;  // 2, 3, 7, 11, 14, 15: HDR
  }
}

// The final value of one UNORM16 channel.
float finish_channel(uint32_t c16, bool srgb) {
  if (srgb) return (c16 >> 8) / 255.0f;
  if (c16 == 65535) return 1.0f;
  // c16 / 65536 rounded toward zero to FP16: keep the float's top 10 mantissa bits (values below
  // FP16's normal range, c16 < 4, are exact).
  const uint32_t bits = std::bit_cast<uint32_t>(c16 / 65536.0f) & ~0x1FFFu;
  return std::bit_cast<float>(bits);
}

void fill_error(uint32_t texels, Texels out) {
  for (uint32_t i = 0; i < texels; ++i) set_texel(out, i, 1, 0, 1, 1);
}

struct BlockMode {
  uint32_t grid_w, grid_h;
  bool dual_plane;
  Range weights;
};

// "Block Mode" for 2D blocks; false for reserved modes.
bool decode_block_mode(uint32_t m, BlockMode* out) {
  auto field = [&](int lo, int n) { return (m >> lo) & ((1u << n) - 1); };
  uint32_t rho, w, h;
  bool high_precision = field(9, 1), dual = field(10, 1);
  if (field(0, 2) != 0) {
    rho = field(4, 1) | (field(0, 1) << 1) | (field(1, 1) << 2);
    switch (field(2, 2)) {
      case 0: w = field(7, 2) + 4, h = field(5, 2) + 2; break;
      case 1: w = field(7, 2) + 8, h = field(5, 2) + 2; break;
      case 2: w = field(5, 2) + 2, h = field(7, 2) + 8; break;
      default:
        if (field(8, 1) == 0) w = field(5, 2) + 2, h = field(7, 1) + 6;
        else w = field(7, 1) + 2, h = field(5, 2) + 2;
        break;
    }
  } else {
    rho = field(4, 1) | (field(2, 1) << 1) | (field(3, 1) << 2);
    if (field(2, 2) == 0) return false;  // rho < 2: reserved
    switch (field(7, 2)) {
      case 0: w = 12, h = field(5, 2) + 2; break;
      case 1: w = field(5, 2) + 2, h = 12; break;
      case 2:
        w = field(5, 2) + 6, h = field(9, 2) + 6;
        high_precision = false, dual = false;
        break;
      default:
        if (field(5, 2) == 0) w = 6, h = 10;
        else if (field(5, 2) == 1) w = 10, h = 6;
        else return false;  // void extent is handled by the caller; the rest is reserved
        break;
    }
  }
  *out = {w, h, dual, kWeightRanges[high_precision][rho]};
  return true;
}

void decode_void_extent(const Bits& bits, uint32_t texels, bool srgb, Texels out) {
  // Bit 9: HDR (FP16 colour) is an error in LDR; bits 10 and 11 must be 1.
  if (bits.get(9, 1) || bits.get(10, 2) != 3) return fill_error(texels, out);
  float c[4];
  for (int i = 0; i < 4; ++i) c[i] = finish_channel(bits.get(64 + 16 * i, 16), srgb);
  for (uint32_t i = 0; i < texels; ++i) set_texel(out, i, c[0], c[1], c[2], c[3]);
}

}  // namespace

void decode_astc_ldr(const uint8_t* block, uint32_t width, uint32_t height, bool srgb, Texels out) {
  Bits bits;
  std::memcpy(bits.bytes, block, 16);
  const uint32_t texel_count = width * height;
  if (bits.get(0, 9) == 0x1FC) return decode_void_extent(bits, texel_count, srgb, out);

  BlockMode mode;
  if (!decode_block_mode(bits.get(0, 11), &mode)) return fill_error(texel_count, out);
  const uint32_t partitions = bits.get(11, 2) + 1;
  const uint32_t planes = mode.dual_plane ? 2 : 1;
  const uint32_t weight_count = mode.grid_w * mode.grid_h * planes;
  const uint32_t weight_bits = ise_bit_count(weight_count, mode.weights);
  if (weight_count > kMaxWeights || weight_bits < 24 || weight_bits > 96 || mode.grid_w > width ||
      mode.grid_h > height || (partitions == 4 && mode.dual_plane))
    return fill_error(texel_count, out);

  // Colour endpoint modes.
  uint32_t cems[4];
  uint32_t config_bits = 17, extra_cem_bits = 0;
  if (partitions == 1) {
    cems[0] = bits.get(13, 4);
  } else {
    config_bits = 29;
    const uint32_t cem_field = bits.get(23, 6);
    if ((cem_field & 3) == 0) {
      for (uint32_t p = 0; p < partitions; ++p) cems[p] = cem_field >> 2;
    } else {
      extra_cem_bits = 3 * partitions - 4;
      const uint32_t extra = bits.get(128 - weight_bits - extra_cem_bits, extra_cem_bits);
      const uint32_t encoded = (cem_field >> 2) | (extra << 4);
      const uint32_t base_class = (cem_field & 3) - 1;
      for (uint32_t p = 0; p < partitions; ++p) {
        const uint32_t class_bit = (encoded >> p) & 1;
        const uint32_t low = (encoded >> (partitions + 2 * p)) & 3;
        cems[p] = ((base_class + class_bit) << 2) | low;
      }
    }
  }
  uint32_t color_value_count = 0;
  for (uint32_t p = 0; p < partitions; ++p) color_value_count += 2 * ((cems[p] >> 2) + 1);
  const uint32_t plane_selector_bits = mode.dual_plane ? 2 : 0;
  const int remaining = 128 - static_cast<int>(config_bits + extra_cem_bits + plane_selector_bits + weight_bits);
  if (color_value_count > 18 || remaining < static_cast<int>((13 * color_value_count + 4) / 5))
    return fill_error(texel_count, out);
  Range color_range{};
  for (const Range& r : kColorRanges) {
    if (static_cast<int>(ise_bit_count(color_value_count, r)) <= remaining) {
      color_range = r;
      break;
    }
  }
  const uint32_t plane_selector = mode.dual_plane ? bits.get(128 - weight_bits - extra_cem_bits - 2, 2) : 0;

  // Colour endpoints.
  uint8_t color_values[18];
  decode_ise(block, partitions == 1 ? 17 : 29, color_value_count, color_range, color_values);
  Color endpoints[4][2];
  bool ldr[4];
  for (uint32_t p = 0, next = 0; p < partitions; ++p) {
    uint32_t v[8] = {};
    const uint32_t n = 2 * ((cems[p] >> 2) + 1);
    for (uint32_t i = 0; i < n; ++i) v[i] = unquantize_color(color_values[next + i], color_range);
    next += n;
    ldr[p] = decode_endpoints(cems[p], v, &endpoints[p][0], &endpoints[p][1]);
  }

  // Weights: stored from bit 127 downwards, so read them from the bit-reversed block.
  uint8_t reversed[16];
  for (int i = 0; i < 16; ++i) {
    uint8_t r = 0;
    for (int b = 0; b < 8; ++b) r |= static_cast<uint8_t>(((block[15 - i] >> b) & 1) << (7 - b));
    reversed[i] = r;
  }
  uint8_t weight_values[kMaxWeights];
  decode_ise(reversed, 0, weight_count, mode.weights, weight_values);
  uint32_t weights[kMaxWeights];
  for (uint32_t i = 0; i < weight_count; ++i) weights[i] = unquantize_weight(weight_values[i], mode.weights);

  // "Weight Infill" (2D bilinear) and "Weight Application".
  const uint32_t ds = (1024 + width / 2) / (width - 1);
  const uint32_t dt = (1024 + height / 2) / (height - 1);
  const bool small_block = texel_count < 31;
  const int seed = static_cast<int>(bits.get(13, 10));
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const uint32_t index = y * width + x;
      const uint32_t part = partitions == 1 ? 0 : select_partition(seed, x, y, 0, partitions, small_block);
      if (!ldr[part]) {
        set_texel(out, index, 1, 0, 1, 1);
        continue;
      }
      const uint32_t gs = (ds * x * (mode.grid_w - 1) + 32) >> 6;
      const uint32_t gt = (dt * y * (mode.grid_h - 1) + 32) >> 6;
      const uint32_t js = gs >> 4, fs = gs & 15, jt = gt >> 4, ft = gt & 15;
      const uint32_t w11 = (fs * ft + 8) >> 4, w10 = ft - w11, w01 = fs - w11, w00 = 16 - fs - ft + w11;
      uint32_t effective[2];
      for (uint32_t plane = 0; plane < planes; ++plane) {
        auto weight_at = [&](uint32_t gx, uint32_t gy) {
          if (gx >= mode.grid_w || gy >= mode.grid_h) return 0u;  // only reached with a zero factor
          return weights[(gy * mode.grid_w + gx) * planes + plane];
        };
        effective[plane] = (weight_at(js, jt) * w00 + weight_at(js + 1, jt) * w01 + weight_at(js, jt + 1) * w10 +
                            weight_at(js + 1, jt + 1) * w11 + 8) >> 4;
      }
      float result[4];
      for (uint32_t ch = 0; ch < 4; ++ch) {
        const uint32_t w = mode.dual_plane && ch == plane_selector ? effective[1] : effective[0];
        uint32_t c0 = static_cast<uint32_t>(endpoints[part][0].c[ch]), c1 = static_cast<uint32_t>(endpoints[part][1].c[ch]);
        // sRGB mode expands every channel (alpha too) with 0x80 below the 8 bits; linear LDR
        // replicates them.
        if (srgb) c0 = (c0 << 8) | 0x80, c1 = (c1 << 8) | 0x80;
        else c0 = (c0 << 8) | c0, c1 = (c1 << 8) | c1;
        const uint32_t c = (c0 * (64 - w) + c1 * w + 32) / 64;
        result[ch] = finish_channel(c, srgb);
      }
      set_texel(out, index, result[0], result[1], result[2], result[3]);
    }
  }
}

}  // namespace kiln::fmt::compressed
