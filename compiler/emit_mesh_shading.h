#pragma once
// What task and mesh kernels share (docs/design/mesh-shading.md): a workgroup's shared memory
// starts with the abi::MeshHeader the engine reads once the workgroup is done, followed by the
// task payload (TaskPayloadWorkgroupEXT) and, in a mesh kernel, the outputs.
#include <string>
#include <vector>

#include "compiler/emit_workgroup.h"

namespace kiln::compiler {

class MeshShadingEmitter : public WorkgroupEmitter {
 public:
  using WorkgroupEmitter::WorkgroupEmitter;

  void begin_kernel() override;
  bool declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane) override;
  // What the engine needs besides the compute info, once translation is done.
  virtual bool report(MeshInfo* info) {
    *info = mesh_;
    return true;
  }

 protected:
  // Stores the 32-bit lanes `values` into the MeshHeader from byte `offset` on, from the
  // workgroup's first invocation.
  void store_header(uint32_t offset, const std::vector<llvm::Value*>& values);

  MeshInfo mesh_;  // the payload's place
};

// translate_task and translate_mesh once the entry point's model is checked: `t`'s kernel and
// its reports, refused past Kiln's workgroup and payload limits.
std::unique_ptr<llvm::Module> translate_mesh_shading(Translator& t, ComputeKernelInfo* info, MeshInfo* mesh,
                                                     std::string* error);

}  // namespace kiln::compiler
