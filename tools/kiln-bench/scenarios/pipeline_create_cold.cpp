// vkCreateComputePipelines of a Mandelbrot pipeline the driver has never compiled: every
// repetition uses a new specialization (FreshSpecializations), so no cache keyed on the shader and
// its specialization can hit. Only the creation call is timed; lavapipe defers its machine-code
// generation to the first dispatch, which pipeline_first_dispatch_cold includes.
// See pipeline_creation.h.
#include "tools/kiln-bench/pipeline_creation.h"

namespace kiln::bench {
namespace {

class PipelineCreateCold final : public PipelineCreationScenario {
 public:
  using PipelineCreationScenario::unsupported_reason;

  explicit PipelineCreateCold(tools::VulkanContext& context)
      : PipelineCreationScenario(context, PipelineTiming::kCreation) {}

 protected:
  MandelbrotSpecialization next_specialization() override { return fresh_.next(); }

 private:
  FreshSpecializations fresh_;
};

}  // namespace

KILN_BENCH_SCENARIO(PipelineCreateCold, "pipeline_create_cold", "creations/s",
                    "vkCreateComputePipelines, Mandelbrot kernel, new specialization every time");

}  // namespace kiln::bench
