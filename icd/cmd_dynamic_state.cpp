// vkCmdSet* for every Vulkan 1.3 core dynamic graphics state. Each records its value into the
// command buffer's DynamicStateValues and drops the merged state, so the next draw merges again
// (icd/graphics_dynamic_state.h); draws without a change in between share one merged copy.
#include <algorithm>

#include "common/log.h"
#include "icd/command_buffer.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

// The recorded values of `cb`, marked as set for `bit`.
exec::GraphicsState& set(VkCommandBuffer handle, DynamicStateMask bit) {
  CommandBuffer* cb = command_buffer_of(handle);
  cb->gfx.dynamic.set |= bit;
  cb->gfx.merged_state = nullptr;
  return cb->gfx.dynamic.values;
}

bool viewport_range_ok(const char* api, uint32_t first, uint32_t count) {
  if (first <= exec::kMaxViewports && count <= exec::kMaxViewports - first) return true;
  KILN_LOG_ONCE(LogLevel::Error, "%s: viewports [%u, %u) beyond %u; ignored", api, first, first + count, exec::kMaxViewports);
  return false;
}

template <typename Fn>
void for_faces(VkStencilFaceFlags faces, exec::DepthStencilState& ds, Fn fn) {
  if (faces & VK_STENCIL_FACE_FRONT_BIT) fn(ds.front);
  if (faces & VK_STENCIL_FACE_BACK_BIT) fn(ds.back);
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetViewport(VkCommandBuffer cb, uint32_t first, uint32_t count, const VkViewport* pViewports) {
  if (!viewport_range_ok("vkCmdSetViewport", first, count)) return;
  std::copy_n(pViewports, count, set(cb, kDynViewport).viewport.viewports + first);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetScissor(VkCommandBuffer cb, uint32_t first, uint32_t count, const VkRect2D* pScissors) {
  if (!viewport_range_ok("vkCmdSetScissor", first, count)) return;
  std::copy_n(pScissors, count, set(cb, kDynScissor).viewport.scissors + first);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetViewportWithCount(VkCommandBuffer cb, uint32_t count, const VkViewport* pViewports) {
  if (!viewport_range_ok("vkCmdSetViewportWithCount", 0, count)) return;
  exec::ViewportState& v = set(cb, kDynViewportWithCount).viewport;
  v.viewport_count = count;
  std::copy_n(pViewports, count, v.viewports);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetScissorWithCount(VkCommandBuffer cb, uint32_t count, const VkRect2D* pScissors) {
  if (!viewport_range_ok("vkCmdSetScissorWithCount", 0, count)) return;
  exec::ViewportState& v = set(cb, kDynScissorWithCount).viewport;
  v.scissor_count = count;
  std::copy_n(pScissors, count, v.scissors);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetLineWidth(VkCommandBuffer cb, float width) {
  set(cb, kDynLineWidth).rasterization.line_width = width;
}

// VK_EXT_line_rasterization: the factor is clamped to the valid [1, 256] so a bad value cannot
// divide by zero in the rasterizer.
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetLineStippleEXT(VkCommandBuffer cb, uint32_t factor, uint16_t pattern) {
  exec::RasterizationState& r = set(cb, kDynLineStipple).rasterization;
  r.line_stipple_factor = std::clamp<uint32_t>(factor, 1, 256);
  r.line_stipple_pattern = pattern;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthBias(VkCommandBuffer cb, float constant, float clamp, float slope) {
  exec::RasterizationState& r = set(cb, kDynDepthBias).rasterization;
  r.depth_bias_constant = constant;
  r.depth_bias_clamp = clamp;
  r.depth_bias_slope = slope;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetBlendConstants(VkCommandBuffer cb, const float constants[4]) {
  std::copy_n(constants, 4, set(cb, kDynBlendConstants).color_blend.blend_constants);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthBounds(VkCommandBuffer cb, float min_bounds, float max_bounds) {
  exec::DepthStencilState& d = set(cb, kDynDepthBounds).depth_stencil;
  d.min_depth_bounds = min_bounds;
  d.max_depth_bounds = max_bounds;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetStencilCompareMask(VkCommandBuffer cb, VkStencilFaceFlags faces, uint32_t mask) {
  for_faces(faces, set(cb, kDynStencilCompareMask).depth_stencil, [&](exec::StencilFaceState& f) { f.compare_mask = mask; });
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetStencilWriteMask(VkCommandBuffer cb, VkStencilFaceFlags faces, uint32_t mask) {
  for_faces(faces, set(cb, kDynStencilWriteMask).depth_stencil, [&](exec::StencilFaceState& f) { f.write_mask = mask; });
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetStencilReference(VkCommandBuffer cb, VkStencilFaceFlags faces, uint32_t reference) {
  for_faces(faces, set(cb, kDynStencilReference).depth_stencil, [&](exec::StencilFaceState& f) { f.reference = reference; });
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetStencilOp(VkCommandBuffer cb, VkStencilFaceFlags faces, VkStencilOp fail_op,
                                                          VkStencilOp pass_op, VkStencilOp depth_fail_op, VkCompareOp compare_op) {
  for_faces(faces, set(cb, kDynStencilOp).depth_stencil, [&](exec::StencilFaceState& f) {
    f.fail_op = fail_op, f.pass_op = pass_op, f.depth_fail_op = depth_fail_op, f.compare_op = compare_op;
  });
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetColorWriteEnableEXT(VkCommandBuffer cb, uint32_t count,
                                                                     const VkBool32* enables) {
  uint32_t bits = ~0u;
  for (uint32_t i = 0; i < count && i < abi::kMaxColorAttachments; ++i)
    if (!enables[i]) bits &= ~(1u << i);
  set(cb, kDynColorWriteEnable).color_blend.color_write_enable = bits;
}

// Out-of-range values are an application error; COPY keeps the draw harmless.
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetLogicOpEXT(VkCommandBuffer cb, VkLogicOp op) {
  if (uint32_t(op) > uint32_t(VK_LOGIC_OP_SET)) {
    KILN_LOG_ONCE(LogLevel::Warn, "vkCmdSetLogicOpEXT: logic op %d is not a VkLogicOp; using COPY", int(op));
    op = VK_LOGIC_OP_COPY;
  }
  set(cb, kDynLogicOp).color_blend.logic_op = op;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetCullMode(VkCommandBuffer cb, VkCullModeFlags mode) {
  set(cb, kDynCullMode).rasterization.cull_mode = mode;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetFrontFace(VkCommandBuffer cb, VkFrontFace face) {
  set(cb, kDynFrontFace).rasterization.front_face = face;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetPrimitiveTopology(VkCommandBuffer cb, VkPrimitiveTopology topology) {
  set(cb, kDynPrimitiveTopology).input_assembly.topology = topology;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthTestEnable(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynDepthTestEnable).depth_stencil.depth_test = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthWriteEnable(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynDepthWriteEnable).depth_stencil.depth_write = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthCompareOp(VkCommandBuffer cb, VkCompareOp op) {
  set(cb, kDynDepthCompareOp).depth_stencil.depth_compare = op;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthBoundsTestEnable(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynDepthBoundsTestEnable).depth_stencil.depth_bounds_test = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetStencilTestEnable(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynStencilTestEnable).depth_stencil.stencil_test = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetRasterizerDiscardEnable(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynRasterizerDiscardEnable).rasterization.rasterizer_discard = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthBiasEnable(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynDepthBiasEnable).rasterization.depth_bias_enable = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetPrimitiveRestartEnable(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynPrimitiveRestartEnable).input_assembly.primitive_restart = enable;
}

// The patch size is draw state, not part of any kernel (control records are padded to
// abi::kMaxPatchVertices); draws check it (pipeline/graphics/draw_context.cpp).
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetPatchControlPointsEXT(VkCommandBuffer cb, uint32_t points) {
  set(cb, kDynPatchControlPoints).input_assembly.patch_control_points = points;
}

// VK_EXT_vertex_input_dynamic_state: the state becomes the key of the vertex kernel the next draw
// uses (icd/vertex_input_variants.h); the bindings' strides are recorded like dynamic strides.
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetVertexInputEXT(
    VkCommandBuffer handle, uint32_t bindingCount, const VkVertexInputBindingDescription2EXT* pBindings,
    uint32_t attributeCount, const VkVertexInputAttributeDescription2EXT* pAttributes) {
  DynamicStateValues& d = command_buffer_of(handle)->gfx.dynamic;
  set(handle, kDynVertexInput);
  command_buffer_of(handle)->gfx.captured_vertex_buffers = nullptr;  // strides changed
  compiler::VertexInputKey& key = d.vertex_input;
  key = {};
  for (uint32_t i = 0; i < bindingCount; ++i) {
    const VkVertexInputBindingDescription2EXT& b = pBindings[i];
    if (b.binding >= abi::kMaxVertexBindings) {
      KILN_LOG_ONCE(LogLevel::Error, "vkCmdSetVertexInputEXT: binding %u beyond %u; ignored", b.binding,
                    abi::kMaxVertexBindings);
      continue;
    }
    key.bindings.push_back({b.binding, b.inputRate == VK_VERTEX_INPUT_RATE_INSTANCE,
                            b.inputRate == VK_VERTEX_INPUT_RATE_INSTANCE ? b.divisor : 1});
    d.vertex_strides[b.binding] = b.stride;
  }
  for (uint32_t i = 0; i < attributeCount; ++i) {
    const VkVertexInputAttributeDescription2EXT& a = pAttributes[i];
    key.attributes.push_back({a.location, a.binding, static_cast<uint32_t>(a.format), a.offset});
  }
  std::sort(key.attributes.begin(), key.attributes.end(), [](auto& x, auto& y) { return x.location < y.location; });
  std::sort(key.bindings.begin(), key.bindings.end(), [](auto& x, auto& y) { return x.binding < y.binding; });
}

// VK_EXT_extended_dynamic_state3: the states Kiln merges per draw (the device's features list them).

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetPolygonModeEXT(VkCommandBuffer cb, VkPolygonMode mode) {
  set(cb, kDynPolygonMode).rasterization.polygon_mode = mode;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetSampleMaskEXT(VkCommandBuffer cb, VkSampleCountFlagBits, const VkSampleMask* mask) {
  set(cb, kDynSampleMask).multisample.sample_mask = mask ? mask[0] : ~0u;  // at most 16 samples: one word
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetAlphaToCoverageEnableEXT(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynAlphaToCoverageEnable).multisample.alpha_to_coverage = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetAlphaToOneEnableEXT(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynAlphaToOneEnable).multisample.alpha_to_one = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetLogicOpEnableEXT(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynLogicOpEnable).color_blend.logic_op_enable = enable;
}

namespace {

// Attachments [first, first + count) of the recorded blend state, clipped to what Kiln has.
template <typename Fn>
void for_attachments(VkCommandBuffer cb, DynamicStateMask bit, const char* api, uint32_t first, uint32_t count, Fn fn) {
  if (first >= abi::kMaxColorAttachments || count > abi::kMaxColorAttachments - first) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: attachments [%u, %u) beyond %u; those are ignored", api, first, first + count,
                  abi::kMaxColorAttachments);
    count = first >= abi::kMaxColorAttachments ? 0 : abi::kMaxColorAttachments - first;
  }
  exec::ColorBlendState& blend = set(cb, bit).color_blend;
  for (uint32_t i = 0; i < count; ++i) fn(blend.attachments[first + i], i);
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetColorBlendEnableEXT(VkCommandBuffer cb, uint32_t first, uint32_t count,
                                                                     const VkBool32* enables) {
  for_attachments(cb, kDynColorBlendEnable, "vkCmdSetColorBlendEnableEXT", first, count,
                  [&](VkPipelineColorBlendAttachmentState& a, uint32_t i) { a.blendEnable = enables[i]; });
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetColorBlendEquationEXT(VkCommandBuffer cb, uint32_t first, uint32_t count,
                                                                       const VkColorBlendEquationEXT* equations) {
  for_attachments(cb, kDynColorBlendEquation, "vkCmdSetColorBlendEquationEXT", first, count,
                  [&](VkPipelineColorBlendAttachmentState& a, uint32_t i) {
                    const VkColorBlendEquationEXT& e = equations[i];
                    a.srcColorBlendFactor = e.srcColorBlendFactor, a.dstColorBlendFactor = e.dstColorBlendFactor;
                    a.colorBlendOp = e.colorBlendOp;
                    a.srcAlphaBlendFactor = e.srcAlphaBlendFactor, a.dstAlphaBlendFactor = e.dstAlphaBlendFactor;
                    a.alphaBlendOp = e.alphaBlendOp;
                  });
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetColorWriteMaskEXT(VkCommandBuffer cb, uint32_t first, uint32_t count,
                                                                   const VkColorComponentFlags* masks) {
  for_attachments(cb, kDynColorWriteMask, "vkCmdSetColorWriteMaskEXT", first, count,
                  [&](VkPipelineColorBlendAttachmentState& a, uint32_t i) { a.colorWriteMask = masks[i]; });
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetLineRasterizationModeEXT(VkCommandBuffer cb, VkLineRasterizationModeEXT mode) {
  set(cb, kDynLineRasterizationMode).rasterization.line_mode = mode;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetLineStippleEnableEXT(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynLineStippleEnable).rasterization.line_stipple = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthClipEnableEXT(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynDepthClipEnable).rasterization.depth_clip = enable;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthClipNegativeOneToOneEXT(VkCommandBuffer cb, VkBool32 negative_one_to_one) {
  set(cb, kDynDepthClipNegativeOneToOne).viewport.negative_one_to_one = negative_one_to_one;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetProvokingVertexModeEXT(VkCommandBuffer cb, VkProvokingVertexModeEXT mode) {
  set(cb, kDynProvokingVertexMode).rasterization.provoking_vertex = mode;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetTessellationDomainOriginEXT(VkCommandBuffer cb,
                                                                            VkTessellationDomainOrigin origin) {
  set(cb, kDynTessellationDomainOrigin).input_assembly.tess_origin_lower_left =
      origin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDepthClampEnableEXT(VkCommandBuffer cb, VkBool32 enable) {
  set(cb, kDynDepthClampEnable).rasterization.depth_clamp = enable;
}

// Draws check the sample count against their attachments' (pipeline/graphics/draw_context.cpp).
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetRasterizationSamplesEXT(VkCommandBuffer cb, VkSampleCountFlagBits samples) {
  set(cb, kDynRasterizationSamples).multisample.samples = samples;
}

// A stream past the last one is an application error: the last stream, as pipeline creation clamps.
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetRasterizationStreamEXT(VkCommandBuffer cb, uint32_t stream) {
  if (stream >= abi::kMaxVertexStreams) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdSetRasterizationStreamEXT: stream %u beyond %u; using the last", stream,
                  abi::kMaxVertexStreams);
    stream = abi::kMaxVertexStreams - 1;
  }
  set(cb, kDynRasterizationStream).rasterization.rasterization_stream = stream;
}
