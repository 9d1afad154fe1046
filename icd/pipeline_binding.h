#pragma once
// The pure part of pipeline layouts: which slot of abi::ResourceContext::dynamic_buffers each
// set's dynamic buffers use, the push-constant ranges, and what binding descriptor sets does to a
// kernel's ResourceContext. No Vulkan handles here (unit tests call it directly); the
// VkPipelineLayout entry points and the handle-taking helper are in pipeline_layout.{h,cpp}.
#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "icd/descriptor_memory.h"

namespace kiln::desc {

struct PipelineLayoutDesc {
  // Copies of the set layouts: Vulkan lets the application destroy a set layout once the
  // pipeline layout exists, and pipelines compiled later need each binding's offset and type.
  // An empty SetLayoutDesc stands for a VK_NULL_HANDLE set layout.
  std::vector<SetLayoutDesc> sets;
  // Index in ResourceContext::dynamic_buffers of each set's first dynamic buffer: the dynamic
  // buffers of set 0, then set 1, … (the order of vkCmdBindDescriptorSets' dynamic offsets).
  std::array<uint32_t, abi::kMaxBoundDescriptorSets> first_dynamic_slot{};
  uint32_t dynamic_count = 0;
  std::vector<VkPushConstantRange> push_constant_ranges;

  // Slot of dynamic buffer `element` of `binding` in `set`'s layout.
  uint32_t dynamic_slot(uint32_t set, const BindingLayout& binding, uint32_t element) const {
    return first_dynamic_slot[set] + binding.dynamic_index + element;
  }
};

// Builds a pipeline layout from its set layouts (null entries for VK_NULL_HANDLE) and push-constant
// ranges. Returns nullptr on success, else why Kiln cannot make it (more sets than
// kMaxBoundDescriptorSets, more dynamic buffers than the ResourceContext holds, push constants
// beyond kMaxPushConstantBytes).
//
// `independent_sets` (VK_PIPELINE_LAYOUT_CREATE_INDEPENDENT_SETS_BIT_EXT): pipeline libraries may be
// compiled with layouts that leave out other sets, and sets bound with either, so a set's dynamic
// buffers must not move with the sets before it: set s starts at slot s * kIndependentSetSlots while
// every set fits there (the fixed ranges cover all 32 slots); a layout with a set of more dynamic
// buffers falls back to consecutive slots, which only layouts with the same earlier sets share.
constexpr uint32_t kIndependentSetSlots = abi::kMaxDynamicBuffers / abi::kMaxBoundDescriptorSets;
const char* build_pipeline_layout(std::span<const SetLayoutDesc* const> sets, std::span<const VkPushConstantRange> push_ranges,
                                  bool independent_sets, PipelineLayoutDesc* out);

// One descriptor set being bound: its memory, its dynamic buffers as written and the element count
// of its variable-count binding (null records, no dynamic buffers for a VK_NULL_HANDLE set).
struct BoundSet {
  const uint8_t* records = nullptr;
  const DynamicBufferSlot* dynamic_buffers = nullptr;
  uint32_t dynamic_count = 0;
  uint32_t variable_count = 0;
};

// What vkCmdBindDescriptorSets does to the resources a kernel sees: sets [first_set, first_set +
// sets.size()) point at the sets' memory (and give their variable counts), and their dynamic buffers land in their slots with
// `dynamic_offsets` (consumed in set order, then binding order, as the spec says) added to the
// address; each range is clamped so that it stays inside its buffer. Other sets are left alone.
// Returns false when the input is bad (sets beyond the layout, too few dynamic offsets, an offset
// past the buffer's end); what could be applied is applied, the rest bound as null descriptors.
bool bind_sets(const PipelineLayoutDesc& layout, uint32_t first_set, std::span<const BoundSet> sets,
               std::span<const uint32_t> dynamic_offsets, abi::ResourceContext* context);

}  // namespace kiln::desc
