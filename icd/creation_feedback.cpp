#include "icd/creation_feedback.h"

#include "icd/struct_chain.h"

namespace kiln {

CreationFeedback::CreationFeedback(const void* create_info_next, const VkPipelineShaderStageCreateInfo* stages,
                                   uint32_t stage_count, VkPipelineCreateFlags flags, uint32_t strict_reports)
    : info_(find_in_chain<VkPipelineCreationFeedbackCreateInfo>(create_info_next)),
      first_stage_(stages),
      stages_(stage_count),
      fail_if_compile_required_(flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT),
      strict_reports_(strict_reports) {}

void CreationFeedback::write() const {
  if (!info_) return;
  // The application's cache "hit" for the pipeline when it holds every kernel the pipeline uses;
  // kernels read from the on-disk cache, or linked earlier in the process, are not its hits.
  bool any_compiled = false, all_hit = true;
  for (const Stage& s : stages_) {
    if (!s.compiled) continue;
    any_compiled = true;
    all_hit &= s.request.origin == compiler::KernelOrigin::PipelineCache;
  }
  if (VkPipelineCreationFeedback* pipeline = info_->pPipelineCreationFeedback) {
    pipeline->flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT;
    if (any_compiled && all_hit) pipeline->flags |= VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
    pipeline->duration =
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count());
  }
  // Stages that were not compiled (a fragment shader under rasterizer discard) report no feedback.
  for (uint32_t i = 0; i < info_->pipelineStageCreationFeedbackCount && i < stages_.size(); ++i) {
    VkPipelineCreationFeedback& out = info_->pPipelineStageCreationFeedbacks[i];
    const Stage& s = stages_[i];
    out = {};
    if (!s.compiled) continue;
    out.flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT;
    if (s.request.origin == compiler::KernelOrigin::PipelineCache)
      out.flags |= VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
    out.duration = s.nanoseconds;
  }
}

}  // namespace kiln
