#include "icd/graphics_pipeline_library.h"

#include <algorithm>

#include "icd/graphics_dynamic_state.h"
#include "icd/struct_chain.h"

namespace kiln {

VkGraphicsPipelineLibraryFlagsEXT own_parts(const VkGraphicsPipelineCreateInfo& info) {
  if (const auto* library = find_in_chain<VkGraphicsPipelineLibraryCreateInfoEXT>(info.pNext)) return library->flags & kAllParts;
  const auto* linked = find_in_chain<VkPipelineLibraryCreateInfoKHR>(info.pNext);
  if ((info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) || (linked && linked->libraryCount)) return 0;
  return kAllParts;
}

uint64_t dynamic_states_of(VkGraphicsPipelineLibraryFlagsEXT parts) {
  // The spec's lists of each part's state ("Graphics Pipeline Libraries"); the multisample states
  // belong to both fragment parts.
  uint64_t bits = 0;
  if (parts & kVertexInputPart)
    bits |= kDynVertexInput | kDynVertexInputBindingStride | kDynPrimitiveTopology | kDynPrimitiveRestartEnable;
  if (parts & kPreRasterizationPart)
    bits |= kDynViewport | kDynScissor | kDynLineWidth | kDynDepthBias | kDynCullMode | kDynFrontFace | kDynViewportWithCount |
            kDynScissorWithCount | kDynRasterizerDiscardEnable | kDynDepthBiasEnable | kDynLineStipple | kDynPatchControlPoints |
            kDynPolygonMode | kDynLineRasterizationMode | kDynLineStippleEnable | kDynDepthClipEnable |
            kDynDepthClipNegativeOneToOne | kDynProvokingVertexMode | kDynTessellationDomainOrigin | kDynDepthClampEnable |
            kDynRasterizationStream;
  if (parts & (kFragmentShaderPart | kFragmentOutputPart))
    bits |= kDynSampleMask | kDynAlphaToCoverageEnable | kDynAlphaToOneEnable | kDynRasterizationSamples;
  if (parts & kFragmentShaderPart)
    bits |= kDynDepthBounds | kDynStencilCompareMask | kDynStencilWriteMask | kDynStencilReference | kDynDepthTestEnable |
            kDynDepthWriteEnable | kDynDepthCompareOp | kDynDepthBoundsTestEnable | kDynStencilTestEnable | kDynStencilOp;
  if (parts & kFragmentOutputPart)
    bits |= kDynBlendConstants | kDynLogicOp | kDynColorWriteEnable | kDynLogicOpEnable | kDynColorBlendEnable |
            kDynColorBlendEquation | kDynColorWriteMask;
  return bits;
}

void link_library(const GraphicsPipelinePart& library, GraphicsPipelinePart* g) {
  const VkGraphicsPipelineLibraryFlagsEXT parts = library.parts;
  if (parts & kVertexInputPart) {
    g->state.input_assembly.topology = library.state.input_assembly.topology;
    g->state.input_assembly.primitive_restart = library.state.input_assembly.primitive_restart;
    std::copy_n(library.vertex_strides, abi::kMaxVertexBindings, g->vertex_strides);
    g->vertex_input = library.vertex_input;
    g->vertex_fetch = library.vertex_fetch;
  }
  if (parts & kPreRasterizationPart) {
    g->vertex = library.vertex;
    g->vertex_kernel_input = library.vertex_kernel_input;
    g->tess_control = library.tess_control;
    g->tess_eval = library.tess_eval;
    g->geometry = library.geometry;
    g->task = library.task;
    g->mesh = library.mesh;
    g->kernels.tessellation = library.kernels.tessellation;
    g->kernels.geometry = library.kernels.geometry;
    g->kernels.mesh = library.kernels.mesh;
    g->state.rasterization = library.state.rasterization;
    g->state.viewport = library.state.viewport;
    // Tessellation state kept beside the input assembly's, but the pre-rasterization part's.
    g->state.input_assembly.patch_control_points = library.state.input_assembly.patch_control_points;
    g->state.input_assembly.tess_origin_lower_left = library.state.input_assembly.tess_origin_lower_left;
    g->view_mask = library.view_mask;
    g->pre_rasterization_layout = library.pre_rasterization_layout;
  }
  if (parts & kFragmentShaderPart) {
    g->fragment = library.fragment;
    g->state.depth_stencil = library.state.depth_stencil;
    // Both fragment parts may carry the multisample state (identical, the spec says); the output
    // part's is the whole of it.
    if (!(g->parts & kFragmentOutputPart)) g->state.multisample = library.state.multisample;
  }
  if (parts & kFragmentOutputPart) {
    g->state.color_blend = library.state.color_blend;
    g->state.multisample = library.state.multisample;
    std::copy_n(library.color_formats, abi::kMaxColorAttachments, g->color_formats);
    g->color_count = library.color_count;
    g->depth_format = library.depth_format;
    g->stencil_format = library.stencil_format;
  }
  g->dynamic_mask |= library.dynamic_mask;
  g->shaders.insert(g->shaders.end(), library.shaders.begin(), library.shaders.end());
  g->parts |= parts;
}

}  // namespace kiln
