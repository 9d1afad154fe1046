#include "compiler/spirv_front.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp11>

#include <functional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "compiler/shader_dump.h"
#include "compiler/quantize_constants.h"
#include "compiler/shader_hash.h"
#include "compiler/spirv_module.h"
#include "compiler/spirv_words.h"
#include "compiler/strict_access_tags.h"

namespace kiln::compiler {
namespace {

// Vulkan 1.3 consumes SPIR-V 1.0 through 1.6; validating against it also applies Vulkan's own
// rules (VUIDs), and relaxed block layout (core since 1.1) and LocalSizeId (core in 1.3).
constexpr spv_target_env kTargetEnv = SPV_ENV_VULKAN_1_3;

// SPIRV-Tools reports problems through a callback; this collects the errors into one message.
class MessageCollector {
 public:
  spvtools::MessageConsumer consumer() {
    return [this](spv_message_level_t level, const char*, const spv_position_t& position, const char* message) {
      if (level > SPV_MSG_ERROR) return;  // warnings and info do not fail the shader
      std::string_view text = message;
      while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
      if (!text_.empty()) text_ += "\n";
      text_ += text;
      if (position.index) text_ += " (at word " + std::to_string(position.index) + ")";
    };
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// A SPIR-V literal string starting at words[first]: UTF-8 bytes packed four to a word,
// little-endian, ending with a NUL byte (or at the end of `words`).
std::string literal_string(std::span<const uint32_t> words, size_t first) {
  std::string text;
  for (size_t i = first; i < words.size(); ++i)
    for (int byte = 0; byte < 4; ++byte) {
      const char c = static_cast<char>((words[i] >> (8 * byte)) & 0xff);
      if (c == '\0') return text;
      text += c;
    }
  return text;
}

// NonSemantic.DebugPrintf's set name: the one non-semantic set Kiln executes (debugPrintfEXT).
constexpr std::string_view kDebugPrintfSet = "NonSemantic.DebugPrintf";

// The ids of the imported NonSemantic.* sets other than DebugPrintf: shader debug info, which
// Kiln strips before any other pass.
std::unordered_set<uint32_t> stripped_nonsemantic_sets(std::span<const uint32_t> module) {
  std::unordered_set<uint32_t> sets;
  for_each_instruction(module, [&](const RawInstruction& inst) {
    if (inst.opcode != spv::Op::OpExtInstImport || inst.words.size() < 3) return;
    const std::string name = literal_string(inst.words, 2);
    if (name.rfind("NonSemantic.", 0) == 0 && name != kDebugPrintfSet) sets.insert(inst.words[1]);
  });
  return sets;
}

// SPIR-V may be stored in either byte order (the magic number tells which); Kiln works on
// host order, so a byte-swapped module is swapped once here.
std::vector<uint32_t> in_host_byte_order(std::span<const uint32_t> words) {
  std::vector<uint32_t> module(words.begin(), words.end());
  if (!module.empty() && module[0] == __builtin_bswap32(spv::MagicNumber))
    for (uint32_t& word : module) word = __builtin_bswap32(word);
  return module;
}

bool is_constant_instruction(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpConstant:
    case spv::Op::OpConstantTrue:
    case spv::Op::OpConstantFalse:
    case spv::Op::OpConstantComposite:
    case spv::Op::OpConstantNull:
    case spv::Op::OpSpecConstant:
    case spv::Op::OpSpecConstantTrue:
    case spv::Op::OpSpecConstantFalse:
    case spv::Op::OpSpecConstantComposite:
    case spv::Op::OpSpecConstantOp:
      return true;
    default:
      return false;
  }
}

bool is_composite_type(spv::Op opcode) {
  return opcode == spv::Op::OpTypeVector || opcode == spv::Op::OpTypeMatrix || opcode == spv::Op::OpTypeArray ||
         opcode == spv::Op::OpTypeStruct;
}

// Instructions that may name a void value without computing with it: debug names, decorations,
// and the non-semantic sets that strip-nonsemantic removes before any other pass (a NonSemantic
// instruction may take any result id, SPV_KHR_non_semantic_info).
bool may_name_void_values(const spv_parsed_instruction_t& inst, const std::unordered_set<uint32_t>& stripped_sets) {
  switch (static_cast<spv::Op>(inst.opcode)) {
    case spv::Op::OpName:
    case spv::Op::OpMemberName:
    case spv::Op::OpDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
    case spv::Op::OpMemberDecorate:
    case spv::Op::OpMemberDecorateString:
    case spv::Op::OpGroupDecorate:
    case spv::Op::OpGroupMemberDecorate:
      return true;
    case spv::Op::OpExtInst:
      return inst.num_words > 3 && stripped_sets.contains(inst.words[3]);
    default:
      return false;
  }
}

// The first instruction that computes with a void value (the result of a call of a void function,
// or of a void OpExtInst) as an operand, as an error; "" when there is none. SPIRV-Tools 2023.1's
// validator accepts such a use (the fuzzer's was OpGroupNonUniformShuffleXor's value operand),
// and its aggressive dead-code elimination then crashes.
std::string check_no_void_operands(std::span<const uint32_t> module) {
  struct Ids {
    std::unordered_set<uint32_t> void_types, void_values, stripped_sets;
    uint32_t user = 0, used = 0;  // the first offending instruction's result (or opcode) and operand
    bool collecting = true;
  } ids;
  ids.stripped_sets = stripped_nonsemantic_sets(module);
  auto on_instruction = [](void* user_data, const spv_parsed_instruction_t* inst) -> spv_result_t {
    Ids& ids = *static_cast<Ids*>(user_data);
    if (ids.collecting) {
      if (inst->opcode == static_cast<uint16_t>(spv::Op::OpTypeVoid)) ids.void_types.insert(inst->result_id);
      else if (inst->result_id && ids.void_types.contains(inst->type_id) &&
               inst->opcode != static_cast<uint16_t>(spv::Op::OpFunction))  // a function's type_id is its return type
        ids.void_values.insert(inst->result_id);
      return SPV_SUCCESS;
    }
    if (may_name_void_values(*inst, ids.stripped_sets)) return SPV_SUCCESS;
    for (uint16_t i = 0; i < inst->num_operands && !ids.used; ++i) {
      const spv_parsed_operand_t& operand = inst->operands[i];
      if (operand.type != SPV_OPERAND_TYPE_ID && operand.type != SPV_OPERAND_TYPE_SCOPE_ID &&
          operand.type != SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID)
        continue;
      const uint32_t id = inst->words[operand.offset];
      if (ids.void_values.contains(id)) {
        ids.used = id;
        ids.user = inst->result_id ? inst->result_id : inst->opcode;
      }
    }
    return ids.used ? SPV_ERROR_INVALID_DATA : SPV_SUCCESS;
  };
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_3);
  for (bool collecting : {true, false}) {
    ids.collecting = collecting;
    spvBinaryParse(context, &ids, module.data(), module.size(), nullptr, on_instruction, nullptr);
    if (collecting && ids.void_values.empty()) break;
  }
  spvContextDestroy(context);
  if (!ids.used) return "";
  return "invalid SPIR-V: %" + std::to_string(ids.used) + ", a void value, is an operand of %" + std::to_string(ids.user);
}

// Rules SPIRV-Tools 2023.1's validator misses but its optimizer relies on (found by fuzzing:
// modules breaking them pass validation and then crash a pass). Returns an error or "".
//  - No void value is an operand (check_no_void_operands).
//  - OpExecutionModeId operands must be constant instructions (SPIR-V spec, OpExecutionModeId).
//  - OpSpecConstantOp CompositeExtract / CompositeInsert / VectorShuffle take composites (constant
//    or OpUndef): the spec-constant folder dereferences a null composite otherwise (CompositeInsert
//    into an int).
//  - OpSpecConstantOp VectorShuffle's components select from its two vectors (or are 0xFFFFFFFF):
//    the folder hashes the null constant an out-of-range component gives.
//  - OpSpecConstantOp CompositeExtract / CompositeInsert indices lie inside their composite: the
//    folder dereferences the missing element otherwise (found by the fuzzer: an insert at index
//    2097152002 of a 3-vector).
std::string check_rules_validator_misses(std::span<const uint32_t> module) {
  std::unordered_map<uint32_t, spv::Op> constants;
  std::unordered_map<uint32_t, uint32_t> constant_types;  // constant (or OpUndef) id -> its type id
  std::unordered_map<uint32_t, spv::Op> types;
  std::unordered_map<uint32_t, uint32_t> vector_sizes;  // vector type id -> component count
  std::unordered_map<uint32_t, std::span<const uint32_t>> composite_types;  // composite type id -> its instruction
  std::unordered_map<uint32_t, uint32_t> constant_words;  // OpConstant / OpSpecConstant id -> its first value word
  for_each_instruction(module, [&](const RawInstruction& inst) {
    if (inst.opcode == spv::Op::OpTypeVector && inst.words.size() > 3) vector_sizes.emplace(inst.words[1], inst.words[3]);
    if (is_composite_type(inst.opcode) && inst.words.size() > 2) composite_types.emplace(inst.words[1], inst.words);
    if ((inst.opcode == spv::Op::OpConstant || inst.opcode == spv::Op::OpSpecConstant) && inst.words.size() > 3)
      constant_words.emplace(inst.words[2], inst.words[3]);
    if (is_constant_instruction(inst.opcode) && inst.words.size() > 2) {
      constants.emplace(inst.words[2], inst.opcode);
      constant_types.emplace(inst.words[2], inst.words[1]);
    }
    // An undefined composite is a composite operand too (a VectorShuffle's unused vector).
    if (inst.opcode == spv::Op::OpUndef && inst.words.size() > 2) constant_types.emplace(inst.words[2], inst.words[1]);
    const auto op = static_cast<uint32_t>(inst.opcode);
    if (op >= static_cast<uint32_t>(spv::Op::OpTypeVoid) && op <= static_cast<uint32_t>(spv::Op::OpTypeFunction) &&
        inst.words.size() > 1)
      types.emplace(inst.words[1], inst.opcode);
  });
  // The type of element `index` of a composite of `type`, or 0 when there is no such element.
  auto element_type = [&](uint32_t type, uint32_t index) -> uint32_t {
    const auto it = composite_types.find(type);
    if (it == composite_types.end()) return 0;
    const std::span<const uint32_t> w = it->second;
    switch (static_cast<spv::Op>(w[0] & 0xffff)) {
      case spv::Op::OpTypeVector:
      case spv::Op::OpTypeMatrix: return w.size() > 3 && index < w[3] ? w[2] : 0;
      case spv::Op::OpTypeArray: {
        const auto length = w.size() > 3 ? constant_words.find(w[3]) : constant_words.end();
        return length != constant_words.end() && index < length->second ? w[2] : 0;
      }
      case spv::Op::OpTypeStruct: return index < w.size() - 2 ? w[2 + index] : 0;
      default: return 0;
    }
  };
  auto is_composite_constant = [&](uint32_t id) {
    const auto type = constant_types.find(id);
    if (type == constant_types.end()) return false;
    const auto kind = types.find(type->second);
    return kind != types.end() && is_composite_type(kind->second);
  };
  std::string error;
  for_each_instruction(module, [&](const RawInstruction& inst) {
    if (!error.empty()) return;
    if (inst.opcode == spv::Op::OpExecutionModeId) {
      for (size_t i = 3; i < inst.words.size(); ++i)
        if (!constants.contains(inst.words[i]))
          error = "invalid SPIR-V: OpExecutionModeId operand %" + std::to_string(inst.words[i]) +
                  " is not a constant instruction";
      return;
    }
    if (inst.opcode != spv::Op::OpSpecConstantOp || inst.words.size() < 6) return;
    const auto op = static_cast<spv::Op>(inst.words[3]);
    std::vector<uint32_t> composites;  // operands that must be composite constants
    if (op == spv::Op::OpCompositeExtract) composites = {inst.words[4]};
    if (op == spv::Op::OpCompositeInsert) composites = {inst.words[5]};
    if (op == spv::Op::OpVectorShuffle) composites = {inst.words[4], inst.words[5]};
    for (uint32_t id : composites)
      if (!is_composite_constant(id)) {
        error = "invalid SPIR-V: OpSpecConstantOp %" + std::to_string(inst.words[2]) + " operand %" +
                std::to_string(id) + " is not a composite constant";
        return;
      }
    if (op == spv::Op::OpCompositeInsert && constant_types.at(inst.words[5]) != inst.words[1])
      error = "invalid SPIR-V: OpSpecConstantOp %" + std::to_string(inst.words[2]) +
              " CompositeInsert's composite is not of the result type";
    if (op == spv::Op::OpCompositeExtract || op == spv::Op::OpCompositeInsert) {
      const size_t composite_at = op == spv::Op::OpCompositeExtract ? 4 : 5;
      uint32_t type = constant_types.at(inst.words[composite_at]);
      for (size_t i = composite_at + 1; i < inst.words.size() && type; ++i) type = element_type(type, inst.words[i]);
      if (!type)
        error = "invalid SPIR-V: OpSpecConstantOp %" + std::to_string(inst.words[2]) +
                " indexes past the end of its composite";
    }
    if (op == spv::Op::OpVectorShuffle) {
      const auto size = [&](uint32_t id) {
        const auto it = vector_sizes.find(constant_types.at(id));
        return it == vector_sizes.end() ? 0u : it->second;
      };
      const uint64_t components = uint64_t{size(inst.words[4])} + size(inst.words[5]);
      for (size_t i = 6; i < inst.words.size(); ++i)
        if (inst.words[i] != 0xFFFFFFFFu && inst.words[i] >= components)
          error = "invalid SPIR-V: OpSpecConstantOp %" + std::to_string(inst.words[2]) + " VectorShuffle component " +
                  std::to_string(inst.words[i]) + " is past its vectors' " + std::to_string(components);
    }
  });
  if (error.empty()) error = check_no_void_operands(module);
  return error;
}

// Removes every entry point except (`name`, `model`), with their execution modes, so dead-code
// passes drop the other entry points' functions and globals. SPIRV-Tools 2023.1 has no pass for
// this; the module must already be valid. Returns an error message, or "" on success.
std::string keep_only_entry_point(std::vector<uint32_t>& module, std::string_view name, spv::ExecutionModel model) {
  uint32_t function_id = 0;
  std::string available;
  for_each_instruction(module, [&](const RawInstruction& inst) {
    if (inst.opcode != spv::Op::OpEntryPoint || inst.words.size() < 4) return;
    const auto inst_model = static_cast<spv::ExecutionModel>(inst.words[1]);
    const std::string inst_name = literal_string(inst.words, 3);
    if (inst_model == model && inst_name == name) function_id = inst.words[2];
    available += (available.empty() ? "" : ", ") + inst_name + " (execution model " +
                 std::to_string(static_cast<uint32_t>(inst_model)) + ")";
  });
  if (function_id == 0)
    return "the module has no entry point named '" + std::string(name) + "' with execution model " +
           std::to_string(static_cast<uint32_t>(model)) + "; it has: " + (available.empty() ? "none" : available);

  std::vector<uint32_t> kept(module.begin(), module.begin() + kHeaderWords);
  kept.reserve(module.size());
  for_each_instruction(module, [&](const RawInstruction& inst) {
    const bool other_entry_point =
        inst.opcode == spv::Op::OpEntryPoint && (inst.words.size() < 3 || inst.words[2] != function_id);
    const bool other_mode = (inst.opcode == spv::Op::OpExecutionMode || inst.opcode == spv::Op::OpExecutionModeId) &&
                            inst.words.size() > 1 && inst.words[1] != function_id;
    if (other_entry_point || other_mode) return;
    kept.insert(kept.end(), inst.words.begin(), inst.words.end());
  });
  module = std::move(kept);
  return "";
}

// The translator has no calls: every function is inlined into the entry point. DontInline is a
// hint that changes no result, so it is dropped before the inliner, which would honour it.
void drop_dont_inline(std::vector<uint32_t>& module) {
  size_t at = kHeaderWords;
  while (at < module.size()) {
    const uint32_t count = module[at] >> 16;
    if (count == 0 || count > module.size() - at) return;
    if (static_cast<spv::Op>(module[at] & 0xffff) == spv::Op::OpFunction && count == 5)
      module[at + 3] &= ~static_cast<uint32_t>(spv::FunctionControlMask::DontInline);
    at += count;
  }
}

// A VectorShuffle component 0xFFFFFFFF is undefined: any value will do. SPIRV-Tools 2023.1's
// spec-constant folder crashes on a spec-constant shuffle of such a shuffle (it clones a null
// instruction; found by fuzzing), so every undefined component, in OpSpecConstantOp and
// OpVectorShuffle alike, becomes component 0 first: a defined choice of the value it may have.
void define_undefined_shuffle_components(std::vector<uint32_t>& module) {
  size_t at = kHeaderWords;
  while (at < module.size()) {
    const uint32_t count = module[at] >> 16;
    if (count == 0 || count > module.size() - at) return;
    const auto op = static_cast<spv::Op>(module[at] & 0xffff);
    size_t first_component = 0;  // word index of the first component, 0: not a shuffle
    if (op == spv::Op::OpVectorShuffle) first_component = 5;
    if (op == spv::Op::OpSpecConstantOp && count > 3 && static_cast<spv::Op>(module[at + 3]) == spv::Op::OpVectorShuffle)
      first_component = 6;
    for (size_t i = first_component; first_component && i < count; ++i)
      if (module[at + i] == 0xFFFFFFFFu) module[at + i] = 0;
    at += count;
  }
}

// True when a Function or Private variable can hold a pointer (variable pointers, or a local
// PhysicalStorageBuffer reference). SPIRV-Tools 2023.1's ssa-rewrite drops the load through a
// pointer read back from such a variable when it becomes an OpPhi (SPIRV-Tools issue #6157), and
// private-to-local does not retype pointers to the variables it moves (#6156).
bool has_pointer_holding_variables(std::span<const uint32_t> module) {
  std::unordered_map<uint32_t, uint32_t> pointer_pointee;  // pointer type → pointee type
  for_each_instruction(module, [&](const RawInstruction& inst) {
    if (inst.opcode == spv::Op::OpTypePointer && inst.words.size() == 4) pointer_pointee.emplace(inst.words[1], inst.words[3]);
  });
  bool found = false;
  for_each_instruction(module, [&](const RawInstruction& inst) {
    if (inst.opcode != spv::Op::OpTypePointer || inst.words.size() != 4) return;
    const auto storage = static_cast<spv::StorageClass>(inst.words[2]);
    if ((storage == spv::StorageClass::Function || storage == spv::StorageClass::Private) &&
        pointer_pointee.contains(inst.words[3]))
      found = true;
  });
  return found;
}

bool imports_debug_printf(std::span<const uint32_t> module) {
  bool found = false;
  for_each_instruction(module, [&](const RawInstruction& inst) {
    if (inst.opcode == spv::Op::OpExtInstImport && literal_string(inst.words, 2) == kDebugPrintfSet) found = true;
  });
  return found;
}

// What SPIRV-Tools' strip-nonsemantic does to the other NonSemantic.* sets (shader debug info),
// keeping NonSemantic.DebugPrintf: their imports and every OpExtInst of them go (their results are
// used only by other instructions of such sets). SPIRV-Tools' passes keep DebugPrintf's OpExtInst,
// which has a side effect, where the shader has it.
void strip_nonsemantic_except_debug_printf(std::vector<uint32_t>& module) {
  const std::unordered_set<uint32_t> stripped_sets = stripped_nonsemantic_sets(module);
  if (stripped_sets.empty()) return;
  std::vector<uint32_t> out(module.begin(), module.begin() + kHeaderWords);
  for_each_instruction(module, [&](const RawInstruction& inst) {
    const bool stripped = (inst.opcode == spv::Op::OpExtInstImport && stripped_sets.contains(inst.words[1])) ||
                          (inst.opcode == spv::Op::OpExtInst && inst.words.size() > 3 && stripped_sets.contains(inst.words[3]));
    if (!stripped) out.insert(out.end(), inst.words.begin(), inst.words.end());
  });
  module = std::move(out);
}

// --- Passes ----------------------------------------------------------------------------------------

struct PassStep {
  const char* name;  // spirv-opt's flag name, for messages
  std::function<spvtools::Optimizer::PassToken()> make;
};

// Specialization: write the application's values into the OpSpecConstant* defaults and turn every
// SpecId constant into a plain constant. The first optimization step then folds the
// OpSpecConstantOp / OpSpecConstantComposite built from them (gl_WorkGroupSize,
// `const uint n = k * 2`) into plain constants too; between the two, Kiln folds QuantizeToF16
// itself (compiler/quantize_constants.h). What the pass cannot fold (it folds 32-bit integer
// operations) the translator evaluates at kernel entry (spirv::Module::deferred_spec_constants).
std::vector<PassStep> specialization_steps(const SpecializationInput& spec) {
  // SetSpecConstantDefaultValuePass takes SPIR-V literal words: one word for types up to 32 bits
  // (it masks or sign-extends 8- and 16-bit values itself; any nonzero word is `true` for a
  // bool, which Vulkan passes as a 4-byte VkBool32) and two words, low first, for 64-bit types.
  // A size that does not fit the constant's type leaves the default in place (invalid usage).
  std::unordered_map<uint32_t, std::vector<uint32_t>> literals;
  for (const auto& value : spec.values()) {
    std::vector<uint32_t> words{static_cast<uint32_t>(value.bits)};
    if (value.size == 8) words.push_back(static_cast<uint32_t>(value.bits >> 32));
    literals.emplace(value.constant_id, std::move(words));
  }
  std::vector<PassStep> steps;
  if (!literals.empty())
    steps.push_back({"set-spec-const-default-value",
                     [literals] { return spvtools::CreateSetSpecConstantDefaultValuePass(literals); }});
  steps.push_back({"freeze-spec-const", [] { return spvtools::CreateFreezeSpecConstantValuePass(); }});
  return steps;
}

// The fixed optimization list. Every pass here keeps structured control flow (merge and
// continue blocks) valid, which the translator's lane masks rely on; the order follows
// spirv-opt's -O recipe, trimmed to what helps a SIMD translator:
std::vector<PassStep> optimization_steps() {
  using namespace spvtools;
  return {
      // The rest of specialization (fold_quantize_to_f16_constants ran before it).
      {"fold-spec-const-op-composite", [] { return CreateFoldSpecConstantOpAndCompositePass(); }},
      // Decoration groups (OpDecorationGroup / OpGroupDecorate / OpGroupMemberDecorate) become the
      // plain decorations they stand for, which is all the module reader understands.
      {"flatten-decorations", [] { return CreateFlattenDecorationPass(); }},
      // NonSemantic.* instructions (shader debug info) carry nothing Kiln executes. A module that
      // calls debugPrintfEXT skips this pass: strip_nonsemantic_except_debug_printf did its work.
      {"strip-nonsemantic", [] { return CreateStripNonSemanticInfoPass(); }},
      // Functions only the removed entry points called.
      {"eliminate-dead-functions", [] { return CreateEliminateDeadFunctionsPass(); }},
      // Merge-return needs unreachable merge/continue blocks to be trivial, which this ensures.
      {"eliminate-dead-branches", [] { return CreateDeadBranchElimPass(); }},
      // The inliner refuses a function that contains OpKill/OpTerminateInvocation when it is called
      // from a continue construct (the back edge would no longer post-dominate the continue
      // target). This moves each such kill into a one-block function of its own, so the caller
      // inlines; the translator treats a call of that function as the kill itself.
      {"wrap-opkill", [] { return CreateWrapOpKillPass(); }},
      // One return per function. The translator handles early returns with a return mask, so
      // this is not for the entry point's sake: the inliner refuses functions that return from
      // inside a loop, and after merge-return there are none.
      {"merge-return", [] { return CreateMergeReturnPass(); }},
      // Inline every call (recursion is not allowed in shaders); OpFunctionCall remains only for
      // wrap-opkill's kill functions where a continue construct calls them.
      {"inline-entry-points-exhaustive", [] { return CreateInlineExhaustivePass(); }},
      {"eliminate-dead-functions", [] { return CreateEliminateDeadFunctionsPass(); }},
      // Private globals used by one function become Function variables, so SSA can take them.
      {"private-to-local", [] { return CreatePrivateToLocalPass(); }},
      // Split local structs/arrays (default limit: 100 elements) into scalar variables, and
      // constant-index access chains into OpCompositeExtract/Insert, so mem2reg can lift them.
      {"scalar-replacement", [] { return CreateScalarReplacementPass(); }},
      {"convert-local-access-chains", [] { return CreateLocalAccessChainConvertPass(); }},
      // mem2reg: Function-storage loads and stores become SSA values and OpPhi.
      {"local-single-block-elim", [] { return CreateLocalSingleBlockLoadStoreElimPass(); }},
      {"local-single-store-elim", [] { return CreateLocalSingleStoreElimPass(); }},
      {"ssa-rewrite", [] { return CreateSSARewritePass(); }},
      // Constant propagation (specialization constants included) and folding. Note: the folder
      // may fuse a*b+c into GLSL.std.450 Fma, which Vulkan's precision rules allow; the
      // translator should lower Fma as llvm.fmuladd so hosts without FMA stay fast.
      {"ccp", [] { return CreateCCPPass(); }},
      {"simplify-instructions", [] { return CreateSimplificationPass(); }},
      // Branches on now-constant conditions (`if (kFlag)`) and the code they guarded.
      {"eliminate-dead-branches", [] { return CreateDeadBranchElimPass(); }},
      {"aggressive-dce", [] { return CreateAggressiveDCEPass(); }},
      // Small if/else diamonds that only pick a value become OpSelect: no divergence to mask.
      {"if-conversion", [] { return CreateIfConversionPass(); }},
      {"redundancy-elimination", [] { return CreateRedundancyEliminationPass(); }},
      {"aggressive-dce", [] { return CreateAggressiveDCEPass(); }},
      // Straight-line block chains become one block (merge/continue targets are kept).
      {"merge-blocks", [] { return CreateBlockMergePass(); }},
  };
}

// Runs `steps` over `module` in one optimizer. The validator is off: the caller has validated
// with the options the device allows, which the optimizer's own validation would not know.
bool run_steps(const std::vector<PassStep>& steps, std::span<const uint32_t> module, std::vector<uint32_t>* out,
               std::string* error) {
  MessageCollector messages;
  spvtools::Optimizer optimizer(kTargetEnv);
  optimizer.SetMessageConsumer(messages.consumer());
  for (const auto& step : steps) optimizer.RegisterPass(step.make());
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  if (optimizer.Run(module.data(), module.size(), out, options)) return true;
  *error = messages.text().empty() ? "no message" : messages.text();
  return false;
}

// Runs the steps; when the combined run fails, replays them one by one to name the failing pass.
std::string optimize(std::vector<uint32_t>& module, const std::vector<PassStep>& steps) {
  std::vector<uint32_t> out;
  std::string error;
  if (run_steps(steps, module, &out, &error)) {
    module = std::move(out);
    return "";
  }
  std::vector<uint32_t> current = module;
  for (const auto& step : steps) {
    std::string step_error;
    if (!run_steps({step}, current, &out, &step_error)) return "SPIR-V pass " + std::string(step.name) + " failed: " + step_error;
    current = std::move(out);
  }
  return "SPIR-V optimization failed: " + error;
}

std::string validate(std::span<const uint32_t> module, const LayoutFeatures& layout) {
  MessageCollector messages;
  spvtools::SpirvTools tools(kTargetEnv);
  tools.SetMessageConsumer(messages.consumer());
  spvtools::ValidatorOptions options;
  options.SetUniformBufferStandardLayout(layout.uniform_buffer_standard_layout);
  options.SetScalarBlockLayout(layout.scalar_block_layout);
  options.SetWorkgroupScalarBlockLayout(layout.workgroup_scalar_block_layout);
  if (!tools.Validate(module.data(), module.size(), options))
    return "invalid SPIR-V: " + (messages.text().empty() ? std::string("no message") : messages.text());
  return check_rules_validator_misses(module);
}

// The steps of prepare_spirv after hashing; returns the prepared module or an error.
FrontResult prepare(const ShaderSource& source, const LayoutFeatures& layout, bool tag_accesses) {
  FrontResult result;
  std::vector<uint32_t> module = in_host_byte_order(source.words);
  if (module.size() < kHeaderWords) {
    result.error = "SPIR-V module too short: " + std::to_string(module.size()) + " words";
    return result;
  }
  if (module[0] != spv::MagicNumber) {
    result.error = "not a SPIR-V module: first word is " + std::to_string(module[0]) + ", not the SPIR-V magic number";
    return result;
  }
  if (std::string error = validate(module, layout); !error.empty()) {
    result.error = std::move(error);
    return result;
  }
  if (std::string error = keep_only_entry_point(module, source.entry_point, spirv::execution_model_of(source.stage));
      !error.empty()) {
    result.error = std::move(error);
    return result;
  }
  drop_dont_inline(module);
  define_undefined_shuffle_components(module);
  if (tag_accesses) module = tag_memory_accesses(module);
  std::vector<PassStep> steps;
  // The optimizer takes new ids below its maximum bound (0x3FFFFF, which is also the largest
  // bound a valid module may declare) and some passes crash when none is left (merge-return, on a
  // module whose bound the fuzzer set to the maximum). A module whose bound leaves little room is
  // renumbered first; ids are only names, so nothing else changes.
  constexpr uint32_t kRoomForNewIds = 0x100000;
  if (module[3] > 0x3FFFFF - kRoomForNewIds)
    steps.push_back({"compact-ids", [] { return spvtools::CreateCompactIdsPass(); }});
  for (auto& step : specialization_steps(source.specialization)) steps.push_back(std::move(step));
  if (std::string error = optimize(module, steps); !error.empty()) {
    result.error = std::move(error);
    return result;
  }
  fold_quantize_to_f16_constants(module);
  steps.clear();
  // Variables holding pointers stay variables: the translator keeps them in registers itself.
  const bool pointer_variables = has_pointer_holding_variables(module);
  const bool debug_printf = imports_debug_printf(module);
  if (debug_printf) strip_nonsemantic_except_debug_printf(module);
  for (auto& step : optimization_steps()) {
    const std::string_view name = step.name;
    if (pointer_variables && (name == "ssa-rewrite" || name == "private-to-local")) continue;
    if (debug_printf && name == "strip-nonsemantic") continue;
    steps.push_back(std::move(step));
  }
  if (std::string error = optimize(module, steps); !error.empty()) {
    result.error = std::move(error);
    return result;
  }
  result.words = std::move(module);
  return result;
}

}  // namespace

FrontResult prepare_spirv(const ShaderSource& source, const LayoutFeatures& layout, bool tag_accesses) {
  const uint64_t hash = shader_hash(source);
  dump_source_spirv(hash, source.stage, source.words);
  FrontResult result;
  try {
    result = prepare(source, layout, tag_accesses);
  } catch (const std::exception& e) {  // SPIRV-Tools may throw (std::bad_alloc at least)
    result = {};
    result.error = std::string("SPIR-V front end failed: ") + e.what();
  } catch (...) {
    result = {};
    result.error = "SPIR-V front end failed with an unknown exception";
  }
  result.source_hash = hash;
  if (result.ok()) dump_prepared_spirv(hash, source.stage, result.words);
  return result;
}

}  // namespace kiln::compiler
