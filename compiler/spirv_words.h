#pragma once
// Walking a SPIR-V module's words instruction by instruction, for the scans that run before (or
// without) SPIRV-Tools building its IR.
#include <spirv/unified1/spirv.hpp11>

#include <cstddef>
#include <cstdint>
#include <span>

namespace kiln::compiler {

constexpr size_t kHeaderWords = 5;  // magic, version, generator, id bound, schema

struct RawInstruction {
  spv::Op opcode;
  std::span<const uint32_t> words;  // the whole instruction, opcode word included
};

// Calls visit(RawInstruction) for each instruction after the header. Returns false when an
// instruction's word count is zero or runs past the end (the module is then malformed).
template <typename Visit>
bool for_each_instruction(std::span<const uint32_t> module, Visit&& visit) {
  size_t at = kHeaderWords;
  while (at < module.size()) {
    const uint32_t count = module[at] >> 16;
    if (count == 0 || count > module.size() - at) return false;
    visit(RawInstruction{static_cast<spv::Op>(module[at] & 0xffff), module.subspan(at, count)});
    at += count;
  }
  return true;
}

}  // namespace kiln::compiler
