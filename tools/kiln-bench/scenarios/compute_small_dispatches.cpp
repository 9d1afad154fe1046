// 4096 small dispatches with nothing between them (one workgroup of 64 invocations each, each on
// its own 64-element slice of y = a * x + y, shaders/slice_saxpy.comp): the cost is per dispatch,
// not per element. No barrier orders them, so a driver may run them together; throughput counts
// dispatches (thousands per second). Compare with the kiln-serial driver (KILN_OVERLAP=0), which
// runs them one after another.
//
// Inputs are integers below 2^16 and a = 3: every result is exact, and the check is bit-exact.
#include <cstdint>

#include "tools/kiln-bench/compute_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"
#include "kiln-bench-shaders/slice_saxpy.comp.spv.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kDispatches = 4096;
constexpr uint32_t kSlice = 64;  // elements (and invocations) per dispatch
constexpr uint32_t kElements = kDispatches * kSlice;
constexpr VkDeviceSize kArrayBytes = kElements * sizeof(float);
constexpr float kA = 3.0f;

struct SliceParameters {
  float a;
  uint32_t first;
};

class ComputeSmallDispatches final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (auto reason = missing_host_buffer_memory(context, kArrayBytes, 2)) return reason;
    return missing_compute_support(context, {.local_size = {kSlice, 1, 1},
                                             .workgroups = {1, 1, 1},
                                             .storage_buffer_range = kArrayBytes,
                                             .push_constant_bytes = sizeof(SliceParameters)});
  }

  explicit ComputeSmallDispatches(tools::VulkanContext& context)
      : arrays_(context, kElements, 0x5b1, 0x5b2),
        kernel_(context, spirv_code(slice_saxpy_comp_spirv), {&arrays_.x, &arrays_.y}, sizeof(SliceParameters)) {}

  void record_repetition(VkCommandBuffer cmd) override {
    for (uint32_t d = 0; d < kDispatches; ++d) {
      const SliceParameters parameters{kA, d * kSlice};
      kernel_.record_dispatch(cmd, {1, 1, 1}, &parameters);
    }
  }

  double work_per_repetition() const override { return kDispatches / 1000.0; }

  // y is input and output: "poisoning" restores the initial y, which the check rejects.
  void poison_output(tools::VulkanContext&) override { arrays_.reset_y(); }

  std::optional<std::string> verify_output(tools::VulkanContext&) override { return arrays_.mismatch(kA); }

 private:
  SaxpyArrays arrays_;
  ComputeKernel kernel_;
};

}  // namespace

KILN_BENCH_SCENARIO(ComputeSmallDispatches, "compute_small_dispatches", "k/s",
                    "compute: 4096 unordered one-workgroup dispatches (64-element slices of saxpy); dispatches per second");

}  // namespace kiln::bench
