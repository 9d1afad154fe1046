#pragma once
// VkCommandPool and VkCommandBuffer. A command buffer owns the command list it records into.
#include <vulkan/vulkan.h>

#include <array>
#include <vector>

#include "compiler/kernel_abi.h"
#include "icd/device.h"
#include "icd/object.h"
#include "pipeline/command_list.h"

namespace kiln {

struct CommandPool;
struct Pipeline;

struct CommandBuffer : DispatchableObject {
  Device* device = nullptr;
  CommandPool* pool = nullptr;
  VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  VkCommandBufferUsageFlags usage = 0;
  exec::CommandList commands;
  // First error hit while recording (e.g. out of host memory); returned by vkEndCommandBuffer.
  VkResult record_result = VK_SUCCESS;
  // Compute state as bound so far; each dispatch captures a copy of it.
  const struct Pipeline* compute_pipeline = nullptr;
  abi::ResourceContext compute_resources{};
  // The memory each push descriptor set (VK_KHR_push_descriptor) last got in `commands`, where the
  // next push to that set starts from (icd/cmd_push_descriptors.cpp).
  struct PushedSet {
    const uint8_t* memory = nullptr;
    uint32_t size = 0;
  };
  std::array<PushedSet, abi::kMaxBoundDescriptorSets> pushed_sets{};

  void reset_recording() {
    commands.reset();
    record_result = VK_SUCCESS;
    compute_pipeline = nullptr;
    compute_resources = {};
    pushed_sets = {};
  }
};

struct CommandPool {
  VkCommandPoolCreateFlags flags = 0;
  uint32_t queue_family = 0;
  std::vector<CommandBuffer*> buffers;
};

inline CommandBuffer* command_buffer_of(VkCommandBuffer handle) { return from_handle<CommandBuffer>(handle); }

}  // namespace kiln
