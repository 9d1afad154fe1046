// ETC2 and EAC blocks: Khronos Data Format Specification, "ETC2 Compressed Texture Image Formats".
// Blocks are big-endian 64-bit words; pixel indices run down columns (texel (x, y) is index
// 4x + y), which this file converts to Kiln's row-major texel order.
#include <algorithm>

#include "memory/compressed/block_decoders.h"

namespace kiln::fmt::compressed {
namespace {

uint64_t load_be64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

uint32_t bits_of(uint64_t word, uint32_t high, uint32_t count) {  // bits high..high-count+1
  return static_cast<uint32_t>((word >> (high + 1 - count)) & ((1ull << count) - 1));
}

int clamp255(int v) { return std::clamp(v, 0, 255); }
uint32_t extend4(uint32_t v) { return v * 17; }
uint32_t extend5(uint32_t v) { return (v << 3) | (v >> 2); }
uint32_t extend6(uint32_t v) { return (v << 2) | (v >> 4); }
uint32_t extend7(uint32_t v) { return (v << 1) | (v >> 6); }

// "Intensity modifier sets" (ETC1 / ETC2 individual and differential modes): {a, b}.
constexpr int kIntensity[8][2] = {{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183}};
// T and H mode distances.
constexpr int kDistance[8] = {3, 6, 11, 16, 23, 32, 41, 64};
// EAC modifier tables.
constexpr int kEacModifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11}, {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10}, {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},  {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},  {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8},
};

struct Rgb {
  int r, g, b;
};

// Row-major texel index of the pixel whose 2-bit index sits at column-major position p.
uint32_t texel_of(uint32_t p) { return (p % 4) * 4 + p / 4; }

void write(Texels out, uint32_t p, Rgb c, float alpha) {
  set_texel(out, texel_of(p), c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, alpha);
}

// The 16 two-bit pixel indices (msb from bits 31..16, lsb from bits 15..0).
uint32_t pixel_index(uint64_t word, uint32_t p) {
  return (((word >> (16 + p)) & 1) << 1) | ((word >> p) & 1);
}

void decode_planar(uint64_t w, Texels out) {
  const int ro = extend6(bits_of(w, 62, 6));
  const int go = extend7((bits_of(w, 56, 1) << 6) | bits_of(w, 54, 6));
  const int bo = extend6((bits_of(w, 48, 1) << 5) | (bits_of(w, 44, 2) << 3) | bits_of(w, 41, 3));
  const int rh = extend6((bits_of(w, 38, 5) << 1) | bits_of(w, 32, 1));
  const int gh = extend7(bits_of(w, 31, 7));
  const int bh = extend6(bits_of(w, 24, 6));
  const int rv = extend6(bits_of(w, 18, 6));
  const int gv = extend7(bits_of(w, 12, 7));
  const int bv = extend6(bits_of(w, 5, 6));
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      auto plane = [&](int o, int h, int v) { return clamp255((x * (h - o) + y * (v - o) + 4 * o + 2) >> 2); };
      const Rgb c{plane(ro, rh, rv), plane(go, gh, gv), plane(bo, bh, bv)};
      set_texel(out, y * 4 + x, c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f);
    }
}

// T and H modes: four paint colours chosen per pixel; index 2 is transparent black when a
// punch-through block is not opaque.
void decode_paint(uint64_t w, const Rgb paint[4], bool transparent_index2, Texels out) {
  for (uint32_t p = 0; p < 16; ++p) {
    const uint32_t index = pixel_index(w, p);
    if (transparent_index2 && index == 2) write(out, p, {0, 0, 0}, 0.0f);
    else write(out, p, paint[index], 1.0f);
  }
}

Rgb add(Rgb c, int d) { return {clamp255(c.r + d), clamp255(c.g + d), clamp255(c.b + d)}; }

void decode_t_mode(uint64_t w, bool transparent_index2, Texels out) {
  const Rgb c1{static_cast<int>(extend4((bits_of(w, 60, 2) << 2) | bits_of(w, 57, 2))),
               static_cast<int>(extend4(bits_of(w, 55, 4))), static_cast<int>(extend4(bits_of(w, 51, 4)))};
  const Rgb c2{static_cast<int>(extend4(bits_of(w, 47, 4))), static_cast<int>(extend4(bits_of(w, 43, 4))),
               static_cast<int>(extend4(bits_of(w, 39, 4)))};
  const int d = kDistance[(bits_of(w, 35, 2) << 1) | bits_of(w, 32, 1)];
  const Rgb paint[4] = {c1, add(c2, d), c2, add(c2, -d)};
  decode_paint(w, paint, transparent_index2, out);
}

void decode_h_mode(uint64_t w, bool transparent_index2, Texels out) {
  const uint32_t r1 = bits_of(w, 62, 4), g1 = (bits_of(w, 58, 3) << 1) | bits_of(w, 52, 1);
  const uint32_t b1 = (bits_of(w, 51, 1) << 3) | (bits_of(w, 49, 2) << 1) | bits_of(w, 47, 1);
  const uint32_t r2 = bits_of(w, 46, 4), g2 = bits_of(w, 42, 4), b2 = bits_of(w, 38, 4);
  // The distance's lowest bit is implied by the order of the two base colours.
  const uint32_t order = ((r1 << 8) | (g1 << 4) | b1) >= ((r2 << 8) | (g2 << 4) | b2) ? 1 : 0;
  const int d = kDistance[(bits_of(w, 34, 1) << 2) | (bits_of(w, 32, 1) << 1) | order];
  const Rgb c1{static_cast<int>(extend4(r1)), static_cast<int>(extend4(g1)), static_cast<int>(extend4(b1))};
  const Rgb c2{static_cast<int>(extend4(r2)), static_cast<int>(extend4(g2)), static_cast<int>(extend4(b2))};
  const Rgb paint[4] = {add(c1, d), add(c1, -d), add(c2, d), add(c2, -d)};
  decode_paint(w, paint, transparent_index2, out);
}

// Individual and differential modes: two sub-blocks with a base colour and modifier table each.
void decode_subblocks(uint64_t w, Rgb base1, Rgb base2, bool punchthrough_transparent, Texels out) {
  const uint32_t table[2] = {bits_of(w, 39, 3), bits_of(w, 36, 3)};
  const bool flip = bits_of(w, 32, 1) != 0;
  for (uint32_t p = 0; p < 16; ++p) {
    const uint32_t x = p / 4, y = p % 4;
    const uint32_t sub = flip ? (y >= 2) : (x >= 2);
    const uint32_t index = pixel_index(w, p);
    const int a = kIntensity[table[sub]][0], b = kIntensity[table[sub]][1];
    if (punchthrough_transparent && index == 2) {
      write(out, p, {0, 0, 0}, 0.0f);
      continue;
    }
    // index: 0 -> +a, 1 -> +b, 2 -> -a, 3 -> -b; a non-opaque punch-through block has no +-a.
    int modifier = index == 0 ? a : index == 1 ? b : index == 2 ? -a : -b;
    if (punchthrough_transparent && index == 0) modifier = 0;
    write(out, p, add(sub ? base2 : base1, modifier), 1.0f);
  }
}

void decode_etc2_rgb(const uint8_t* block, bool punchthrough, Texels out) {
  const uint64_t w = load_be64(block);
  // In punch-through blocks the 'diff' bit is the 'opaque' bit and individual mode does not exist.
  const bool diff_bit = bits_of(w, 33, 1) != 0;
  const bool differential = punchthrough || diff_bit;
  const bool transparent = punchthrough && !diff_bit;
  if (!differential) {
    const Rgb b1{static_cast<int>(extend4(bits_of(w, 63, 4))), static_cast<int>(extend4(bits_of(w, 55, 4))),
                 static_cast<int>(extend4(bits_of(w, 47, 4)))};
    const Rgb b2{static_cast<int>(extend4(bits_of(w, 59, 4))), static_cast<int>(extend4(bits_of(w, 51, 4))),
                 static_cast<int>(extend4(bits_of(w, 43, 4)))};
    return decode_subblocks(w, b1, b2, false, out);
  }
  auto delta = [](uint32_t v) { return static_cast<int>(v & 3) - static_cast<int>(v & 4); };  // 3-bit signed
  const int r = static_cast<int>(bits_of(w, 63, 5)), dr = delta(bits_of(w, 58, 3));
  const int g = static_cast<int>(bits_of(w, 55, 5)), dg = delta(bits_of(w, 50, 3));
  const int b = static_cast<int>(bits_of(w, 47, 5)), db = delta(bits_of(w, 42, 3));
  // An overflowing second base colour selects T (red), H (green) or planar (blue) mode.
  if (r + dr < 0 || r + dr > 31) return decode_t_mode(w, transparent, out);
  if (g + dg < 0 || g + dg > 31) return decode_h_mode(w, transparent, out);
  if (b + db < 0 || b + db > 31) return decode_planar(w, out);
  const Rgb b1{static_cast<int>(extend5(r)), static_cast<int>(extend5(g)), static_cast<int>(extend5(b))};
  const Rgb b2{static_cast<int>(extend5(r + dr)), static_cast<int>(extend5(g + dg)), static_cast<int>(extend5(b + db))};
  decode_subblocks(w, b1, b2, transparent, out);
}

// One EAC channel. `bits` = 8 gives the alpha of ETC2 RGBA8 (0..255); 11 gives R11/RG11 values
// normalised to [0,1] or [-1,1].
void decode_eac_channel(const uint8_t* block, uint32_t bits, bool is_signed, int channel, Texels out) {
  const uint64_t w = load_be64(block);
  const uint32_t base_raw = bits_of(w, 63, 8);
  const int multiplier = static_cast<int>(bits_of(w, 55, 4));
  const int* modifiers = kEacModifiers[bits_of(w, 51, 4)];
  for (uint32_t p = 0; p < 16; ++p) {
    const int modifier = modifiers[bits_of(w, 47 - 3 * p, 3)];
    float value;
    if (bits == 8) {
      value = clamp255(static_cast<int>(base_raw) + modifier * multiplier) / 255.0f;
    } else if (!is_signed) {
      const int v = static_cast<int>(base_raw) * 8 + 4 + (multiplier ? modifier * multiplier * 8 : modifier);
      value = std::clamp(v, 0, 2047) / 2047.0f;
    } else {
      const int base = std::max(static_cast<int>(static_cast<int8_t>(base_raw)), -127);  // -128 means -127
      const int v = base * 8 + (multiplier ? modifier * multiplier * 8 : modifier);
      value = std::clamp(v, -1023, 1023) / 1023.0f;
    }
    out[texel_of(p)][channel] = value;
  }
}

}  // namespace

void decode_etc2(const uint8_t* block, Etc2Alpha alpha, Texels out) {
  if (alpha == Etc2Alpha::Eac8) {
    decode_etc2_rgb(block + 8, false, out);
    decode_eac_channel(block, 8, false, 3, out);
    return;
  }
  decode_etc2_rgb(block, alpha == Etc2Alpha::Punchthrough, out);
}

void decode_eac_r11(const uint8_t* block, bool is_signed, Texels out) {
  for (uint32_t i = 0; i < 16; ++i) set_texel(out, i, 0, 0, 0, 1);
  decode_eac_channel(block, 11, is_signed, 0, out);
}

void decode_eac_rg11(const uint8_t* block, bool is_signed, Texels out) {
  for (uint32_t i = 0; i < 16; ++i) set_texel(out, i, 0, 0, 0, 1);
  decode_eac_channel(block, 11, is_signed, 0, out);
  decode_eac_channel(block + 8, 11, is_signed, 1, out);
}

}  // namespace kiln::fmt::compressed
