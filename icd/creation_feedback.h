#pragma once
// VK_EXT_pipeline_creation_feedback (core in 1.3): what pipeline creation reports about itself —
// how long the whole creation and each stage's compile took, and whether the application's
// VkPipelineCache supplied the kernels — plus FAIL_ON_PIPELINE_COMPILE_REQUIRED, which each
// stage's compile is asked through the same request.
#include <vulkan/vulkan.h>

#include <chrono>
#include <vector>

#include "compiler/compile_request.h"

namespace kiln {

class CreationFeedback {
 public:
  // `create_info_next` is the create info's pNext chain; `stages` its pStages.
  // `strict_reports`: what the kernels report in strict mode (icd/strict_shader_reports.h).
  CreationFeedback(const void* create_info_next, const VkPipelineShaderStageCreateInfo* stages, uint32_t stage_count,
                   VkPipelineCreateFlags flags, uint32_t strict_reports);

  // Runs `compile(request)` for `stage` (an element of the create info's pStages), timing it.
  // Different stages may compile on different threads at once.
  template <typename Compile>
  auto compile(const VkPipelineShaderStageCreateInfo& stage, Compile&& compile) {
    Stage& s = stages_[size_t(&stage - first_stage_)];
    s.request.fail_if_compile_required = fail_if_compile_required_;
    s.request.strict_reports = strict_reports_;
    const auto start = std::chrono::steady_clock::now();
    auto result = compile(&s.request);
    s.nanoseconds = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    s.compiled = result != nullptr;
    return result;
  }

  // `stage`'s compile was refused because of FAIL_ON_PIPELINE_COMPILE_REQUIRED.
  bool compile_required(const VkPipelineShaderStageCreateInfo& stage) const {
    return stages_[size_t(&stage - first_stage_)].request.compile_required;
  }

  // Fills the application's feedback structures, if it chained any (after a successful creation).
  void write() const;

 private:
  struct Stage {
    compiler::CompileRequest request;
    uint64_t nanoseconds = 0;
    bool compiled = false;
  };
  const VkPipelineCreationFeedbackCreateInfo* info_;
  const VkPipelineShaderStageCreateInfo* first_stage_;
  std::vector<Stage> stages_;
  bool fail_if_compile_required_;
  uint32_t strict_reports_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace kiln
