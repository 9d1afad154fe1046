#include "spirv_mutator.h"

#include <algorithm>
#include <random>

namespace kiln::fuzz {
namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;

// Opcodes that the mutated opcode is drawn from: every core opcode below 400 plus a few common
// extension ones (a fuzzer may pick a reserved number too, which the validator must reject).
uint32_t random_opcode(std::mt19937& rng) {
  static constexpr uint32_t extra[] = {4421, 4422, 4424, 4425, 4426, 4427, 5397, 5571, 5572};
  std::uniform_int_distribution<uint32_t> pick(0, 399 + std::size(extra));
  const uint32_t n = pick(rng);
  return n < 400 ? n : extra[n - 400];
}

// A value likely to matter to the compiler: an id of the module, a small number, a boundary.
uint32_t interesting_word(std::mt19937& rng, uint32_t bound) {
  switch (rng() % 6) {
    case 0: return bound ? rng() % bound : 0;      // an id (or a near one)
    case 1: return rng() % 16;                     // small literal, enum, index
    case 2: return 0xffffffffu >> (rng() % 32);    // all ones of some width
    case 3: return 1u << (rng() % 32);             // a power of two
    case 4: return 0x80000000u;                    // sign bit
    default: return rng();
  }
}

}  // namespace

bool split_instructions(const std::vector<uint32_t>& words, std::vector<InstructionSpan>* out) {
  out->clear();
  if (words.size() < kHeaderWords || words[0] != kMagic) return false;
  for (size_t i = kHeaderWords; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if (count == 0 || count > words.size() - i) return false;
    out->push_back({i, count});
    i += count;
  }
  return true;
}

bool mutate_module(std::vector<uint32_t>* words, size_t max_words, uint32_t seed, const ByteMutator& mutate_bytes) {
  std::vector<InstructionSpan> spans;
  if (!split_instructions(*words, &spans) || spans.empty()) return false;
  std::mt19937 rng(seed);
  std::vector<uint32_t>& w = *words;
  const uint32_t bound = w[3];
  const InstructionSpan target = spans[rng() % spans.size()];
  const size_t room = max_words > w.size() ? max_words - w.size() : 0;
  switch (rng() % 9) {
    case 0:
    case 1:
    case 2: {  // one operand word becomes an interesting value
      if (target.word_count < 2) break;
      w[target.first + 1 + rng() % (target.word_count - 1)] = interesting_word(rng, bound);
      break;
    }
    case 3: {  // the opcode changes, the length stays
      w[target.first] = (w[target.first] & 0xffff0000u) | random_opcode(rng);
      break;
    }
    case 4: {  // an instruction is deleted
      if (spans.size() < 2) break;
      w.erase(w.begin() + target.first, w.begin() + target.first + target.word_count);
      break;
    }
    case 5: {  // an instruction is copied in front of another one
      if (target.word_count > room) break;
      const InstructionSpan where = spans[rng() % spans.size()];
      std::vector<uint32_t> copy(w.begin() + target.first, w.begin() + target.first + target.word_count);
      w.insert(w.begin() + where.first, copy.begin(), copy.end());
      break;
    }
    case 6: {  // two instructions swap places
      const InstructionSpan other = spans[rng() % spans.size()];
      InstructionSpan a = target, b = other;
      if (a.first == b.first) break;
      if (a.first > b.first) std::swap(a, b);
      std::vector<uint32_t> rebuilt(w.begin(), w.begin() + a.first);
      rebuilt.insert(rebuilt.end(), w.begin() + b.first, w.begin() + b.first + b.word_count);
      rebuilt.insert(rebuilt.end(), w.begin() + a.first + a.word_count, w.begin() + b.first);
      rebuilt.insert(rebuilt.end(), w.begin() + a.first, w.begin() + a.first + a.word_count);
      rebuilt.insert(rebuilt.end(), w.begin() + b.first + b.word_count, w.end());
      w.swap(rebuilt);
      break;
    }
    case 7: {  // libFuzzer's byte mutations on the operands; the word count follows the new length
      const size_t operand_words = target.word_count - 1;
      const size_t max_operand_words = std::min<size_t>(operand_words + room, 0xfffe);
      if (max_operand_words == 0) break;
      std::vector<uint8_t> bytes(max_operand_words * 4 + 4);
      std::copy_n(reinterpret_cast<const uint8_t*>(&w[target.first + 1]), operand_words * 4, bytes.data());
      size_t size = mutate_bytes(bytes.data(), operand_words * 4, max_operand_words * 4);
      const size_t new_words = std::min((size + 3) / 4, max_operand_words);
      std::vector<uint32_t> operands(new_words, 0);
      std::copy_n(bytes.data(), std::min(size, new_words * 4), reinterpret_cast<uint8_t*>(operands.data()));
      const uint32_t opcode = w[target.first] & 0xffffu;
      std::vector<uint32_t> instruction{(static_cast<uint32_t>(new_words + 1) << 16) | opcode};
      instruction.insert(instruction.end(), operands.begin(), operands.end());
      w.erase(w.begin() + target.first, w.begin() + target.first + target.word_count);
      w.insert(w.begin() + target.first, instruction.begin(), instruction.end());
      break;
    }
    default: {  // the id bound changes (too small is invalid, huge stresses id tables)
      w[3] = rng() % 2 ? bound + 1 + rng() % 64 : interesting_word(rng, bound);
      break;
    }
  }
  return true;
}

}  // namespace kiln::fuzz
