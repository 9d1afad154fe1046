// A new Mandelbrot pipeline until its first result: vkCreateComputePipelines with a specialization
// the driver has never seen (FreshSpecializations) plus one 64×64-pixel dispatch with it, submitted
// and waited for. Comparable across drivers that compile at creation (Kiln) and at the first
// dispatch (lavapipe). See pipeline_creation.h.
#include "tools/kiln-bench/pipeline_creation.h"

namespace kiln::bench {
namespace {

class PipelineFirstDispatchCold final : public PipelineCreationScenario {
 public:
  using PipelineCreationScenario::unsupported_reason;

  explicit PipelineFirstDispatchCold(tools::VulkanContext& context)
      : PipelineCreationScenario(context, PipelineTiming::kCreationAndFirstDispatch) {}

 protected:
  MandelbrotSpecialization next_specialization() override { return fresh_.next(); }

 private:
  FreshSpecializations fresh_;
};

}  // namespace

KILN_BENCH_SCENARIO(PipelineFirstDispatchCold, "pipeline_first_dispatch_cold", "creations/s",
                    "new Mandelbrot pipeline (new specialization) + its first small dispatch");

}  // namespace kiln::bench
