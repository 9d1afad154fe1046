#pragma once
// VkRenderPass and VkFramebuffer. vkCreateRenderPass and vkCreateRenderPass2 build the same
// RenderPass (the v2 form, which can say everything v1 can); the recording side is in
// icd/cmd_render_pass.cpp.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "icd/object.h"
#include "memory/image_view.h"

namespace kiln {

struct RenderPassAttachment {
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkAttachmentLoadOp load_op = VK_ATTACHMENT_LOAD_OP_DONT_CARE, stencil_load_op = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  VkAttachmentStoreOp store_op = VK_ATTACHMENT_STORE_OP_DONT_CARE, stencil_store_op = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  VkImageLayout initial_layout = VK_IMAGE_LAYOUT_UNDEFINED, final_layout = VK_IMAGE_LAYOUT_UNDEFINED;
};

struct AttachmentReference {
  uint32_t attachment = VK_ATTACHMENT_UNUSED;
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageAspectFlags aspects = 0;  // input attachments: the aspects read
};

struct Subpass {
  std::vector<AttachmentReference> inputs, colors, resolves;  // resolves: empty or one per colour
  AttachmentReference depth_stencil, depth_stencil_resolve;
  VkResolveModeFlagBits depth_resolve_mode = VK_RESOLVE_MODE_NONE, stencil_resolve_mode = VK_RESOLVE_MODE_NONE;
  std::vector<uint32_t> preserves;  // bookkeeping: Kiln keeps every attachment's contents anyway
  // VK_EXT_multisampled_render_to_single_sampled: single-sampled attachments are drawn with this
  // many samples into implicit images (icd/implicit_attachments.h); 1 = off.
  VkSampleCountFlagBits implicit_samples = VK_SAMPLE_COUNT_1_BIT;
  uint32_t view_mask = 0;
  // Attachments whose load op happens at the start of this subpass (first use), per attachment
  // the views (multiview) first used here; bit 0 alone without multiview.
  std::vector<std::pair<uint32_t, uint32_t>> first_uses;
};

// A subpass dependency: a barrier cut between subpasses (or with outside the render pass).
struct SubpassDependency {
  uint32_t src_subpass = VK_SUBPASS_EXTERNAL, dst_subpass = VK_SUBPASS_EXTERNAL;
  VkPipelineStageFlags2 src_stages = 0, dst_stages = 0;
  VkAccessFlags2 src_access = 0, dst_access = 0;
  VkDependencyFlags flags = 0;
};

struct RenderPass {
  std::vector<RenderPassAttachment> attachments;
  std::vector<Subpass> subpasses;
  std::vector<SubpassDependency> dependencies;
};

struct Framebuffer {
  uint32_t width = 0, height = 0, layers = 1;
  bool imageless = false;                    // views come with vkCmdBeginRenderPass
  std::vector<const mem::ImageView*> views;  // one per attachment (empty when imageless)
};

inline RenderPass* render_pass_of(VkRenderPass handle) { return from_handle<RenderPass>(handle); }
inline Framebuffer* framebuffer_of(VkFramebuffer handle) { return from_handle<Framebuffer>(handle); }

}  // namespace kiln
