#pragma once
// The Mandelbrot kernel (shaders/mandelbrot.comp) shared by compute_mandelbrot and the
// pipeline-creation scenarios: its SPIR-V, specialization constants and push constants, and the
// CPU reference its results are checked against.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/kiln-bench/compute_helpers.h"

namespace kiln::bench {

// The shader's push constants (same layout): pixel (x, y) is c = origin + (x, y) * step.
struct MandelbrotView {
  float origin_x, origin_y;
  float step_x, step_y;
  uint32_t width, height;
};
static_assert(sizeof(MandelbrotView) == 24);

// width×height pixels covering the whole set: re ∈ [-2, 1), im ∈ [-1.5, 1.5).
MandelbrotView whole_set_view(uint32_t width, uint32_t height);

// The shader's specialization constants: constant_id 0 and 1.
struct MandelbrotSpecialization {
  uint32_t max_iterations = 256;
  uint32_t count_offset = 0;  // added to every stored count
};

// Specialization info whose data is `values`: keep `values` alive while the info is used.
VkSpecializationInfo specialization_info(const MandelbrotSpecialization& values);

SpirvCode mandelbrot_spirv();
inline constexpr GroupCount kMandelbrotLocalSize{16, 16, 1};
inline constexpr uint32_t kMandelbrotStorageBuffers = 1;  // binding 0: the counts, one uint per pixel

// The dispatch covering every pixel of `view`.
GroupCount mandelbrot_workgroups(const MandelbrotView& view);

// Iteration counts of every pixel (row-major, without count offset), computed on the host with
// the shader's float operations in the same order.
std::vector<uint32_t> mandelbrot_reference(const MandelbrotView& view, uint32_t max_iterations);

// Checks the shader's counts against the reference. Every pixel must hold a count in
// [count_offset, count_offset + max_iterations] (so unwritten pixels and a pipeline with another
// count offset fail), and at least 99% of them must be within ±1 of the reference: points near the
// set's boundary are chaotic, so a legitimately different float rounding (e.g. a fused
// multiply-add) can change when they escape.
std::optional<std::string> check_mandelbrot_counts(const uint32_t* counts,
                                                   const std::vector<uint32_t>& reference,
                                                   const MandelbrotSpecialization& specialization);

}  // namespace kiln::bench
