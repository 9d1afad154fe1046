// VK_EXT_transform_feedback's recorded commands: binding the buffers and beginning/ending capture
// with counter buffers (the engine's side: pipeline/xfb_state.h). vkCmdDrawIndirectByteCountEXT is a
// draw (icd/cmd_draw.cpp), the indexed queries are queries (icd/query_pool.cpp).
#include <algorithm>

#include "common/log.h"
#include "icd/command_buffer.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

// [first, first + count) within the buffers transform feedback has; false (logged) otherwise.
bool buffers_in_range(uint32_t first, uint32_t count, const char* api) {
  if (first < abi::kMaxXfbBuffers && count <= abi::kMaxXfbBuffers - first) return true;
  KILN_LOG_ONCE(LogLevel::Error, "%s: buffers [%u, %u) beyond %u; ignored", api, first, first + count, abi::kMaxXfbBuffers);
  return false;
}

// Begin's and End's counter buffers (null handles and a null array: no counter).
exec::TransformFeedbackCounters counters(uint32_t first, uint32_t count, const VkBuffer* buffers, const VkDeviceSize* offsets) {
  exec::TransformFeedbackCounters c{};
  c.first = first;
  c.count = count;
  for (uint32_t i = 0; i < count && buffers; ++i) {
    c.buffer[i] = from_handle<mem::Buffer>(buffers[i]);
    c.offset[i] = offsets ? offsets[i] : 0;
  }
  return c;
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindTransformFeedbackBuffersEXT(VkCommandBuffer commandBuffer,
                                                                              uint32_t firstBinding, uint32_t bindingCount,
                                                                              const VkBuffer* pBuffers,
                                                                              const VkDeviceSize* pOffsets,
                                                                              const VkDeviceSize* pSizes) {
  const char* api = "vkCmdBindTransformFeedbackBuffersEXT";
  if (!buffers_in_range(firstBinding, bindingCount, api)) return;
  auto* cmd = command_buffer_of(commandBuffer)->commands->append<exec::BindTransformFeedbackCmd>();
  cmd->first = firstBinding;
  cmd->count = bindingCount;
  for (uint32_t i = 0; i < bindingCount; ++i) {
    const auto* b = from_handle<mem::Buffer>(pBuffers[i]);
    if (!b || !b->data || pOffsets[i] > b->size) {
      KILN_LOG_ONCE(LogLevel::Error, "%s: offset beyond the buffer (or no memory bound); binding left empty", api);
      continue;
    }
    const VkDeviceSize rest = b->size - pOffsets[i];
    cmd->data[i] = b->data + pOffsets[i];
    cmd->size[i] = (pSizes && pSizes[i] != VK_WHOLE_SIZE) ? std::min(pSizes[i], rest) : rest;
  }
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBeginTransformFeedbackEXT(VkCommandBuffer commandBuffer,
                                                                        uint32_t firstCounterBuffer,
                                                                        uint32_t counterBufferCount,
                                                                        const VkBuffer* pCounterBuffers,
                                                                        const VkDeviceSize* pCounterBufferOffsets) {
  if (!buffers_in_range(firstCounterBuffer, counterBufferCount, "vkCmdBeginTransformFeedbackEXT")) return;
  command_buffer_of(commandBuffer)->commands->append<exec::BeginTransformFeedbackCmd>()->counters =
      counters(firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdEndTransformFeedbackEXT(VkCommandBuffer commandBuffer,
                                                                      uint32_t firstCounterBuffer,
                                                                      uint32_t counterBufferCount,
                                                                      const VkBuffer* pCounterBuffers,
                                                                      const VkDeviceSize* pCounterBufferOffsets) {
  if (!buffers_in_range(firstCounterBuffer, counterBufferCount, "vkCmdEndTransformFeedbackEXT")) return;
  command_buffer_of(commandBuffer)->commands->append<exec::EndTransformFeedbackCmd>()->counters =
      counters(firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
}
