// Mesh kernels: besides the task payload, a workgroup's Output variables live in its shared
// memory — per-vertex arrays, per-primitive arrays, the primitive index array — in natural layout,
// so any invocation may write any vertex or primitive and the engine reads them all once the
// workgroup is done. SetMeshOutputsEXT's counts go into the MeshHeader (emit_mesh_shading.h);
// where each vertex record word lives is reported in MeshInfo.
#include <string>

#include "compiler/emit_mesh_shading.h"
#include "compiler/stage_interface.h"

namespace kiln::compiler {
namespace {

class MeshEmitter final : public MeshShadingEmitter {
 public:
  using MeshShadingEmitter::MeshShadingEmitter;

  bool declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane) override {
    if (var.storage_class != spv::StorageClass::Output) return MeshShadingEmitter::declare_variable(id, var, pointee, per_lane);
    shared_variable(id, pointee);  // the workgroup's outputs: shared memory
    return true;
  }

  bool instruction(const spirv::Instruction& inst, bool* handled) override {
    *handled = inst.opcode == spv::Op::OpSetMeshOutputsEXT;
    if (*handled)
      store_header(offsetof(abi::MeshHeader, vertex_count),
                   {t_.get(inst.operands[0]).leaves.at(0), t_.get(inst.operands[1]).leaves.at(0)});
    return true;
  }

  bool report(MeshInfo* info) override;
};

// The payload's place, the output topology and limits, and where each output lives.
bool MeshEmitter::report(MeshInfo* info) {
  *info = mesh_;
  const spirv::Module& m = t_.m;
  for (const auto& [mode, args] : t_.entry.modes) {
    switch (mode) {
      case spv::ExecutionMode::OutputPoints: info->output = 1; break;
      case spv::ExecutionMode::OutputLinesEXT: info->output = 2; break;
      case spv::ExecutionMode::OutputTrianglesEXT: info->output = 3; break;
      case spv::ExecutionMode::OutputVertices:
        if (!args.empty()) info->max_vertices = args[0];
        break;
      case spv::ExecutionMode::OutputPrimitivesEXT:
        if (!args.empty()) info->max_primitives = args[0];
        break;
      default: break;
    }
  }
  if (!info->output || info->max_vertices > abi::kMaxMeshOutputVertices ||
      info->max_primitives > abi::kMaxMeshOutputPrimitives) {
    t_.error_ = "a mesh shader needs an output topology and at most " + std::to_string(abi::kMaxMeshOutputVertices) +
                " vertices and " + std::to_string(abi::kMaxMeshOutputPrimitives) + " primitives";
    return false;
  }
  std::vector<InterfaceVariable> outputs;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> slots;
  if (!interface_variables(t_, false, &outputs, &t_.error_) || !vertex_output_slots(t_, outputs, &info->outputs, &slots))
    return false;
  info->words.assign(size_t(info->outputs.slot_count) * 4, MeshOutputWord{});
  for (size_t i = 0; i < outputs.size(); ++i) {
    const InterfaceVariable& v = outputs[i];
    std::vector<uint32_t> offsets;
    natural_leaf_offsets(m, v.pointee, shared_offsets_.at(v.id), &offsets);
    if (!v.vertices || offsets.size() != v.leaves.size()) {
      t_.error_ = "a mesh shader output that is not an array over vertices or primitives";
      return false;
    }
    const uint32_t stride = spirv::array_stride(m, v.pointee);
    const size_t per_element = v.leaves.size() / v.vertices;
    for (size_t k = 0; k < per_element; ++k) {
      const InterfaceLeaf& leaf = v.leaves[k];
      const abi::StageOutputAddress at{int32_t(offsets[k]), stride};
      switch (leaf.builtin) {
        case spv::BuiltIn::PrimitivePointIndicesEXT:
        case spv::BuiltIn::PrimitiveLineIndicesEXT:
        case spv::BuiltIn::PrimitiveTriangleIndicesEXT:
          if (k == 0) info->indices = at;
          continue;
        case spv::BuiltIn::CullPrimitiveEXT: info->cull = at; continue;
        default: break;
      }
      const auto [slot, component] = slots[i][k];
      if (slot == kNoSlot) continue;
      for (uint32_t half = 0; half < (leaf.wide ? 2u : 1u); ++half)
        info->words[size_t(slot) * 4 + component + half] = {at.offset + int32_t(4 * half), stride, v.per_primitive};
    }
  }
  return true;
}

}  // namespace

std::unique_ptr<StageEmitter> make_mesh_emitter(Translator& t) { return std::make_unique<MeshEmitter>(t); }

std::unique_ptr<llvm::Module> translate_mesh(const spirv::Module& module, const spirv::EntryPoint& entry,
                                             const TranslateOptions& options, llvm::LLVMContext& context,
                                             const std::string& symbol, ComputeKernelInfo* info, MeshInfo* mesh,
                                             std::string* error) {
  if (!entry_point_is(entry, spv::ExecutionModel::MeshEXT, "mesh", error)) return nullptr;
  Translator t(module, entry, options, context, symbol);
  return translate_mesh_shading(t, info, mesh, error);
}

}  // namespace kiln::compiler
