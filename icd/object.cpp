#include "icd/object.h"

#include <cstddef>

#include "icd/private_data.h"

namespace kiln {

void* host_alloc(const VkAllocationCallbacks* allocator, size_t size, size_t alignment,
                 VkSystemAllocationScope scope) {
  if (alignment < alignof(std::max_align_t)) alignment = alignof(std::max_align_t);
  if (allocator) return allocator->pfnAllocation(allocator->pUserData, size, alignment, scope);
  return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}

void host_free(const VkAllocationCallbacks* allocator, void* memory) {
  if (!memory) return;
  forget_private_data(memory);  // the object living here is gone, and so are its private data
  if (allocator) {
    allocator->pfnFree(allocator->pUserData, memory);
  } else {
    std::free(memory);
  }
}

}  // namespace kiln
