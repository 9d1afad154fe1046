// VkFFT (Debian libvkfft-dev, its Vulkan backend; tools/vkfft/) as a real application's compute:
// a fixed set of seven plans, kiln::vkfft::bench_shapes() — 1D radix 2 (4096 x256) and radix 3
// (2187 x256), 2D radix 5 (625x625), 3D radix 7 (49^3), 2D R2C (1024x512), 1D Bluestein
// (1031 x256), 2D fp64 (512x512) — timed four ways:
//
// - vkfft_plan_cold: initializeVkFFT of all seven plans (VkFFT generates GLSL, glslang compiles it,
//   the driver creates the pipelines; Bluestein and fp64 plans also upload tables and run set-up
//   dispatches), `plans/s`. Every repetition's SPIR-V carries a new nonce (an OpSourceExtension,
//   no semantic change; see VkfftPlan::create), so the process has never seen it: nothing linked
//   or compiled earlier in the process can serve it. The nonces start at a random value, so no
//   disk cache (Kiln's KILN_CACHE_DIR, Mesa's shader cache) has seen them either — unless
//   KILN_BENCH_VKFFT_NONCE_BASE is set: then they start there (per scenario), every process
//   makes the same sequence, and a run after one that filled the disk cache measures creation
//   from a warm disk cache (docs/benchmarks.md).
// - vkfft_first_result_cold: vkfft_plan_cold plus one forward transform of each new plan,
//   submitted and waited for: the time until a never-seen plan has produced a result (lavapipe
//   generates machine code at a pipeline's first dispatch, which creation alone does not show).
// - vkfft_plan_repeat: the same plans with the same SPIR-V every repetition (and once during
//   setup): the driver may reuse what it made for the previous repetition.
// - vkfft_execute: one forward transform of each plan (plans made during setup), `transforms/s`.
//   Every transform starts with a vkCmdCopyBuffer of its input from a pristine buffer (the
//   transform is in place), 25 MB of copies per repetition in all.
//
// Verification: each plan's forward transform of a random signal against FFTW in double
// precision (tools/vkfft/fft_cases.h), relative L2 error within the VkFFT test's tolerances
// (1e-5 fp32, 3e-14 fp64). The plan scenarios verify the plans of their last repetition.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tools/kiln-bench/scenario.h"
#include "tools/vkfft/fft_cases.h"
#include "tools/vkfft/vkfft_plan.h"

namespace kiln::bench {
namespace {

using vkfft::FftShape;
using vkfft::VkfftPlan;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// The shapes, their buffers (the one VkFFT transforms in place, and the pristine input copied
// into it before each transform), the expected spectra, and the plans.
class VkfftBenchSet {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (!(context.queue_flags() & VK_QUEUE_COMPUTE_BIT)) return "the queue has no compute";
    for (const FftShape& shape : vkfft::bench_shapes()) {
      if (shape.precision == vkfft::Precision::kDouble && !context.enabled_features().shaderFloat64)
        return "no shaderFloat64 (the fp64 plan)";
      if (shape.buffer_bytes() > context.properties().limits.maxStorageBufferRange)
        return "maxStorageBufferRange below " + std::to_string(shape.buffer_bytes()) + " bytes";
    }
    return std::nullopt;
  }

  explicit VkfftBenchSet(tools::VulkanContext& context)
      : session_(context.physical_device(), context.device(), context.queue(), context.queue_family()),
        shapes_(vkfft::bench_shapes()) {
    for (size_t i = 0; i < shapes_.size(); ++i) {
      const FftShape& shape = shapes_[i];
      work_.push_back(std::make_unique<tools::Buffer>(context, shape.buffer_bytes(), kUsage,
                                                      tools::Buffer::Access::HostMapped));
      input_.push_back(std::make_unique<tools::Buffer>(context, shape.buffer_bytes(), kUsage,
                                                       tools::Buffer::Access::HostMapped));
      const vkfft::Signal signal = vkfft::random_signal(shape, 2000 + i);
      vkfft::write_signal(shape, signal, input_.back()->mapped());
      expected_.push_back(vkfft::reference_forward(shape, signal));
    }
  }

  size_t size() const { return shapes_.size(); }

  // Creates every plan (replacing the previous ones, whose destruction is not timed); returns the
  // seconds the creations took.
  double create_plans(uint64_t spirv_nonce) {
    plans_.clear();
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < shapes_.size(); ++i) {
      std::string error;
      plans_.push_back(VkfftPlan::create(session_, shapes_[i], work_[i]->handle(), spirv_nonce, &error));
      if (!plans_.back()) throw std::runtime_error(error);
    }
    return seconds_since(start);
  }

  void destroy_plans() { plans_.clear(); }
  bool has_plans() const { return plans_.size() == shapes_.size(); }

  // Copies every input into its work buffer, then appends every plan's forward transform.
  void record_forward(VkCommandBuffer cmd) {
    for (size_t i = 0; i < shapes_.size(); ++i) {
      const VkBufferCopy region{0, 0, shapes_[i].buffer_bytes()};
      vkCmdCopyBuffer(cmd, input_[i]->handle(), work_[i]->handle(), 1, &region);
    }
    tools::memory_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    for (auto& plan : plans_) {
      if (const int error = plan->record(cmd, /*inverse=*/false))
        throw std::runtime_error("VkFFTAppend(" + plan->shape().describe() + ") failed: VkFFT error " +
                                 std::to_string(error));
    }
  }

  // record_forward in its own submission, waited for, results visible to the host; the seconds.
  double run_forward(tools::VulkanContext& context) {
    const auto start = std::chrono::steady_clock::now();
    context.run_commands([&](VkCommandBuffer cmd) {
      record_forward(cmd);
      tools::memory_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    });
    return seconds_since(start);
  }

  // NaN in every work buffer (all bits set).
  void poison() {
    for (size_t i = 0; i < shapes_.size(); ++i) std::memset(work_[i]->mapped(), 0xff, shapes_[i].buffer_bytes());
  }

  std::optional<std::string> verify() const {
    for (size_t i = 0; i < shapes_.size(); ++i) {
      const FftShape& shape = shapes_[i];
      const double error = vkfft::relative_error(vkfft::read_spectrum(shape, work_[i]->mapped()), expected_[i]);
      if (!(error <= vkfft::tolerance(shape)))
        return shape.describe() + ": relative L2 error " + std::to_string(error) + " above " +
               std::to_string(vkfft::tolerance(shape));
    }
    return std::nullopt;
  }

 private:
  vkfft::VkfftSession session_;
  std::vector<FftShape> shapes_;
  std::vector<std::unique_ptr<tools::Buffer>> work_;
  std::vector<std::unique_ptr<tools::Buffer>> input_;
  std::vector<vkfft::Spectrum> expected_;
  std::vector<std::unique_ptr<VkfftPlan>> plans_;
};

enum class PlanTiming { kCreation, kCreationAndFirstTransform };

class VkfftPlanScenario : public Scenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return VkfftBenchSet::unsupported_reason(context);
  }

  double run_repetition(tools::VulkanContext& context) final {
    set_.destroy_plans();  // not timed
    double seconds = set_.create_plans(fresh_ ? next_nonce_++ : 0);
    if (timing_ == PlanTiming::kCreationAndFirstTransform) seconds += set_.run_forward(context);
    return seconds;
  }

  double work_per_repetition() const final { return double(set_.size()); }

  void poison_output(tools::VulkanContext&) final { set_.poison(); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) final {
    if (!set_.has_plans()) return "no plans were created";
    if (timing_ == PlanTiming::kCreation) set_.run_forward(context);
    return set_.verify();
  }

 protected:
  // `salt` tells the scenarios' nonce sequences apart (with KILN_BENCH_VKFFT_NONCE_BASE set, two
  // scenarios in one process must not make the same SPIR-V).
  VkfftPlanScenario(tools::VulkanContext& context, PlanTiming timing, bool fresh, uint64_t salt)
      : set_(context), timing_(timing), fresh_(fresh), next_nonce_(first_nonce(salt)) {
    if (!fresh_) set_.create_plans(0);  // warms the driver's caches (setup)
  }

 private:
  VkfftBenchSet set_;
  PlanTiming timing_;
  bool fresh_;
  uint64_t next_nonce_;

  static uint64_t first_nonce(uint64_t salt) {
    if (const char* base = std::getenv("KILN_BENCH_VKFFT_NONCE_BASE"); base && *base)
      return std::strtoull(base, nullptr, 10) * 1000 + salt * 1000000000 + 1;
    return (uint64_t(std::random_device{}()) << 24) | (salt << 20) | 1;  // random: no cache has it
  }
};

template <PlanTiming kTiming, bool kFresh, uint64_t kSalt>
class VkfftPlanVariant final : public VkfftPlanScenario {
 public:
  explicit VkfftPlanVariant(tools::VulkanContext& context)
      : VkfftPlanScenario(context, kTiming, kFresh, kSalt) {}
};

using VkfftPlanRepeat = VkfftPlanVariant<PlanTiming::kCreation, /*fresh=*/false, /*salt=*/0>;
using VkfftPlanCold = VkfftPlanVariant<PlanTiming::kCreation, /*fresh=*/true, /*salt=*/1>;
using VkfftFirstResultCold = VkfftPlanVariant<PlanTiming::kCreationAndFirstTransform, /*fresh=*/true, /*salt=*/2>;

class VkfftExecute final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return VkfftBenchSet::unsupported_reason(context);
  }

  explicit VkfftExecute(tools::VulkanContext& context) : set_(context) { set_.create_plans(0); }

  void record_repetition(VkCommandBuffer cmd) override { set_.record_forward(cmd); }
  double work_per_repetition() const override { return double(set_.size()); }
  void poison_output(tools::VulkanContext&) override { set_.poison(); }
  std::optional<std::string> verify_output(tools::VulkanContext&) override { return set_.verify(); }

 private:
  VkfftBenchSet set_;
};

}  // namespace

KILN_BENCH_SCENARIO(VkfftPlanCold, "vkfft_plan_cold", "plans/s",
                    "VkFFT: initializeVkFFT of 7 plans (1D/2D/3D, radix 2/3/5/7, R2C, Bluestein, fp64), SPIR-V new to the process");
KILN_BENCH_SCENARIO(VkfftPlanRepeat, "vkfft_plan_repeat", "plans/s",
                    "VkFFT: initializeVkFFT of the same 7 plans again in the same process");
KILN_BENCH_SCENARIO(VkfftFirstResultCold, "vkfft_first_result_cold", "plans/s",
                    "VkFFT: vkfft_plan_cold plus each new plan's first forward transform, waited for");
KILN_BENCH_SCENARIO(VkfftExecute, "vkfft_execute", "transforms/s",
                    "VkFFT: one forward transform of each of the 7 plans (input copied in first)");

}  // namespace kiln::bench
