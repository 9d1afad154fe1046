// vkCreateRenderPass(2), vkCreateFramebuffer and vkGetRenderAreaGranularity. Both render pass
// create functions fill one RenderPass; what happens at each subpass is worked out here once
// (which attachments are first used where, for their load ops) instead of at every begin.
#include "icd/render_pass.h"

#include <algorithm>

#include "common/log.h"
#include "icd/device.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"
#include "memory/format_table.h"

using namespace kiln;

namespace {

AttachmentReference reference_of(const VkAttachmentReference2* r) {
  if (!r) return {};
  return {r->attachment, r->layout, r->aspectMask};
}
AttachmentReference reference_of(const VkAttachmentReference* r) {
  if (!r) return {};
  return {r->attachment, r->layout, 0};
}

// Every attachment a subpass names, for load-op bookkeeping.
std::vector<uint32_t> used_attachments(const Subpass& s) {
  std::vector<uint32_t> used;
  auto add = [&](const AttachmentReference& r) {
    if (r.attachment != VK_ATTACHMENT_UNUSED) used.push_back(r.attachment);
  };
  for (const auto* list : {&s.inputs, &s.colors, &s.resolves})
    for (const AttachmentReference& r : *list) add(r);
  add(s.depth_stencil);
  add(s.depth_stencil_resolve);
  return used;
}

// Checks references and works out where each attachment (and each of its views) is first used.
// Returns why the render pass cannot be used, or nullptr.
const char* finish(RenderPass* pass) {
  const uint32_t count = static_cast<uint32_t>(pass->attachments.size());
  std::vector<uint32_t> seen_views(count, 0);
  for (Subpass& s : pass->subpasses) {
    if (!s.resolves.empty() && s.resolves.size() != s.colors.size()) return "resolve attachment count differs from colours";
    const uint32_t views = s.view_mask ? s.view_mask : 1u;
    for (uint32_t a : used_attachments(s)) {
      if (a >= count) return "attachment reference out of range";
      const uint32_t fresh = views & ~seen_views[a];
      if (!fresh) continue;
      seen_views[a] |= fresh;
      s.first_uses.emplace_back(a, fresh);
    }
  }
  for (const SubpassDependency& d : pass->dependencies) {
    const uint32_t n = static_cast<uint32_t>(pass->subpasses.size());
    if ((d.src_subpass != VK_SUBPASS_EXTERNAL && d.src_subpass >= n) ||
        (d.dst_subpass != VK_SUBPASS_EXTERNAL && d.dst_subpass >= n))
      return "subpass dependency names a subpass that does not exist";
  }
  return nullptr;
}

VkResult publish(Device* device, RenderPass&& pass, const VkAllocationCallbacks* pAllocator, const char* api,
                 VkRenderPass* out) {
  if (pass.subpasses.empty()) {
    log(LogLevel::Error, "%s: a render pass needs a subpass", api);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (const char* why = finish(&pass)) {
    log(LogLevel::Error, "%s: %s", api, why);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  auto* object = create_object<RenderPass>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                           std::move(pass));
  if (!object) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *out = to_handle<VkRenderPass>(object);
  return VK_SUCCESS;
}

RenderPassAttachment attachment_of(VkFormat format, VkSampleCountFlagBits samples, VkAttachmentLoadOp load,
                                   VkAttachmentStoreOp store, VkAttachmentLoadOp stencil_load,
                                   VkAttachmentStoreOp stencil_store, VkImageLayout initial, VkImageLayout final_layout) {
  return {format, samples, load, stencil_load, store, stencil_store, initial, final_layout};
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateRenderPass(VkDevice handle, const VkRenderPassCreateInfo* pCreateInfo,
                                                                const VkAllocationCallbacks* pAllocator,
                                                                VkRenderPass* pRenderPass) {
  const VkRenderPassCreateInfo& info = *pCreateInfo;
  const auto* multiview = find_in_chain<VkRenderPassMultiviewCreateInfo>(info.pNext);
  const auto* input_aspects = find_in_chain<VkRenderPassInputAttachmentAspectCreateInfo>(info.pNext);
  RenderPass pass;
  for (uint32_t i = 0; i < info.attachmentCount; ++i) {
    const VkAttachmentDescription& a = info.pAttachments[i];
    pass.attachments.push_back(attachment_of(a.format, a.samples, a.loadOp, a.storeOp, a.stencilLoadOp, a.stencilStoreOp,
                                             a.initialLayout, a.finalLayout));
  }
  for (uint32_t i = 0; i < info.subpassCount; ++i) {
    const VkSubpassDescription& d = info.pSubpasses[i];
    Subpass s;
    for (uint32_t j = 0; j < d.inputAttachmentCount; ++j) s.inputs.push_back(reference_of(&d.pInputAttachments[j]));
    for (uint32_t j = 0; j < d.colorAttachmentCount; ++j) {
      s.colors.push_back(reference_of(&d.pColorAttachments[j]));
      if (d.pResolveAttachments) s.resolves.push_back(reference_of(&d.pResolveAttachments[j]));
    }
    s.depth_stencil = reference_of(d.pDepthStencilAttachment);
    s.preserves.assign(d.pPreserveAttachments, d.pPreserveAttachments + d.preserveAttachmentCount);
    if (multiview && i < multiview->subpassCount) s.view_mask = multiview->pViewMasks[i];
    pass.subpasses.push_back(std::move(s));
  }
  for (uint32_t i = 0; input_aspects && i < input_aspects->aspectReferenceCount; ++i) {
    const VkInputAttachmentAspectReference& r = input_aspects->pAspectReferences[i];
    if (r.subpass < pass.subpasses.size() && r.inputAttachmentIndex < pass.subpasses[r.subpass].inputs.size())
      pass.subpasses[r.subpass].inputs[r.inputAttachmentIndex].aspects = r.aspectMask;
  }
  for (uint32_t i = 0; i < info.dependencyCount; ++i) {
    const VkSubpassDependency& d = info.pDependencies[i];
    pass.dependencies.push_back(
        {d.srcSubpass, d.dstSubpass, d.srcStageMask, d.dstStageMask, d.srcAccessMask, d.dstAccessMask, d.dependencyFlags});
  }
  return publish(device_of(handle), std::move(pass), pAllocator, "vkCreateRenderPass", pRenderPass);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateRenderPass2(VkDevice handle, const VkRenderPassCreateInfo2* pCreateInfo,
                                                                 const VkAllocationCallbacks* pAllocator,
                                                                 VkRenderPass* pRenderPass) {
  const VkRenderPassCreateInfo2& info = *pCreateInfo;
  RenderPass pass;
  for (uint32_t i = 0; i < info.attachmentCount; ++i) {
    const VkAttachmentDescription2& a = info.pAttachments[i];
    RenderPassAttachment out = attachment_of(a.format, a.samples, a.loadOp, a.storeOp, a.stencilLoadOp, a.stencilStoreOp,
                                             a.initialLayout, a.finalLayout);
    pass.attachments.push_back(out);
  }
  for (uint32_t i = 0; i < info.subpassCount; ++i) {
    const VkSubpassDescription2& d = info.pSubpasses[i];
    Subpass s;
    for (uint32_t j = 0; j < d.inputAttachmentCount; ++j) s.inputs.push_back(reference_of(&d.pInputAttachments[j]));
    for (uint32_t j = 0; j < d.colorAttachmentCount; ++j) {
      s.colors.push_back(reference_of(&d.pColorAttachments[j]));
      if (d.pResolveAttachments) s.resolves.push_back(reference_of(&d.pResolveAttachments[j]));
    }
    s.depth_stencil = reference_of(d.pDepthStencilAttachment);
    if (const auto* r = find_in_chain<VkSubpassDescriptionDepthStencilResolve>(d.pNext)) {
      s.depth_stencil_resolve = reference_of(r->pDepthStencilResolveAttachment);
      s.depth_resolve_mode = r->depthResolveMode;
      s.stencil_resolve_mode = r->stencilResolveMode;
    }
    if (const auto* m = find_in_chain<VkMultisampledRenderToSingleSampledInfoEXT>(d.pNext);
        m && m->multisampledRenderToSingleSampledEnable)
      s.implicit_samples = m->rasterizationSamples;
    s.preserves.assign(d.pPreserveAttachments, d.pPreserveAttachments + d.preserveAttachmentCount);
    s.view_mask = d.viewMask;
    pass.subpasses.push_back(std::move(s));
  }
  for (uint32_t i = 0; i < info.dependencyCount; ++i) {
    const VkSubpassDependency2& d = info.pDependencies[i];
    SubpassDependency out{d.srcSubpass,    d.dstSubpass,    d.srcStageMask,    d.dstStageMask,
                          d.srcAccessMask, d.dstAccessMask, d.dependencyFlags};
    // A VkMemoryBarrier2 in the chain replaces the dependency's own masks (synchronization2).
    if (const auto* b = find_in_chain<VkMemoryBarrier2>(d.pNext)) {
      out.src_stages = b->srcStageMask;
      out.dst_stages = b->dstStageMask;
      out.src_access = b->srcAccessMask;
      out.dst_access = b->dstAccessMask;
    }
    pass.dependencies.push_back(out);
  }
  return publish(device_of(handle), std::move(pass), pAllocator, "vkCreateRenderPass2", pRenderPass);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyRenderPass(VkDevice handle, VkRenderPass renderPass,
                                                             const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), render_pass_of(renderPass));
}

// Kiln's attachments are linear memory: any render area is as fast as any other.
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetRenderAreaGranularity(VkDevice, VkRenderPass, VkExtent2D* pGranularity) {
  *pGranularity = {1, 1};
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateFramebuffer(VkDevice handle, const VkFramebufferCreateInfo* pCreateInfo,
                                                                 const VkAllocationCallbacks* pAllocator,
                                                                 VkFramebuffer* pFramebuffer) {
  Device* device = device_of(handle);
  const VkFramebufferCreateInfo& info = *pCreateInfo;
  auto* fb = create_object<Framebuffer>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!fb) return VK_ERROR_OUT_OF_HOST_MEMORY;
  fb->width = info.width;
  fb->height = info.height;
  fb->layers = info.layers;
  fb->imageless = (info.flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) != 0;
  if (!fb->imageless)
    for (uint32_t i = 0; i < info.attachmentCount; ++i) fb->views.push_back(from_handle<mem::ImageView>(info.pAttachments[i]));
  *pFramebuffer = to_handle<VkFramebuffer>(fb);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyFramebuffer(VkDevice handle, VkFramebuffer framebuffer,
                                                              const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), framebuffer_of(framebuffer));
}
