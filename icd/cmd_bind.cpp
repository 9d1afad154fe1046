// vkCmdBindPipeline, vkCmdBindDescriptorSets and vkCmdPushConstants for both bind points: each
// bind point has its own pipeline and ResourceContext (CommandBuffer::BindPointState), which
// dispatches and draws copy when they are recorded.
#include <cstring>

#include "common/log.h"
#include "icd/command_buffer.h"
#include "icd/debug_utils.h"
#include "icd/pipeline.h"
#include "icd/pipeline_layout.h"
#include "kiln_entrypoints.h"

using namespace kiln;

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                                                           VkPipeline pipeline) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  CommandBuffer::BindPointState* point = cb->bind_point(bindPoint);
  if (!point) return;
  if (pipeline_of(pipeline)->graphics.library) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdBindPipeline: a pipeline library cannot be bound; the bind is ignored");
    return;
  }
  point->pipeline = pipeline_of(pipeline);
  // debugPrintfEXT in the pipeline's kernels reports to the instance's messengers.
  point->resources.debug_printf = &report_debug_printf;
  point->resources.debug_printf_context = &cb->device->physical_device->instance->debug_messengers;
  // Strict mode's kernels report out-of-bounds accesses to the device's strict mode.
  if (cb->device->strict) {
    point->resources.shader_fault = &exec::strict::StrictMode::report_shader_fault;
    point->resources.shader_fault_context = cb->device->strict.get();
  }
  if (bindPoint == VK_PIPELINE_BIND_POINT_GRAPHICS) {  // new static state and strides to capture
    cb->gfx.merged_state = nullptr;
    cb->gfx.captured_vertex_buffers = nullptr;
  }
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                                                                 VkPipelineLayout layout, uint32_t firstSet, uint32_t setCount,
                                                                 const VkDescriptorSet* pSets, uint32_t dynamicOffsetCount,
                                                                 const uint32_t* pDynamicOffsets) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  CommandBuffer::BindPointState* point = cb->bind_point(bindPoint);
  if (!point) return;
  bind_descriptor_sets(*pipeline_layout_of(layout), firstSet, {pSets, setCount}, {pDynamicOffsets, dynamicOffsetCount},
                       &point->resources);
}

// Push constants are one block per bind point: compute stages write the compute one, graphics
// stages the graphics one.
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout, VkShaderStageFlags stages,
                                                            uint32_t offset, uint32_t size, const void* pValues) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  if (offset > abi::kMaxPushConstantBytes || size > abi::kMaxPushConstantBytes - offset) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdPushConstants: range [%u, %u) beyond %u bytes; ignored", offset, offset + size,
                  abi::kMaxPushConstantBytes);
    return;
  }
  if (stages & VK_SHADER_STAGE_COMPUTE_BIT) memcpy(cb->compute.resources.push_constants + offset, pValues, size);
  if (stages & (VK_SHADER_STAGE_ALL_GRAPHICS | VK_SHADER_STAGE_TASK_BIT_EXT | VK_SHADER_STAGE_MESH_BIT_EXT))
    memcpy(cb->graphics.resources.push_constants + offset, pValues, size);
}
