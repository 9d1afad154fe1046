// Workgroup sums of 1 Mi floats (4 MiB) through shared memory (shaders/shared_reduction.comp,
// local_size 256): one value per invocation, then a tree reduction with a barrier() after every
// step (9 per workgroup), one sum per each of the 4096 workgroups. Measures shared memory and
// barriers, not bandwidth: the input is small enough to stay in cache, and sized so one
// repetition takes 20-120 ms on lavapipe (2 cores). One unit of work is a million input elements.
//
// The values are small integers, so every partial sum is exact in float in any order and every
// sum is checked bit-exactly.
#include <bit>
#include <cstdint>
#include <vector>

#include "tools/kiln-bench/compute_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"
#include "kiln-bench-shaders/shared_reduction.comp.spv.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kElements = 1u << 20;
constexpr uint32_t kLocalSize = 256;
constexpr uint32_t kWorkgroups = kElements / kLocalSize;
constexpr VkDeviceSize kValueBytes = VkDeviceSize(kElements) * sizeof(float);
constexpr VkDeviceSize kSumBytes = VkDeviceSize(kWorkgroups) * sizeof(float);
constexpr uint32_t kSeed = 0x5ed;

float value(size_t i) { return float(pattern_word(i, kSeed) & 15); }

class ComputeSharedReduction final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (auto reason = missing_host_buffer_memory(context, kValueBytes, 1)) return reason;
    return missing_compute_support(context, {.local_size = {kLocalSize, 1, 1},
                                             .workgroups = workgroup_rows(kWorkgroups),
                                             .storage_buffer_range = kValueBytes,
                                             .shared_memory_bytes = kLocalSize * sizeof(float)});
  }

  explicit ComputeSharedReduction(tools::VulkanContext& context)
      : values_(make_storage_buffer(context, kValueBytes)),
        sums_(make_storage_buffer(context, kSumBytes)),
        kernel_(context, spirv_code(shared_reduction_comp_spirv), {&values_, &sums_}),
        expected_sums_(kWorkgroups, 0.0f) {
    float* values = static_cast<float*>(values_.mapped());
    for (size_t i = 0; i < kElements; ++i) {
      values[i] = value(i);
      expected_sums_[i / kLocalSize] += values[i];
    }
  }

  void record_repetition(VkCommandBuffer cmd) override {
    kernel_.record_dispatch(cmd, workgroup_rows(kWorkgroups));
  }

  double work_per_repetition() const override { return kElements / 1e6; }

  void poison_output(tools::VulkanContext&) override {
    uint32_t* sums = static_cast<uint32_t*>(sums_.mapped());
    for (size_t g = 0; g < kWorkgroups; ++g) sums[g] = kPoisonWord;  // a NaN: never a sum
  }

  std::optional<std::string> verify_output(tools::VulkanContext&) override {
    return find_mismatch(static_cast<const uint32_t*>(sums_.mapped()), kWorkgroups,
                         [&](size_t g) { return std::bit_cast<uint32_t>(expected_sums_[g]); });
  }

 private:
  tools::Buffer values_;
  tools::Buffer sums_;
  ComputeKernel kernel_;
  std::vector<float> expected_sums_;  // per workgroup
};

}  // namespace

KILN_BENCH_SCENARIO(ComputeSharedReduction, "compute_shared_reduction", "Melem/s",
                    "compute: per-workgroup sums of 1 Mi floats, shared memory + barrier(), 256 wide");

}  // namespace kiln::bench
