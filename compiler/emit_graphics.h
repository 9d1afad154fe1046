#pragma once
// What the graphics stages (vertex, tessellation control and evaluation, geometry, fragment)
// share: Input and Output variables are ordinary per-lane variables — the prologue fills the
// inputs, the epilogue (or EmitVertex) stores the outputs — while input built-ins are read from
// the invocation record where the shader reads them (docs/design/graphics-kernels.md).
#include <cstddef>

#include "compiler/stage_emitter.h"

namespace kiln::compiler {

class GraphicsEmitter : public StageEmitter {
 public:
  using StageEmitter::StageEmitter;

  // Outputs and Location inputs per lane; input built-ins in place.
  bool declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane) override;

 protected:
  // begin_kernel of a stage whose invocation record has resources, faults and a lane_count (the
  // first lane_count lanes run): vertex, tessellation and geometry kernels; the fields' offsets.
  void begin_lane_count_kernel(size_t resources, size_t faults, size_t lane_count);
  // The epilogue of the last pre-rasterization stage (vertex, tessellation evaluation): every
  // output leaf stored into the SoA record array at invocation record field `outputs_field`, in
  // the slots of `layout` (which this fills); then the kernel returns.
  bool store_vertex_outputs(size_t outputs_field, abi::VertexOutputLayout* layout);
};

}  // namespace kiln::compiler
