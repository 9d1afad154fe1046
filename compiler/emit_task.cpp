// Task kernels: a workgroup writes its task payload and ends with OpEmitMeshTasksEXT, whose grid
// of mesh workgroups goes into the MeshHeader (emit_mesh_shading.h).
#include "compiler/emit_mesh_shading.h"

namespace kiln::compiler {
namespace {

class TaskEmitter final : public MeshShadingEmitter {
 public:
  using MeshShadingEmitter::MeshShadingEmitter;

  bool terminator(const spirv::Instruction& inst, bool* handled) override {
    if (inst.opcode != spv::Op::OpEmitMeshTasksEXT) return MeshShadingEmitter::terminator(inst, handled);
    std::vector<llvm::Value*> grid;
    for (uint32_t i = 0; i < 3; ++i) grid.push_back(t_.get(inst.operands[i]).leaves.at(0));
    store_header(offsetof(abi::MeshHeader, task_count), grid);
    *handled = true;  // it ends the invocation
    return true;
  }
};

}  // namespace

std::unique_ptr<StageEmitter> make_task_emitter(Translator& t) { return std::make_unique<TaskEmitter>(t); }

std::unique_ptr<llvm::Module> translate_task(const spirv::Module& module, const spirv::EntryPoint& entry,
                                             const TranslateOptions& options, llvm::LLVMContext& context,
                                             const std::string& symbol, ComputeKernelInfo* info, MeshInfo* mesh,
                                             std::string* error) {
  if (!entry_point_is(entry, spv::ExecutionModel::TaskEXT, "task", error)) return nullptr;
  Translator t(module, entry, options, context, symbol);
  return translate_mesh_shading(t, info, mesh, error);
}

}  // namespace kiln::compiler
