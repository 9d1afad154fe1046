// BC7 blocks: Khronos Data Format Specification, "BPTC Compressed Texture Image Formats" (BC7).
#include <algorithm>

#include "memory/compressed/block_decoders.h"
#include "memory/compressed/bptc_partitions.h"

namespace kiln::fmt::compressed {
namespace {

struct Bc7Mode {
  uint8_t subsets, partition_bits, rotation_bits, index_selection_bits;
  uint8_t color_bits, alpha_bits, endpoint_pbits, shared_pbits, index_bits, index2_bits;
};
// NS, PB, RB, ISB, CB, AB, EPB, SPB, IB, IB2 ("Mode-dependent BPTC parameters").
constexpr Bc7Mode kModes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

// Whether texel i is an anchor (its index is stored with one bit less) for this partitioning.
bool is_anchor(uint32_t subsets, uint32_t partition, uint32_t i) {
  if (i == 0) return true;
  if (subsets == 2) return i == kAnchor2[partition];
  if (subsets == 3) return i == kAnchor3Second[partition] || i == kAnchor3Third[partition];
  return false;
}

uint32_t subset_of(uint32_t subsets, uint32_t partition, uint32_t i) {
  if (subsets == 2) return (kPartitions2[partition] >> (2 * i)) & 3;
  if (subsets == 3) return (kPartitions3[partition] >> (2 * i)) & 3;
  return 0;
}

uint32_t weight_of(uint32_t index, uint32_t bits) {
  switch (bits) {
    case 2: return index * 21 + (index >> 1);
    case 3: return index * 9 + (index >> 2);
    default: return (index << 2) + (index >> 2) + ((index >> 1) & 1);
  }
}

// A `bits`-bit endpoint value moved to the top of a byte, top bits replicated below.
uint32_t expand_to_8(uint32_t value, uint32_t bits) {
  value <<= 8 - bits;
  return value | (value >> bits);
}

}  // namespace

void decode_bc7(const uint8_t* block, Texels out) {
  uint32_t mode_number = 0;
  while (mode_number < 8 && !(block[0] & (1u << mode_number))) ++mode_number;
  if (mode_number == 8) {  // reserved: every channel of every texel is 0
    for (uint32_t i = 0; i < 16; ++i) set_texel(out, i, 0, 0, 0, 0);
    return;
  }
  const Bc7Mode& m = kModes[mode_number];
  uint32_t pos = mode_number + 1;
  auto take = [&](uint32_t n) {
    const uint32_t v = read_bits(block, pos, n);
    pos += n;
    return v;
  };
  const uint32_t partition = take(m.partition_bits);
  const uint32_t rotation = take(m.rotation_bits);
  const uint32_t index_selection = take(m.index_selection_bits);

  // endpoints[subset * 2 + e][channel], first as stored bits.
  uint32_t endpoints[6][4] = {};
  const uint32_t endpoint_count = 2u * m.subsets;
  for (uint32_t ch = 0; ch < 3; ++ch)
    for (uint32_t e = 0; e < endpoint_count; ++e) endpoints[e][ch] = take(m.color_bits);
  for (uint32_t e = 0; e < endpoint_count && m.alpha_bits; ++e) endpoints[e][3] = take(m.alpha_bits);
  uint32_t pbits[6] = {};
  const bool has_pbit = m.endpoint_pbits || m.shared_pbits;
  if (m.endpoint_pbits)
    for (uint32_t e = 0; e < endpoint_count; ++e) pbits[e] = take(1);
  if (m.shared_pbits)
    for (uint32_t s = 0; s < m.subsets; ++s) pbits[2 * s] = pbits[2 * s + 1] = take(1);
  for (uint32_t e = 0; e < endpoint_count; ++e) {
    for (uint32_t ch = 0; ch < 4; ++ch) {
      const uint32_t bits = ch < 3 ? m.color_bits : m.alpha_bits;
      if (bits == 0) {
        endpoints[e][ch] = 255;
        continue;
      }
      const uint32_t value = has_pbit ? (endpoints[e][ch] << 1) | pbits[e] : endpoints[e][ch];
      endpoints[e][ch] = expand_to_8(value, bits + (has_pbit ? 1 : 0));
    }
  }

  uint32_t index1[16], index2[16] = {};
  for (uint32_t i = 0; i < 16; ++i) index1[i] = take(m.index_bits - (is_anchor(m.subsets, partition, i) ? 1 : 0));
  if (m.index2_bits)
    for (uint32_t i = 0; i < 16; ++i) index2[i] = take(m.index2_bits - (i == 0 ? 1 : 0));

  for (uint32_t i = 0; i < 16; ++i) {
    const uint32_t s = subset_of(m.subsets, partition, i);
    // Colour from the secondary indices when the index selection bit says so; alpha from the
    // other set when there are two.
    uint32_t color_weight = weight_of(index1[i], m.index_bits), alpha_weight = color_weight;
    if (m.index2_bits) {
      const uint32_t w2 = weight_of(index2[i], m.index2_bits);
      if (index_selection) color_weight = w2, alpha_weight = weight_of(index1[i], m.index_bits);
      else alpha_weight = w2;
    }
    uint32_t c[4];
    for (uint32_t ch = 0; ch < 4; ++ch) {
      const uint32_t w = ch < 3 ? color_weight : alpha_weight;
      c[ch] = ((64 - w) * endpoints[2 * s][ch] + w * endpoints[2 * s + 1][ch] + 32) >> 6;
    }
    if (rotation) std::swap(c[3], c[rotation - 1]);
    set_texel(out, i, c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, c[3] / 255.0f);
  }
}

}  // namespace kiln::fmt::compressed
