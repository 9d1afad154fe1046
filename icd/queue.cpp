// vkQueueSubmit / vkQueueSubmit2 / vkQueueWaitIdle: hand batches to the queue's engine.
#include <vector>

#include "icd/command_buffer.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

Queue* queue_of(VkQueue handle) { return from_handle<Queue>(handle); }

VkResult submit_batches(Queue* queue, std::vector<exec::Batch>&& batches, VkFence fence) {
  if (queue->device->lost()) return VK_ERROR_DEVICE_LOST;  // nothing runs on a lost device
  // A fence with no batches still signals once everything submitted before it has run.
  if (batches.empty() && fence != VK_NULL_HANDLE) batches.emplace_back();
  if (!batches.empty()) batches.back().fence = from_handle<exec::Fence>(fence);
  queue->engine.submit(std::move(batches));
  return VK_SUCCESS;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_QueueSubmit(VkQueue queueHandle, uint32_t submitCount, const VkSubmitInfo* pSubmits,
                                                           VkFence fence) {
  std::vector<exec::Batch> batches(submitCount);
  for (uint32_t i = 0; i < submitCount; ++i) {
    const VkSubmitInfo& s = pSubmits[i];
    const auto* timeline = find_in_chain<VkTimelineSemaphoreSubmitInfo>(s.pNext);
    exec::Batch& b = batches[i];
    for (uint32_t w = 0; w < s.waitSemaphoreCount; ++w) {
      uint64_t value = timeline && w < timeline->waitSemaphoreValueCount ? timeline->pWaitSemaphoreValues[w] : 0;
      b.waits.push_back({from_handle<exec::Semaphore>(s.pWaitSemaphores[w]), value});
    }
    for (uint32_t c = 0; c < s.commandBufferCount; ++c)
      b.command_lists.push_back(command_buffer_of(s.pCommandBuffers[c])->commands);
    for (uint32_t g = 0; g < s.signalSemaphoreCount; ++g) {
      uint64_t value = timeline && g < timeline->signalSemaphoreValueCount ? timeline->pSignalSemaphoreValues[g] : 0;
      b.signals.push_back({from_handle<exec::Semaphore>(s.pSignalSemaphores[g]), value});
    }
  }
  return submit_batches(queue_of(queueHandle), std::move(batches), fence);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_QueueSubmit2(VkQueue queueHandle, uint32_t submitCount, const VkSubmitInfo2* pSubmits,
                                                            VkFence fence) {
  std::vector<exec::Batch> batches(submitCount);
  for (uint32_t i = 0; i < submitCount; ++i) {
    const VkSubmitInfo2& s = pSubmits[i];
    exec::Batch& b = batches[i];
    for (uint32_t w = 0; w < s.waitSemaphoreInfoCount; ++w)
      b.waits.push_back({from_handle<exec::Semaphore>(s.pWaitSemaphoreInfos[w].semaphore), s.pWaitSemaphoreInfos[w].value});
    for (uint32_t c = 0; c < s.commandBufferInfoCount; ++c)
      b.command_lists.push_back(command_buffer_of(s.pCommandBufferInfos[c].commandBuffer)->commands);
    for (uint32_t g = 0; g < s.signalSemaphoreInfoCount; ++g)
      b.signals.push_back({from_handle<exec::Semaphore>(s.pSignalSemaphoreInfos[g].semaphore), s.pSignalSemaphoreInfos[g].value});
  }
  return submit_batches(queue_of(queueHandle), std::move(batches), fence);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_QueueWaitIdle(VkQueue queueHandle) {
  return queue_of(queueHandle)->engine.wait_idle();
}
