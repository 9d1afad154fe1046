// The graphics stages' emitter while their translation still lives in the Translator
// (translate_stage_io.cpp, translate_tessellation.cpp, translate_geometry.cpp).
#include "compiler/stage_emitter.h"

namespace kiln::compiler {
namespace {

class GraphicsStagesEmitter final : public StageEmitter {
 public:
  using StageEmitter::StageEmitter;

  llvm::Type* return_type() const override {
    // Fragment kernels return the lanes that were not discarded (abi::FragmentKernelFn).
    return t_.entry.model == spv::ExecutionModel::Fragment ? llvm::Type::getInt32Ty(t_.ctx) : StageEmitter::return_type();
  }
  void begin_kernel() override { t_.begin_graphics_kernel(); }
  bool declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane) override {
    if (var.storage_class == spv::StorageClass::Output) {
      if (t_.entry.model == spv::ExecutionModel::TessellationControl) return t_.tess_control_output(id, pointee);
      *per_lane = true;
      return true;
    }
    if (var.storage_class == spv::StorageClass::Input && t_.is_stage_io_variable(id, var)) {
      *per_lane = true;  // filled by the prologue
      return true;
    }
    return StageEmitter::declare_variable(id, var, pointee, per_lane);
  }
  bool prologue() override { return t_.graphics_prologue(); }
  llvm::Value* builtin(spv::BuiltIn builtin, uint32_t component) override { return t_.graphics_builtin(builtin, component); }
  bool instruction(const spirv::Instruction& inst, bool* handled) override { return t_.stage_instruction(inst, handled); }
  bool terminator(const spirv::Instruction& inst, bool* handled) override {
    if (inst.opcode == spv::Op::OpKill || inst.opcode == spv::Op::OpTerminateInvocation) t_.note_discard();
    return StageEmitter::terminator(inst, handled);
  }
  bool workgroup_barrier(const spirv::Instruction& inst) override {
    if (t_.entry.model != spv::ExecutionModel::TessellationControl) return StageEmitter::workgroup_barrier(inst);
    t_.tess_control_.uses_barrier = true;
    call_engine_barrier(offsetof(abi::TessControlInvocation, barrier), offsetof(abi::TessControlInvocation, barrier_context));
    return true;
  }
  bool epilogue() override { return t_.graphics_epilogue(); }
  llvm::Value* without_helpers(llvm::Value* lanes) override { return t_.without_helpers(lanes); }
  bool runs_on_fiber() const override { return t_.entry.model == spv::ExecutionModel::TessellationControl; }
  bool interpolate_at(const spirv::Instruction& inst) override { return t_.interpolate_at(inst); }
  std::optional<Value> subpass_coordinates(const Value& offset) override {
    if (t_.entry.model != spv::ExecutionModel::Fragment) return std::nullopt;
    return t_.subpass_coordinates(offset);
  }
  std::vector<BuiltinElement> debug_printf_ids() override {
    switch (t_.entry.model) {
      case spv::ExecutionModel::Vertex: return {{spv::BuiltIn::VertexIndex, 0}, {spv::BuiltIn::InstanceIndex, 0}};
      case spv::ExecutionModel::TessellationControl:
      case spv::ExecutionModel::Geometry: return {{spv::BuiltIn::PrimitiveId, 0}, {spv::BuiltIn::InvocationId, 0}};
      case spv::ExecutionModel::TessellationEvaluation:
        return {{spv::BuiltIn::PrimitiveId, 0}, {spv::BuiltIn::TessCoord, 0}, {spv::BuiltIn::TessCoord, 1}, {spv::BuiltIn::TessCoord, 2}};
      default:
        t_.fragment_interface_.reads_frag_coord = true;
        return {{spv::BuiltIn::FragCoord, 0}, {spv::BuiltIn::FragCoord, 1}};
    }
  }
};

}  // namespace

std::unique_ptr<StageEmitter> make_graphics_stages_emitter(Translator& t) { return std::make_unique<GraphicsStagesEmitter>(t); }

}  // namespace kiln::compiler
