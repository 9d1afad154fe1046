#pragma once
// What a command buffer tracks while recording graphics work: the render pass instance in
// progress (icd/cmd_render_pass.cpp, icd/cmd_rendering.cpp) and the state draws capture
// (icd/cmd_draw.cpp, icd/cmd_dynamic_state.cpp).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "icd/graphics_dynamic_state.h"
#include "icd/implicit_attachment_pool.h"
#include "memory/attachment_ops.h"
#include "memory/resources.h"
#include "pipeline/graphics_state.h"

namespace kiln {

struct RenderPass;

// A resolve to record when the instance (or subpass) ends.
struct PendingResolve {
  const mem::ImageView* src = nullptr;
  const mem::ImageView* dst = nullptr;
  VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  VkResolveModeFlagBits mode = VK_RESOLVE_MODE_NONE;
};

// VK_EXT_multisampled_render_to_single_sampled: a single-sampled attachment the current subpass
// (or instance) draws into an implicit multisampled image instead (icd/implicit_attachments.h).
struct ImplicitTarget {
  const mem::ImageView* single = nullptr;
  const mem::ImageView* implicit = nullptr;
};

struct RenderPassInstance {
  bool active = false;
  const RenderPass* pass = nullptr;  // null for dynamic rendering
  uint32_t subpass = 0;
  std::vector<const mem::ImageView*> views;  // the framebuffer's (or begin info's) attachments
  std::vector<VkClearValue> clear_values;
  VkRect2D render_area{};
  uint32_t layers = 1;
  uint32_t view_mask = 0;                      // dynamic rendering's; subpasses carry their own
  const exec::RenderTargets* targets = nullptr;  // of the current subpass, in the command list
  std::vector<PendingResolve> end_resolves;    // dynamic rendering (not when suspending)
  bool suspending = false;                     // dynamic rendering: VK_RENDERING_SUSPENDING_BIT
  std::vector<ImplicitTarget> implicit;        // of the current subpass
};

struct GraphicsRecording {
  RenderPassInstance instance;
  ImplicitAttachmentPool implicit_pool;
  // Dynamic state set so far (values in the fields of a GraphicsState, `dynamic.set` says which).
  DynamicStateValues dynamic;
  // The merged state the last draw used; null when the pipeline or dynamic state changed since.
  const exec::GraphicsState* merged_state = nullptr;
  abi::VertexBufferRecord vertex_buffers[abi::kMaxVertexBindings] = {};
  const abi::VertexBufferRecord* captured_vertex_buffers = nullptr;  // null after a bind
  const mem::Buffer* index_buffer = nullptr;
  VkDeviceSize index_offset = 0;
  VkIndexType index_type = VK_INDEX_TYPE_UINT16;
};

}  // namespace kiln
