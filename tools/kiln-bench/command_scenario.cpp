// CommandScenario: a repetition is one submission of a command buffer recorded once.
#include "tools/kiln-bench/scenario.h"

namespace kiln::bench {

CommandScenario::~CommandScenario() {
  if (command_buffer_ != VK_NULL_HANDLE) context_->free_command_buffer(command_buffer_);
}

void CommandScenario::prepare(tools::VulkanContext& context) {
  context_ = &context;
  command_buffer_ = context.allocate_command_buffer();
  // Submitted many times, so recorded without ONE_TIME_SUBMIT.
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  tools::check(vkBeginCommandBuffer(command_buffer_, &begin), "vkBeginCommandBuffer");
  // The previous repetition's (or the setup's, or poisoning's) writes happen before this one's
  // reads and writes, whichever stage made them.
  tools::memory_barrier(command_buffer_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                        VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
                        VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                            VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
  record_repetition(command_buffer_);
  // Results are visible to the host (verification reads mapped memory).
  tools::memory_barrier(command_buffer_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  tools::check(vkEndCommandBuffer(command_buffer_), "vkEndCommandBuffer");
}

double CommandScenario::run_repetition(tools::VulkanContext& context) {
  return context.submit_and_wait(command_buffer_);
}

}  // namespace kiln::bench
