#include "icd/object.h"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <new>
#include <unordered_map>

#include "icd/private_data.h"

namespace kiln {
namespace {

struct ObjectNames {
  std::mutex mutex;
  std::unordered_map<uint64_t, std::string> names;
  std::atomic<bool> empty{true};
};

ObjectNames& object_names() {
  static ObjectNames table;
  return table;
}

void forget_object_name(const void* object) {
  ObjectNames& t = object_names();
  if (t.empty.load(std::memory_order_acquire)) return;
  std::lock_guard lock(t.mutex);
  t.names.erase(reinterpret_cast<uint64_t>(object));
  t.empty.store(t.names.empty(), std::memory_order_release);
}

}  // namespace

bool set_object_name(uint64_t handle, const char* name) {
  ObjectNames& t = object_names();
  std::lock_guard lock(t.mutex);
  try {
    if (name && *name) t.names[handle] = name;
    else t.names.erase(handle);
  } catch (const std::bad_alloc&) {
    return false;
  }
  t.empty.store(t.names.empty(), std::memory_order_release);
  return true;
}

std::string object_name(uint64_t handle) {
  ObjectNames& t = object_names();
  if (t.empty.load(std::memory_order_acquire)) return {};
  std::lock_guard lock(t.mutex);
  auto it = t.names.find(handle);
  return it == t.names.end() ? std::string() : it->second;
}

void* host_alloc(const VkAllocationCallbacks* allocator, size_t size, size_t alignment,
                 VkSystemAllocationScope scope) {
  if (alignment < alignof(std::max_align_t)) alignment = alignof(std::max_align_t);
  if (allocator) return allocator->pfnAllocation(allocator->pUserData, size, alignment, scope);
  return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}

void host_free(const VkAllocationCallbacks* allocator, void* memory) {
  if (!memory) return;
  forget_private_data(memory);  // the object living here is gone, and so are its private data
  forget_object_name(memory);   // and its name
  if (allocator) {
    allocator->pfnFree(allocator->pUserData, memory);
  } else {
    std::free(memory);
  }
}

}  // namespace kiln
