// Command pools and the command-buffer lifecycle (allocate, begin, end, reset, free).
#include "icd/command_buffer.h"

#include <algorithm>
#include <vector>

#include "kiln_entrypoints.h"

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateCommandPool(VkDevice handle, const VkCommandPoolCreateInfo* pCreateInfo,
                                                                 const VkAllocationCallbacks* pAllocator, VkCommandPool* pPool) {
  Device* device = device_of(handle);
  auto* pool = create_object<CommandPool>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pool->flags = pCreateInfo->flags;
  pool->queue_family = pCreateInfo->queueFamilyIndex;
  *pPool = to_handle<VkCommandPool>(pool);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyCommandPool(VkDevice handle, VkCommandPool poolHandle,
                                                              const VkAllocationCallbacks* pAllocator) {
  Device* device = device_of(handle);
  CommandPool* pool = from_handle<CommandPool>(poolHandle);
  if (!pool) return;
  for (CommandBuffer* cb : pool->buffers) destroy_object(device->allocator, cb);
  destroy_object(choose_allocator(pAllocator, device->allocator), pool);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_ResetCommandPool(VkDevice, VkCommandPool poolHandle, VkCommandPoolResetFlags) {
  for (CommandBuffer* cb : from_handle<CommandPool>(poolHandle)->buffers) cb->reset_recording();
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_TrimCommandPool(VkDevice, VkCommandPool, VkCommandPoolTrimFlags) {}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_AllocateCommandBuffers(VkDevice handle, const VkCommandBufferAllocateInfo* pInfo,
                                                                      VkCommandBuffer* pCommandBuffers) {
  Device* device = device_of(handle);
  CommandPool* pool = from_handle<CommandPool>(pInfo->commandPool);
  for (uint32_t i = 0; i < pInfo->commandBufferCount; ++i) {
    auto* cb = create_object<CommandBuffer>(device->allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!cb) {
      kiln_FreeCommandBuffers(handle, pInfo->commandPool, i, pCommandBuffers);
      for (uint32_t j = 0; j < pInfo->commandBufferCount; ++j) pCommandBuffers[j] = VK_NULL_HANDLE;
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    cb->device = device;
    cb->compute.resources.cancel = cb->graphics.resources.cancel = device->sync_hub.cancel_word();
    cb->pool = pool;
    cb->level = pInfo->level;
    pool->buffers.push_back(cb);
    pCommandBuffers[i] = to_handle<VkCommandBuffer>(cb);
  }
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_FreeCommandBuffers(VkDevice handle, VkCommandPool poolHandle, uint32_t count,
                                                              const VkCommandBuffer* pCommandBuffers) {
  Device* device = device_of(handle);
  CommandPool* pool = from_handle<CommandPool>(poolHandle);
  for (uint32_t i = 0; i < count; ++i) {
    CommandBuffer* cb = command_buffer_of(pCommandBuffers[i]);
    if (!cb) continue;
    std::erase(pool->buffers, cb);
    destroy_object(device->allocator, cb);
  }
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                                  const VkCommandBufferBeginInfo* pBeginInfo) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  cb->reset_recording();  // begin implicitly resets a command buffer
  cb->usage = pBeginInfo->flags;
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_EndCommandBuffer(VkCommandBuffer commandBuffer) {
  return command_buffer_of(commandBuffer)->record_result;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_ResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags) {
  command_buffer_of(commandBuffer)->reset_recording();
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdExecuteCommands(VkCommandBuffer commandBuffer, uint32_t count,
                                                              const VkCommandBuffer* pCommandBuffers) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  std::vector<const exec::CommandList*> lists;
  // The primary holds the secondaries' recordings: its submissions then run them even if a
  // secondary is reset or freed while one is pending.
  for (uint32_t i = 0; i < count; ++i)
    lists.push_back(cb->commands->keep(command_buffer_of(pCommandBuffers[i])->commands));
  auto* cmd = cb->commands->append<exec::ExecuteCommandsCmd>();
  cmd->list_count = count;
  cmd->lists = cb->commands->copy_array(lists.data(), lists.size());
}

namespace kiln {

uint8_t* command_list_set_memory(CommandBuffer* cb, uint32_t size, const uint8_t* from) {
  struct alignas(abi::kDescriptorRecordAlignment) RecordChunk {
    uint8_t bytes[abi::kDescriptorRecordAlignment];
  };
  const size_t chunks = std::max<size_t>(1, (size + sizeof(RecordChunk) - 1) / sizeof(RecordChunk));
  if (from) return cb->commands->copy_array(reinterpret_cast<const RecordChunk*>(from), chunks)->bytes;
  const std::vector<RecordChunk> zeros(chunks);
  return cb->commands->copy_array(zeros.data(), chunks)->bytes;
}

}  // namespace kiln
