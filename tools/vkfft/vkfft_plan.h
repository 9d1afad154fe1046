#pragma once
// VkFFT (Debian libvkfft-dev 1.2.26, its Vulkan backend) behind a small C++ interface, for the
// VkFFT test (tests/vkfft) and kiln-bench's vkfft_* scenarios. vkFFT.h is included by
// vkfft_plan.cpp only (it is 32 000 lines of static C functions).
//
// Two problems of VkFFT 1.2.26 on Debian 12 are worked around here, not in the driver:
// - its glslang resource table predates glslang 12 (the build uses a patched copy of the header,
//   tools/CMakeLists.txt);
// - a Bluestein plan (a size with a prime factor above 13) writes its descriptor sets when its
//   axes are planned, before it allocates its chirp buffers, so they name VK_NULL_HANDLE there
//   (the transform then reads zeros: all-zero output on Kiln and lavapipe alike). VkFFTAppend
//   rewrites the sets only when a launch passes a buffer *pointer* other than the one it holds
//   (VkFFTCheckUpdateBufferSet compares the pointers, not the handles), so every launch passes a
//   second copy of the handle (VkfftPlan::record).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>

#include "tools/vkfft/fft_cases.h"

namespace kiln::vkfft {

// The Vulkan objects VkFFT is configured with. VkFFT keeps pointers to them, so a session does not
// move; it outlives its plans. The command pool and fence are the session's own (VkFFT submits
// its set-up uploads and Bluestein precomputation with them).
class VkfftSession {
 public:
  VkfftSession(VkPhysicalDevice physical_device, VkDevice device, VkQueue queue,
               uint32_t queue_family);
  ~VkfftSession();
  VkfftSession(const VkfftSession&) = delete;
  VkfftSession& operator=(const VkfftSession&) = delete;

  VkPhysicalDevice physical_device;
  VkDevice device;
  VkQueue queue;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
};

// Seconds spent inside the driver's vkCreateShaderModule and vkCreateComputePipelines by VkFFT
// plan creation since the process started (the rest of plan creation is VkFFT generating GLSL
// and glslang compiling it).
double driver_pipeline_seconds();

// One VkFFT application (plan) for `shape`, transforming `buffer` in place: forward and inverse
// (unnormalised, like FFTW), in the layout fft_cases.h describes.
class VkfftPlan {
 public:
  // `spirv_nonce` != 0 adds an OpSourceExtension naming it to every SPIR-V module the plan makes:
  // the same kernels, but SPIR-V no driver cache has seen (kiln-bench's cold plan creation).
  // Returns nullptr and sets `error` when VkFFT fails.
  static std::unique_ptr<VkfftPlan> create(VkfftSession& session, const FftShape& shape,
                                           VkBuffer buffer, uint64_t spirv_nonce,
                                           std::string* error);
  ~VkfftPlan();
  VkfftPlan(const VkfftPlan&) = delete;
  VkfftPlan& operator=(const VkfftPlan&) = delete;

  // Appends the transform's dispatches (and VkFFT's barriers between them) to `command_buffer`.
  // Returns VkFFT's error code (0 = success).
  int record(VkCommandBuffer command_buffer, bool inverse);

  const FftShape& shape() const { return shape_; }

 private:
  struct App;
  VkfftPlan(const FftShape& shape, VkBuffer buffer);

  FftShape shape_;
  // Owned by the plan, at a fixed address: VkFFT keeps pointers to them.
  VkBuffer buffer_;         // the configuration's
  VkBuffer launch_buffer_;  // the same handle at another address, passed at launch
  uint64_t buffer_bytes_;
  std::unique_ptr<App> app_;
};

}  // namespace kiln::vkfft
