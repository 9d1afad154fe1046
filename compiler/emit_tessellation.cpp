// The tessellation stages' common part (emit_tessellation.h; ABI: common/abi/kernel_abi.h,
// tessellation section).
#include "compiler/emit_tessellation.h"

#include <vector>

#include "compiler/stage_interface.h"

namespace kiln::compiler {

abi::TessellationModes TessellationEmitter::modes() const {
  abi::TessellationModes modes;
  for (const auto& [mode, args] : t_.entry.modes) {
    switch (mode) {
      case spv::ExecutionMode::Triangles: modes.domain = 1; break;
      case spv::ExecutionMode::Quads: modes.domain = 2; break;
      case spv::ExecutionMode::Isolines: modes.domain = 3; break;
      case spv::ExecutionMode::SpacingEqual: modes.spacing = 1; break;
      case spv::ExecutionMode::SpacingFractionalEven: modes.spacing = 2; break;
      case spv::ExecutionMode::SpacingFractionalOdd: modes.spacing = 3; break;
      case spv::ExecutionMode::VertexOrderCw: modes.vertex_order = 1; break;
      case spv::ExecutionMode::VertexOrderCcw: modes.vertex_order = 2; break;
      case spv::ExecutionMode::PointMode: modes.point_mode = true; break;
      case spv::ExecutionMode::OutputVertices:
        if (!args.empty()) modes.output_vertices = args[0];
        break;
      default: break;
    }
  }
  return modes;
}

bool TessellationEmitter::load_patch_inputs(size_t per_vertex_field, std::optional<size_t> per_patch_field) {
  auto& b = t_.b();
  if (!t_.options_.previous_stage) {
    t_.error_ = "tessellation kernels need the previous stage's output map";
    return false;
  }
  const abi::StageOutputMap& map = *t_.options_.previous_stage;
  llvm::Value* per_vertex = invocation_field(t_, per_vertex_field, b.getPtrTy());
  llvm::Value* per_patch = per_patch_field ? invocation_field(t_, *per_patch_field, b.getPtrTy()) : nullptr;
  std::vector<InterfaceVariable> inputs;
  if (!interface_variables(t_, true, &inputs, &t_.error_)) return false;
  for (const InterfaceVariable& v : inputs) {
    Value value;
    for (const InterfaceLeaf& leaf : v.leaves) {
      llvm::Type* type = t_.leaf_type(leaf.scalar);
      const abi::StageOutputAddress at = previous_stage_address(map, v, leaf);
      llvm::Value* memory = v.patch ? per_patch : per_vertex;
      if (at.offset < 0 || !memory || (!v.patch && leaf.vertex >= map.vertex_count)) {
        value.leaves.push_back(llvm::Constant::getNullValue(t_.lane_type(type)));
        continue;
      }
      const uint64_t offset = uint64_t(at.offset) + uint64_t{leaf.vertex} * at.stride;
      std::vector<llvm::Value*> words;  // a 64-bit value's halves follow each other in either stage's memory
      for (uint32_t half = 0; half < (leaf.wide ? 2u : 1u); ++half)
        words.push_back(t_.splat(b.CreateAlignedLoad(b.getInt32Ty(),
                                                     b.CreateConstGEP1_64(b.getInt8Ty(), memory, offset + 4 * half),
                                                     llvm::Align(4))));
      value.leaves.push_back(leaf_from_words(t_, leaf, words));
    }
    t_.store(t_.pointers_.at(v.id), v.pointee, value);
  }
  return true;
}

}  // namespace kiln::compiler
