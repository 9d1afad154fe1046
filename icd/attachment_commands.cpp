// Load-op clears, resolves, current render targets, and vkCmdClearAttachments.
#include "icd/attachment_commands.h"

#include "common/log.h"
#include "kiln_entrypoints.h"
#include "memory/format_table.h"

namespace kiln {

const exec::RenderTargets* record_render_targets(CommandBuffer* cb, const exec::RenderTargets& targets) {
  const exec::RenderTargets* copy = cb->commands->copy_array(&targets, 1);
  cb->commands->append<exec::SetRenderTargetsCmd>()->targets = copy;
  return copy;
}

void record_no_render_targets(CommandBuffer* cb, bool suspends) {
  auto* cmd = cb->commands->append<exec::SetRenderTargetsCmd>();
  cmd->targets = nullptr;
  cmd->suspends = suspends;
}

void record_attachment_layouts(CommandBuffer* cb, const std::vector<AttachmentLayouts>& layouts) {
  if (!cb->device->strict) return;
  std::vector<exec::ImageDependency> images;
  for (const AttachmentLayouts& a : layouts) {
    if (!a.view || !a.view->image) continue;
    VkImageSubresourceRange range = a.view->range;
    range.aspectMask = a.aspects;
    if (a.view->slices_of_3d) range.baseArrayLayer = 0, range.layerCount = 1;
    images.push_back({{}, a.view->image, range, a.old_layout, a.new_layout});
  }
  if (images.empty()) return;
  auto* cmd = cb->commands->append<exec::ImageLayoutsCmd>();
  cmd->image_count = uint32_t(images.size());
  cmd->images = cb->commands->copy_array(images.data(), images.size());
}

void record_attachment_clear(CommandBuffer* cb, const mem::ImageView* view, VkImageAspectFlags aspects,
                             const VkClearValue& value, const VkRect2D& area, const mem::LayerSet& layers) {
  if (!view || !aspects) return;
  auto* cmd = cb->commands->append<exec::ClearViewCmd>();
  cmd->view = view;
  cmd->aspects = aspects;
  cmd->value = value;
  cmd->rect = area;
  cmd->layers = layers;
}

void record_attachment_resolve(CommandBuffer* cb, const PendingResolve& resolve, const VkRect2D& area,
                               const mem::LayerSet& layers) {
  if (!resolve.src || !resolve.dst || resolve.mode == VK_RESOLVE_MODE_NONE) return;
  auto* cmd = cb->commands->append<exec::ResolveViewCmd>();
  cmd->src = resolve.src;
  cmd->dst = resolve.dst;
  cmd->aspect = resolve.aspect;
  cmd->mode = resolve.mode;
  cmd->rect = area;
  cmd->layers = layers;
}

VkImageAspectFlags cleared_aspects(VkFormat format, VkAttachmentLoadOp load, VkAttachmentLoadOp stencil_load) {
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (!info) return 0;
  if (!info->has_depth() && !info->has_stencil()) return load == VK_ATTACHMENT_LOAD_OP_CLEAR ? VK_IMAGE_ASPECT_COLOR_BIT : 0;
  VkImageAspectFlags aspects = 0;
  if (info->has_depth() && load == VK_ATTACHMENT_LOAD_OP_CLEAR) aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
  if (info->has_stencil() && stencil_load == VK_ATTACHMENT_LOAD_OP_CLEAR) aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
  return aspects;
}

}  // namespace kiln

using namespace kiln;

// Attachments are named by index; the executor finds the views in the render targets current when
// it runs (a secondary command buffer does not know them when it records).
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdClearAttachments(VkCommandBuffer commandBuffer, uint32_t attachmentCount,
                                                               const VkClearAttachment* pAttachments, uint32_t rectCount,
                                                               const VkClearRect* pRects) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  if (attachmentCount == 0 || rectCount == 0) return;
  auto* cmd = cb->commands->append<exec::ClearAttachmentsCmd>();
  cmd->targets = cb->gfx.instance.active ? cb->gfx.instance.targets : nullptr;
  cmd->attachment_count = attachmentCount;
  cmd->attachments = cb->commands->copy_array(pAttachments, attachmentCount);
  cmd->rect_count = rectCount;
  cmd->rects = cb->commands->copy_array(pRects, rectCount);
}
