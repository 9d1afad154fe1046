#pragma once
// VkCommandPool and VkCommandBuffer. A command buffer records into a command list it shares with
// its pending submissions (pipeline/command_list.h).
#include <vulkan/vulkan.h>

#include <array>
#include <memory>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "icd/device.h"
#include "icd/graphics_recording.h"
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
  // The current recording. Submissions hold it until the queue has run it; a reset or a new
  // recording replaces it rather than clearing it, because applications do reset (and free)
  // command buffers that are still pending: invalid usage that GPU drivers survive, and which
  // gfxrecon-replay's virtual swapchain does on every present (it re-records its blit command
  // buffer while the previous frame's blit can still be running on the queue).
  std::shared_ptr<exec::CommandList> commands = std::make_shared<exec::CommandList>();
  // First error hit while recording (e.g. out of host memory); returned by vkEndCommandBuffer.
  VkResult record_result = VK_SUCCESS;
  // What is bound at one bind point (compute or graphics) so far; each dispatch or draw captures
  // a copy of the resources.
  struct BindPointState {
    const struct Pipeline* pipeline = nullptr;
    abi::ResourceContext resources{};
    // The memory each push descriptor set (VK_KHR_push_descriptor) last got in `commands`, where
    // the next push to that set starts from (icd/cmd_push_descriptors.cpp).
    struct PushedSet {
      const uint8_t* memory = nullptr;
      uint32_t size = 0;
    };
    std::array<PushedSet, abi::kMaxBoundDescriptorSets> pushed_sets{};
  };
  BindPointState compute, graphics;
  // Addresses of the descriptor buffers bound (vkCmdBindDescriptorBuffersEXT, icd/descriptor_buffer.cpp).
  std::array<VkDeviceAddress, abi::kMaxBoundDescriptorSets> descriptor_buffers{};
  // Null for bind points Kiln does not have (ray tracing): callers ignore those commands.
  BindPointState* bind_point(VkPipelineBindPoint point) {
    if (point == VK_PIPELINE_BIND_POINT_COMPUTE) return &compute;
    if (point == VK_PIPELINE_BIND_POINT_GRAPHICS) return &graphics;
    return nullptr;
  }
  // Render pass instance and draw state (icd/graphics_recording.h).
  GraphicsRecording gfx;

  void reset_recording() {
    commands = std::make_shared<exec::CommandList>();
    record_result = VK_SUCCESS;
    compute = {};
    graphics = {};
    descriptor_buffers = {};
    gfx = {};
    // Kernels of this buffer's draws and dispatches stop looping when the device is lost.
    compute.resources.cancel = graphics.resources.cancel = device->sync_hub.cancel_word();
  }
};

struct CommandPool {
  VkCommandPoolCreateFlags flags = 0;
  uint32_t queue_family = 0;
  std::vector<CommandBuffer*> buffers;
};

inline CommandBuffer* command_buffer_of(VkCommandBuffer handle) { return from_handle<CommandBuffer>(handle); }

// `size` bytes of descriptor-set memory in `cb`'s command list (aligned for records, kept as long as
// the commands recorded with it): a copy of `from`'s `size` bytes, or zeros when `from` is null.
uint8_t* command_list_set_memory(CommandBuffer* cb, uint32_t size, const uint8_t* from = nullptr);

}  // namespace kiln
