#pragma once
// What the pipeline-creation scenarios (pipeline_create_cold, pipeline_create_cached,
// pipeline_first_dispatch_cold) share. A repetition creates one compute pipeline of the
// Mandelbrot kernel (shaders/mandelbrot.comp: loops, float math, push constants, a storage buffer)
// with the specialization the subclass picks. What is timed is PipelineTiming; destroying the
// previous repetition's pipeline is not. Throughput: pipelines created per second.
//
// Verification dispatches the pipeline the verified repetition created over a small image and
// checks its counts against the CPU, including the count offset (a specialization constant) that
// tells which specialization ran — a driver handing back the wrong cached pipeline fails.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/kiln-bench/compute_helpers.h"
#include "tools/kiln-bench/mandelbrot.h"
#include "tools/kiln-bench/scenario.h"

namespace kiln::bench {

enum class PipelineTiming {
  // vkCreateComputePipelines alone.
  kCreation,
  // vkCreateComputePipelines plus one small dispatch with the new pipeline, submitted and waited
  // for: the time until a new pipeline has produced a result. A driver that compiles lazily
  // (lavapipe generates machine code at the first dispatch) pays for its compiler only here.
  kCreationAndFirstDispatch,
};

// Specializations no driver has seen: a new count offset each time, starting at a random point
// per process so that a cache kept on disk (Mesa's shader cache, used by lavapipe) misses too.
class FreshSpecializations {
 public:
  FreshSpecializations();
  MandelbrotSpecialization next();

 private:
  uint32_t next_index_;
};

class PipelineCreationScenario : public Scenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context);

  double run_repetition(tools::VulkanContext& context) final;
  double work_per_repetition() const final { return 1.0; }  // one pipeline
  // Destroys the last pipeline and poisons the verification image.
  void poison_output(tools::VulkanContext& context) final;
  std::optional<std::string> verify_output(tools::VulkanContext& context) final;

 protected:
  PipelineCreationScenario(tools::VulkanContext& context, PipelineTiming timing);

  // The specialization of the next repetition's pipeline.
  virtual MandelbrotSpecialization next_specialization() = 0;

  // A pipeline of the scenario's shader and layout (e.g. to warm a cache during setup).
  std::unique_ptr<ComputePipeline> create_pipeline(const MandelbrotSpecialization& specialization) const;

 private:
  // Dispatches the last pipeline over the verification image and waits; returns the seconds taken.
  double dispatch_last_pipeline(tools::VulkanContext& context);

  VkDevice device_;
  PipelineTiming timing_;
  StorageBufferLayout layout_;
  ShaderModule module_;
  MandelbrotView view_;  // the small verification image
  std::vector<uint32_t> reference_;
  tools::Buffer counts_;
  StorageBufferSet set_;
  MandelbrotSpecialization last_specialization_;
  std::unique_ptr<ComputePipeline> last_pipeline_;  // created by the last repetition
};

}  // namespace kiln::bench
