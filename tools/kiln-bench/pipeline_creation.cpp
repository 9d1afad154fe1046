#include "tools/kiln-bench/pipeline_creation.h"

#include <chrono>
#include <random>

#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {

namespace {

constexpr uint32_t kVerificationSize = 64;  // pixels per side: cheap to dispatch and to check

// Fresh count offsets are multiples of this, more than the largest count apart, so the
// verification tells every pipeline from its neighbours.
constexpr uint32_t kFreshOffsetStep = 1024;

}  // namespace

FreshSpecializations::FreshSpecializations() : next_index_(std::random_device{}()) {}

MandelbrotSpecialization FreshSpecializations::next() {
  return {.max_iterations = 256, .count_offset = next_index_++ * kFreshOffsetStep};  // wraps: fine
}

std::optional<std::string> PipelineCreationScenario::unsupported_reason(
    const tools::VulkanContext& context) {
  const MandelbrotView view = whole_set_view(kVerificationSize, kVerificationSize);
  return missing_compute_support(context,
                                 {.local_size = kMandelbrotLocalSize,
                                  .workgroups = mandelbrot_workgroups(view),
                                  .storage_buffer_range = VkDeviceSize(view.width) * view.height * 4,
                                  .push_constant_bytes = sizeof(MandelbrotView)});
}

PipelineCreationScenario::PipelineCreationScenario(tools::VulkanContext& context, PipelineTiming timing)
    : device_(context.device()),
      timing_(timing),
      layout_(device_, kMandelbrotStorageBuffers, sizeof(MandelbrotView)),
      module_(device_, mandelbrot_spirv()),
      view_(whole_set_view(kVerificationSize, kVerificationSize)),
      reference_(mandelbrot_reference(view_, MandelbrotSpecialization{}.max_iterations)),
      counts_(make_storage_buffer(context, VkDeviceSize(reference_.size()) * 4)),
      set_(device_, layout_, {&counts_}) {}

std::unique_ptr<ComputePipeline> PipelineCreationScenario::create_pipeline(
    const MandelbrotSpecialization& specialization) const {
  const VkSpecializationInfo info = specialization_info(specialization);
  return std::make_unique<ComputePipeline>(device_, layout_, module_, &info);
}

double PipelineCreationScenario::run_repetition(tools::VulkanContext& context) {
  last_pipeline_.reset();  // not timed
  last_specialization_ = next_specialization();
  last_pipeline_ = create_pipeline(last_specialization_);
  double seconds = last_pipeline_->creation_seconds();
  if (timing_ == PipelineTiming::kCreationAndFirstDispatch) seconds += dispatch_last_pipeline(context);
  return seconds;
}

double PipelineCreationScenario::dispatch_last_pipeline(tools::VulkanContext& context) {
  const auto start = std::chrono::steady_clock::now();
  context.run_commands([&](VkCommandBuffer cmd) {
    record_dispatch(cmd, layout_, *last_pipeline_, set_, mandelbrot_workgroups(view_), &view_);
    tools::memory_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  });
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void PipelineCreationScenario::poison_output(tools::VulkanContext&) {
  last_pipeline_.reset();
  auto* counts = static_cast<uint32_t*>(counts_.mapped());
  for (size_t i = 0; i < reference_.size(); ++i) counts[i] = kPoisonWord;
}

std::optional<std::string> PipelineCreationScenario::verify_output(tools::VulkanContext& context) {
  if (!last_pipeline_) return "no pipeline was created";
  dispatch_last_pipeline(context);
  return check_mandelbrot_counts(static_cast<const uint32_t*>(counts_.mapped()), reference_,
                                 last_specialization_);
}

}  // namespace kiln::bench
