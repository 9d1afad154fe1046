// Recording of barriers and events (original and synchronization2 forms).
#include <vector>

#include "icd/command_buffer.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

// Everything a VkDependencyInfo says, copied into the command list (the union of its stage masks
// in *src / *dst for the in-order engine).
exec::DependencyInfo record_dependency_info(CommandBuffer* cb, const VkDependencyInfo& info, VkPipelineStageFlags2* src,
                                            VkPipelineStageFlags2* dst) {
  std::vector<exec::MemoryDependency> memory;
  std::vector<exec::BufferDependency> buffers;
  std::vector<exec::ImageDependency> images;
  for (uint32_t i = 0; i < info.memoryBarrierCount; ++i) {
    const VkMemoryBarrier2& b = info.pMemoryBarriers[i];
    memory.push_back({b.srcStageMask, b.dstStageMask, b.srcAccessMask, b.dstAccessMask});
  }
  for (uint32_t i = 0; i < info.bufferMemoryBarrierCount; ++i) {
    const VkBufferMemoryBarrier2& b = info.pBufferMemoryBarriers[i];
    buffers.push_back({{b.srcStageMask, b.dstStageMask, b.srcAccessMask, b.dstAccessMask}, from_handle<mem::Buffer>(b.buffer),
                       b.offset, b.size});
  }
  for (uint32_t i = 0; i < info.imageMemoryBarrierCount; ++i) {
    const VkImageMemoryBarrier2& b = info.pImageMemoryBarriers[i];
    images.push_back({{b.srcStageMask, b.dstStageMask, b.srcAccessMask, b.dstAccessMask}, from_handle<mem::Image>(b.image),
                      b.subresourceRange, b.oldLayout, b.newLayout});
  }
  *src = *dst = 0;
  for (const auto& m : memory) *src |= m.src_stages, *dst |= m.dst_stages;
  for (const auto& b : buffers) *src |= b.masks.src_stages, *dst |= b.masks.dst_stages;
  for (const auto& b : images) *src |= b.masks.src_stages, *dst |= b.masks.dst_stages;
  exec::CommandList& list = *cb->commands;
  return {uint32_t(memory.size()), list.copy_array(memory.data(), memory.size()),
          uint32_t(buffers.size()), list.copy_array(buffers.data(), buffers.size()),
          uint32_t(images.size()), list.copy_array(images.data(), images.size())};
}

// The synchronization1 barrier arrays as a VkDependencyInfo: the command's stage masks apply to
// every barrier, and the stage masks alone are an execution dependency (a memory barrier without
// accesses stands for it).
struct Sync1Dependencies {
  std::vector<VkMemoryBarrier2> memory;
  std::vector<VkBufferMemoryBarrier2> buffers;
  std::vector<VkImageMemoryBarrier2> images;
  VkDependencyInfo info{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};

  Sync1Dependencies(VkPipelineStageFlags src, VkPipelineStageFlags dst, uint32_t memory_count, const VkMemoryBarrier* m,
                    uint32_t buffer_count, const VkBufferMemoryBarrier* b, uint32_t image_count,
                    const VkImageMemoryBarrier* im) {
    memory.push_back({VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, src, 0, dst, 0});
    for (uint32_t i = 0; i < memory_count; ++i)
      memory.push_back({VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, src, m[i].srcAccessMask, dst, m[i].dstAccessMask});
    for (uint32_t i = 0; i < buffer_count; ++i)
      buffers.push_back({VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2, nullptr, src, b[i].srcAccessMask, dst, b[i].dstAccessMask,
                         b[i].srcQueueFamilyIndex, b[i].dstQueueFamilyIndex, b[i].buffer, b[i].offset, b[i].size});
    for (uint32_t i = 0; i < image_count; ++i)
      images.push_back({VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2, nullptr, src, im[i].srcAccessMask, dst, im[i].dstAccessMask,
                        im[i].oldLayout, im[i].newLayout, im[i].srcQueueFamilyIndex, im[i].dstQueueFamilyIndex, im[i].image,
                        im[i].subresourceRange});
    info.memoryBarrierCount = uint32_t(memory.size());
    info.pMemoryBarriers = memory.data();
    info.bufferMemoryBarrierCount = uint32_t(buffers.size());
    info.pBufferMemoryBarriers = buffers.data();
    info.imageMemoryBarrierCount = uint32_t(images.size());
    info.pImageMemoryBarriers = images.data();
  }
};

void record_barrier(CommandBuffer* cb, const VkDependencyInfo& info) {
  VkPipelineStageFlags2 src, dst;
  const exec::DependencyInfo deps = record_dependency_info(cb, info, &src, &dst);
  auto* cmd = cb->commands->append<exec::BarrierCmd>();
  cmd->src_stages = src;
  cmd->dst_stages = dst;
  cmd->dependencies = deps;
}

void record_wait_events(CommandBuffer* cb, uint32_t count, const VkEvent* events, const VkDependencyInfo* infos,
                        uint32_t info_count) {
  // Several dependency infos (one per event) are recorded as one: their union.
  std::vector<VkMemoryBarrier2> memory;
  std::vector<VkBufferMemoryBarrier2> buffers;
  std::vector<VkImageMemoryBarrier2> images;
  for (uint32_t i = 0; i < info_count; ++i) {
    memory.insert(memory.end(), infos[i].pMemoryBarriers, infos[i].pMemoryBarriers + infos[i].memoryBarrierCount);
    buffers.insert(buffers.end(), infos[i].pBufferMemoryBarriers,
                   infos[i].pBufferMemoryBarriers + infos[i].bufferMemoryBarrierCount);
    images.insert(images.end(), infos[i].pImageMemoryBarriers, infos[i].pImageMemoryBarriers + infos[i].imageMemoryBarrierCount);
  }
  VkDependencyInfo all{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  all.memoryBarrierCount = uint32_t(memory.size());
  all.pMemoryBarriers = memory.data();
  all.bufferMemoryBarrierCount = uint32_t(buffers.size());
  all.pBufferMemoryBarriers = buffers.data();
  all.imageMemoryBarrierCount = uint32_t(images.size());
  all.pImageMemoryBarriers = images.data();
  VkPipelineStageFlags2 src, dst;
  const exec::DependencyInfo deps = record_dependency_info(cb, all, &src, &dst);
  std::vector<exec::Event*> list;
  for (uint32_t i = 0; i < count; ++i) list.push_back(from_handle<exec::Event>(events[i]));
  auto* cmd = cb->commands->append<exec::WaitEventsCmd>();
  cmd->event_count = count;
  cmd->events = cb->commands->copy_array(list.data(), list.size());
  cmd->src_stages = src;
  cmd->dst_stages = dst;
  cmd->dependencies = deps;
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdPipelineBarrier(VkCommandBuffer commandBuffer, VkPipelineStageFlags srcStageMask,
                                                              VkPipelineStageFlags dstStageMask, VkDependencyFlags,
                                                              uint32_t memoryBarrierCount, const VkMemoryBarrier* pMemoryBarriers,
                                                              uint32_t bufferMemoryBarrierCount,
                                                              const VkBufferMemoryBarrier* pBufferMemoryBarriers,
                                                              uint32_t imageMemoryBarrierCount,
                                                              const VkImageMemoryBarrier* pImageMemoryBarriers) {
  const Sync1Dependencies deps(srcStageMask, dstStageMask, memoryBarrierCount, pMemoryBarriers, bufferMemoryBarrierCount,
                               pBufferMemoryBarriers, imageMemoryBarrierCount, pImageMemoryBarriers);
  record_barrier(command_buffer_of(commandBuffer), deps.info);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdPipelineBarrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo* pDependencyInfo) {
  record_barrier(command_buffer_of(commandBuffer), *pDependencyInfo);
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
                                                         uint32_t memoryBarrierCount, const VkMemoryBarrier* pMemoryBarriers,
                                                         uint32_t bufferMemoryBarrierCount,
                                                         const VkBufferMemoryBarrier* pBufferMemoryBarriers,
                                                         uint32_t imageMemoryBarrierCount,
                                                         const VkImageMemoryBarrier* pImageMemoryBarriers) {
  const Sync1Dependencies deps(srcStageMask, dstStageMask, memoryBarrierCount, pMemoryBarriers, bufferMemoryBarrierCount,
                               pBufferMemoryBarriers, imageMemoryBarrierCount, pImageMemoryBarriers);
  record_wait_events(command_buffer_of(commandBuffer), eventCount, pEvents, &deps.info, 1);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent* pEvents,
                                                          const VkDependencyInfo* pDependencyInfos) {
  record_wait_events(command_buffer_of(commandBuffer), eventCount, pEvents, pDependencyInfos, eventCount);
}
