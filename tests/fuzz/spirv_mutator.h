#pragma once
// Structure-aware mutation of SPIR-V for the libFuzzer target (spirv_fuzzer.cpp): the input is a
// module's words; a mutation edits one instruction (an operand, its opcode, its length) or moves
// whole instructions, and the result always keeps a well-formed header and instruction word
// counts that add up to the module's length — so the mutated module reaches the validator's and
// the compiler's interesting parts instead of failing at the first word.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace kiln::fuzz {

// One instruction of a module: its first word's index and its word count.
struct InstructionSpan {
  size_t first = 0;
  uint32_t word_count = 0;
};

// The instructions after the 5-word header; false when the counts do not add up to the module's
// length (a word count of 0 or one running past the end).
bool split_instructions(const std::vector<uint32_t>& words, std::vector<InstructionSpan>* out);

// A byte mutator for one instruction's operand bytes (libFuzzer's LLVMFuzzerMutate in the target):
// mutates data[0, size) in place, may grow it up to max_size, returns the new size.
using ByteMutator = std::function<size_t(uint8_t* data, size_t size, size_t max_size)>;

// Applies one random structural mutation to `words` (a module with a valid instruction stream)
// and returns true; returns false (words untouched) when `words` is not such a module. The result
// never exceeds max_words and always satisfies split_instructions.
bool mutate_module(std::vector<uint32_t>* words, size_t max_words, uint32_t seed, const ByteMutator& mutate_bytes);

}  // namespace kiln::fuzz
