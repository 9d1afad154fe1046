#include "compiler/quantize_constants.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

#include "compiler/spirv_words.h"

namespace kiln::compiler {

uint32_t quantize_to_f16_bits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  float quantized = static_cast<float>(static_cast<_Float16>(value));  // round to nearest even
  if (std::fabs(quantized) < 0x1p-14f) quantized = std::copysign(0.0f, value);
  std::memcpy(&bits, &quantized, sizeof bits);
  return bits;
}

namespace {

uint32_t opcode_word(spv::Op opcode, size_t word_count) {
  return static_cast<uint32_t>(word_count << 16) | static_cast<uint32_t>(opcode);
}

}  // namespace

void fold_quantize_to_f16_constants(std::vector<uint32_t>& module) {
  if (module.size() < kHeaderWords) return;
  struct FloatConstant {
    uint32_t type, bits;
  };
  std::unordered_map<uint32_t, bool> float32_types;              // type id → is a 32-bit float
  std::unordered_map<uint32_t, FloatConstant> floats;            // 32-bit float OpConstant id → value
  std::unordered_map<uint32_t, std::vector<uint32_t>> composites;  // OpConstantComposite id → members
  uint32_t bound = module[3];
  bool changed = false;
  std::vector<uint32_t> out(module.begin(), module.begin() + kHeaderWords);
  out.reserve(module.size());
  auto emit = [&](spv::Op opcode, std::initializer_list<uint32_t> operands, const std::vector<uint32_t>& more = {}) {
    out.push_back(opcode_word(opcode, 1 + operands.size() + more.size()));
    out.insert(out.end(), operands);
    out.insert(out.end(), more.begin(), more.end());
  };
  const bool well_formed = for_each_instruction(module, [&](const RawInstruction& inst) {
    const auto& w = inst.words;
    if (inst.opcode == spv::Op::OpTypeFloat && w.size() >= 3) float32_types[w[1]] = w[2] == 32;
    if (inst.opcode == spv::Op::OpConstant && w.size() == 4 && float32_types[w[1]]) floats[w[2]] = {w[1], w[3]};
    // After freeze-spec-const, a spec composite of frozen members is as constant as any.
    if ((inst.opcode == spv::Op::OpConstantComposite || inst.opcode == spv::Op::OpSpecConstantComposite) && w.size() > 3)
      composites[w[2]].assign(w.begin() + 3, w.end());
    const bool quantize = inst.opcode == spv::Op::OpSpecConstantOp && w.size() == 5 &&
                          w[3] == static_cast<uint32_t>(spv::Op::OpQuantizeToF16);
    if (quantize) {
      const uint32_t type = w[1], result = w[2], operand = w[4];
      if (auto scalar = floats.find(operand); scalar != floats.end()) {
        const uint32_t bits = quantize_to_f16_bits(scalar->second.bits);
        emit(spv::Op::OpConstant, {type, result, bits});
        floats[result] = {type, bits};
        changed = true;
        return;
      }
      if (auto vector = composites.find(operand); vector != composites.end()) {
        bool all_floats = bound + vector->second.size() <= 0x3FFFFF;
        for (uint32_t member : vector->second) all_floats = all_floats && floats.contains(member);
        if (all_floats) {
          std::vector<uint32_t> members;
          for (uint32_t member : vector->second) {
            const FloatConstant& c = floats.at(member);
            members.push_back(bound++);
            emit(spv::Op::OpConstant, {c.type, members.back(), quantize_to_f16_bits(c.bits)});
          }
          emit(spv::Op::OpConstantComposite, {type, result}, members);
          changed = true;
          return;
        }
      }
    }
    out.insert(out.end(), w.begin(), w.end());
  });
  if (!well_formed || !changed) return;
  out[3] = bound;
  module = std::move(out);
}

}  // namespace kiln::compiler
