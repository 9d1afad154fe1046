#pragma once
// Vulkan 1.3's dynamic graphics state: which VkDynamicState a pipeline leaves to the command
// buffer, the values vkCmdSet* recorded, and merging them over the pipeline's static state.
// No Vulkan handles here, so unit tests call it directly.
#include <vulkan/vulkan.h>

#include <cstdint>

#include "compiler/vertex_input_key.h"
#include "pipeline/graphics_state.h"

namespace kiln {

// One bit per dynamic state Kiln knows (the 1.0 states, the 1.3 core extended states and
// VK_EXT_color_write_enable's, VK_EXT_line_rasterization's, VK_EXT_extended_dynamic_state2's
// logic op and patch control points, VK_EXT_vertex_input_dynamic_state's and the
// VK_EXT_extended_dynamic_state3 states Kiln merges per draw).
using DynamicStateMask = uint64_t;
enum DynamicStateBit : DynamicStateMask {
  kDynViewport = 1ull << 0, kDynScissor = 1ull << 1, kDynLineWidth = 1ull << 2, kDynDepthBias = 1ull << 3,
  kDynBlendConstants = 1ull << 4, kDynDepthBounds = 1ull << 5, kDynStencilCompareMask = 1ull << 6,
  kDynStencilWriteMask = 1ull << 7, kDynStencilReference = 1ull << 8, kDynCullMode = 1ull << 9, kDynFrontFace = 1ull << 10,
  kDynPrimitiveTopology = 1ull << 11, kDynViewportWithCount = 1ull << 12, kDynScissorWithCount = 1ull << 13,
  kDynVertexInputBindingStride = 1ull << 14, kDynDepthTestEnable = 1ull << 15, kDynDepthWriteEnable = 1ull << 16,
  kDynDepthCompareOp = 1ull << 17, kDynDepthBoundsTestEnable = 1ull << 18, kDynStencilTestEnable = 1ull << 19,
  kDynStencilOp = 1ull << 20, kDynRasterizerDiscardEnable = 1ull << 21, kDynDepthBiasEnable = 1ull << 22,
  kDynPrimitiveRestartEnable = 1ull << 23, kDynColorWriteEnable = 1ull << 24, kDynLineStipple = 1ull << 25,
  kDynLogicOp = 1ull << 26,
  kDynVertexInput = 1ull << 27,  // not merged: it selects the vertex kernel (icd/vertex_input_variants.h)
  kDynPatchControlPoints = 1ull << 28,
  // VK_EXT_extended_dynamic_state3
  kDynPolygonMode = 1ull << 29, kDynSampleMask = 1ull << 30, kDynAlphaToCoverageEnable = 1ull << 31,
  kDynAlphaToOneEnable = 1ull << 32, kDynLogicOpEnable = 1ull << 33, kDynColorBlendEnable = 1ull << 34,
  kDynColorBlendEquation = 1ull << 35, kDynColorWriteMask = 1ull << 36, kDynLineRasterizationMode = 1ull << 37,
  kDynLineStippleEnable = 1ull << 38, kDynDepthClipEnable = 1ull << 39, kDynDepthClipNegativeOneToOne = 1ull << 40,
  kDynProvokingVertexMode = 1ull << 41, kDynTessellationDomainOrigin = 1ull << 42, kDynDepthClampEnable = 1ull << 43,
  kDynRasterizationSamples = 1ull << 44, kDynRasterizationStream = 1ull << 45,
};

// The bit of `state`, or 0 for a dynamic state Kiln does not support (pipeline creation rejects it).
DynamicStateMask dynamic_state_bit(VkDynamicState state);

struct DynamicStateValues {
  DynamicStateMask set = 0;  // DynamicStateBit of every state recorded so far
  exec::GraphicsState values;  // the recorded values, in the fields the states map to
  uint64_t vertex_strides[abi::kMaxVertexBindings] = {};  // VERTEX_INPUT_BINDING_STRIDE or VERTEX_INPUT_EXT
  compiler::VertexInputKey vertex_input;                  // VERTEX_INPUT_EXT
};

// `pipeline` with every state in `dynamic_mask` replaced by the recorded value (a state the
// pipeline declares dynamic but the command buffer never set keeps the pipeline's value: using
// it is undefined behaviour in Vulkan, and this keeps it harmless).
exec::GraphicsState merge_dynamic_state(const exec::GraphicsState& pipeline, DynamicStateMask dynamic_mask,
                                        const DynamicStateValues& recorded);

}  // namespace kiln
