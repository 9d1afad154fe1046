#pragma once
// Commands shared by render passes (icd/cmd_render_pass.cpp) and dynamic rendering
// (icd/cmd_rendering.cpp): making a subpass's attachments current, load-op clears and resolves.
#include <vector>

#include "icd/command_buffer.h"

namespace kiln {

// Copies `targets` into the command list, records that they become current and returns the copy.
const exec::RenderTargets* record_render_targets(CommandBuffer* cb, const exec::RenderTargets& targets);
// Records that no render pass instance is in progress any more.
void record_no_render_targets(CommandBuffer* cb, bool suspends = false);

// Strict mode only (nothing is recorded otherwise): the layouts attachments go through in a render
// pass instance, one entry per view (exec::ImageLayoutsCmd).
struct AttachmentLayouts {
  const mem::ImageView* view;
  VkImageAspectFlags aspects;  // of the view the layouts are for
  VkImageLayout old_layout, new_layout;
};
void record_attachment_layouts(CommandBuffer* cb, const std::vector<AttachmentLayouts>& layouts);

void record_attachment_clear(CommandBuffer* cb, const mem::ImageView* view, VkImageAspectFlags aspects,
                             const VkClearValue& value, const VkRect2D& area, const mem::LayerSet& layers);
void record_attachment_resolve(CommandBuffer* cb, const PendingResolve& resolve, const VkRect2D& area,
                               const mem::LayerSet& layers);

// The aspects of `format` a load op of `load` (colour/depth) and `stencil_load` clears.
VkImageAspectFlags cleared_aspects(VkFormat format, VkAttachmentLoadOp load, VkAttachmentLoadOp stencil_load);

}  // namespace kiln
