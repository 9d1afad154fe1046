// vkCreateDescriptorPool, vkDestroyDescriptorPool, vkResetDescriptorPool, vkAllocateDescriptorSets,
// vkFreeDescriptorSets.
#include "icd/descriptor_pool.h"

#include <limits>

#include "common/log.h"
#include "icd/device.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"

namespace kiln {

namespace {

constexpr size_t kSetAlignment = 64;  // one cache line; records need 16

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

}  // namespace

VkResult DescriptorPool::allocate(const DescriptorSetLayout& layout, uint32_t variable_count, DescriptorSet** out) {
  const desc::SetLayoutDesc& d = layout.desc;
  variable_count = d.clamp_variable_count(variable_count);
  const desc::DescriptorCounts counts = d.counts_for(variable_count);
  if (!used.fits(counts, capacity)) return VK_ERROR_OUT_OF_POOL_MEMORY;

  // One block: the set object, its dynamic-buffer side array, its descriptor memory.
  const size_t header = align_up(sizeof(DescriptorSet), kSetAlignment);
  const size_t dynamic_bytes = sizeof(desc::DynamicBufferSlot) * d.dynamic_count;
  const uint32_t memory_size = d.memory_size_for(variable_count);
  void* block = host_alloc(allocator, header + dynamic_bytes + memory_size, kSetAlignment, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!block) return VK_ERROR_OUT_OF_HOST_MEMORY;
  auto* set = new (block) DescriptorSet;
  uint8_t* bytes = static_cast<uint8_t*>(block);
  set->pool = this;
  set->layout = &layout;
  set->memory.dynamic_buffers = reinterpret_cast<desc::DynamicBufferSlot*>(bytes + header);
  set->memory.records = bytes + header + dynamic_bytes;
  set->memory.variable_count = variable_count;
  set->memory_size = memory_size;
  set->dynamic_count = d.dynamic_count;
  set->counts = counts;
  desc::initialize_set_memory(d, set->memory);

  used += counts;
  set->next = live_sets;
  if (live_sets) live_sets->previous = set;
  live_sets = set;
  *out = set;
  return VK_SUCCESS;
}

void DescriptorPool::free(DescriptorSet* set) {
  if (set->previous) set->previous->next = set->next;
  else live_sets = set->next;
  if (set->next) set->next->previous = set->previous;
  used -= set->counts;
  set->~DescriptorSet();
  host_free(allocator, set);
}

void DescriptorPool::free_all() {
  while (live_sets) free(live_sets);
}

}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateDescriptorPool(VkDevice handle, const VkDescriptorPoolCreateInfo* pCreateInfo,
                                                                    const VkAllocationCallbacks* pAllocator,
                                                                    VkDescriptorPool* pDescriptorPool) {
  Device* device = device_of(handle);
  const VkAllocationCallbacks* allocator = choose_allocator(pAllocator, device->allocator);
  auto* pool = create_object<DescriptorPool>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (allocator) {
    pool->allocator_storage = *allocator;
    pool->allocator = &pool->allocator_storage;
  }
  pool->flags = pCreateInfo->flags;
  pool->capacity.sets = pCreateInfo->maxSets;
  for (uint32_t i = 0; i < pCreateInfo->poolSizeCount; ++i) {
    const VkDescriptorPoolSize& size = pCreateInfo->pPoolSizes[i];
    const uint32_t slot = desc::type_slot(size.type);
    if (slot == desc::kUnsupportedType) {
      KILN_LOG_ONCE(LogLevel::Warn, "vkCreateDescriptorPool: descriptor type %d is not supported; ignored", size.type);
      continue;
    }
    pool->capacity.per_type[slot] += size.descriptorCount;
  }
  // Without VkDescriptorPoolInlineUniformBlockCreateInfo the number of inline uniform block
  // bindings is limited only by the pool's inline uniform block bytes.
  auto* inline_info = find_in_chain<VkDescriptorPoolInlineUniformBlockCreateInfo>(pCreateInfo->pNext);
  pool->capacity.inline_uniform_block_bindings =
      inline_info ? inline_info->maxInlineUniformBlockBindings : std::numeric_limits<uint64_t>::max();
  *pDescriptorPool = to_handle<VkDescriptorPool>(pool);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyDescriptorPool(VkDevice handle, VkDescriptorPool pool,
                                                                 const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), pool_of(pool));
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_ResetDescriptorPool(VkDevice, VkDescriptorPool pool, VkDescriptorPoolResetFlags) {
  pool_of(pool)->free_all();
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_AllocateDescriptorSets(VkDevice, const VkDescriptorSetAllocateInfo* pAllocateInfo,
                                                                      VkDescriptorSet* pDescriptorSets) {
  DescriptorPool* pool = pool_of(pAllocateInfo->descriptorPool);
  // Without this struct (or with descriptorSetCount 0) variable-count bindings get zero elements.
  auto* variable = find_in_chain<VkDescriptorSetVariableDescriptorCountAllocateInfo>(pAllocateInfo->pNext);
  const bool has_variable_counts = variable && variable->descriptorSetCount == pAllocateInfo->descriptorSetCount;
  for (uint32_t i = 0; i < pAllocateInfo->descriptorSetCount; ++i) {
    const uint32_t variable_count = has_variable_counts ? variable->pDescriptorCounts[i] : 0;
    DescriptorSet* set = nullptr;
    const VkResult result = pool->allocate(*set_layout_of(pAllocateInfo->pSetLayouts[i]), variable_count, &set);
    if (result != VK_SUCCESS) {
      // The spec: free what this call allocated and return every handle as VK_NULL_HANDLE.
      for (uint32_t j = 0; j < i; ++j) pool->free(set_of(pDescriptorSets[j]));
      for (uint32_t j = 0; j < pAllocateInfo->descriptorSetCount; ++j) pDescriptorSets[j] = VK_NULL_HANDLE;
      return result;
    }
    pDescriptorSets[i] = to_handle<VkDescriptorSet>(set);
  }
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_FreeDescriptorSets(VkDevice, VkDescriptorPool pool, uint32_t count,
                                                                  const VkDescriptorSet* pDescriptorSets) {
  for (uint32_t i = 0; i < count; ++i) {
    DescriptorSet* set = set_of(pDescriptorSets[i]);
    if (!set) continue;
    if (set->pool != pool_of(pool)) {
      KILN_LOG_ONCE(LogLevel::Error, "vkFreeDescriptorSets: a set does not belong to the pool; not freed");
      continue;
    }
    set->pool->free(set);
  }
  return VK_SUCCESS;
}
