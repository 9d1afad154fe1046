// vkCmdBeginRenderPass(2), vkCmdNextSubpass(2), vkCmdEndRenderPass(2). Each subpass records: the
// barrier cuts of the dependencies into it, its render targets, and the load-op clears of the
// attachments (and, under multiview, the views) it uses first; its end records the resolves.
// Store ops need no work: attachments are memory, and DONT_CARE may keep the contents.
#include "common/log.h"
#include "icd/attachment_commands.h"
#include "icd/render_pass.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"
#include "memory/attachment_ops.h"
#include "memory/format_table.h"

using namespace kiln;

namespace {

const mem::ImageView* view_at(const RenderPassInstance& rp, uint32_t attachment) {
  return attachment < rp.views.size() ? rp.views[attachment] : nullptr;
}

void record_dependencies_into(CommandBuffer* cb, const RenderPass& pass, uint32_t dst_subpass) {
  for (const SubpassDependency& d : pass.dependencies) {
    if (d.dst_subpass != dst_subpass || d.src_subpass == d.dst_subpass) continue;
    const exec::MemoryDependency masks{d.src_stages, d.dst_stages, d.src_access, d.dst_access};
    auto* cmd = cb->commands->append<exec::BarrierCmd>();
    cmd->src_stages = d.src_stages;
    cmd->dst_stages = d.dst_stages;
    cmd->dependencies.memory_count = 1;
    cmd->dependencies.memory = cb->commands->copy_array(&masks, 1);
  }
}

mem::LayerSet layers_of(const RenderPassInstance& rp, uint32_t view_mask) {
  return view_mask ? mem::LayerSet{0, 0, view_mask} : mem::LayerSet{0, rp.layers, 0};
}

void begin_subpass(CommandBuffer* cb) {
  RenderPassInstance& rp = cb->gfx.instance;
  const RenderPass& pass = *rp.pass;
  const Subpass& s = pass.subpasses[rp.subpass];
  record_dependencies_into(cb, pass, rp.subpass);

  exec::RenderTargets targets;
  targets.color_count = std::min<uint32_t>(static_cast<uint32_t>(s.colors.size()), abi::kMaxColorAttachments);
  for (uint32_t i = 0; i < targets.color_count; ++i) targets.color[i] = view_at(rp, s.colors[i].attachment);
  if (const mem::ImageView* ds = view_at(rp, s.depth_stencil.attachment)) {
    const fmt::FormatInfo* info = fmt::format_info(ds->format);
    if (info && info->has_depth()) targets.depth = ds;
    if (info && info->has_stencil()) targets.stencil = ds;
  }
  targets.render_area = rp.render_area;
  targets.layer_count = rp.layers;
  targets.view_mask = s.view_mask;
  rp.targets = record_render_targets(cb, targets);

  for (const auto& [attachment, views] : s.first_uses) {
    const RenderPassAttachment& a = pass.attachments[attachment];
    const VkImageAspectFlags aspects = cleared_aspects(a.format, a.load_op, a.stencil_load_op);
    if (!aspects) continue;
    if (attachment >= rp.clear_values.size()) {
      KILN_LOG_ONCE(LogLevel::Error, "vkCmdBeginRenderPass: no clear value for attachment %u; not cleared", attachment);
      continue;
    }
    record_attachment_clear(cb, view_at(rp, attachment), aspects, rp.clear_values[attachment], rp.render_area,
                            layers_of(rp, s.view_mask ? views : 0));
  }
}

void end_subpass(CommandBuffer* cb) {
  RenderPassInstance& rp = cb->gfx.instance;
  const RenderPass& pass = *rp.pass;
  const Subpass& s = pass.subpasses[rp.subpass];
  const mem::LayerSet layers = layers_of(rp, s.view_mask);
  for (size_t i = 0; i < s.resolves.size(); ++i) {
    const uint32_t src = s.colors[i].attachment, dst = s.resolves[i].attachment;
    if (src == VK_ATTACHMENT_UNUSED || dst == VK_ATTACHMENT_UNUSED) continue;
    record_attachment_resolve(cb, {view_at(rp, src), view_at(rp, dst), VK_IMAGE_ASPECT_COLOR_BIT,
                                   mem::color_resolve_mode(pass.attachments[src].format)},
                              rp.render_area, layers);
  }
  const uint32_t ds = s.depth_stencil.attachment, ds_resolve = s.depth_stencil_resolve.attachment;
  if (ds != VK_ATTACHMENT_UNUSED && ds_resolve != VK_ATTACHMENT_UNUSED) {
    const fmt::FormatInfo* info = fmt::format_info(pass.attachments[ds].format);
    if (info && info->has_depth())
      record_attachment_resolve(cb, {view_at(rp, ds), view_at(rp, ds_resolve), VK_IMAGE_ASPECT_DEPTH_BIT, s.depth_resolve_mode},
                                rp.render_area, layers);
    if (info && info->has_stencil())
      record_attachment_resolve(cb, {view_at(rp, ds), view_at(rp, ds_resolve), VK_IMAGE_ASPECT_STENCIL_BIT, s.stencil_resolve_mode},
                                rp.render_area, layers);
  }
}

void begin_render_pass(CommandBuffer* cb, const VkRenderPassBeginInfo& info) {
  RenderPassInstance& rp = cb->gfx.instance;
  rp = {};
  const RenderPass* pass = render_pass_of(info.renderPass);
  const Framebuffer* fb = framebuffer_of(info.framebuffer);
  rp.pass = pass;
  rp.layers = fb->layers;
  rp.render_area = info.renderArea;
  if (fb->imageless) {
    const auto* begin = find_in_chain<VkRenderPassAttachmentBeginInfo>(info.pNext);
    for (uint32_t i = 0; begin && i < begin->attachmentCount; ++i)
      rp.views.push_back(from_handle<mem::ImageView>(begin->pAttachments[i]));
  } else {
    rp.views = fb->views;
  }
  if (rp.views.size() < pass->attachments.size()) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdBeginRenderPass: %zu views for %zu attachments; render pass skipped",
                  rp.views.size(), pass->attachments.size());
    rp = {};
    return;
  }
  rp.clear_values.assign(info.pClearValues, info.pClearValues + info.clearValueCount);
  // Strict mode: each attachment goes from its initialLayout to its finalLayout over the instance.
  // The stencil aspect may have layouts of its own (VkAttachmentDescriptionStencilLayout), which
  // Kiln does not keep: it becomes "unknown".
  std::vector<AttachmentLayouts> layouts;
  for (size_t i = 0; i < pass->attachments.size(); ++i) {
    const RenderPassAttachment& a = pass->attachments[i];
    const VkImageAspectFlags aspects = rp.views[i] ? mem::attachment_aspects(*rp.views[i]) : 0;
    layouts.push_back({rp.views[i], aspects & ~VkImageAspectFlags(VK_IMAGE_ASPECT_STENCIL_BIT), a.initial_layout, a.final_layout});
    if (aspects & VK_IMAGE_ASPECT_STENCIL_BIT)
      layouts.push_back({rp.views[i], VK_IMAGE_ASPECT_STENCIL_BIT, VK_IMAGE_LAYOUT_UNDEFINED, exec::strict::kUnknownLayout});
  }
  record_attachment_layouts(cb, layouts);
  rp.active = true;
  rp.subpass = 0;
  begin_subpass(cb);
}

void next_subpass(CommandBuffer* cb) {
  RenderPassInstance& rp = cb->gfx.instance;
  if (!rp.active || !rp.pass || rp.subpass + 1 >= rp.pass->subpasses.size()) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdNextSubpass: no further subpass; ignored");
    return;
  }
  end_subpass(cb);
  ++rp.subpass;
  begin_subpass(cb);
}

void end_render_pass(CommandBuffer* cb) {
  RenderPassInstance& rp = cb->gfx.instance;
  if (!rp.active || !rp.pass) return;
  end_subpass(cb);
  record_dependencies_into(cb, *rp.pass, VK_SUBPASS_EXTERNAL);
  record_no_render_targets(cb);
  rp = {};
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBeginRenderPass(VkCommandBuffer commandBuffer,
                                                              const VkRenderPassBeginInfo* pRenderPassBegin,
                                                              VkSubpassContents) {
  begin_render_pass(command_buffer_of(commandBuffer), *pRenderPassBegin);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBeginRenderPass2(VkCommandBuffer commandBuffer,
                                                               const VkRenderPassBeginInfo* pRenderPassBegin,
                                                               const VkSubpassBeginInfo*) {
  begin_render_pass(command_buffer_of(commandBuffer), *pRenderPassBegin);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdNextSubpass(VkCommandBuffer commandBuffer, VkSubpassContents) {
  next_subpass(command_buffer_of(commandBuffer));
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdNextSubpass2(VkCommandBuffer commandBuffer, const VkSubpassBeginInfo*,
                                                           const VkSubpassEndInfo*) {
  next_subpass(command_buffer_of(commandBuffer));
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdEndRenderPass(VkCommandBuffer commandBuffer) {
  end_render_pass(command_buffer_of(commandBuffer));
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdEndRenderPass2(VkCommandBuffer commandBuffer, const VkSubpassEndInfo*) {
  end_render_pass(command_buffer_of(commandBuffer));
}
