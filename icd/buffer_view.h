#pragma once
// VkBufferView: a typed window on a buffer, what texel-buffer descriptors point at.
#include <vulkan/vulkan.h>

#include "memory/resources.h"

namespace kiln {

struct BufferView {
  mem::Buffer* buffer;
  VkFormat format;
  VkDeviceSize offset;
  VkDeviceSize range;  // VK_WHOLE_SIZE already resolved to the rest of the buffer
};

}  // namespace kiln
