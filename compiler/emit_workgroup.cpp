// Compute, task and mesh kernels' common part (emit_workgroup.h). A call runs subgroup
// `subgroup_id` of a workgroup: its lanes are local invocation indices subgroup_id * W + lane, and
// lanes past the workgroup's end never run. Workgroup variables live in the workgroup's shared
// memory, which the engine zeroes before each workgroup.
#include "compiler/emit_workgroup.h"

#include <algorithm>
#include <cstddef>

#include "compiler/stage_interface.h"

namespace kiln::compiler {

void WorkgroupEmitter::begin_kernel() {
  auto& b = t_.b();
  llvm::Type* ptr = b.getPtrTy();
  dispatch_ = b.CreateLoad(ptr, b.CreateConstGEP1_64(b.getInt8Ty(), t_.invocation, offsetof(abi::ComputeInvocation, dispatch)));
  t_.resources = b.CreateLoad(ptr, b.CreateConstGEP1_64(b.getInt8Ty(), dispatch_, offsetof(abi::ComputeDispatchContext, resources)));
  t_.faults = b.CreateLoad(ptr, b.CreateConstGEP1_64(b.getInt8Ty(), dispatch_, offsetof(abi::ComputeDispatchContext, faults)));
  const uint32_t* size = t_.entry.local_size;
  for (int i = 0; i < 3; ++i) info_.local_size[i] = size[i];
  llvm::Value* subgroup = invocation_field(t_, offsetof(abi::ComputeInvocation, subgroup_id), b.getInt32Ty());
  llvm::Value* local_index = b.CreateAdd(t_.splat(b.CreateMul(subgroup, b.getInt32(t_.width()))), t_.lane_index());
  t_.mask_ = b.CreateICmpULT(local_index, t_.splat(b.getInt32(size[0] * size[1] * size[2])));
}

uint32_t WorkgroupEmitter::shared_variable(Id id, Id pointee) {
  auto& b = t_.b();
  const uint32_t size = spirv::type_size(t_.m, pointee);
  shared_bytes_ = (shared_bytes_ + 15) / 16 * 16;
  const uint32_t offset = shared_bytes_;
  shared_bytes_ = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{shared_bytes_} + size, UINT32_MAX));  // saturates: refused later
  shared_offsets_[id] = offset;
  t_.pointers_[id] = t_.region_pointer(invocation_field(t_, offsetof(abi::ComputeInvocation, shared_memory), b.getPtrTy()),
                                       offset, size, pointee);
  return offset;
}

bool WorkgroupEmitter::declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane) {
  if (var.storage_class != spv::StorageClass::Workgroup) return StageEmitter::declare_variable(id, var, pointee, per_lane);
  shared_variable(id, pointee);
  return true;
}

llvm::Value* WorkgroupEmitter::builtin(spv::BuiltIn builtin, uint32_t component) {
  auto& b = t_.b();
  llvm::Type* i32 = b.getInt32Ty();
  auto field = [&](llvm::Value* base, size_t offset) {
    return b.CreateLoad(i32, b.CreateConstGEP1_64(b.getInt8Ty(), base, offset));
  };
  const uint32_t* size = t_.entry.local_size;
  llvm::Value* subgroup = field(t_.invocation, offsetof(abi::ComputeInvocation, subgroup_id));
  llvm::Value* local_index = b.CreateAdd(t_.splat(b.CreateMul(subgroup, b.getInt32(t_.width()))), t_.lane_index());
  auto local_id = [&](uint32_t c) -> llvm::Value* {
    if (c == 0) return b.CreateURem(local_index, t_.splat(b.getInt32(size[0])));
    if (c == 1) return b.CreateURem(b.CreateUDiv(local_index, t_.splat(b.getInt32(size[0]))), t_.splat(b.getInt32(size[1])));
    return b.CreateUDiv(local_index, t_.splat(b.getInt32(size[0] * size[1])));
  };
  switch (builtin) {
    case spv::BuiltIn::LocalInvocationId:
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::NumWorkgroups:
    case spv::BuiltIn::WorkgroupSize:
    case spv::BuiltIn::GlobalInvocationId:
      // A constant index past the vector's end is valid SPIR-V with an undefined result: read 0,
      // never past size[2] or the context's three words (the fuzzer found index 0x7fffffff).
      if (component > 2) return t_.splat(b.getInt32(0));
      break;
    default: break;
  }
  switch (builtin) {
    case spv::BuiltIn::LocalInvocationId: return local_id(component);
    case spv::BuiltIn::LocalInvocationIndex: return local_index;
    case spv::BuiltIn::WorkgroupId:
      return t_.splat(field(t_.invocation, offsetof(abi::ComputeInvocation, workgroup_id) + 4 * component));
    case spv::BuiltIn::NumWorkgroups:
      return t_.splat(field(dispatch_, offsetof(abi::ComputeDispatchContext, workgroup_count) + 4 * component));
    case spv::BuiltIn::WorkgroupSize: return t_.splat(b.getInt32(size[component]));
    case spv::BuiltIn::DrawIndex:  // task and mesh shaders
      return t_.splat(field(dispatch_, offsetof(abi::ComputeDispatchContext, draw_index)));
    case spv::BuiltIn::ViewIndex:
      return t_.splat(field(dispatch_, offsetof(abi::ComputeDispatchContext, view_index)));
    case spv::BuiltIn::GlobalInvocationId: {
      llvm::Value* group = field(t_.invocation, offsetof(abi::ComputeInvocation, workgroup_id) + 4 * component);
      return b.CreateAdd(t_.splat(b.CreateMul(group, b.getInt32(size[component]))), local_id(component));
    }
    case spv::BuiltIn::SubgroupId: return t_.splat(subgroup);
    case spv::BuiltIn::NumSubgroups: return t_.splat(field(t_.invocation, offsetof(abi::ComputeInvocation, subgroup_count)));
    default: return nullptr;
  }
}

bool WorkgroupEmitter::workgroup_barrier(const spirv::Instruction&) {
  info_.uses_barrier = true;
  call_engine_barrier(offsetof(abi::ComputeInvocation, workgroup_barrier), offsetof(abi::ComputeInvocation, barrier_context));
  return true;
}

bool WorkgroupEmitter::epilogue() {
  info_.shared_memory_bytes = shared_bytes_;
  return StageEmitter::epilogue();
}

std::vector<BuiltinElement> WorkgroupEmitter::debug_printf_ids() {
  std::vector<BuiltinElement> ids;
  for (uint32_t c = 0; c < 3; ++c) ids.push_back({spv::BuiltIn::WorkgroupId, c});
  for (uint32_t c = 0; c < 3; ++c) ids.push_back({spv::BuiltIn::LocalInvocationId, c});
  return ids;
}

}  // namespace kiln::compiler
