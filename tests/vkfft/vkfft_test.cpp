// VkFFT on whatever Vulkan driver the loader gives (VK_ICD_FILENAMES: Kiln or lavapipe): every
// shape of kiln::vkfft::test_shapes() (1D/2D/3D, radix 2/3/5/7/11/13, Bluestein, fp32 and fp64,
// C2C and R2C/C2R, batches) is planned, transformed forward and inverse on the device and checked
// against FFTW in double precision (tools/vkfft/fft_cases.h; tolerances and why: tests/vkfft/README.md).
//
//   kiln_vkfft_test [--expect-driver kiln|lavapipe] [--shape NAME]...
//
// Exit status: 0 all shapes pass, 1 a shape failed (or the device is not the expected driver, or
// the validation layer, when enabled, reported anything but VkFFT's known misuse), 77 the manifest VK_ICD_FILENAMES names does not exist (ctest
// reports the test skipped: lavapipe not installed).
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"
#include "tools/vkfft/fft_cases.h"
#include "tools/vkfft/vkfft_plan.h"

namespace {

using kiln::tools::Buffer;
using kiln::tools::VulkanContext;
using namespace kiln::vkfft;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs one direction of `plan` on its buffer and makes the result visible to the host.
bool run(VulkanContext& context, VkfftPlan& plan, bool inverse, std::string* error) {
  int result = 0;
  context.run_commands([&](VkCommandBuffer command_buffer) {
    kiln::tools::memory_barrier(command_buffer, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
                                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    result = plan.record(command_buffer, inverse);
    kiln::tools::memory_barrier(command_buffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                                VK_ACCESS_HOST_READ_BIT);
  });
  if (result != 0) *error = std::string("VkFFTAppend failed: VkFFT error ") + std::to_string(result);
  return result == 0;
}

struct Outcome {
  bool pass = false;
  std::string note;
};

Outcome check_shape(VulkanContext& context, VkfftSession& session, const FftShape& shape,
                    uint64_t seed) {
  Outcome outcome;
  const auto plan_start = std::chrono::steady_clock::now();
  Buffer buffer(context, shape.buffer_bytes(),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                Buffer::Access::HostMapped);
  std::string error;
  std::unique_ptr<VkfftPlan> plan = VkfftPlan::create(session, shape, buffer.handle(), 0, &error);
  const double plan_seconds = seconds_since(plan_start);
  if (!plan) {
    outcome.note = error;
    return outcome;
  }

  // Forward: a random signal against FFTW's transform of the same (rounded) values.
  const Signal signal = random_signal(shape, seed);
  write_signal(shape, signal, buffer.mapped());
  const auto run_start = std::chrono::steady_clock::now();
  if (!run(context, *plan, /*inverse=*/false, &error)) {
    outcome.note = error;
    return outcome;
  }
  const double forward_seconds = seconds_since(run_start);
  const Spectrum forward_reference = reference_forward(shape, signal);
  const double forward_error = relative_error(read_spectrum(shape, buffer.mapped()), forward_reference);

  // Inverse: the exact spectrum (Hermitian for R2C, so C2R is well defined), rounded to the
  // precision, against FFTW's unnormalised inverse of the same values.
  const Spectrum spectrum = rounded(shape, forward_reference);
  write_spectrum(shape, spectrum, buffer.mapped());
  if (!run(context, *plan, /*inverse=*/true, &error)) {
    outcome.note = error;
    return outcome;
  }
  const double inverse_error =
      relative_error(read_signal(shape, buffer.mapped()), reference_inverse(shape, spectrum));

  const double limit = tolerance(shape);
  outcome.pass = forward_error <= limit && inverse_error <= limit;
  char line[256];
  std::snprintf(line, sizeof line,
                "forward error %.2e, inverse error %.2e (limit %.0e); plan %.3f s, forward %.3f s",
                forward_error, inverse_error, limit, plan_seconds, forward_seconds);
  outcome.note = line;
  return outcome;
}

bool file_exists(const char* path) {
  struct stat info;
  return stat(path, &info) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string expected_driver;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--expect-driver" && i + 1 < argc) {
      expected_driver = argv[++i];
    } else if (argument == "--shape" && i + 1 < argc) {
      only.push_back(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--expect-driver kiln|lavapipe] [--shape NAME]...\n", argv[0]);
      return 2;
    }
  }
  const char* manifest = std::getenv("VK_ICD_FILENAMES");
  if (manifest && *manifest && !std::strchr(manifest, ':') && !file_exists(manifest)) {
    std::printf("skipped: the ICD manifest %s does not exist\n", manifest);
    return 77;
  }

  try {
    VulkanContext context("kiln-vkfft-test");
    // VkFFT 1.2.26's own misuse (tests/vkfft/README.md): null buffer descriptors in Bluestein plans
    // until the first launch rewrites them, and objects of inverse Bluestein axes deleteVkFFT leaks.
    context.tolerate_validation_message("VUID-VkDescriptorBufferInfo-buffer-02998");
    context.tolerate_validation_message("VUID-vkDestroyDevice-device-00378");
    std::printf("device: %s (driver %s)\n", context.device_name().c_str(), context.driver_name().c_str());
    const bool is_kiln = context.device_name().rfind("Kiln", 0) == 0;
    const bool is_lavapipe = context.driver_name() == "llvmpipe";
    if ((expected_driver == "kiln" && !is_kiln) || (expected_driver == "lavapipe" && !is_lavapipe)) {
      std::printf("FAIL: expected the %s driver\n", expected_driver.c_str());
      return 1;
    }
    if (!(context.queue_flags() & VK_QUEUE_COMPUTE_BIT)) {
      std::printf("FAIL: the queue has no compute\n");
      return 1;
    }
    VkfftSession session(context.physical_device(), context.device(), context.queue(), context.queue_family());

    int failures = 0, ran = 0;
    const std::vector<FftShape> shapes = test_shapes();
    for (size_t i = 0; i < shapes.size(); ++i) {
      const FftShape& shape = shapes[i];
      if (!only.empty() && std::find(only.begin(), only.end(), shape.name) == only.end()) continue;
      ++ran;
      if (shape.precision == Precision::kDouble && !context.enabled_features().shaderFloat64) {
        std::printf("FAIL %-22s %-26s the device lacks shaderFloat64\n", shape.name.c_str(),
                    shape.describe().c_str());
        ++failures;
        continue;
      }
      Outcome outcome = check_shape(context, session, shape, /*seed=*/1000 + i);
      std::printf("%s %-22s %-26s %s\n", outcome.pass ? "pass" : "FAIL", shape.name.c_str(),
                  shape.describe().c_str(), outcome.note.c_str());
      std::fflush(stdout);
      if (!outcome.pass) ++failures;
    }
    if (context.validation_problem_count() > 0) {
      std::printf("FAIL: %u validation messages\n", context.validation_problem_count());
      ++failures;
    }
    if (ran == 0) {
      std::printf("FAIL: no shape matched\n");
      return 1;
    }
    std::printf("%d of %d shapes passed (driver pipeline creation %.3f s in all; %u known VkFFT validation messages ignored)\n",
                ran - failures, ran, driver_pipeline_seconds(), context.tolerated_message_count());
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    std::printf("FAIL: %s\n", error.what());
    return 1;
  }
}
