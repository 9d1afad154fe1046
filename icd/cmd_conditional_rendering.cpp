// VK_EXT_conditional_rendering: Begin/End record commands; the executor reads the condition when
// Begin executes and discards draws, dispatches and vkCmdClearAttachments until End
// (pipeline/executor.cpp). Secondary command buffers run inline, so inside an active condition
// they are discarded alike (inheritedConditionalRendering).
#include "common/log.h"
#include "icd/command_buffer.h"
#include "kiln_entrypoints.h"

using namespace kiln;

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBeginConditionalRenderingEXT(
    VkCommandBuffer commandBuffer, const VkConditionalRenderingBeginInfoEXT* pConditionalRenderingBegin) {
  const auto* buffer = from_handle<mem::Buffer>(pConditionalRenderingBegin->buffer);
  if (!buffer) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdBeginConditionalRenderingEXT: no buffer; ignored");
    return;
  }
  auto* cmd = command_buffer_of(commandBuffer)->commands->append<exec::BeginConditionalRenderingCmd>();
  cmd->buffer = buffer;
  cmd->offset = pConditionalRenderingBegin->offset;
  cmd->inverted = pConditionalRenderingBegin->flags & VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdEndConditionalRenderingEXT(VkCommandBuffer commandBuffer) {
  command_buffer_of(commandBuffer)->commands->append<exec::EndConditionalRenderingCmd>();
}
