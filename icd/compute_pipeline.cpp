// vkCreateComputePipelines: SPIR-V → kernel through the compiler, with the pipeline layout
// deciding where each (set, binding) lives.
#include "common/cpu.h"
#include "common/log.h"
#include "compiler/shader_hash.h"
#include "icd/creation_feedback.h"
#include "icd/descriptor_uses.h"
#include "icd/device.h"
#include "icd/strict_shader_reports.h"
#include "icd/pipeline.h"
#include "icd/pipeline_batch.h"
#include "icd/pipeline_cache.h"
#include "icd/pipeline_layout.h"
#include "icd/shader_bindings.h"
#include "icd/shader_module.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

VkResult create_compute_pipeline(Device* device, const VkComputePipelineCreateInfo& info, PipelineCache* cache,
                                 const VkAllocationCallbacks* allocator, VkPipeline* out) {
  compiler::ShaderSource source;
  if (const char* why = shader_source_of(info.stage, &source)) {
    log(LogLevel::Error, "vkCreateComputePipelines: %s", why);
    return VK_ERROR_UNKNOWN;
  }
  const PipelineLayout* layout = pipeline_layout_of(info.layout);
  std::string error;
  CreationFeedback feedback(info.pNext, &info.stage, 1, info.flags,
                            strict_shader_reports(*device, info.pNext, {&info.stage, 1}));
  auto compiled = feedback.compile(info.stage, [&](compiler::CompileRequest* request) {
    return compiler::compile_compute_kernel(source, host_simd_width(), binding_resolver(layout->desc),
                                            pipeline_layout_hash(layout->desc), cache ? &cache->kernels : nullptr, &error,
                                            request);
  });
  if (feedback.compile_required(info.stage)) return VK_PIPELINE_COMPILE_REQUIRED;
  if (!compiled) {
    log(LogLevel::Error, "vkCreateComputePipelines: %s", error.c_str());
    return VK_ERROR_UNKNOWN;
  }
  auto* pipeline = create_object<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!pipeline) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pipeline->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
  pipeline->compiled = compiled;
  pipeline->kernel.function = compiled->function;
  pipeline->kernel.simd_width = compiled->simd_width;
  for (int i = 0; i < 3; ++i) pipeline->kernel.local_size[i] = compiled->info.local_size[i];
  pipeline->kernel.shared_memory_bytes = compiled->info.shared_memory_bytes;
  pipeline->kernel.uses_barrier = compiled->info.uses_barrier;
  if (device->strict) {
    const StageWords stage{info.stage.stage, source.words};
    pipeline->descriptor_uses = make_descriptor_uses({&stage, 1}, layout->desc);
    pipeline->kernel.descriptor_uses = pipeline->descriptor_uses.get();
  }
  feedback.write();
  *out = to_handle<VkPipeline>(pipeline);
  return VK_SUCCESS;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateComputePipelines(VkDevice handle, VkPipelineCache pipelineCache, uint32_t count,
                                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                                      const VkAllocationCallbacks* pAllocator,
                                                                      VkPipeline* pPipelines) {
  Device* device = device_of(handle);
  return create_pipeline_batch(
      device, count, pPipelines, [&](uint32_t i) { return pCreateInfos[i].flags; },
      [&](uint32_t i, VkPipeline* out) {
        return create_compute_pipeline(device, pCreateInfos[i], pipeline_cache_of(pipelineCache),
                                       choose_allocator(pAllocator, device->allocator), out);
      });
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyPipeline(VkDevice handle, VkPipeline pipeline,
                                                           const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), pipeline_of(pipeline));
}
