#pragma once
// Strict mode's image layout tracking: the layout each image subresource is in, as barriers and
// render passes leave it, checked against the layout every command names for it (a copy's
// srcImageLayout, a barrier's oldLayout, a render pass's initialLayout, ...). Equivalent names
// count as one (ATTACHMENT_OPTIMAL is COLOR_ATTACHMENT_OPTIMAL for a colour aspect; the depth and
// stencil halves of the combined depth/stencil layouts are compared per aspect).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "memory/resources.h"

namespace kiln::exec::strict {

// Stands for "not known" (an image never transitioned, or an aspect a render pass leaves in a
// layout Kiln did not record): never reported.
constexpr VkImageLayout kUnknownLayout = VK_IMAGE_LAYOUT_MAX_ENUM;

struct LayoutMismatch {
  const mem::Image* image;
  VkImageAspectFlagBits aspect;
  uint32_t mip, layer;
  VkImageLayout named, current;
  const char* set_by;  // the command that put it in `current`
};

class LayoutTracker {
 public:
  // A command names `layout` for these subresources: the first one in another layout is appended.
  void check(const mem::Image& image, const VkImageSubresourceRange& range, VkImageLayout layout,
             std::vector<LayoutMismatch>* out) const;
  // They are now in `layout` (kUnknownLayout: stop checking them), put there by `command`.
  void set(const mem::Image& image, const VkImageSubresourceRange& range, VkImageLayout layout, const char* command);
  // The image is destroyed (another may get its address).
  void forget(const mem::Image* image) { layouts_.erase(image); }

 private:
  struct Entry {
    VkImageLayout layout = kUnknownLayout;
    const char* set_by = "";
  };
  template <typename Fn>
  static void for_each(const mem::Image& image, const VkImageSubresourceRange& range, Fn&& fn);
  std::unordered_map<const mem::Image*, std::vector<Entry>> layouts_;
};

// "VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL", for reports.
const char* layout_name(VkImageLayout layout);

// The layout `layout` means for `aspect` (combined and generic names resolved).
VkImageLayout layout_for_aspect(VkImageLayout layout, VkImageAspectFlagBits aspect);

}  // namespace kiln::exec::strict
