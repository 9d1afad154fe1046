// Mandelbrot iteration counts of a 1024×1024 image of the whole set, at most 256 iterations per
// pixel (shaders/mandelbrot.comp): ALU-bound, with divergent loop lengths inside each workgroup
// (about 17% of the pixels never escape and run all 256 iterations). One unit of work is a
// million pixels; the CPU reference makes that about 48 iterations per pixel on average.
#include <cstring>

#include "tools/kiln-bench/compute_helpers.h"
#include "tools/kiln-bench/mandelbrot.h"
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kSize = 1024;  // pixels per side
constexpr MandelbrotSpecialization kSpecialization{.max_iterations = 256, .count_offset = 0};
const VkSpecializationInfo kSpecializationInfo = specialization_info(kSpecialization);

class ComputeMandelbrot final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    const MandelbrotView view = whole_set_view(kSize, kSize);
    if (auto reason = missing_host_buffer_memory(context, pixel_count() * 4, 1)) return reason;
    return missing_compute_support(context, {.local_size = kMandelbrotLocalSize,
                                             .workgroups = mandelbrot_workgroups(view),
                                             .storage_buffer_range = pixel_count() * 4,
                                             .push_constant_bytes = sizeof(MandelbrotView)});
  }

  explicit ComputeMandelbrot(tools::VulkanContext& context)
      : view_(whole_set_view(kSize, kSize)),
        reference_(mandelbrot_reference(view_, kSpecialization.max_iterations)),
        counts_(make_storage_buffer(context, pixel_count() * 4)),
        kernel_(context, mandelbrot_spirv(), {&counts_}, sizeof(MandelbrotView), &kSpecializationInfo) {}

  void record_repetition(VkCommandBuffer cmd) override {
    kernel_.record_dispatch(cmd, mandelbrot_workgroups(view_), &view_);
  }

  double work_per_repetition() const override { return double(pixel_count()) / 1e6; }

  void poison_output(tools::VulkanContext&) override {
    std::memset(counts_.mapped(), 0xff, pixel_count() * 4);  // 0xffffffff: far above 256
  }

  std::optional<std::string> verify_output(tools::VulkanContext&) override {
    return check_mandelbrot_counts(static_cast<const uint32_t*>(counts_.mapped()), reference_,
                                   kSpecialization);
  }

 private:
  static VkDeviceSize pixel_count() { return VkDeviceSize(kSize) * kSize; }

  const MandelbrotView view_;
  const std::vector<uint32_t> reference_;
  tools::Buffer counts_;
  ComputeKernel kernel_;
};

}  // namespace

KILN_BENCH_SCENARIO(
    ComputeMandelbrot, "compute_mandelbrot", "Mpixel/s",
    "compute: Mandelbrot counts, 1024x1024 pixels, <= 256 iterations, float (ALU-bound)");

}  // namespace kiln::bench
