// icd/graphics_dynamic_state: merging recorded dynamic state over a pipeline's static state.
#include "icd/graphics_dynamic_state.h"

#include <gtest/gtest.h>

namespace kiln {
namespace {

TEST(GraphicsDynamicState, EveryCoreDynamicStateHasABit) {
  DynamicStateMask all = 0;
  for (VkDynamicState s : {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_LINE_WIDTH,
                           VK_DYNAMIC_STATE_DEPTH_BIAS, VK_DYNAMIC_STATE_BLEND_CONSTANTS, VK_DYNAMIC_STATE_DEPTH_BOUNDS,
                           VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
                           VK_DYNAMIC_STATE_STENCIL_REFERENCE, VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE,
                           VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT,
                           VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT, VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE,
                           VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
                           VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE,
                           VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE, VK_DYNAMIC_STATE_STENCIL_OP,
                           VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE, VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
                           VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE, VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT,
                           VK_DYNAMIC_STATE_LOGIC_OP_EXT, VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT,
                           VK_DYNAMIC_STATE_POLYGON_MODE_EXT, VK_DYNAMIC_STATE_SAMPLE_MASK_EXT,
                           VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT, VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT,
                           VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT,
                           VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT, VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT,
                           VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT, VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT,
                           VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT, VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT,
                           VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT}) {
    const DynamicStateMask bit = dynamic_state_bit(s);
    EXPECT_NE(bit, 0u) << s;
    EXPECT_EQ(all & bit, 0u) << s;
    all |= bit;
  }
  EXPECT_NE(dynamic_state_bit(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT), 0u);
  EXPECT_EQ(all & dynamic_state_bit(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT), 0u);
}

// VK_EXT_extended_dynamic_state3: each declared and recorded state replaces the pipeline's, per
// attachment for the blend states; undeclared ones keep the pipeline's values.
TEST(GraphicsDynamicState, ExtendedDynamicState3StatesReplaceThePipelines) {
  exec::GraphicsState pipeline;
  pipeline.color_blend.attachment_count = 2;
  pipeline.color_blend.attachments[1].colorWriteMask = 0xF;
  DynamicStateValues recorded;
  recorded.set = kDynPolygonMode | kDynColorBlendEnable | kDynColorBlendEquation | kDynColorWriteMask | kDynSampleMask |
                 kDynAlphaToCoverageEnable | kDynLogicOpEnable | kDynDepthClipEnable | kDynProvokingVertexMode;
  exec::GraphicsState& v = recorded.values;
  v.rasterization.polygon_mode = VK_POLYGON_MODE_LINE;
  v.color_blend.attachments[1].blendEnable = VK_TRUE;
  v.color_blend.attachments[1].dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
  v.color_blend.attachments[1].colorBlendOp = VK_BLEND_OP_MAX;
  v.color_blend.attachments[1].colorWriteMask = VK_COLOR_COMPONENT_R_BIT;
  v.multisample.sample_mask = 0x5;
  v.multisample.alpha_to_coverage = true;
  v.color_blend.logic_op_enable = true;
  v.rasterization.depth_clip = false;
  v.rasterization.provoking_vertex = VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  const DynamicStateMask declared = kDynPolygonMode | kDynColorBlendEnable | kDynColorBlendEquation | kDynColorWriteMask |
                                    kDynSampleMask | kDynAlphaToCoverageEnable;
  const exec::GraphicsState out = merge_dynamic_state(pipeline, declared, recorded);
  EXPECT_EQ(out.rasterization.polygon_mode, VK_POLYGON_MODE_LINE);
  EXPECT_TRUE(out.color_blend.attachments[1].blendEnable);
  EXPECT_EQ(out.color_blend.attachments[1].dstColorBlendFactor, VK_BLEND_FACTOR_ONE);
  EXPECT_EQ(out.color_blend.attachments[1].colorBlendOp, VK_BLEND_OP_MAX);
  EXPECT_EQ(out.color_blend.attachments[1].colorWriteMask, VkColorComponentFlags{VK_COLOR_COMPONENT_R_BIT});
  EXPECT_EQ(out.multisample.sample_mask, 0x5u);
  EXPECT_TRUE(out.multisample.alpha_to_coverage);
  // Recorded but not declared dynamic: the pipeline's.
  EXPECT_FALSE(out.color_blend.logic_op_enable);
  EXPECT_TRUE(out.rasterization.depth_clip);
  EXPECT_EQ(out.rasterization.provoking_vertex, VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT);
}

TEST(GraphicsDynamicState, OnlyDeclaredAndRecordedStatesReplaceThePipelines) {
  exec::GraphicsState pipeline;
  pipeline.rasterization.cull_mode = VK_CULL_MODE_NONE;
  pipeline.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
  pipeline.viewport.viewport_count = 1;
  pipeline.viewport.viewports[0] = {0, 0, 10, 10, 0, 1};
  pipeline.depth_stencil.front.reference = 1;
  pipeline.depth_stencil.back.reference = 2;

  DynamicStateValues recorded;
  recorded.set = kDynCullMode | kDynDepthCompareOp | kDynViewport | kDynStencilReference;
  recorded.values.rasterization.cull_mode = VK_CULL_MODE_BACK_BIT;
  recorded.values.depth_stencil.depth_compare = VK_COMPARE_OP_GREATER;  // recorded, but static in the pipeline
  recorded.values.viewport.viewport_count = 5;                          // VIEWPORT keeps the pipeline's count
  recorded.values.viewport.viewports[0] = {1, 2, 3, 4, 0, 1};
  recorded.values.depth_stencil.back.reference = 7;

  const exec::GraphicsState merged =
      merge_dynamic_state(pipeline, kDynCullMode | kDynViewport | kDynStencilReference | kDynFrontFace, recorded);
  EXPECT_EQ(merged.rasterization.cull_mode, VkCullModeFlags(VK_CULL_MODE_BACK_BIT));
  EXPECT_EQ(merged.depth_stencil.depth_compare, VK_COMPARE_OP_LESS);
  EXPECT_EQ(merged.viewport.viewport_count, 1u);
  EXPECT_EQ(merged.viewport.viewports[0].x, 1.0f);
  EXPECT_EQ(merged.viewport.viewports[0].height, 4.0f);
  EXPECT_EQ(merged.depth_stencil.back.reference, 7u);
  EXPECT_EQ(merged.rasterization.front_face, pipeline.rasterization.front_face);  // dynamic but never recorded

  recorded.set |= kDynViewportWithCount;
  const exec::GraphicsState with_count = merge_dynamic_state(pipeline, kDynViewportWithCount, recorded);
  EXPECT_EQ(with_count.viewport.viewport_count, 5u);
}

}  // namespace
}  // namespace kiln
