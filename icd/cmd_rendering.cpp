// vkCmdBeginRendering / vkCmdEndRendering (dynamic rendering, core 1.3): one render pass
// instance whose attachments come with the begin info. RESUMING instances skip their load ops and
// SUSPENDING ones their resolves: together the pieces behave as one instance. With
// VK_EXT_multisampled_render_to_single_sampled, single-sampled attachments are drawn into
// implicit multisampled images (icd/implicit_attachments.h); a suspension resolves them and the
// resumption loads them again (the spec lets the multisampled contents go at the split).
#include "common/log.h"
#include "icd/attachment_commands.h"
#include "icd/implicit_attachments.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

const mem::ImageView* view_of(VkImageView handle) { return from_handle<mem::ImageView>(handle); }

struct RenderingOps {
  bool resuming, suspending;
  VkSampleCountFlagBits implicit_samples;  // VK_SAMPLE_COUNT_1_BIT: no implicit images
  mem::LayerSet layers;
};

// An attachment's (colour, depth or stencil) target, load op and resolve; returns the target.
const mem::ImageView* add_attachment(CommandBuffer* cb, const VkRenderingAttachmentInfo& a, VkImageAspectFlagBits aspect,
                                     const RenderingOps& in) {
  RenderPassInstance& rp = cb->gfx.instance;
  const mem::ImageView* view = view_of(a.imageView);
  const mem::ImageView* target = view;
  if (in.implicit_samples != VK_SAMPLE_COUNT_1_BIT && view->image->desc.samples == VK_SAMPLE_COUNT_1_BIT)
    target = implicit_target(cb, view, in.implicit_samples);
  if (target != view) {
    const bool load = a.loadOp == VK_ATTACHMENT_LOAD_OP_LOAD || a.loadOp == VK_ATTACHMENT_LOAD_OP_NONE_EXT;
    if (!in.resuming && a.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      record_attachment_clear(cb, target, aspect, a.clearValue, rp.render_area, in.layers);
    else if (in.resuming || load)
      record_implicit_load(cb, target, aspect, rp.render_area, in.layers);
    // resolveMode says how the implicit image resolves into the attachment (resolveImageView is null).
    if (in.suspending || a.storeOp == VK_ATTACHMENT_STORE_OP_STORE)
      rp.end_resolves.push_back({target, view, aspect, a.resolveMode});
    return target;
  }
  if (!in.resuming && a.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
    record_attachment_clear(cb, target, aspect, a.clearValue, rp.render_area, in.layers);
  if (!in.suspending && a.resolveMode != VK_RESOLVE_MODE_NONE && a.resolveImageView)
    rp.end_resolves.push_back({target, view_of(a.resolveImageView), aspect, a.resolveMode});
  return target;
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
  RenderingOps in{};
  in.resuming = info.flags & VK_RENDERING_RESUMING_BIT;
  in.suspending = info.flags & VK_RENDERING_SUSPENDING_BIT;
  in.layers = info.viewMask ? mem::LayerSet{0, 0, info.viewMask} : mem::LayerSet{0, info.layerCount, 0};
  const auto* implicit = find_in_chain<VkMultisampledRenderToSingleSampledInfoEXT>(info.pNext);
  in.implicit_samples = implicit && implicit->multisampledRenderToSingleSampledEnable ? implicit->rasterizationSamples
                                                                                      : VK_SAMPLE_COUNT_1_BIT;
  rp.suspending = in.suspending;

  exec::RenderTargets targets;
  if (info.colorAttachmentCount > abi::kMaxColorAttachments)
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdBeginRendering: %u colour attachments; only %u used", info.colorAttachmentCount,
                  abi::kMaxColorAttachments);
  targets.color_count = std::min(info.colorAttachmentCount, abi::kMaxColorAttachments);
  // Strict mode: each attachment is used in the layout its info names.
  std::vector<AttachmentLayouts> layouts;
  for (uint32_t i = 0; i < targets.color_count; ++i) {
    const VkRenderingAttachmentInfo& a = info.pColorAttachments[i];
    if (!a.imageView) continue;
    targets.color[i] = add_attachment(cb, a, VK_IMAGE_ASPECT_COLOR_BIT, in);
    layouts.push_back({view_of(a.imageView), VK_IMAGE_ASPECT_COLOR_BIT, a.imageLayout, a.imageLayout});
  }
  if (const VkRenderingAttachmentInfo* a = info.pDepthAttachment; a && a->imageView) {
    targets.depth = add_attachment(cb, *a, VK_IMAGE_ASPECT_DEPTH_BIT, in);
    layouts.push_back({view_of(a->imageView), VK_IMAGE_ASPECT_DEPTH_BIT, a->imageLayout, a->imageLayout});
  }
  if (const VkRenderingAttachmentInfo* a = info.pStencilAttachment; a && a->imageView) {
    targets.stencil = add_attachment(cb, *a, VK_IMAGE_ASPECT_STENCIL_BIT, in);
    layouts.push_back({view_of(a->imageView), VK_IMAGE_ASPECT_STENCIL_BIT, a->imageLayout, a->imageLayout});
  }
  targets.render_area = info.renderArea;
  targets.layer_count = info.layerCount;
  targets.view_mask = info.viewMask;
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
  release_implicit_targets(cb);
  rp = {};
}
