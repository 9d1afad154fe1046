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
// logic op and patch control points and VK_EXT_vertex_input_dynamic_state's).
enum DynamicStateBit : uint32_t {
  kDynViewport = 1u << 0, kDynScissor = 1u << 1, kDynLineWidth = 1u << 2, kDynDepthBias = 1u << 3,
  kDynBlendConstants = 1u << 4, kDynDepthBounds = 1u << 5, kDynStencilCompareMask = 1u << 6,
  kDynStencilWriteMask = 1u << 7, kDynStencilReference = 1u << 8, kDynCullMode = 1u << 9, kDynFrontFace = 1u << 10,
  kDynPrimitiveTopology = 1u << 11, kDynViewportWithCount = 1u << 12, kDynScissorWithCount = 1u << 13,
  kDynVertexInputBindingStride = 1u << 14, kDynDepthTestEnable = 1u << 15, kDynDepthWriteEnable = 1u << 16,
  kDynDepthCompareOp = 1u << 17, kDynDepthBoundsTestEnable = 1u << 18, kDynStencilTestEnable = 1u << 19,
  kDynStencilOp = 1u << 20, kDynRasterizerDiscardEnable = 1u << 21, kDynDepthBiasEnable = 1u << 22,
  kDynPrimitiveRestartEnable = 1u << 23, kDynColorWriteEnable = 1u << 24, kDynLineStipple = 1u << 25,
  kDynLogicOp = 1u << 26,
  kDynVertexInput = 1u << 27,  // not merged: it selects the vertex kernel (icd/vertex_input_variants.h)
  kDynPatchControlPoints = 1u << 28,
};

// The bit of `state`, or 0 for a dynamic state Kiln does not support (pipeline creation rejects it).
uint32_t dynamic_state_bit(VkDynamicState state);

struct DynamicStateValues {
  uint32_t set = 0;          // DynamicStateBit of every state recorded so far
  exec::GraphicsState values;  // the recorded values, in the fields the states map to
  uint64_t vertex_strides[abi::kMaxVertexBindings] = {};  // VERTEX_INPUT_BINDING_STRIDE or VERTEX_INPUT_EXT
  compiler::VertexInputKey vertex_input;                  // VERTEX_INPUT_EXT
};

// `pipeline` with every state in `dynamic_mask` replaced by the recorded value (a state the
// pipeline declares dynamic but the command buffer never set keeps the pipeline's value: using
// it is undefined behaviour in Vulkan, and this keeps it harmless).
exec::GraphicsState merge_dynamic_state(const exec::GraphicsState& pipeline, uint32_t dynamic_mask,
                                        const DynamicStateValues& recorded);

}  // namespace kiln
