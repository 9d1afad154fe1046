// Strict mode's shader reports (KILN_STRICT=1, docs/strict-mode.md): the lanes of an instruction
// whose buffer accesses went outside their descriptor's range are gathered while it is translated
// (note_out_of_bounds, from lanes_in_bounds), and after it one abi::ShaderFaultCall is filled and
// ResourceContext::shader_fault called when any lane went out. The access itself stays robust
// (out-of-bounds lanes read zero, write nothing): the report is what strict mode adds.
#include <cstddef>

#include "compiler/strict_access_tags.h"
#include "compiler/translator_internal.h"

namespace kiln::compiler {

void Translator::note_out_of_bounds(llvm::Value* lanes, const Pointer& p) {
  auto& b = builder_;
  lanes = b.CreateAnd(lanes, b.CreateICmpNE(p.lo, p.hi));
  out_of_bounds_ = out_of_bounds_ ? b.CreateOr(out_of_bounds_, lanes) : lanes;
}

void Translator::report_out_of_bounds(const spirv::Instruction& inst) {
  llvm::Value* out = out_of_bounds_;
  out_of_bounds_ = nullptr;
  if (!out) return;
  auto& b = builder_;
  llvm::Type* i8 = b.getInt8Ty();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* ptr = b.getPtrTy();

  // The application's id when the front end tagged the access, else the id Kiln's passes left.
  const bool tagged = (inst.source.column & kStrictAccessTag) != 0;
  const uint32_t id = tagged ? inst.source.column & ~kStrictAccessTag
                             : (inst.result ? inst.result : (inst.operands.empty() ? 0 : inst.operands[0]));
  std::string site = describe_memory_access(static_cast<uint32_t>(inst.opcode), id);
  if (!tagged) site += " (an id of Kiln's optimized module)";
  const std::string* file = inst.source.file ? m.string(inst.source.file) : nullptr;
  const bool has_line = file && !file->empty();

  using C = abi::ShaderFaultCall;
  llvm::AllocaInst* call = alloca_builder_.CreateAlloca(llvm::ArrayType::get(i8, sizeof(C)), nullptr, "fault_call");
  call->setAlignment(llvm::Align(16));
  auto field = [&](size_t offset) { return b.CreateConstGEP1_64(i8, call, offset); };
  b.CreateStore(b.CreateGlobalString(site, "fault_site"), field(offsetof(C, site)));
  b.CreateStore(has_line ? static_cast<llvm::Value*>(b.CreateGlobalString(*file, "fault_file"))
                         : llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx, 0)),
                field(offsetof(C, file)));
  b.CreateStore(b.getInt32(has_line ? inst.source.line : 0), field(offsetof(C, line)));
  b.CreateStore(b.getInt32(uint32_t(stage_of(entry.model))), field(offsetof(C, stage)));
  llvm::Value* lanes = b.CreateZExt(b.CreateBitCast(out, b.getIntNTy(width())), i32);
  b.CreateStore(lanes, field(offsetof(C, lanes)));
  store_invocation_ids(field(offsetof(C, ids)));

  llvm::Value* fn = b.CreateLoad(ptr, b.CreateConstGEP1_64(i8, resources, offsetof(abi::ResourceContext, shader_fault)));
  llvm::Value* context =
      b.CreateLoad(ptr, b.CreateConstGEP1_64(i8, resources, offsetof(abi::ResourceContext, shader_fault_context)));
  llvm::Value* go = b.CreateAnd(b.CreateIsNotNull(fn), b.CreateICmpNE(lanes, b.getInt32(0)));
  auto* call_block = llvm::BasicBlock::Create(ctx, "fault_call", function);
  auto* after = llvm::BasicBlock::Create(ctx, "fault_after", function);
  b.CreateCondBr(go, call_block, after);
  b.SetInsertPoint(call_block);
  b.CreateCall(llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr}, false), fn, {context, call});
  b.CreateBr(after);
  b.SetInsertPoint(after);
}

}  // namespace kiln::compiler
