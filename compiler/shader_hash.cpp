#include "compiler/shader_hash.h"

#include <bit>
#include <cstring>

namespace kiln::compiler {
namespace {

// A 64-bit finalizer with full avalanche (every input bit flips each output bit with
// probability ~1/2): two xor-shift-multiply rounds.
uint64_t avalanche(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

}  // namespace

void StableHasher::mix(uint64_t block) {
  // Rotating before the multiply carries high bits back down, so every block influences every
  // bit of the state; the odd multiplier keeps the step invertible (no information lost).
  state_ = std::rotl(state_ ^ avalanche(block), 29) * 0x9e3779b97f4a7c15ull;
  ++blocks_;
}

StableHasher& StableHasher::add_u64(uint64_t value) {
  mix(value);
  return *this;
}

StableHasher& StableHasher::add_bytes(std::span<const uint8_t> bytes) {
  mix(bytes.size());
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t block;
    std::memcpy(&block, bytes.data() + i, 8);
    mix(block);
  }
  if (i < bytes.size()) {
    uint64_t tail = 0;  // zero-padded; the length mixed in above tells paddings apart
    std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
    mix(tail);
  }
  return *this;
}

StableHasher& StableHasher::add_words(std::span<const uint32_t> words) {
  return add_bytes({reinterpret_cast<const uint8_t*>(words.data()), words.size_bytes()});
}

StableHasher& StableHasher::add_string(std::string_view text) {
  return add_bytes({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

uint64_t StableHasher::finish() const { return avalanche(state_ ^ blocks_); }

uint64_t shader_hash(const ShaderSource& source) {
  StableHasher hasher;
  hasher.add_words(source.words).add_string(source.entry_point).add_u64(static_cast<uint64_t>(source.stage));
  hasher.add_u64(source.specialization.values().size());
  for (const auto& value : source.specialization.values())
    hasher.add_u64(value.constant_id).add_u64(value.size).add_u64(value.bits);
  return hasher.finish();
}

}  // namespace kiln::compiler
