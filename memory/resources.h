#pragma once
// The memory-side objects every module shares: device memory, buffers and images. The icd layer
// hands these to the execution engine; they carry no Vulkan-object bookkeeping beyond what
// copies, clears and (later) shaders need.
#include <vulkan/vulkan.h>

#include <cstdint>

#include "memory/image_layout.h"

namespace kiln::mem {

struct DeviceMemory {
  uint8_t* data = nullptr;  // 64-byte aligned host memory
  VkDeviceSize size = 0;
  uint32_t type_index = 0;
  bool imported = false;    // the application's host allocation (VK_EXT_external_memory_host): not freed
  int fd = -1;              // a shared file holding the memory (VK_KHR_external_memory_fd), else -1
  size_t mapped_length = 0; // bytes of that file mapped at `data`
};

struct Buffer {
  VkDeviceSize size = 0;
  VkBufferUsageFlags usage = 0;
  VkBufferCreateFlags flags = 0;
  uint8_t* data = nullptr;  // set by vkBindBufferMemory
};

struct Image {
  ImageDesc desc;
  ImageLayout layout;  // where each subresource lives inside the bound memory
  VkImageUsageFlags usage = 0;
  VkImageCreateFlags flags = 0;
  uint8_t* data = nullptr;  // set by vkBindImageMemory
  // Kiln's own image that no application command names (memory/implicit_attachment.h): strict
  // mode does not track it, as the application cannot synchronise it.
  bool internal = false;
};

}  // namespace kiln::mem
