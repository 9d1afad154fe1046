// Task and mesh kernels (ABI: common/abi/kernel_abi.h, "Task and mesh kernels";
// docs/design/mesh-shading.md).
//
// Both are compute kernels: one call runs one subgroup of a workgroup, workgroup variables,
// barriers and subgroup operations work as in compute. What a workgroup hands on lives in its
// shared memory: a MeshHeader first (SetMeshOutputsEXT's counts, EmitMeshTasksEXT's grid), then
// the variables — the task payload, and a mesh kernel's Output variables (per-vertex arrays,
// per-primitive arrays, the primitive index array) in natural layout, so any invocation may write
// any vertex or primitive and the engine reads them all once the workgroup is done. Where each
// vertex record word lives is reported in MeshInfo.
#include <algorithm>

#include "compiler/stage_interface.h"
#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

// Stores the 32-bit lanes `values` into the MeshHeader from byte `offset` on. SetMeshOutputsEXT
// and EmitMeshTasksEXT take their operands from the workgroup's first invocation: lane 0 of
// subgroup 0 stores them (the other invocations execute the instruction too, in uniform control
// flow, but their values may differ).
void store_header(Translator& t, uint32_t offset, const std::vector<llvm::Value*>& values) {
  auto& b = t.b();
  llvm::Value* subgroup = invocation_field(t, offsetof(abi::ComputeInvocation, subgroup_id), b.getInt32Ty());
  llvm::Value* first = b.CreateAnd(b.CreateICmpEQ(subgroup, b.getInt32(0)), b.CreateExtractElement(t.mask(), uint64_t{0}));
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  auto* store = llvm::BasicBlock::Create(t.ctx, "mesh_header", fn);
  auto* done = llvm::BasicBlock::Create(t.ctx, "mesh_header_done", fn);
  b.CreateCondBr(first, store, done);
  b.SetInsertPoint(store);
  llvm::Value* shared = invocation_field(t, offsetof(abi::ComputeInvocation, shared_memory), b.getPtrTy());
  for (size_t i = 0; i < values.size(); ++i)
    b.CreateAlignedStore(b.CreateExtractElement(values[i], uint64_t{0}),
                         b.CreateConstGEP1_64(b.getInt8Ty(), shared, offset + 4 * i), llvm::Align(4));
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

}  // namespace

uint32_t Translator::shared_variable(Id id, Id pointee) {
  auto& b = builder_;
  const uint32_t size = spirv::type_size(m, pointee);
  shared_bytes_ = (shared_bytes_ + 15) / 16 * 16;
  const uint32_t offset = shared_bytes_;
  shared_bytes_ = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{shared_bytes_} + size, UINT32_MAX));  // saturates: refused later
  shared_offsets_[id] = offset;
  pointers_[id] = region_pointer(invocation_field(*this, offsetof(abi::ComputeInvocation, shared_memory), b.getPtrTy()),
                                 offset, size, pointee);
  return offset;
}

bool Translator::mesh_instruction(const spirv::Instruction& inst, bool* handled) {
  *handled = inst.opcode == spv::Op::OpSetMeshOutputsEXT;
  if (!*handled) return true;
  if (entry.model != spv::ExecutionModel::MeshEXT) return fail(inst, "SetMeshOutputsEXT outside a mesh shader");
  store_header(*this, offsetof(abi::MeshHeader, vertex_count),
               {get(inst.operands[0]).leaves.at(0), get(inst.operands[1]).leaves.at(0)});
  return true;
}

void Translator::emit_mesh_tasks(const spirv::Instruction& inst) {
  std::vector<llvm::Value*> grid;
  for (uint32_t i = 0; i < 3; ++i) grid.push_back(get(inst.operands[i]).leaves.at(0));
  store_header(*this, offsetof(abi::MeshHeader, task_count), grid);
}

bool Translator::mesh_outputs(MeshInfo* info) {
  for (const auto& [mode, args] : entry.modes) {
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
    error_ = "a mesh shader needs an output topology and at most " + std::to_string(abi::kMaxMeshOutputVertices) +
             " vertices and " + std::to_string(abi::kMaxMeshOutputPrimitives) + " primitives";
    return false;
  }
  std::vector<InterfaceVariable> outputs;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> slots;
  if (!interface_variables(*this, false, &outputs, &error_) || !vertex_output_slots(*this, outputs, &info->outputs, &slots))
    return false;
  info->words.assign(size_t(info->outputs.slot_count) * 4, MeshOutputWord{});
  for (size_t i = 0; i < outputs.size(); ++i) {
    const InterfaceVariable& v = outputs[i];
    std::vector<uint32_t> offsets;
    natural_leaf_offsets(m, v.pointee, shared_offsets_.at(v.id), &offsets);
    if (!v.vertices || offsets.size() != v.leaves.size()) {
      error_ = "a mesh shader output that is not an array over vertices or primitives";
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

namespace {

std::unique_ptr<llvm::Module> translate_mesh_shading(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                     const TranslateOptions& options, llvm::LLVMContext& context,
                                                     const std::string& symbol, ComputeKernelInfo* info, MeshInfo* mesh,
                                                     std::string* error) {
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (!ir) return nullptr;
  *info = t.info_;
  *mesh = t.mesh_;
  if (entry.model == spv::ExecutionModel::MeshEXT && !t.mesh_outputs(mesh)) {
    *error = t.error_;
    return nullptr;
  }
  const uint32_t invocations = info->local_size[0] * info->local_size[1] * info->local_size[2];
  if (invocations > abi::kMaxMeshWorkgroupInvocations || mesh->payload_bytes > abi::kMaxTaskPayloadBytes) {
    *error = "a task or mesh workgroup larger than Kiln's limits";
    return nullptr;
  }
  return ir;
}

}  // namespace

std::unique_ptr<llvm::Module> translate_task(const spirv::Module& module, const spirv::EntryPoint& entry,
                                             const TranslateOptions& options, llvm::LLVMContext& context,
                                             const std::string& symbol, ComputeKernelInfo* info, MeshInfo* mesh,
                                             std::string* error) {
  if (entry.model != spv::ExecutionModel::TaskEXT) {
    *error = "not a task entry point";
    return nullptr;
  }
  return translate_mesh_shading(module, entry, options, context, symbol, info, mesh, error);
}

std::unique_ptr<llvm::Module> translate_mesh(const spirv::Module& module, const spirv::EntryPoint& entry,
                                             const TranslateOptions& options, llvm::LLVMContext& context,
                                             const std::string& symbol, ComputeKernelInfo* info, MeshInfo* mesh,
                                             std::string* error) {
  if (entry.model != spv::ExecutionModel::MeshEXT) {
    *error = "not a mesh entry point";
    return nullptr;
  }
  return translate_mesh_shading(module, entry, options, context, symbol, info, mesh, error);
}

}  // namespace kiln::compiler
