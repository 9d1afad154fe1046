#pragma once
// External memory (icd/external_memory.cpp): host allocations imported as device memory, and
// allocations shared with other devices and processes as opaque file descriptors.
#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

namespace kiln {

// Imported host pointers and allocation sizes are multiples of a page
// (VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment).
constexpr VkDeviceSize kMinImportedHostPointerAlignment = 4096;

// Whether `type` is one of VK_EXT_external_memory_host's handle types.
bool is_host_pointer_handle(VkExternalMemoryHandleTypeFlagBits type);

// Whether `pointer` can be imported as a host allocation of handle type `type`: one of the host
// handle types, and a non-null pointer aligned to kMinImportedHostPointerAlignment.
bool is_importable_host_pointer(VkExternalMemoryHandleTypeFlagBits type, const void* pointer);

// The memory types an imported host allocation may have: every host-visible one.
uint32_t host_pointer_memory_types(const VkPhysicalDeviceMemoryProperties& memory);

// What Kiln can do with memory of handle type `type` (buffers and images alike): host pointers
// are importable, opaque file descriptors importable and exportable; nothing else.
VkExternalMemoryProperties external_memory_properties(VkExternalMemoryHandleTypeFlagBits type);

// Memory in a file that other devices and processes can map too (VK_KHR_external_memory_fd,
// OPAQUE_FD): a memfd mapped shared. `fd` is owned by the mapping.
struct SharedMemoryFile {
  uint8_t* data = nullptr;
  size_t length = 0;  // bytes mapped: the allocation size rounded up to whole pages
  int fd = -1;
};

// A new shared file of at least `size` bytes, zero-filled, mapped; {} (data null) when the system
// refuses.
SharedMemoryFile create_shared_memory(VkDeviceSize size);
// Maps `fd`, a file of at least `size` bytes, and takes ownership of it; {} when it is not such a
// file (the fd then stays the caller's, as the spec says for a failed import).
SharedMemoryFile import_shared_memory(int fd, VkDeviceSize size);
void release_shared_memory(const SharedMemoryFile& file);

}  // namespace kiln
