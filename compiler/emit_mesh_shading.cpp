// Task and mesh kernels' common part (emit_mesh_shading.h; ABI: common/abi/kernel_abi.h, "Task
// and mesh kernels"). Both are compute kernels: one call runs one subgroup of a workgroup, and
// workgroup variables, barriers and subgroup operations work as in compute. What a workgroup hands
// on lives in its shared memory: a MeshHeader first (SetMeshOutputsEXT's counts,
// EmitMeshTasksEXT's grid), then the variables in natural layout.
#include "compiler/emit_mesh_shading.h"

#include <cstddef>

#include "compiler/stage_interface.h"

namespace kiln::compiler {

void MeshShadingEmitter::begin_kernel() {
  WorkgroupEmitter::begin_kernel();
  shared_bytes_ = abi::kMeshHeaderBytes;  // shared memory starts with the MeshHeader
}

bool MeshShadingEmitter::declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane) {
  if (var.storage_class != spv::StorageClass::TaskPayloadWorkgroupEXT)
    return WorkgroupEmitter::declare_variable(id, var, pointee, per_lane);
  mesh_.payload_offset = shared_variable(id, pointee);
  mesh_.payload_bytes = spirv::type_size(t_.m, pointee);
  return true;
}

// SetMeshOutputsEXT and EmitMeshTasksEXT take their operands from the workgroup's first
// invocation: lane 0 of subgroup 0 stores them (the other invocations execute the instruction too,
// in uniform control flow, but their values may differ).
void MeshShadingEmitter::store_header(uint32_t offset, const std::vector<llvm::Value*>& values) {
  auto& b = t_.b();
  llvm::Value* subgroup = invocation_field(t_, offsetof(abi::ComputeInvocation, subgroup_id), b.getInt32Ty());
  llvm::Value* first = b.CreateAnd(b.CreateICmpEQ(subgroup, b.getInt32(0)), b.CreateExtractElement(t_.mask(), uint64_t{0}));
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  auto* store = llvm::BasicBlock::Create(t_.ctx, "mesh_header", fn);
  auto* done = llvm::BasicBlock::Create(t_.ctx, "mesh_header_done", fn);
  b.CreateCondBr(first, store, done);
  b.SetInsertPoint(store);
  llvm::Value* shared = invocation_field(t_, offsetof(abi::ComputeInvocation, shared_memory), b.getPtrTy());
  for (size_t i = 0; i < values.size(); ++i)
    b.CreateAlignedStore(b.CreateExtractElement(values[i], uint64_t{0}),
                         b.CreateConstGEP1_64(b.getInt8Ty(), shared, offset + 4 * i), llvm::Align(4));
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

std::unique_ptr<llvm::Module> translate_mesh_shading(Translator& t, ComputeKernelInfo* info, MeshInfo* mesh,
                                                     std::string* error) {
  auto ir = t.run(error);
  if (!ir) return nullptr;
  auto& stage = static_cast<MeshShadingEmitter&>(t.stage());
  *info = stage.info();
  if (!stage.report(mesh)) {
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

}  // namespace kiln::compiler
