#pragma once
// VkPipeline. Compute pipelines hold their JIT-compiled kernel; graphics pipelines their vertex
// tessellation, geometry
// and fragment kernels and the fixed-function state draws merge dynamic state over.
#include <vulkan/vulkan.h>

#include <memory>

#include "compiler/compute_compiler.h"
#include "compiler/graphics_compiler.h"
#include "icd/object.h"
#include "icd/pipeline_binding.h"
#include "icd/vertex_input_variants.h"
#include "pipeline/compute_dispatch.h"
#include "pipeline/graphics_state.h"

namespace kiln {

struct GraphicsPipelinePart {
  std::shared_ptr<const compiler::CompiledVertexKernel> vertex;      // keep the kernels alive
  std::shared_ptr<const compiler::CompiledTessControlKernel> tess_control;  // null: no tessellation
  std::shared_ptr<const compiler::CompiledTessEvalKernel> tess_eval;
  std::shared_ptr<const compiler::CompiledGeometryKernel> geometry;  // null: no geometry shader
  std::shared_ptr<const compiler::CompiledFragmentKernel> fragment;  // null: no fragment shader
  std::shared_ptr<const compiler::CompiledTaskKernel> task;          // mesh pipelines: null without a task shader
  std::shared_ptr<const compiler::CompiledMeshKernel> mesh;          // null: a vertex pipeline
  exec::GraphicsKernels kernels;
  exec::GraphicsState state;  // static state; state.kernels points at `kernels`
  uint32_t dynamic_mask = 0;  // DynamicStateBit (icd/graphics_dynamic_state.h) of the dynamic states
  uint64_t vertex_strides[abi::kMaxVertexBindings] = {};  // per binding, unless the stride is dynamic
  // The attachments the pipeline renders to (from the subpass or VkPipelineRenderingCreateInfo).
  VkFormat color_formats[abi::kMaxColorAttachments] = {};
  uint32_t color_count = 0;
  VkFormat depth_format = VK_FORMAT_UNDEFINED, stencil_format = VK_FORMAT_UNDEFINED;
  uint32_t view_mask = 0;
  // VK_DYNAMIC_STATE_VERTEX_INPUT_EXT: the vertex kernels of the recorded vertex input states
  // (`vertex`/`kernels` then hold the kernel compiled with no vertex input).
  std::shared_ptr<VertexInputVariants> vertex_input_variants;
};

struct Pipeline {
  VkPipelineBindPoint bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
  std::shared_ptr<const compiler::CompiledComputeKernel> compiled;  // keeps the kernel alive
  exec::ComputeKernel kernel;                                       // what dispatches run
  GraphicsPipelinePart graphics;                                    // bind_point GRAPHICS only
  std::unique_ptr<const exec::DescriptorUses> descriptor_uses;      // strict mode only
};

inline Pipeline* pipeline_of(VkPipeline handle) { return from_handle<Pipeline>(handle); }

}  // namespace kiln
