#include "compiler/strict_access_tags.h"

#include <spirv/unified1/spirv.hpp11>

#include "compiler/spirv_module.h"

namespace kiln::compiler {
namespace {

constexpr size_t kHeaderWords = 5;

// Where a memory access names its id: the result (loads, atomics that return) or the pointer it
// writes (stores, copies, atomic stores). 0: not a memory access.
size_t access_id_word(spv::Op op) {
  switch (op) {
    case spv::Op::OpStore:
    case spv::Op::OpCopyMemory:
    case spv::Op::OpCopyMemorySized:
    case spv::Op::OpAtomicStore:
    case spv::Op::OpImageWrite:
      return 1;
    case spv::Op::OpLoad:
    case spv::Op::OpImageRead:
    case spv::Op::OpImageFetch:
    case spv::Op::OpImageTexelPointer:
      return 2;
    default:
      return spirv::is_atomic_instruction(op) ? 2 : 0;
  }
}

// Instructions of the module's preamble, before its debug section.
bool in_preamble(spv::Op op) {
  switch (op) {
    case spv::Op::OpCapability:
    case spv::Op::OpExtension:
    case spv::Op::OpExtInstImport:
    case spv::Op::OpMemoryModel:
    case spv::Op::OpEntryPoint:
    case spv::Op::OpExecutionMode:
    case spv::Op::OpExecutionModeId:
      return true;
    default:
      return false;
  }
}

uint32_t opcode_word(spv::Op op, uint32_t word_count) { return word_count << 16 | static_cast<uint32_t>(op); }

const char* access_name(spv::Op op) {
  switch (op) {
    case spv::Op::OpLoad: return "OpLoad";
    case spv::Op::OpStore: return "OpStore";
    case spv::Op::OpCopyMemory: return "OpCopyMemory";
    case spv::Op::OpCopyMemorySized: return "OpCopyMemorySized";
    case spv::Op::OpAtomicLoad: return "OpAtomicLoad";
    case spv::Op::OpAtomicStore: return "OpAtomicStore";
    case spv::Op::OpAtomicExchange: return "OpAtomicExchange";
    case spv::Op::OpAtomicCompareExchange: return "OpAtomicCompareExchange";
    case spv::Op::OpAtomicCompareExchangeWeak: return "OpAtomicCompareExchangeWeak";
    case spv::Op::OpAtomicIIncrement: return "OpAtomicIIncrement";
    case spv::Op::OpAtomicIDecrement: return "OpAtomicIDecrement";
    case spv::Op::OpAtomicIAdd: return "OpAtomicIAdd";
    case spv::Op::OpAtomicISub: return "OpAtomicISub";
    case spv::Op::OpAtomicSMin: return "OpAtomicSMin";
    case spv::Op::OpAtomicUMin: return "OpAtomicUMin";
    case spv::Op::OpAtomicSMax: return "OpAtomicSMax";
    case spv::Op::OpAtomicUMax: return "OpAtomicUMax";
    case spv::Op::OpAtomicAnd: return "OpAtomicAnd";
    case spv::Op::OpAtomicOr: return "OpAtomicOr";
    case spv::Op::OpAtomicXor: return "OpAtomicXor";
    case spv::Op::OpAtomicFAddEXT: return "OpAtomicFAddEXT";
    case spv::Op::OpAtomicFMinEXT: return "OpAtomicFMinEXT";
    case spv::Op::OpAtomicFMaxEXT: return "OpAtomicFMaxEXT";
    case spv::Op::OpImageRead: return "OpImageRead";
    case spv::Op::OpImageWrite: return "OpImageWrite";
    case spv::Op::OpImageFetch: return "OpImageFetch";
    case spv::Op::OpImageTexelPointer: return "OpImageTexelPointer";
    default: return "a memory access";
  }
}

}  // namespace

std::string describe_memory_access(uint32_t opcode, uint32_t id) {
  const auto op = static_cast<spv::Op>(opcode);
  return std::string(access_name(op)) + (access_id_word(op) == 1 ? " to %" : " %") + std::to_string(id);
}

std::vector<uint32_t> tag_memory_accesses(std::span<const uint32_t> module) {
  std::vector<uint32_t> out(module.begin(), module.begin() + std::min(module.size(), kHeaderWords));
  if (module.size() < kHeaderWords) return out;
  const uint32_t blank_file = module[3];  // a new id: OpString ""
  out[3] = blank_file + 1;
  bool file_added = false;
  bool in_function = false;
  struct Line {
    bool active = false;
    uint32_t file = 0, line = 0, column = 0;
  } line;

  for (size_t pos = kHeaderWords; pos < module.size();) {
    const uint32_t word_count = module[pos] >> 16;
    if (word_count == 0 || pos + word_count > module.size()) break;  // validated: does not happen
    const auto op = static_cast<spv::Op>(module[pos] & 0xFFFF);
    const std::span<const uint32_t> inst = module.subspan(pos, word_count);
    pos += word_count;
    if (!file_added && !in_preamble(op)) {
      out.insert(out.end(), {opcode_word(spv::Op::OpString, 3), blank_file, 0u});
      file_added = true;
    }
    if (op == spv::Op::OpFunction) in_function = true;
    if (op == spv::Op::OpLine && word_count >= 4) line = {true, inst[1], inst[2], inst[3]};
    if (op == spv::Op::OpNoLine) line.active = false;

    const size_t id_word = in_function ? access_id_word(op) : 0;
    if (id_word && id_word < word_count) {
      out.insert(out.end(), {opcode_word(spv::Op::OpLine, 4), line.active ? line.file : blank_file,
                             line.active ? line.line : 0u, kStrictAccessTag | inst[id_word]});
      out.insert(out.end(), inst.begin(), inst.end());
      if (line.active) out.insert(out.end(), {opcode_word(spv::Op::OpLine, 4), line.file, line.line, line.column});
      else out.push_back(opcode_word(spv::Op::OpNoLine, 1));
    } else {
      out.insert(out.end(), inst.begin(), inst.end());
    }
    if (spirv::is_block_terminator(op) || op == spv::Op::OpFunctionEnd) line.active = false;
    if (op == spv::Op::OpFunctionEnd) in_function = false;
  }
  return out;
}

}  // namespace kiln::compiler
