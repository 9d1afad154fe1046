// What a stage does where it does nothing special (StageEmitter's defaults), and the factory that
// picks a stage's emitter by execution model.
#include "compiler/stage_emitter.h"

#include <string>

namespace kiln::compiler {

llvm::Type* StageEmitter::return_type() const { return llvm::Type::getVoidTy(t_.ctx); }

bool StageEmitter::declare_variable(Id id, const spirv::Variable& var, Id pointee, bool*) {
  switch (var.storage_class) {
    case spv::StorageClass::Input: {
      const auto builtin = t_.m.decorations(id).builtin;
      if (!builtin) {
        t_.error_ = "compute shaders have no non-built-in inputs";
        return false;
      }
      Pointer p;
      p.kind = PointerKind::Builtin;
      p.pointee = pointee;
      p.builtin = *builtin;
      t_.pointers_[id] = p;
      return true;
    }
    case spv::StorageClass::Output: t_.error_ = "outputs are not supported in this stage"; return false;
    case spv::StorageClass::TaskPayloadWorkgroupEXT: t_.error_ = "a task payload outside task and mesh shaders"; return false;
    default:
      t_.error_ = "unsupported storage class " + std::to_string(static_cast<unsigned>(var.storage_class));
      return false;
  }
}

bool StageEmitter::instruction(const spirv::Instruction&, bool* handled) {
  *handled = false;
  return true;
}

bool StageEmitter::terminator(const spirv::Instruction& inst, bool* handled) {
  // Only fragment shaders may kill (the validator sees to it): elsewhere the lanes simply end.
  *handled = inst.opcode == spv::Op::OpKill || inst.opcode == spv::Op::OpTerminateInvocation;
  return true;
}

bool StageEmitter::workgroup_barrier(const spirv::Instruction& inst) {
  return t_.fail(inst, "a workgroup barrier outside compute, task, mesh and tessellation control shaders");
}

bool StageEmitter::epilogue() {
  t_.b().CreateRetVoid();
  return true;
}

bool StageEmitter::interpolate_at(const spirv::Instruction& inst) {
  return t_.fail(inst, "InterpolateAt* outside a fragment shader");
}

std::optional<Value> StageEmitter::subpass_coordinates(const Value&) { return std::nullopt; }

void StageEmitter::call_engine_barrier(size_t function_offset, size_t context_offset) {
  auto& b = t_.b();
  llvm::Value* fn = b.CreateLoad(b.getPtrTy(), b.CreateConstGEP1_64(b.getInt8Ty(), t_.invocation, function_offset));
  llvm::Value* context = b.CreateLoad(b.getPtrTy(), b.CreateConstGEP1_64(b.getInt8Ty(), t_.invocation, context_offset));
  b.CreateCall(llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy()}, false), fn, {context});
}

bool entry_point_is(const spirv::EntryPoint& entry, spv::ExecutionModel model, const char* stage, std::string* error) {
  if (entry.model == model) return true;
  *error = std::string("not a ") + stage + " entry point";
  return false;
}

std::unique_ptr<StageEmitter> make_stage_emitter(Translator& t) {
  switch (t.entry.model) {
    case spv::ExecutionModel::TaskEXT: return make_task_emitter(t);
    case spv::ExecutionModel::MeshEXT: return make_mesh_emitter(t);
    case spv::ExecutionModel::Vertex: return make_vertex_emitter(t);
    case spv::ExecutionModel::TessellationControl: return make_tess_control_emitter(t);
    case spv::ExecutionModel::TessellationEvaluation: return make_tess_evaluation_emitter(t);
    case spv::ExecutionModel::Geometry: return make_geometry_emitter(t);
    case spv::ExecutionModel::Fragment: return make_fragment_emitter(t);
    default: return make_compute_emitter(t);
  }
}

}  // namespace kiln::compiler
