#pragma once
// What tessellation control and evaluation kernels share (docs/design/tessellation.md): every
// lane of a call works on the same patch, so inputs are loaded once per call as scalars from the
// previous stage's memory, at the places its StageOutputMap gives, into the usual per-lane input
// variables; and both stages declare the tessellation modes.
#include <cstddef>
#include <optional>

#include "compiler/emit_graphics.h"

namespace kiln::compiler {

class TessellationEmitter : public GraphicsEmitter {
 public:
  using GraphicsEmitter::GraphicsEmitter;

  // The tessellation execution modes the entry point declares.
  abi::TessellationModes modes() const;

 protected:
  // The prologue: every input leaf from the memory at invocation record field `per_vertex_field`
  // (per-vertex inputs) or `per_patch_field` (Patch inputs; none for a control kernel).
  bool load_patch_inputs(size_t per_vertex_field, std::optional<size_t> per_patch_field);
};

}  // namespace kiln::compiler
