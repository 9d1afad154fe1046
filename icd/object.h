#pragma once
// How Kiln's C++ objects become Vulkan handles, and how they are allocated.
//
// Dispatchable objects (instance, physical device, device, queue, command buffer) begin with the
// loader's magic word, which the loader overwrites with its dispatch pointer. Non-dispatchable
// handles are plain pointers to Kiln objects (64-bit only). Objects are allocated through the
// application's VkAllocationCallbacks when given, as the spec requires.
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <utility>

namespace kiln {

struct DispatchableObject {
  VK_LOADER_DATA loader_data;
  DispatchableObject() { set_loader_magic_value(this); }
};

template <typename T, typename Handle>
inline T* from_handle(Handle handle) {
  return reinterpret_cast<T*>(handle);
}

template <typename Handle, typename T>
inline Handle to_handle(T* object) {
  return reinterpret_cast<Handle>(object);
}

// Memory from the application's callbacks when given, else from the C heap.
void* host_alloc(const VkAllocationCallbacks* allocator, size_t size, size_t alignment,
                 VkSystemAllocationScope scope);
void host_free(const VkAllocationCallbacks* allocator, void* memory);

// The callbacks a child object uses: its own if given, else its parent's.
inline const VkAllocationCallbacks* choose_allocator(const VkAllocationCallbacks* own,
                                                     const VkAllocationCallbacks* parent) {
  return own ? own : parent;
}

// VK_EXT_debug_utils object names (vkSetDebugUtilsObjectNameEXT), so reports can name objects.
// Kept in one process-wide table keyed by handle, like private data: freeing an object's memory
// drops its name (host_free), so a later object at the same address starts unnamed. A null or
// empty name removes the object's name. Returns false when out of memory.
bool set_object_name(uint64_t handle, const char* name);
// The object's name, or "" when it has none.
std::string object_name(uint64_t handle);

template <typename T, typename... Args>
T* create_object(const VkAllocationCallbacks* allocator, VkSystemAllocationScope scope, Args&&... args) {
  void* memory = host_alloc(allocator, sizeof(T), alignof(T), scope);
  if (!memory) return nullptr;
  return new (memory) T(std::forward<Args>(args)...);
}

template <typename T>
void destroy_object(const VkAllocationCallbacks* allocator, T* object) {
  if (!object) return;
  object->~T();
  host_free(allocator, object);
}

}  // namespace kiln
