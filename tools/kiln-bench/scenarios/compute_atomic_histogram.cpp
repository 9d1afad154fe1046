// 256-bin byte histogram of 4 MiB (shaders/atomic_histogram.comp, local_size 256, one word =
// four bytes per invocation): atomicAdd on per-workgroup bins in shared memory, then atomicAdd of
// each workgroup's bins into the global bins. The bins are cleared (vkCmdFillBuffer, 1 KiB) at the
// start of every repetition. The bytes are pseudo-random, so the 256 shared counters see moderate
// contention. Sized so one repetition takes 20-120 ms on lavapipe (2 cores). One unit of work
// is a million input elements (bytes).
#include <array>
#include <cstdint>

#include "tools/kiln-bench/compute_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"
#include "kiln-bench-shaders/atomic_histogram.comp.spv.h"

namespace kiln::bench {
namespace {

constexpr VkDeviceSize kInputBytes = 4 * kMebibyte;
constexpr uint32_t kWords = kInputBytes / sizeof(uint32_t);  // one per invocation
constexpr uint32_t kLocalSize = 256;
constexpr uint32_t kBins = 256;
constexpr VkDeviceSize kBinBytes = kBins * sizeof(uint32_t);
constexpr uint32_t kSeed = 0x4157;

class ComputeAtomicHistogram final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (auto reason = missing_host_buffer_memory(context, kInputBytes, 1)) return reason;
    return missing_compute_support(context, {.local_size = {kLocalSize, 1, 1},
                                             .workgroups = workgroups(),
                                             .storage_buffer_range = kInputBytes,
                                             .shared_memory_bytes = kBinBytes});
  }

  explicit ComputeAtomicHistogram(tools::VulkanContext& context)
      : words_(make_storage_buffer(context, kInputBytes)),
        bins_(make_storage_buffer(context, kBinBytes)),
        kernel_(context, spirv_code(atomic_histogram_comp_spirv), {&words_, &bins_}) {
    uint32_t* words = static_cast<uint32_t*>(words_.mapped());
    write_pattern(words, kWords, kSeed);
    expected_bins_.fill(0);
    for (size_t i = 0; i < kWords; ++i) {
      for (int byte = 0; byte < 4; ++byte) ++expected_bins_[(words[i] >> (8 * byte)) & 0xff];
    }
  }

  void record_repetition(VkCommandBuffer cmd) override {
    vkCmdFillBuffer(cmd, bins_.handle(), 0, VK_WHOLE_SIZE, 0);
    tools::memory_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    kernel_.record_dispatch(cmd, workgroups());
  }

  double work_per_repetition() const override { return kInputBytes / 1e6; }

  void poison_output(tools::VulkanContext&) override {
    uint32_t* bins = static_cast<uint32_t*>(bins_.mapped());
    for (uint32_t b = 0; b < kBins; ++b) bins[b] = kPoisonWord;
  }

  std::optional<std::string> verify_output(tools::VulkanContext&) override {
    return find_mismatch(static_cast<const uint32_t*>(bins_.mapped()), kBins,
                         [&](size_t b) { return expected_bins_[b]; });
  }

 private:
  static GroupCount workgroups() { return workgroup_rows(kWords / kLocalSize); }

  tools::Buffer words_;
  tools::Buffer bins_;
  ComputeKernel kernel_;
  std::array<uint32_t, kBins> expected_bins_;
};

}  // namespace

KILN_BENCH_SCENARIO(ComputeAtomicHistogram, "compute_atomic_histogram", "Melem/s",
                    "compute: 256-bin histogram of 4 MiB of bytes, shared then global atomicAdd");

}  // namespace kiln::bench
