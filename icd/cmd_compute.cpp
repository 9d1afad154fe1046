// Recording of compute state and dispatches: bind pipeline, descriptor sets and push constants,
// then vkCmdDispatch* capture a copy of that state into the command list.
#include <algorithm>
#include <cstring>

#include "common/log.h"
#include "icd/command_buffer.h"
#include "icd/device_limits.h"
#include "icd/pipeline.h"
#include "icd/pipeline_layout.h"
#include "kiln_entrypoints.h"

using namespace kiln;

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                                                           VkPipeline pipeline) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  if (bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) cb->compute_pipeline = pipeline_of(pipeline);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                                                                 VkPipelineLayout layout, uint32_t firstSet, uint32_t setCount,
                                                                 const VkDescriptorSet* pSets, uint32_t dynamicOffsetCount,
                                                                 const uint32_t* pDynamicOffsets) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  if (bindPoint != VK_PIPELINE_BIND_POINT_COMPUTE) return;  // graphics binding arrives with graphics pipelines
  bind_descriptor_sets(*pipeline_layout_of(layout), firstSet, {pSets, setCount}, {pDynamicOffsets, dynamicOffsetCount},
                       &cb->compute_resources);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout, VkShaderStageFlags stages,
                                                            uint32_t offset, uint32_t size, const void* pValues) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  if (offset > abi::kMaxPushConstantBytes || size > abi::kMaxPushConstantBytes - offset) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdPushConstants: range [%u, %u) beyond %u bytes; ignored", offset, offset + size,
                  abi::kMaxPushConstantBytes);
    return;
  }
  if (stages & VK_SHADER_STAGE_COMPUTE_BIT) memcpy(cb->compute_resources.push_constants + offset, pValues, size);
}

namespace {

// The bound pipeline's kernel and a snapshot of the bound resources, or false (logged) when no
// compute pipeline is bound.
bool capture_compute_state(CommandBuffer* cb, const char* command, const exec::ComputeKernel** kernel,
                           const abi::ResourceContext** resources) {
  if (!cb->compute_pipeline) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: no compute pipeline bound; skipped", command);
    return false;
  }
  *kernel = &cb->compute_pipeline->kernel;
  *resources = cb->commands.copy_array(&cb->compute_resources, 1);
  return true;
}

void record_dispatch(CommandBuffer* cb, const uint32_t base[3], const uint32_t count[3]) {
  const VkPhysicalDeviceLimits& limits = device_limits();
  for (int i = 0; i < 3; ++i) {
    if (count[i] > limits.maxComputeWorkGroupCount[i] || base[i] > limits.maxComputeWorkGroupCount[i] - count[i]) {
      KILN_LOG_ONCE(LogLevel::Error, "vkCmdDispatch: group counts exceed maxComputeWorkGroupCount; skipped");
      return;
    }
  }
  const exec::ComputeKernel* kernel;
  const abi::ResourceContext* resources;
  if (!capture_compute_state(cb, "vkCmdDispatch", &kernel, &resources)) return;
  auto* cmd = cb->commands.append<exec::DispatchCmd>();
  cmd->kernel = kernel;
  cmd->resources = resources;
  std::copy_n(base, 3, cmd->base);
  std::copy_n(count, 3, cmd->count);
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDispatch(VkCommandBuffer commandBuffer, uint32_t x, uint32_t y, uint32_t z) {
  const uint32_t base[3] = {0, 0, 0}, count[3] = {x, y, z};
  record_dispatch(command_buffer_of(commandBuffer), base, count);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseX, uint32_t baseY,
                                                           uint32_t baseZ, uint32_t x, uint32_t y, uint32_t z) {
  const uint32_t base[3] = {baseX, baseY, baseZ}, count[3] = {x, y, z};
  record_dispatch(command_buffer_of(commandBuffer), base, count);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  auto* b = from_handle<mem::Buffer>(buffer);
  if (!b->data || offset > b->size || b->size - offset < sizeof(VkDispatchIndirectCommand) || offset % 4) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdDispatchIndirect: the command does not fit in the buffer; skipped");
    return;
  }
  const exec::ComputeKernel* kernel;
  const abi::ResourceContext* resources;
  if (!capture_compute_state(cb, "vkCmdDispatchIndirect", &kernel, &resources)) return;
  auto* cmd = cb->commands.append<exec::DispatchIndirectCmd>();
  cmd->kernel = kernel;
  cmd->resources = resources;
  cmd->buffer = b;
  cmd->offset = offset;
  for (int i = 0; i < 3; ++i) cmd->max_count[i] = device_limits().maxComputeWorkGroupCount[i];
}
