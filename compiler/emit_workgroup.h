#pragma once
// What compute, task and mesh kernels share: one call runs one subgroup of a workgroup
// (abi::ComputeInvocation), workgroup memory, the compute built-ins, and the engine's barrier.
#include <unordered_map>
#include <vector>

#include "compiler/stage_emitter.h"

namespace kiln::compiler {

class WorkgroupEmitter : public StageEmitter {
 public:
  using StageEmitter::StageEmitter;

  void begin_kernel() override;
  bool declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane) override;
  llvm::Value* builtin(spv::BuiltIn builtin, uint32_t component) override;
  bool workgroup_barrier(const spirv::Instruction& inst) override;
  bool epilogue() override;
  bool runs_on_fiber() const override { return info_.uses_barrier; }
  std::vector<BuiltinElement> debug_printf_ids() override;

  const ComputeKernelInfo& info() const { return info_; }

 protected:
  // A variable in the workgroup's shared memory (Workgroup, TaskPayloadWorkgroupEXT, a mesh
  // kernel's outputs); returns its offset there.
  uint32_t shared_variable(Id id, Id pointee);

  ComputeKernelInfo info_;
  llvm::Value* dispatch_ = nullptr;  // const abi::ComputeDispatchContext*
  uint32_t shared_bytes_ = 0;
  std::unordered_map<Id, uint32_t> shared_offsets_;  // shared-memory variables → offset in shared memory
};

}  // namespace kiln::compiler
