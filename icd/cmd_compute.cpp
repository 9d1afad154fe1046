// Recording of dispatches: vkCmdDispatch* capture a copy of the compute state bound so far
// (icd/cmd_bind.cpp) into the command list.
#include <algorithm>
#include <cstring>

#include "common/log.h"
#include "icd/command_buffer.h"
#include "icd/device_limits.h"
#include "icd/pipeline.h"
#include "icd/pipeline_layout.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

// The bound pipeline's kernel and a snapshot of the bound resources, or false (logged) when no
// compute pipeline is bound.
bool capture_compute_state(CommandBuffer* cb, const char* command, const exec::ComputeKernel** kernel,
                           const abi::ResourceContext** resources) {
  if (!cb->compute.pipeline) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: no compute pipeline bound; skipped", command);
    return false;
  }
  *kernel = &cb->compute.pipeline->kernel;
  *resources = cb->commands->copy_array(&cb->compute.resources, 1);
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
  auto* cmd = cb->commands->append<exec::DispatchCmd>();
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
  auto* cmd = cb->commands->append<exec::DispatchIndirectCmd>();
  cmd->kernel = kernel;
  cmd->resources = resources;
  cmd->buffer = b;
  cmd->offset = offset;
  for (int i = 0; i < 3; ++i) cmd->max_count[i] = device_limits().maxComputeWorkGroupCount[i];
}
