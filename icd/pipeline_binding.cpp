#include "icd/pipeline_binding.h"

namespace kiln::desc {

const char* build_pipeline_layout(std::span<const SetLayoutDesc* const> sets, std::span<const VkPushConstantRange> push_ranges,
                                  bool independent_sets, PipelineLayoutDesc* out) {
  if (sets.size() > abi::kMaxBoundDescriptorSets) return "more set layouts than maxBoundDescriptorSets";
  PipelineLayoutDesc layout;
  layout.sets.reserve(sets.size());
  uint32_t uniform_dynamic = 0, storage_dynamic = 0;
  bool fixed_ranges = independent_sets;
  for (size_t s = 0; s < sets.size(); ++s) {
    layout.sets.push_back(sets[s] ? *sets[s] : SetLayoutDesc{});
    const SetLayoutDesc& set = layout.sets.back();
    layout.first_dynamic_slot[s] = layout.dynamic_count;
    layout.dynamic_count += set.dynamic_count;
    uniform_dynamic += set.dynamic_uniform_count;
    storage_dynamic += set.dynamic_storage_count;
    fixed_ranges &= set.dynamic_count <= kIndependentSetSlots;
  }
  if (fixed_ranges) {
    layout.dynamic_count = 0;
    for (size_t s = 0; s < sets.size(); ++s) {
      layout.first_dynamic_slot[s] = uint32_t(s) * kIndependentSetSlots;
      if (layout.sets[s].dynamic_count) layout.dynamic_count = layout.first_dynamic_slot[s] + layout.sets[s].dynamic_count;
    }
  }
  if (uniform_dynamic > kMaxDynamicBuffersPerType || storage_dynamic > kMaxDynamicBuffersPerType ||
      layout.dynamic_count > abi::kMaxDynamicBuffers)
    return "more dynamic buffers than maxDescriptorSet{Uniform,Storage}BuffersDynamic";
  for (const VkPushConstantRange& range : push_ranges) {
    if (range.offset % 4 != 0 || range.size % 4 != 0 || range.size == 0 ||
        uint64_t{range.offset} + range.size > abi::kMaxPushConstantBytes)
      return "push-constant range outside maxPushConstantsSize or not 4-byte aligned";
  }
  layout.push_constant_ranges.assign(push_ranges.begin(), push_ranges.end());
  *out = std::move(layout);
  return nullptr;
}

namespace {

// A dynamic buffer's descriptor once `offset` is added; null if the offset leaves its buffer.
abi::BufferDescriptor apply_dynamic_offset(const DynamicBufferSlot& slot, uint32_t offset, bool* ok) {
  if (slot.address == 0) return {};  // never written: stays a null descriptor
  if (offset > slot.bytes_to_end) {
    *ok = false;
    return {};
  }
  return {slot.address + offset, std::min<uint64_t>(slot.range, slot.bytes_to_end - offset), {}};
}

}  // namespace

bool bind_sets(const PipelineLayoutDesc& layout, uint32_t first_set, std::span<const BoundSet> sets,
               std::span<const uint32_t> dynamic_offsets, abi::ResourceContext* context) {
  bool ok = true;
  size_t next_offset = 0;
  for (size_t i = 0; i < sets.size(); ++i) {
    const uint64_t set_index = uint64_t{first_set} + i;
    if (set_index >= layout.sets.size()) return false;
    const BoundSet& set = sets[i];
    context->descriptor_sets[set_index] = set.records;
    context->variable_counts[set_index] = set.records ? set.variable_count : 0;
    const uint32_t dynamic_count = layout.sets[set_index].dynamic_count;
    if (set.records && set.dynamic_count != dynamic_count) ok = false;  // the set's layout is not the pipeline layout's
    for (uint32_t d = 0; d < dynamic_count; ++d) {
      abi::BufferDescriptor& target = context->dynamic_buffers[layout.first_dynamic_slot[set_index] + d];
      if (next_offset >= dynamic_offsets.size()) {
        ok = false;
        target = {};
        continue;
      }
      const uint32_t offset = dynamic_offsets[next_offset++];
      target = d < set.dynamic_count ? apply_dynamic_offset(set.dynamic_buffers[d], offset, &ok) : abi::BufferDescriptor{};
    }
  }
  return ok && next_offset == dynamic_offsets.size();
}

}  // namespace kiln::desc
