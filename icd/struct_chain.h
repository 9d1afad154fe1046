#pragma once
// Walking pNext chains by type (stype_of<T> is generated from vk.xml).
#include <vulkan/vulkan.h>

#include "kiln_struct_types.h"

namespace kiln {

template <typename T>
const T* find_in_chain(const void* pNext) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s; s = s->pNext)
    if (s->sType == stype_of<T>) return reinterpret_cast<const T*>(s);
  return nullptr;
}

template <typename T>
T* find_in_chain_mut(void* pNext) {
  for (auto* s = static_cast<VkBaseOutStructure*>(pNext); s; s = s->pNext)
    if (s->sType == stype_of<T>) return reinterpret_cast<T*>(s);
  return nullptr;
}

// Copies Kiln's filled `src` into an application's output struct, keeping the app's sType/pNext.
template <typename T>
void copy_out_keeping_chain(T* dst, const T& src) {
  void* next = dst->pNext;
  *dst = src;
  dst->sType = stype_of<T>;
  dst->pNext = next;
}

}  // namespace kiln
