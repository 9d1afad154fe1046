// vkCmdBeginRendering / vkCmdEndRendering (dynamic rendering, core 1.3): one render pass
// instance whose attachments come with the begin info. RESUMING instances skip their load ops and
// SUSPENDING ones their resolves: together the pieces behave as one instance.
#include "common/log.h"
#include "icd/attachment_commands.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

const mem::ImageView* view_of(VkImageView handle) { return from_handle<mem::ImageView>(handle); }

// A depth or stencil attachment's load op and resolve.
void add_depth_stencil(CommandBuffer* cb, const VkRenderingAttachmentInfo* a, VkImageAspectFlagBits aspect, bool resuming,
                       bool suspending, const mem::LayerSet& layers, const mem::ImageView** target) {
  RenderPassInstance& rp = cb->gfx.instance;
  if (!a || !a->imageView) return;
  *target = view_of(a->imageView);
  if (!resuming && a->loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
    record_attachment_clear(cb, *target, aspect, a->clearValue, rp.render_area, layers);
  if (!suspending && a->resolveMode != VK_RESOLVE_MODE_NONE && a->resolveImageView)
    rp.end_resolves.push_back({*target, view_of(a->resolveImageView), aspect, a->resolveMode});
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBeginRendering(VkCommandBuffer commandBuffer, const VkRenderingInfo* pRenderingInfo) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  const VkRenderingInfo& info = *pRenderingInfo;
  RenderPassInstance& rp = cb->gfx.instance;
  rp = {};
  rp.active = true;
  rp.render_area = info.renderArea;
  rp.layers = info.layerCount;
  rp.view_mask = info.viewMask;
  const bool resuming = info.flags & VK_RENDERING_RESUMING_BIT;
  const bool suspending = info.flags & VK_RENDERING_SUSPENDING_BIT;
  rp.suspending = suspending;
  const mem::LayerSet layers = info.viewMask ? mem::LayerSet{0, 0, info.viewMask} : mem::LayerSet{0, info.layerCount, 0};

  exec::RenderTargets targets;
  if (info.colorAttachmentCount > abi::kMaxColorAttachments)
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdBeginRendering: %u colour attachments; only %u used", info.colorAttachmentCount,
                  abi::kMaxColorAttachments);
  targets.color_count = std::min(info.colorAttachmentCount, abi::kMaxColorAttachments);
  for (uint32_t i = 0; i < targets.color_count; ++i) {
    const VkRenderingAttachmentInfo& a = info.pColorAttachments[i];
    if (!a.imageView) continue;
    targets.color[i] = view_of(a.imageView);
    if (!resuming && a.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      record_attachment_clear(cb, targets.color[i], VK_IMAGE_ASPECT_COLOR_BIT, a.clearValue, rp.render_area, layers);
    if (!suspending && a.resolveMode != VK_RESOLVE_MODE_NONE && a.resolveImageView)
      rp.end_resolves.push_back({targets.color[i], view_of(a.resolveImageView), VK_IMAGE_ASPECT_COLOR_BIT, a.resolveMode});
  }
  add_depth_stencil(cb, info.pDepthAttachment, VK_IMAGE_ASPECT_DEPTH_BIT, resuming, suspending, layers, &targets.depth);
  add_depth_stencil(cb, info.pStencilAttachment, VK_IMAGE_ASPECT_STENCIL_BIT, resuming, suspending, layers, &targets.stencil);
  targets.render_area = info.renderArea;
  targets.layer_count = info.layerCount;
  targets.view_mask = info.viewMask;
  // Strict mode: each attachment is used in the layout its info names.
  std::vector<AttachmentLayouts> layouts;
  for (uint32_t i = 0; i < targets.color_count; ++i)
    if (targets.color[i])
      layouts.push_back({targets.color[i], VK_IMAGE_ASPECT_COLOR_BIT, info.pColorAttachments[i].imageLayout,
                         info.pColorAttachments[i].imageLayout});
  if (targets.depth && info.pDepthAttachment)
    layouts.push_back({targets.depth, VK_IMAGE_ASPECT_DEPTH_BIT, info.pDepthAttachment->imageLayout,
                       info.pDepthAttachment->imageLayout});
  if (targets.stencil && info.pStencilAttachment)
    layouts.push_back({targets.stencil, VK_IMAGE_ASPECT_STENCIL_BIT, info.pStencilAttachment->imageLayout,
                       info.pStencilAttachment->imageLayout});
  record_attachment_layouts(cb, layouts);
  rp.targets = record_render_targets(cb, targets);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdEndRendering(VkCommandBuffer commandBuffer) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  RenderPassInstance& rp = cb->gfx.instance;
  if (!rp.active || rp.pass) return;
  const mem::LayerSet layers = rp.view_mask ? mem::LayerSet{0, 0, rp.view_mask} : mem::LayerSet{0, rp.layers, 0};
  for (const PendingResolve& r : rp.end_resolves) record_attachment_resolve(cb, r, rp.render_area, layers);
  record_no_render_targets(cb, rp.suspending);
  rp = {};
}
