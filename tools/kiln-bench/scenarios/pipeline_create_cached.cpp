// vkCreateComputePipelines of a pipeline the driver has already created in this process: the
// same Mandelbrot shader, specialization and layout every repetition. Setup creates it once and
// keeps it alive, so this measures the driver's cache path (Kiln: its in-process kernel cache;
// lavapipe: its Mesa shader cache). See pipeline_creation.h.
#include <memory>

#include "tools/kiln-bench/pipeline_creation.h"

namespace kiln::bench {
namespace {

constexpr MandelbrotSpecialization kSpecialization{.max_iterations = 256, .count_offset = 4096};

class PipelineCreateCached final : public PipelineCreationScenario {
 public:
  using PipelineCreationScenario::unsupported_reason;

  explicit PipelineCreateCached(tools::VulkanContext& context)
      : PipelineCreationScenario(context, PipelineTiming::kCreation),
        first_pipeline_(create_pipeline(kSpecialization)) {}

 protected:
  MandelbrotSpecialization next_specialization() override { return kSpecialization; }

 private:
  std::unique_ptr<ComputePipeline> first_pipeline_;  // the first creation, not timed
};

}  // namespace

KILN_BENCH_SCENARIO(PipelineCreateCached, "pipeline_create_cached", "creations/s",
                    "vkCreateComputePipelines, Mandelbrot kernel, same pipeline again (cache hit)");

}  // namespace kiln::bench
