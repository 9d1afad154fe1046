#pragma once
// Stable 64-bit hashes for shader caching and dump file names. "Stable" means the same inputs
// give the same hash in every process and every build on a little-endian host, so hashes can be
// stored (VkPipelineCache data, dump file names) — unlike std::hash.
#include <cstdint>
#include <span>
#include <string_view>

#include "compiler/shader_source.h"

namespace kiln::compiler {

// Hashes a sequence of fields. Every add_* call mixes in its length too, so ("ab","c") and
// ("a","bc") differ. Not cryptographic: a cache keyed on it should still compare the full key
// when a false hit would be harmful.
class StableHasher {
 public:
  StableHasher& add_u64(uint64_t value);
  StableHasher& add_bytes(std::span<const uint8_t> bytes);
  StableHasher& add_words(std::span<const uint32_t> words);
  StableHasher& add_string(std::string_view text);
  uint64_t finish() const;

 private:
  void mix(uint64_t block);
  uint64_t state_ = 0x6b696c6e2d763100;  // "kiln-v1\0": change it to invalidate stored hashes
  uint64_t blocks_ = 0;
};

// The identity of a shader before any variant key: its SPIR-V words, entry point, stage and
// specialization values. Equal for equal inputs however the application laid out its
// VkSpecializationInfo data.
uint64_t shader_hash(const ShaderSource& source);

}  // namespace kiln::compiler
