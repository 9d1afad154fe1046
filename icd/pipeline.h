#pragma once
// VkPipeline. Compute pipelines hold their JIT-compiled kernel; graphics pipelines their vertex,
// tessellation, geometry, mesh and fragment kernels and the fixed-function state draws merge
// dynamic state over. A graphics pipeline library holds the parts it was made with
// (icd/graphics_pipeline_library.h).
#include <vulkan/vulkan.h>

#include <memory>
#include <vector>

#include "compiler/compute_compiler.h"
#include "compiler/graphics_compiler.h"
#include "icd/object.h"
#include "icd/pipeline_binding.h"
#include "icd/retained_shader.h"
#include "icd/vertex_input_variants.h"
#include "pipeline/compute_dispatch.h"
#include "pipeline/graphics_state.h"

namespace kiln {

struct GraphicsPipelinePart {
  // The parts of a graphics pipeline held (VkGraphicsPipelineLibraryFlagsEXT): all four unless
  // this is a library; only complete pipelines are bound.
  VkGraphicsPipelineLibraryFlagsEXT parts = 0;
  bool library = false;
  std::shared_ptr<const compiler::CompiledVertexKernel> vertex;      // keep the kernels alive
  std::shared_ptr<const compiler::CompiledTessControlKernel> tess_control;  // null: no tessellation
  std::shared_ptr<const compiler::CompiledTessEvalKernel> tess_eval;
  std::shared_ptr<const compiler::CompiledGeometryKernel> geometry;  // null: no geometry shader
  std::shared_ptr<const compiler::CompiledFragmentKernel> fragment;  // null: no fragment shader
  std::shared_ptr<const compiler::CompiledTaskKernel> task;          // mesh pipelines: null without a task shader
  std::shared_ptr<const compiler::CompiledMeshKernel> mesh;          // null: a vertex pipeline
  exec::GraphicsKernels kernels;
  exec::GraphicsState state;  // static state; state.kernels points at `kernels`
  uint64_t dynamic_mask = 0;  // DynamicStateBit (icd/graphics_dynamic_state.h) of the dynamic states
  uint64_t vertex_strides[abi::kMaxVertexBindings] = {};  // per binding, unless the stride is dynamic
  // The attachments the pipeline renders to (from the subpass or VkPipelineRenderingCreateInfo).
  VkFormat color_formats[abi::kMaxColorAttachments] = {};
  uint32_t color_count = 0;
  VkFormat depth_format = VK_FORMAT_UNDEFINED, stencil_format = VK_FORMAT_UNDEFINED;
  uint32_t view_mask = 0;
  // The vertex input state's key (vertex input part) and the key `vertex` was compiled with: a
  // pre-rasterization library compiles its vertex shader to read its attributes fetched by
  // another kernel (VertexInputKey::staged), which a vertex input library compiles for its state
  // (`vertex_fetch`, compiler/vertex_fetch_kernel.h); linking pairs them, or with
  // LINK_TIME_OPTIMIZATION recompiles the vertex shader for the state.
  compiler::VertexInputKey vertex_input, vertex_kernel_input;
  std::shared_ptr<const compiler::CompiledVertexKernel> vertex_fetch;
  // The pipeline layout the pre-rasterization stages were compiled with.
  std::shared_ptr<const desc::PipelineLayoutDesc> pre_rasterization_layout;
  // The stages' shaders, kept where something reads them after creation: libraries (the vertex
  // shader is recompiled at link time), dynamic vertex input, strict mode's descriptor uses.
  std::vector<std::shared_ptr<const RetainedShader>> shaders;
  // VK_DYNAMIC_STATE_VERTEX_INPUT_EXT: the vertex kernels of the recorded vertex input states
  // (`vertex`/`kernels` then hold the kernel compiled with no vertex input).
  std::shared_ptr<VertexInputVariants> vertex_input_variants;
  std::shared_ptr<const exec::DescriptorUses> descriptor_uses;  // strict mode only; kernels.descriptor_uses
};

struct Pipeline {
  VkPipelineBindPoint bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
  std::shared_ptr<const compiler::CompiledComputeKernel> compiled;  // keeps the kernel alive
  exec::ComputeKernel kernel;                                       // what dispatches run
  GraphicsPipelinePart graphics;                                    // bind_point GRAPHICS only
  std::unique_ptr<const exec::DescriptorUses> descriptor_uses;      // compute, strict mode only
};

inline Pipeline* pipeline_of(VkPipeline handle) { return from_handle<Pipeline>(handle); }

}  // namespace kiln
