#include "icd/graphics_dynamic_state.h"

#include <algorithm>

namespace kiln {

DynamicStateMask dynamic_state_bit(VkDynamicState state) {
  switch (state) {
    case VK_DYNAMIC_STATE_VIEWPORT: return kDynViewport;
    case VK_DYNAMIC_STATE_SCISSOR: return kDynScissor;
    case VK_DYNAMIC_STATE_LINE_WIDTH: return kDynLineWidth;
    case VK_DYNAMIC_STATE_DEPTH_BIAS: return kDynDepthBias;
    case VK_DYNAMIC_STATE_BLEND_CONSTANTS: return kDynBlendConstants;
    case VK_DYNAMIC_STATE_DEPTH_BOUNDS: return kDynDepthBounds;
    case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK: return kDynStencilCompareMask;
    case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK: return kDynStencilWriteMask;
    case VK_DYNAMIC_STATE_STENCIL_REFERENCE: return kDynStencilReference;
    case VK_DYNAMIC_STATE_CULL_MODE: return kDynCullMode;
    case VK_DYNAMIC_STATE_FRONT_FACE: return kDynFrontFace;
    case VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY: return kDynPrimitiveTopology;
    case VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT: return kDynViewportWithCount;
    case VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT: return kDynScissorWithCount;
    case VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE: return kDynVertexInputBindingStride;
    case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE: return kDynDepthTestEnable;
    case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE: return kDynDepthWriteEnable;
    case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP: return kDynDepthCompareOp;
    case VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE: return kDynDepthBoundsTestEnable;
    case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE: return kDynStencilTestEnable;
    case VK_DYNAMIC_STATE_STENCIL_OP: return kDynStencilOp;
    case VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE: return kDynRasterizerDiscardEnable;
    case VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE: return kDynDepthBiasEnable;
    case VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE: return kDynPrimitiveRestartEnable;
    case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT: return kDynColorWriteEnable;
    case VK_DYNAMIC_STATE_LOGIC_OP_EXT: return kDynLogicOp;
    case VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT: return kDynPatchControlPoints;
    case VK_DYNAMIC_STATE_VERTEX_INPUT_EXT: return kDynVertexInput;
    case VK_DYNAMIC_STATE_LINE_STIPPLE_EXT: return kDynLineStipple;
    case VK_DYNAMIC_STATE_POLYGON_MODE_EXT: return kDynPolygonMode;
    case VK_DYNAMIC_STATE_SAMPLE_MASK_EXT: return kDynSampleMask;
    case VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT: return kDynAlphaToCoverageEnable;
    case VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT: return kDynAlphaToOneEnable;
    case VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT: return kDynLogicOpEnable;
    case VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT: return kDynColorBlendEnable;
    case VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT: return kDynColorBlendEquation;
    case VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT: return kDynColorWriteMask;
    case VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT: return kDynLineRasterizationMode;
    case VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT: return kDynLineStippleEnable;
    case VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT: return kDynDepthClipEnable;
    case VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT: return kDynDepthClipNegativeOneToOne;
    case VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT: return kDynProvokingVertexMode;
    case VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT: return kDynTessellationDomainOrigin;
    case VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT: return kDynDepthClampEnable;
    case VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT: return kDynRasterizationSamples;
    case VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT: return kDynRasterizationStream;
    default: return 0;
  }
}

exec::GraphicsState merge_dynamic_state(const exec::GraphicsState& pipeline, DynamicStateMask dynamic_mask,
                                        const DynamicStateValues& recorded) {
  exec::GraphicsState out = pipeline;
  const DynamicStateMask use = dynamic_mask & recorded.set;
  const exec::GraphicsState& v = recorded.values;
  auto has = [&](DynamicStateMask bit) { return (use & bit) != 0; };
  exec::ViewportState& vp = out.viewport;
  // VIEWPORT keeps the pipeline's count; WITH_COUNT brings its own.
  if (has(kDynViewportWithCount)) vp.viewport_count = v.viewport.viewport_count;
  if (has(kDynViewport) || has(kDynViewportWithCount)) std::copy_n(v.viewport.viewports, exec::kMaxViewports, vp.viewports);
  if (has(kDynScissorWithCount)) vp.scissor_count = v.viewport.scissor_count;
  if (has(kDynScissor) || has(kDynScissorWithCount)) std::copy_n(v.viewport.scissors, exec::kMaxViewports, vp.scissors);
  exec::RasterizationState& rs = out.rasterization;
  if (has(kDynLineWidth)) rs.line_width = v.rasterization.line_width;
  if (has(kDynDepthBias)) {
    rs.depth_bias_constant = v.rasterization.depth_bias_constant;
    rs.depth_bias_clamp = v.rasterization.depth_bias_clamp;
    rs.depth_bias_slope = v.rasterization.depth_bias_slope;
  }
  if (has(kDynCullMode)) rs.cull_mode = v.rasterization.cull_mode;
  if (has(kDynFrontFace)) rs.front_face = v.rasterization.front_face;
  if (has(kDynRasterizerDiscardEnable)) rs.rasterizer_discard = v.rasterization.rasterizer_discard;
  if (has(kDynDepthBiasEnable)) rs.depth_bias_enable = v.rasterization.depth_bias_enable;
  if (has(kDynLineStipple)) {
    rs.line_stipple_factor = v.rasterization.line_stipple_factor;
    rs.line_stipple_pattern = v.rasterization.line_stipple_pattern;
  }
  if (has(kDynPolygonMode)) rs.polygon_mode = v.rasterization.polygon_mode;
  if (has(kDynLineRasterizationMode)) rs.line_mode = v.rasterization.line_mode;
  if (has(kDynLineStippleEnable)) rs.line_stipple = v.rasterization.line_stipple;
  if (has(kDynDepthClampEnable)) {
    rs.depth_clamp = v.rasterization.depth_clamp;
    // Without a depth clip state of its own, clipping is off exactly when clamping is on.
    if (rs.depth_clip_follows_clamp) rs.depth_clip = !rs.depth_clamp;
  }
  if (has(kDynDepthClipEnable)) rs.depth_clip = v.rasterization.depth_clip;
  if (has(kDynProvokingVertexMode)) rs.provoking_vertex = v.rasterization.provoking_vertex;
  if (has(kDynRasterizationStream)) rs.rasterization_stream = v.rasterization.rasterization_stream;
  if (has(kDynDepthClipNegativeOneToOne)) vp.negative_one_to_one = v.viewport.negative_one_to_one;
  exec::MultisampleState& ms = out.multisample;
  if (has(kDynRasterizationSamples)) ms.samples = v.multisample.samples;
  if (has(kDynSampleMask)) ms.sample_mask = v.multisample.sample_mask;
  if (has(kDynAlphaToCoverageEnable)) ms.alpha_to_coverage = v.multisample.alpha_to_coverage;
  if (has(kDynAlphaToOneEnable)) ms.alpha_to_one = v.multisample.alpha_to_one;
  if (has(kDynBlendConstants)) std::copy_n(v.color_blend.blend_constants, 4, out.color_blend.blend_constants);
  exec::DepthStencilState& ds = out.depth_stencil;
  const exec::DepthStencilState& vds = v.depth_stencil;
  if (has(kDynDepthBounds)) ds.min_depth_bounds = vds.min_depth_bounds, ds.max_depth_bounds = vds.max_depth_bounds;
  if (has(kDynDepthTestEnable)) ds.depth_test = vds.depth_test;
  if (has(kDynDepthWriteEnable)) ds.depth_write = vds.depth_write;
  if (has(kDynDepthCompareOp)) ds.depth_compare = vds.depth_compare;
  if (has(kDynDepthBoundsTestEnable)) ds.depth_bounds_test = vds.depth_bounds_test;
  if (has(kDynStencilTestEnable)) ds.stencil_test = vds.stencil_test;
  for (auto [face, vface] : {std::pair{&ds.front, &vds.front}, std::pair{&ds.back, &vds.back}}) {
    if (has(kDynStencilCompareMask)) face->compare_mask = vface->compare_mask;
    if (has(kDynStencilWriteMask)) face->write_mask = vface->write_mask;
    if (has(kDynStencilReference)) face->reference = vface->reference;
    if (has(kDynStencilOp)) {
      face->fail_op = vface->fail_op, face->pass_op = vface->pass_op, face->depth_fail_op = vface->depth_fail_op;
      face->compare_op = vface->compare_op;
    }
  }
  if (has(kDynPrimitiveTopology)) out.input_assembly.topology = v.input_assembly.topology;
  if (has(kDynPrimitiveRestartEnable)) out.input_assembly.primitive_restart = v.input_assembly.primitive_restart;
  if (has(kDynPatchControlPoints)) out.input_assembly.patch_control_points = v.input_assembly.patch_control_points;
  if (has(kDynTessellationDomainOrigin))
    out.input_assembly.tess_origin_lower_left = v.input_assembly.tess_origin_lower_left;
  exec::ColorBlendState& cb = out.color_blend;
  if (has(kDynColorWriteEnable)) cb.color_write_enable = v.color_blend.color_write_enable;
  if (has(kDynLogicOp)) cb.logic_op = v.color_blend.logic_op;
  if (has(kDynLogicOpEnable)) cb.logic_op_enable = v.color_blend.logic_op_enable;
  for (uint32_t i = 0; i < abi::kMaxColorAttachments; ++i) {
    VkPipelineColorBlendAttachmentState& a = cb.attachments[i];
    const VkPipelineColorBlendAttachmentState& va = v.color_blend.attachments[i];
    if (has(kDynColorBlendEnable)) a.blendEnable = va.blendEnable;
    if (has(kDynColorBlendEquation)) {
      a.srcColorBlendFactor = va.srcColorBlendFactor, a.dstColorBlendFactor = va.dstColorBlendFactor;
      a.colorBlendOp = va.colorBlendOp;
      a.srcAlphaBlendFactor = va.srcAlphaBlendFactor, a.dstAlphaBlendFactor = va.dstAlphaBlendFactor;
      a.alphaBlendOp = va.alphaBlendOp;
    }
    if (has(kDynColorWriteMask)) a.colorWriteMask = va.colorWriteMask;
  }
  for (uint32_t i = 0; i < cb.attachment_count; ++i)
    if (!(cb.color_write_enable & (1u << i))) cb.attachments[i].colorWriteMask = 0;
  return out;
}

}  // namespace kiln
