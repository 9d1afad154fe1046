// How pipelines tell the compiler where descriptors live (shared by compute and graphics).
#include "icd/shader_bindings.h"

#include "compiler/shader_hash.h"

namespace kiln {

// Answers the translator's "where is (set, binding)?" from a pipeline layout.
compiler::BindingResolver binding_resolver(const desc::PipelineLayoutDesc& layout) {
  return [&layout](uint32_t set, uint32_t binding) -> std::optional<compiler::BindingLocation> {
    if (set >= layout.sets.size()) return std::nullopt;
    const desc::BindingLayout* b = layout.sets[set].find(binding);
    if (!b) return std::nullopt;
    compiler::BindingLocation loc;
    loc.offset = b->offset;
    loc.array_size = b->count;
    loc.variable_count = (b->flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) != 0;
    if (b->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || b->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC) {
      loc.dynamic = true;
      loc.dynamic_index = layout.dynamic_slot(set, *b, 0);
    }
    loc.inline_uniform_block = b->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
    return loc;
  };
}

uint64_t pipeline_layout_hash(const desc::PipelineLayoutDesc& layout) {
  compiler::StableHasher h;
  for (size_t s = 0; s < layout.sets.size(); ++s) {
    h.add_u64(s);
    for (const desc::BindingLayout& b : layout.sets[s].bindings)
      h.add_u64(b.binding).add_u64(b.type).add_u64(b.count).add_u64(b.flags).add_u64(b.offset).add_u64(layout.dynamic_slot(
          static_cast<uint32_t>(s), b, 0));
  }
  return h.finish();
}

}  // namespace kiln
