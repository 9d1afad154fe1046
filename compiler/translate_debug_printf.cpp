// debugPrintfEXT: NonSemantic.DebugPrintf's DebugPrintf instruction (docs/design/debug-output.md).
// The kernel does not format anything: it stores the arguments' bits per lane, the invocation's
// identity and the lanes that run the instruction into an abi::DebugPrintfCall and calls
// ResourceContext::debug_printf, which formats and reports one message per lane.
#include <cstddef>

#include "compiler/stage_emitter.h"
#include "compiler/translator_internal.h"

namespace kiln::compiler {

namespace {

constexpr uint32_t kDebugPrintfInstruction = 1;  // NonSemantic.DebugPrintf's only instruction

}  // namespace

ShaderStage stage_of(spv::ExecutionModel model) {
  switch (model) {
    case spv::ExecutionModel::Vertex: return ShaderStage::Vertex;
    case spv::ExecutionModel::TessellationControl: return ShaderStage::TessellationControl;
    case spv::ExecutionModel::TessellationEvaluation: return ShaderStage::TessellationEvaluation;
    case spv::ExecutionModel::Geometry: return ShaderStage::Geometry;
    case spv::ExecutionModel::Fragment: return ShaderStage::Fragment;
    case spv::ExecutionModel::TaskEXT: return ShaderStage::Task;
    case spv::ExecutionModel::MeshEXT: return ShaderStage::Mesh;
    default: return ShaderStage::Compute;
  }
}

// The built-ins that identify an invocation of this stage, as abi::DebugPrintfCall::ids lists them.
std::vector<llvm::Value*> Translator::debug_printf_ids() {
  auto& b = builder_;
  llvm::Type* lane_i32 = lane_type(b.getInt32Ty());
  std::vector<llvm::Value*> ids;
  for (auto [builtin, component] : stage_->debug_printf_ids()) {
    llvm::Value* v = builtin_value(builtin, component);
    if (!v) v = splat(b.getInt32(0));
    if (v->getType() != lane_i32) {
      // FragCoord: the pixel holding the centre; TessCoord: its float bits.
      v = builtin == spv::BuiltIn::FragCoord ? b.CreateFPToSI(v, lane_i32) : b.CreateBitCast(v, lane_i32);
    }
    ids.push_back(v);
  }
  return ids;
}

void Translator::store_invocation_ids(llvm::Value* ids) {
  const std::vector<llvm::Value*> values = debug_printf_ids();
  for (size_t j = 0; j < values.size(); ++j)
    builder_.CreateAlignedStore(values[j], builder_.CreateConstGEP1_64(builder_.getInt8Ty(), ids, j * abi::kMaxDebugPrintfLanes * 4),
                                llvm::Align(4));
}

bool Translator::debug_printf_instruction(const spirv::Instruction& inst) {
  auto& b = builder_;
  const auto& ops = inst.operands;
  if (ops.size() < 2 || ops[1] != kDebugPrintfInstruction) return true;  // nothing else in the set
  const std::string* format = ops.size() > 2 ? m.string(ops[2]) : nullptr;
  if (!format) return fail(inst, "DebugPrintf's format is not an OpString");

  llvm::Type* i8 = b.getInt8Ty();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* i64 = b.getInt64Ty();
  const uint32_t w = width();

  // Every argument component as <W x i64> bits, with its kind.
  std::vector<uint8_t> kinds;
  std::vector<llvm::Value*> bits;
  for (size_t i = 3; i < ops.size(); ++i) {
    if (const std::string* text = m.string(ops[i])) {  // %s: a pointer to the text
      kinds.push_back(0);
      bits.push_back(splat(b.CreatePtrToInt(b.CreateGlobalString(*text, "printf_string"), i64)));
      continue;
    }
    const Id type = type_of(ops[i]);
    if (!type) return fail(inst, "DebugPrintf argument %" + std::to_string(ops[i]) + " is not a value");
    std::vector<Id> scalars;
    scalar_types(type, &scalars);
    Value value = get(ops[i]);
    if (value.leaves.size() != scalars.size()) return fail(inst, "DebugPrintf argument of an unsupported type");
    for (size_t k = 0; k < scalars.size(); ++k) {
      const spirv::Type& st = m.type(scalars[k]);
      llvm::Value* leaf = value.leaves[k];
      uint8_t kind;
      if (st.kind == spirv::TypeKind::Float) {
        kind = uint8_t(st.width) | abi::kPrintfFloat;
        leaf = b.CreateBitCast(leaf, lane_type(b.getIntNTy(st.width)));
      } else if (st.kind == spirv::TypeKind::Int) {
        kind = uint8_t(st.width);
      } else if (st.kind == spirv::TypeKind::Bool) {
        kind = 32;
      } else {
        return fail(inst, "DebugPrintf argument of an unsupported type");
      }
      kinds.push_back(kind);
      bits.push_back(b.CreateZExtOrTrunc(leaf, lane_type(i64)));
    }
  }

  // The call record and the argument array live in the kernel's frame.
  auto* call_type = llvm::ArrayType::get(i8, sizeof(abi::DebugPrintfCall));
  llvm::AllocaInst* call = alloca_builder_.CreateAlloca(call_type, nullptr, "printf_call");
  call->setAlignment(llvm::Align(16));
  llvm::Value* values = llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx, 0));
  if (!bits.empty()) {
    llvm::AllocaInst* array = alloca_builder_.CreateAlloca(llvm::ArrayType::get(i64, bits.size() * w), nullptr, "printf_values");
    array->setAlignment(llvm::Align(16));
    for (size_t k = 0; k < bits.size(); ++k)
      b.CreateAlignedStore(bits[k], b.CreateConstGEP1_64(i8, array, k * w * 8), llvm::Align(8));
    values = array;
  }
  auto field = [&](size_t offset) { return b.CreateConstGEP1_64(i8, call, offset); };
  using C = abi::DebugPrintfCall;
  b.CreateStore(b.CreateGlobalString(*format, "printf_format"), field(offsetof(C, format)));
  auto* kinds_type = llvm::ArrayType::get(i8, std::max<size_t>(kinds.size(), 1));
  std::vector<llvm::Constant*> kind_constants;
  for (uint8_t k : kinds) kind_constants.push_back(b.getInt8(k));
  if (kind_constants.empty()) kind_constants.push_back(b.getInt8(0));
  auto* kinds_global = new llvm::GlobalVariable(*llvm_module, kinds_type, true, llvm::GlobalValue::PrivateLinkage,
                                                llvm::ConstantArray::get(kinds_type, kind_constants), "printf_kinds");
  b.CreateStore(kinds_global, field(offsetof(C, kinds)));
  b.CreateStore(b.getInt32(uint32_t(bits.size())), field(offsetof(C, value_count)));
  b.CreateStore(b.getInt32(uint32_t(stage_of(entry.model))), field(offsetof(C, stage)));
  b.CreateStore(b.getInt32(w), field(offsetof(C, width)));
  // The lanes that run the instruction; fragment helper lanes only run for derivatives.
  llvm::Value* lanes = stage_->without_helpers(mask_);
  lanes = b.CreateZExt(b.CreateBitCast(lanes, b.getIntNTy(w)), i32);
  b.CreateStore(lanes, field(offsetof(C, lanes)));
  b.CreateStore(values, field(offsetof(C, values)));
  store_invocation_ids(field(offsetof(C, ids)));

  call_engine(offsetof(abi::ResourceContext, debug_printf), offsetof(abi::ResourceContext, debug_printf_context), lanes,
              call);
  return true;
}

void Translator::call_engine(size_t fn_offset, size_t context_offset, llvm::Value* lanes, llvm::Value* record) {
  auto& b = builder_;
  llvm::Type* i8 = b.getInt8Ty();
  llvm::Type* ptr = b.getPtrTy();
  llvm::Value* fn = b.CreateLoad(ptr, b.CreateConstGEP1_64(i8, resources, fn_offset));
  llvm::Value* context = b.CreateLoad(ptr, b.CreateConstGEP1_64(i8, resources, context_offset));
  llvm::Value* go = b.CreateAnd(b.CreateIsNotNull(fn), b.CreateICmpNE(lanes, b.getInt32(0)));
  auto* call_block = llvm::BasicBlock::Create(ctx, "engine_call", function);
  auto* after = llvm::BasicBlock::Create(ctx, "engine_call_after", function);
  b.CreateCondBr(go, call_block, after);
  b.SetInsertPoint(call_block);
  b.CreateCall(llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr}, false), fn, {context, record});
  b.CreateBr(after);
  b.SetInsertPoint(after);
}

}  // namespace kiln::compiler
