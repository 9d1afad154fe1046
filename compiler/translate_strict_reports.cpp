// Strict mode's shader reports (KILN_STRICT=1, docs/strict-mode.md): while an instruction is
// translated, the lanes that fault are gathered per kind — buffer accesses outside their
// descriptor's range (lanes_in_bounds), storage image and texel buffer accesses outside the view
// (texel_address), buffer loads that read poison (load) — and after it one abi::ShaderFaultCall per
// kind is filled and ResourceContext::shader_fault called when any lane faulted. Accesses stay
// robust (out-of-bounds lanes read zero, write nothing): the report is what strict mode adds.
#include <cstddef>

#include "compiler/strict_access_tags.h"
#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

// The poison of strict mode's new memory (pipeline/strict: bytes DE AD BE EF repeated) as a
// value of `bits` bits, or 0 when a value that wide cannot tell poison from data.
uint64_t poison_value(uint32_t bits) {
  if (bits == 32) return 0xEFBEADDEull;
  if (bits == 64) return 0xEFBEADDEEFBEADDEull;
  return 0;
}

}  // namespace

void Translator::note_shader_fault(uint32_t kind, llvm::Value* lanes) {
  llvm::Value*& faults = shader_faults_[__builtin_ctz(kind)];
  faults = faults ? builder_.CreateOr(faults, lanes) : lanes;
}

void Translator::note_out_of_bounds(llvm::Value* lanes, const Pointer& p) {
  note_shader_fault(abi::kShaderFaultBufferBounds, builder_.CreateAnd(lanes, builder_.CreateICmpNE(p.lo, p.hi)));
}

void Translator::note_poison_read(const Pointer& p, llvm::Value* value) {
  // Buffer memory only: Function/Private copies and workgroup memory are never poisoned.
  if (p.kind != PointerKind::Memory || !p.explicit_layout || p.lanes_interleaved) return;
  auto& b = builder_;
  const uint32_t bits = value->getType()->getScalarSizeInBits();
  const uint64_t poison = poison_value(bits);
  if (!poison) return;
  llvm::Value* as_int = b.CreateBitCast(value, lane_type(b.getIntNTy(bits)));
  note_shader_fault(abi::kShaderFaultPoisonRead,
                    b.CreateAnd(mask_, b.CreateICmpEQ(as_int, splat(b.getIntN(bits, poison)))));
}

void Translator::report_shader_faults(const spirv::Instruction& inst) {
  for (uint32_t index = 0; index < shader_faults_.size(); ++index) {
    llvm::Value* faulted = shader_faults_[index];
    shader_faults_[index] = nullptr;
    if (!faulted) continue;
    auto& b = builder_;
    llvm::Type* i8 = b.getInt8Ty();
    llvm::Type* i32 = b.getInt32Ty();

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
    b.CreateStore(b.getInt32(1u << index), field(offsetof(C, kind)));
    b.CreateStore(b.CreateGlobalString(site, "fault_site"), field(offsetof(C, site)));
    b.CreateStore(has_line ? static_cast<llvm::Value*>(b.CreateGlobalString(*file, "fault_file"))
                           : llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx, 0)),
                  field(offsetof(C, file)));
    b.CreateStore(b.getInt32(has_line ? inst.source.line : 0), field(offsetof(C, line)));
    b.CreateStore(b.getInt32(uint32_t(stage_of(entry.model))), field(offsetof(C, stage)));
    llvm::Value* lanes = b.CreateZExt(b.CreateBitCast(faulted, b.getIntNTy(width())), i32);
    b.CreateStore(lanes, field(offsetof(C, lanes)));
    store_invocation_ids(field(offsetof(C, ids)));

    call_engine(offsetof(abi::ResourceContext, shader_fault), offsetof(abi::ResourceContext, shader_fault_context), lanes,
                call);
  }
}

}  // namespace kiln::compiler
