// y = a * x + y on 32 Mi floats (shaders/saxpy.comp, local_size 256): x and y are 128 MiB each,
// 256 MiB in total (128 MiB is the largest storage buffer every device must support). Bandwidth-
// bound; throughput counts the bytes read and written: x and y read, y written = 384 MiB per
// repetition, in GB/s (1e9 bytes).
//
// Inputs are integers below 2^16 and a = 3, so every result is exact in float whatever the order
// of operations (fused or not), and the check is bit-exact on every element.
#include <cstdint>

#include "tools/kiln-bench/compute_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"
#include "kiln-bench-shaders/saxpy.comp.spv.h"

namespace kiln::bench {
namespace {

constexpr VkDeviceSize kArrayBytes = 128 * kMebibyte;
constexpr uint32_t kElements = kArrayBytes / sizeof(float);
constexpr uint32_t kLocalSize = 256;
constexpr float kA = 3.0f;

class ComputeSaxpy256MiB final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (auto reason = missing_host_buffer_memory(context, kArrayBytes, 2)) return reason;
    return missing_compute_support(context, {.local_size = {kLocalSize, 1, 1},
                                             .workgroups = workgroups(),
                                             .storage_buffer_range = kArrayBytes,
                                             .push_constant_bytes = sizeof(float)});
  }

  explicit ComputeSaxpy256MiB(tools::VulkanContext& context)
      : arrays_(context, kElements, 0x5a1, 0x5a2),
        kernel_(context, spirv_code(saxpy_comp_spirv), {&arrays_.x, &arrays_.y}, sizeof(float)) {}

  void record_repetition(VkCommandBuffer cmd) override {
    kernel_.record_dispatch(cmd, workgroups(), &kA);
  }

  double work_per_repetition() const override { return 3.0 * kArrayBytes / kBytesPerGigabyte; }

  // y is input and output, so "poisoning" restores the initial y: a repetition that did nothing
  // leaves it unchanged, which the check rejects (a * x is never 0).
  void poison_output(tools::VulkanContext&) override { arrays_.reset_y(); }

  std::optional<std::string> verify_output(tools::VulkanContext&) override { return arrays_.mismatch(kA); }

 private:
  static GroupCount workgroups() { return workgroup_rows(kElements / kLocalSize); }

  SaxpyArrays arrays_;
  ComputeKernel kernel_;
};

}  // namespace

KILN_BENCH_SCENARIO(ComputeSaxpy256MiB, "compute_saxpy_256mib", "GB/s",
                    "compute: y = a*x + y, x and y 128 MiB each; bytes read + written");

}  // namespace kiln::bench
