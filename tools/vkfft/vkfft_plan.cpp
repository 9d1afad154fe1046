// The one translation unit that includes vkFFT.h (the build's patched copy, see vkfft_plan.h).
#include "tools/vkfft/vkfft_plan.h"

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"

namespace {

// Set around initializeVkFFT by VkfftPlan::create (plans are made on one thread at a time).
uint64_t g_spirv_nonce = 0;
double g_driver_pipeline_seconds = 0;

// `code` with an OpSourceExtension "kiln-vkfft-nonce-<nonce>" among the debug instructions:
// after the capabilities, extensions, imports, memory model, entry points and execution modes
// (logical layout sections 1-6), where OpSourceExtension may stand. No semantic change.
std::vector<uint32_t> with_nonce(const uint32_t* code, size_t words, uint64_t nonce) {
  constexpr uint32_t kHeaderWords = 5;
  size_t position = kHeaderWords;
  while (position < words) {
    const uint32_t opcode = code[position] & 0xffffu;
    const uint32_t count = code[position] >> 16;
    const bool mode_setting = opcode == 17 /*OpCapability*/ || opcode == 10 /*OpExtension*/ ||
                              opcode == 11 /*OpExtInstImport*/ || opcode == 14 /*OpMemoryModel*/ ||
                              opcode == 15 /*OpEntryPoint*/ || opcode == 16 /*OpExecutionMode*/ ||
                              opcode == 331 /*OpExecutionModeId*/;
    if (!mode_setting || count == 0) break;
    position += count;
  }
  const std::string text = "kiln-vkfft-nonce-" + std::to_string(nonce);
  std::vector<uint32_t> literal((text.size() + 4) / 4, 0u);  // nul-terminated, padded
  std::memcpy(literal.data(), text.data(), text.size());
  std::vector<uint32_t> result(code, code + position);
  result.push_back(static_cast<uint32_t>((1 + literal.size()) << 16) | 4u /*OpSourceExtension*/);
  result.insert(result.end(), literal.begin(), literal.end());
  result.insert(result.end(), code + position, code + words);
  return result;
}

VkResult kiln_vkfft_create_shader_module(VkDevice device, const VkShaderModuleCreateInfo* info,
                                         const VkAllocationCallbacks* allocator,
                                         VkShaderModule* module) {
  VkShaderModuleCreateInfo changed = *info;
  std::vector<uint32_t> code;
  if (g_spirv_nonce != 0) {
    code = with_nonce(info->pCode, info->codeSize / 4, g_spirv_nonce);
    changed.pCode = code.data();
    changed.codeSize = code.size() * 4;
  }
  const auto start = std::chrono::steady_clock::now();
  const VkResult result = vkCreateShaderModule(device, &changed, allocator, module);
  g_driver_pipeline_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

VkResult kiln_vkfft_create_compute_pipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                             const VkComputePipelineCreateInfo* infos,
                                             const VkAllocationCallbacks* allocator,
                                             VkPipeline* pipelines) {
  const auto start = std::chrono::steady_clock::now();
  const VkResult result = vkCreateComputePipelines(device, cache, count, infos, allocator, pipelines);
  g_driver_pipeline_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace

// VkFFT calls these two through the names below.
#define vkCreateShaderModule kiln_vkfft_create_shader_module
#define vkCreateComputePipelines kiln_vkfft_create_compute_pipelines
#define VKFFT_BACKEND 0
#include "vkFFT.h"
#undef vkCreateShaderModule
#undef vkCreateComputePipelines

namespace kiln::vkfft {

namespace {
// glslang's process-wide state, set up once; VkFFT is told it is (isCompilerInitialized), so
// deleting one plan does not finalize glslang under the others.
void initialize_glslang() {
  static std::once_flag once;
  std::call_once(once, [] { glslang_initialize_process(); });
}
}  // namespace

double driver_pipeline_seconds() { return g_driver_pipeline_seconds; }

VkfftSession::VkfftSession(VkPhysicalDevice physical_device_, VkDevice device_, VkQueue queue_,
                           uint32_t queue_family)
    : physical_device(physical_device_), device(device_), queue(queue_) {
  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = queue_family;
  tools::check(vkCreateCommandPool(device, &pool_info, nullptr, &command_pool), "vkCreateCommandPool");
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  tools::check(vkCreateFence(device, &fence_info, nullptr, &fence), "vkCreateFence");
}

VkfftSession::~VkfftSession() {
  vkDestroyFence(device, fence, nullptr);
  vkDestroyCommandPool(device, command_pool, nullptr);
}

struct VkfftPlan::App {
  VkFFTApplication application = {};
  bool initialized = false;
};

VkfftPlan::VkfftPlan(const FftShape& shape, VkBuffer buffer)
    : shape_(shape), buffer_(buffer), launch_buffer_(buffer), buffer_bytes_(shape.buffer_bytes()), app_(std::make_unique<App>()) {}

VkfftPlan::~VkfftPlan() {
  if (app_->initialized) deleteVkFFT(&app_->application);
}

std::unique_ptr<VkfftPlan> VkfftPlan::create(VkfftSession& session, const FftShape& shape,
                                             VkBuffer buffer, uint64_t spirv_nonce,
                                             std::string* error) {
  initialize_glslang();
  std::unique_ptr<VkfftPlan> plan(new VkfftPlan(shape, buffer));
  VkFFTConfiguration configuration = {};
  configuration.FFTdim = shape.dims;
  for (int d = 0; d < 3; ++d) configuration.size[d] = shape.size[d];
  configuration.numberBatches = shape.batches;
  configuration.doublePrecision = shape.precision == Precision::kDouble;
  configuration.performR2C = shape.kind == Kind::kReal;
  configuration.physicalDevice = &session.physical_device;
  configuration.device = &session.device;
  configuration.queue = &session.queue;
  configuration.commandPool = &session.command_pool;
  configuration.fence = &session.fence;
  configuration.isCompilerInitialized = 1;
  configuration.buffer = &plan->buffer_;
  configuration.bufferSize = &plan->buffer_bytes_;
  g_spirv_nonce = spirv_nonce;
  const VkFFTResult result = initializeVkFFT(&plan->app_->application, configuration);
  g_spirv_nonce = 0;
  if (result != VKFFT_SUCCESS) {
    // initializeVkFFT frees what it made on failure.
    if (error) *error = "initializeVkFFT(" + shape.describe() + ") failed: VkFFT error " + std::to_string(result);
    return nullptr;
  }
  plan->app_->initialized = true;
  return plan;
}

int VkfftPlan::record(VkCommandBuffer command_buffer, bool inverse) {
  VkFFTLaunchParams launch = {};
  launch.commandBuffer = &command_buffer;
  // Another pointer than the configuration's, so VkFFT rewrites its descriptor sets (once; after
  // that the pointers are equal): Bluestein plans' sets lack their chirp buffers until then.
  launch.buffer = &launch_buffer_;
  return VkFFTAppend(&app_->application, inverse ? 1 : -1, &launch);
}

}  // namespace kiln::vkfft
