// vkCmdBeginRenderPass(2), vkCmdNextSubpass(2), vkCmdEndRenderPass(2). Each subpass records: the
// barrier cuts of the dependencies into it, its render targets, and the load-op clears of the
// attachments (and, under multiview, the views) it uses first; its end records the resolves.
// Store ops need no work: attachments are memory, and DONT_CARE may keep the contents.
#include "common/log.h"
#include "icd/attachment_commands.h"
#include "icd/implicit_attachments.h"
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

// The view draws of the current subpass render to for `attachment`: its own, or with
// VK_EXT_multisampled_render_to_single_sampled an implicit multisampled image for a
// single-sampled one.
const mem::ImageView* target_of(CommandBuffer* cb, uint32_t attachment) {
  RenderPassInstance& rp = cb->gfx.instance;
  const mem::ImageView* view = view_at(rp, attachment);
  const VkSampleCountFlagBits samples = rp.pass->subpasses[rp.subpass].implicit_samples;
  if (!view || samples == VK_SAMPLE_COUNT_1_BIT || rp.pass->attachments[attachment].samples != VK_SAMPLE_COUNT_1_BIT)
    return view;
  return implicit_target(cb, view, samples);
}

bool redirected(const RenderPassInstance& rp, const mem::ImageView* view) {
  for (const ImplicitTarget& t : rp.implicit)
    if (t.single == view) return true;
  return false;
}

uint32_t attachment_of(const RenderPassInstance& rp, const mem::ImageView* view) {
  for (uint32_t a = 0; a < rp.views.size(); ++a)
    if (rp.views[a] == view) return a;
  return VK_ATTACHMENT_UNUSED;
}

// The load ops of the subpass's implicit images: on an attachment's first use, a CLEAR clears the
// implicit image and LOAD (or NONE) copies the attachment into every sample; in a later subpass
// every aspect is copied in (its multisampled contents ended with the subpass before).
void load_implicit_targets(CommandBuffer* cb, const Subpass& s) {
  RenderPassInstance& rp = cb->gfx.instance;
  for (const ImplicitTarget& t : rp.implicit) {
    const uint32_t attachment = attachment_of(rp, t.single);
    const RenderPassAttachment& a = rp.pass->attachments[attachment];
    const VkImageAspectFlags all = mem::attachment_aspects(*t.single);
    uint32_t first_views = 0;
    bool first = false;
    for (const auto& [used, views] : s.first_uses)
      if (used == attachment) first = true, first_views = views;
    if (first) {
      const mem::LayerSet layers = layers_of(rp, s.view_mask ? first_views : 0);
      const VkImageAspectFlags cleared = cleared_aspects(a.format, a.load_op, a.stencil_load_op);
      const bool keep = a.load_op == VK_ATTACHMENT_LOAD_OP_LOAD || a.load_op == VK_ATTACHMENT_LOAD_OP_NONE_EXT;
      const bool keep_stencil =
          a.stencil_load_op == VK_ATTACHMENT_LOAD_OP_LOAD || a.stencil_load_op == VK_ATTACHMENT_LOAD_OP_NONE_EXT;
      const VkImageAspectFlags loaded = all & ((keep ? VK_IMAGE_ASPECT_COLOR_BIT | VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                               (keep_stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0));
      if (cleared && attachment < rp.clear_values.size())
        record_attachment_clear(cb, t.implicit, cleared, rp.clear_values[attachment], rp.render_area, layers);
      record_implicit_load(cb, t.implicit, loaded, rp.render_area, layers);
      // Views of a multiview subpass used in an earlier subpass keep what they had.
      if (s.view_mask & ~first_views) record_implicit_load(cb, t.implicit, all, rp.render_area, layers_of(rp, s.view_mask & ~first_views));
    } else {
      record_implicit_load(cb, t.implicit, all, rp.render_area, layers_of(rp, s.view_mask));
    }
  }
}

bool used_after(const RenderPass& pass, uint32_t subpass, uint32_t attachment) {
  for (uint32_t i = subpass + 1; i < pass.subpasses.size(); ++i) {
    const Subpass& s = pass.subpasses[i];
    if (s.depth_stencil.attachment == attachment) return true;
    for (const std::vector<AttachmentReference>* refs : {&s.colors, &s.inputs, &s.resolves})
      for (const AttachmentReference& r : *refs)
        if (r.attachment == attachment) return true;
  }
  return false;
}

// The store ops of the subpass's implicit images: each aspect that is stored, or used again by a
// later subpass, is resolved into the attachment (colour by its format's mode, depth and stencil
// by the subpass's VkSubpassDescriptionDepthStencilResolve modes).
void store_implicit_targets(CommandBuffer* cb, const Subpass& s) {
  RenderPassInstance& rp = cb->gfx.instance;
  const mem::LayerSet layers = layers_of(rp, s.view_mask);
  for (const ImplicitTarget& t : rp.implicit) {
    const uint32_t attachment = attachment_of(rp, t.single);
    const RenderPassAttachment& a = rp.pass->attachments[attachment];
    const bool later = used_after(*rp.pass, rp.subpass, attachment);
    const bool store = later || a.store_op == VK_ATTACHMENT_STORE_OP_STORE;
    const bool store_stencil = later || a.stencil_store_op == VK_ATTACHMENT_STORE_OP_STORE;
    const VkImageAspectFlags aspects = mem::attachment_aspects(*t.single);
    if ((aspects & VK_IMAGE_ASPECT_COLOR_BIT) && store)
      record_attachment_resolve(cb, {t.implicit, t.single, VK_IMAGE_ASPECT_COLOR_BIT, mem::color_resolve_mode(a.format)},
                                rp.render_area, layers);
    if ((aspects & VK_IMAGE_ASPECT_DEPTH_BIT) && store)
      record_attachment_resolve(cb, {t.implicit, t.single, VK_IMAGE_ASPECT_DEPTH_BIT, s.depth_resolve_mode}, rp.render_area,
                                layers);
    if ((aspects & VK_IMAGE_ASPECT_STENCIL_BIT) && store_stencil)
      record_attachment_resolve(cb, {t.implicit, t.single, VK_IMAGE_ASPECT_STENCIL_BIT, s.stencil_resolve_mode},
                                rp.render_area, layers);
  }
  release_implicit_targets(cb);
}

void begin_subpass(CommandBuffer* cb) {
  RenderPassInstance& rp = cb->gfx.instance;
  const RenderPass& pass = *rp.pass;
  const Subpass& s = pass.subpasses[rp.subpass];
  record_dependencies_into(cb, pass, rp.subpass);

  exec::RenderTargets targets;
  targets.color_count = std::min<uint32_t>(static_cast<uint32_t>(s.colors.size()), abi::kMaxColorAttachments);
  for (uint32_t i = 0; i < targets.color_count; ++i) targets.color[i] = target_of(cb, s.colors[i].attachment);
  if (const mem::ImageView* ds = target_of(cb, s.depth_stencil.attachment)) {
    const fmt::FormatInfo* info = fmt::format_info(ds->format);
    if (info && info->has_depth()) targets.depth = ds;
    if (info && info->has_stencil()) targets.stencil = ds;
  }
  targets.render_area = rp.render_area;
  targets.layer_count = rp.layers;
  targets.view_mask = s.view_mask;
  rp.targets = record_render_targets(cb, targets);
  load_implicit_targets(cb, s);

  for (const auto& [attachment, views] : s.first_uses) {
    const RenderPassAttachment& a = pass.attachments[attachment];
    if (redirected(rp, view_at(rp, attachment))) continue;  // its implicit image was loaded above
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
  store_implicit_targets(cb, s);
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
