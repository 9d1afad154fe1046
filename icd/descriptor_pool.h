#pragma once
// VkDescriptorPool and VkDescriptorSet. A pool hands out sets up to its maxSets and per-type
// descriptor counts; each set is one host allocation holding the set object, its dynamic-buffer
// side array and its descriptor memory (16-byte aligned, zeroed = null descriptors). Pool
// capacity is accounted per type, so a pool never fragments: VK_ERROR_OUT_OF_POOL_MEMORY is the
// only way allocation runs out of pool.
#include <vulkan/vulkan.h>

#include "icd/descriptor_memory.h"
#include "icd/descriptor_set_layout.h"
#include "icd/object.h"

namespace kiln {

struct DescriptorPool;

struct DescriptorSet {
  DescriptorPool* pool = nullptr;
  // Used by updates only: Vulkan forbids updating a set once its layout is destroyed, while
  // binding and freeing it stay legal, so nothing else here may look at the layout.
  const DescriptorSetLayout* layout = nullptr;
  desc::SetMemory memory;  // records, dynamic side array, variable count
  uint32_t memory_size = 0;
  uint32_t dynamic_count = 0;
  desc::DescriptorCounts counts;  // what the set takes from its pool
  DescriptorSet* previous = nullptr;  // the pool's list of live sets
  DescriptorSet* next = nullptr;
};

inline DescriptorSet* set_of(VkDescriptorSet handle) { return from_handle<DescriptorSet>(handle); }

struct DescriptorPool {
  // Sets are freed without an allocator argument (vkFreeDescriptorSets, vkResetDescriptorPool),
  // so the pool keeps a copy of the callbacks it was created with.
  VkAllocationCallbacks allocator_storage{};
  const VkAllocationCallbacks* allocator = nullptr;
  VkDescriptorPoolCreateFlags flags = 0;
  desc::DescriptorCounts capacity;
  desc::DescriptorCounts used;
  DescriptorSet* live_sets = nullptr;

  ~DescriptorPool() { free_all(); }
  // A set of `layout` with `variable_count` elements in its variable-count binding (clamped to
  // the layout's maximum). VK_ERROR_OUT_OF_POOL_MEMORY when the pool's capacity is used up.
  VkResult allocate(const DescriptorSetLayout& layout, uint32_t variable_count, DescriptorSet** out);
  void free(DescriptorSet* set);
  void free_all();
};

inline DescriptorPool* pool_of(VkDescriptorPool handle) { return from_handle<DescriptorPool>(handle); }

}  // namespace kiln
