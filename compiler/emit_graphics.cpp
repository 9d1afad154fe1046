// The graphics stages' common part (emit_graphics.h).
#include "compiler/emit_graphics.h"

#include <utility>
#include <vector>

#include "compiler/stage_interface.h"

namespace kiln::compiler {

bool GraphicsEmitter::declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane) {
  const bool output = var.storage_class == spv::StorageClass::Output;
  if (output || (var.storage_class == spv::StorageClass::Input && is_per_lane_input(t_.m, t_.entry.model, id, var))) {
    *per_lane = true;  // outputs start at zero; inputs are filled by the prologue
    return true;
  }
  return StageEmitter::declare_variable(id, var, pointee, per_lane);
}

void GraphicsEmitter::begin_lane_count_kernel(size_t resources, size_t faults, size_t lane_count) {
  auto& b = t_.b();
  t_.resources = invocation_field(t_, resources, b.getPtrTy());
  t_.faults = invocation_field(t_, faults, b.getPtrTy());
  llvm::Value* count = invocation_field(t_, lane_count, b.getInt32Ty());
  t_.mask_ = b.CreateICmpULT(t_.lane_index(), t_.splat(count));
}

bool GraphicsEmitter::store_vertex_outputs(size_t outputs_field, abi::VertexOutputLayout* layout) {
  auto& b = t_.b();
  std::vector<InterfaceVariable> outputs;
  if (!interface_variables(t_, false, &outputs, &t_.error_)) return false;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> slots;
  if (!vertex_output_slots(t_, outputs, layout, &slots)) return false;
  llvm::Value* out = invocation_field(t_, outputs_field, b.getPtrTy());
  // Components no output covers read zero.
  b.CreateMemSet(out, b.getInt8(0), uint64_t{layout->slot_count} * 4 * t_.width() * 4, llvm::Align(4));
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Value value = t_.load(t_.pointers_.at(outputs[i].id), outputs[i].pointee);
    for (size_t k = 0; k < value.leaves.size() && k < slots[i].size(); ++k) {
      const auto [slot, component] = slots[i][k];
      if (slot == kNoSlot) continue;
      const std::vector<llvm::Value*> words = leaf_words(t_, outputs[i].leaves[k], value.leaves[k]);
      for (uint32_t half = 0; half < words.size(); ++half)
        store_lane_array(t_, out, (uint64_t{slot} * 4 + component + half) * t_.width() * 4, words[half]);
    }
  }
  b.CreateRetVoid();
  return true;
}

}  // namespace kiln::compiler
