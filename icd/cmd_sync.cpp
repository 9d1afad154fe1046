// Recording of barriers and events (original and synchronization2 forms).
#include <vector>

#include "icd/command_buffer.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

// The union of stage masks named by a VkDependencyInfo.
void dependency_stages(const VkDependencyInfo& info, VkPipelineStageFlags2* src, VkPipelineStageFlags2* dst) {
  *src = *dst = 0;
  for (uint32_t i = 0; i < info.memoryBarrierCount; ++i) {
    *src |= info.pMemoryBarriers[i].srcStageMask;
    *dst |= info.pMemoryBarriers[i].dstStageMask;
  }
  for (uint32_t i = 0; i < info.bufferMemoryBarrierCount; ++i) {
    *src |= info.pBufferMemoryBarriers[i].srcStageMask;
    *dst |= info.pBufferMemoryBarriers[i].dstStageMask;
  }
  for (uint32_t i = 0; i < info.imageMemoryBarrierCount; ++i) {
    *src |= info.pImageMemoryBarriers[i].srcStageMask;
    *dst |= info.pImageMemoryBarriers[i].dstStageMask;
  }
}

void record_barrier(CommandBuffer* cb, VkPipelineStageFlags2 src, VkPipelineStageFlags2 dst) {
  auto* cmd = cb->commands->append<exec::BarrierCmd>();
  cmd->src_stages = src;
  cmd->dst_stages = dst;
}

void record_wait_events(CommandBuffer* cb, uint32_t count, const VkEvent* events, VkPipelineStageFlags2 src,
                        VkPipelineStageFlags2 dst) {
  std::vector<exec::Event*> list;
  for (uint32_t i = 0; i < count; ++i) list.push_back(from_handle<exec::Event>(events[i]));
  auto* cmd = cb->commands->append<exec::WaitEventsCmd>();
  cmd->event_count = count;
  cmd->events = cb->commands->copy_array(list.data(), list.size());
  cmd->src_stages = src;
  cmd->dst_stages = dst;
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdPipelineBarrier(VkCommandBuffer commandBuffer, VkPipelineStageFlags srcStageMask,
                                                              VkPipelineStageFlags dstStageMask, VkDependencyFlags, uint32_t,
                                                              const VkMemoryBarrier*, uint32_t, const VkBufferMemoryBarrier*,
                                                              uint32_t, const VkImageMemoryBarrier*) {
  record_barrier(command_buffer_of(commandBuffer), srcStageMask, dstStageMask);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdPipelineBarrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo* pDependencyInfo) {
  VkPipelineStageFlags2 src, dst;
  dependency_stages(*pDependencyInfo, &src, &dst);
  record_barrier(command_buffer_of(commandBuffer), src, dst);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetEvent(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags) {
  command_buffer_of(commandBuffer)->commands->append<exec::SetEventCmd>()->event = from_handle<exec::Event>(event);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event, const VkDependencyInfo*) {
  command_buffer_of(commandBuffer)->commands->append<exec::SetEventCmd>()->event = from_handle<exec::Event>(event);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdResetEvent(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags) {
  command_buffer_of(commandBuffer)->commands->append<exec::ResetEventCmd>()->event = from_handle<exec::Event>(event);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags2) {
  command_buffer_of(commandBuffer)->commands->append<exec::ResetEventCmd>()->event = from_handle<exec::Event>(event);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdWaitEvents(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent* pEvents,
                                                         VkPipelineStageFlags srcStageMask, VkPipelineStageFlags dstStageMask,
                                                         uint32_t, const VkMemoryBarrier*, uint32_t, const VkBufferMemoryBarrier*,
                                                         uint32_t, const VkImageMemoryBarrier*) {
  record_wait_events(command_buffer_of(commandBuffer), eventCount, pEvents, srcStageMask, dstStageMask);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent* pEvents,
                                                          const VkDependencyInfo* pDependencyInfos) {
  VkPipelineStageFlags2 src = 0, dst = 0;
  for (uint32_t i = 0; i < eventCount; ++i) {
    VkPipelineStageFlags2 s, d;
    dependency_stages(pDependencyInfos[i], &s, &d);
    src |= s;
    dst |= d;
  }
  record_wait_events(command_buffer_of(commandBuffer), eventCount, pEvents, src, dst);
}
