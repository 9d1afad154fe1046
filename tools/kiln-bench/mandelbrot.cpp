#include "tools/kiln-bench/mandelbrot.h"

#include <cstddef>
#include <cstdio>
#include <cstdint>

#include "kiln-bench-shaders/mandelbrot.comp.spv.h"

namespace kiln::bench {

namespace {

// Pixels within ±1 of the reference: at least 99 in 100.
constexpr size_t kRequiredClosePerHundred = 99;

}  // namespace

MandelbrotView whole_set_view(uint32_t width, uint32_t height) {
  return {-2.0f, -1.5f, 3.0f / float(width), 3.0f / float(height), width, height};
}

VkSpecializationInfo specialization_info(const MandelbrotSpecialization& values) {
  static constexpr VkSpecializationMapEntry kEntries[] = {
      {0, offsetof(MandelbrotSpecialization, max_iterations), sizeof(uint32_t)},
      {1, offsetof(MandelbrotSpecialization, count_offset), sizeof(uint32_t)},
  };
  return {2, kEntries, sizeof values, &values};
}

SpirvCode mandelbrot_spirv() { return spirv_code(mandelbrot_comp_spirv); }

GroupCount mandelbrot_workgroups(const MandelbrotView& view) {
  return {(view.width + kMandelbrotLocalSize.x - 1) / kMandelbrotLocalSize.x,
          (view.height + kMandelbrotLocalSize.y - 1) / kMandelbrotLocalSize.y, 1};
}

std::vector<uint32_t> mandelbrot_reference(const MandelbrotView& view, uint32_t max_iterations) {
  std::vector<uint32_t> counts(size_t(view.width) * view.height);
  for (uint32_t y = 0; y < view.height; ++y) {
    for (uint32_t x = 0; x < view.width; ++x) {
      const float c_re = view.origin_x + float(x) * view.step_x;
      const float c_im = view.origin_y + float(y) * view.step_y;
      float z_re = 0.0f, z_im = 0.0f;
      uint32_t iterations = 0;
      while (iterations < max_iterations && z_re * z_re + z_im * z_im <= 4.0f) {
        const float next_re = z_re * z_re - z_im * z_im + c_re;
        z_im = 2.0f * z_re * z_im + c_im;
        z_re = next_re;
        ++iterations;
      }
      counts[size_t(y) * view.width + x] = iterations;
    }
  }
  return counts;
}

std::optional<std::string> check_mandelbrot_counts(const uint32_t* counts,
                                                   const std::vector<uint32_t>& reference,
                                                   const MandelbrotSpecialization& specialization) {
  size_t close = 0;
  for (size_t i = 0; i < reference.size(); ++i) {
    const uint32_t iterations = counts[i] - specialization.count_offset;  // wraps like the shader's sum
    if (iterations > specialization.max_iterations) {
      char text[160];
      std::snprintf(text, sizeof text,
                    "pixel %zu: got 0x%08x, not a count in [%u, %u] (reference count %u + offset %u)", i,
                    counts[i], specialization.count_offset,
                    specialization.count_offset + specialization.max_iterations, reference[i],
                    specialization.count_offset);
      return text;
    }
    const uint32_t want = reference[i];
    if (iterations + 1 >= want && iterations <= want + 1) ++close;
  }
  if (close * 100 < reference.size() * kRequiredClosePerHundred) {
    return std::to_string(reference.size() - close) + " of " + std::to_string(reference.size()) +
           " pixels differ from the CPU reference by more than 1 iteration (at most 1% may)";
  }
  return std::nullopt;
}

}  // namespace kiln::bench
