#include "pipeline/strict/layout_tracker.h"

#include "memory/transfer.h"

namespace kiln::exec::strict {
namespace {

constexpr VkImageAspectFlagBits kAspects[] = {VK_IMAGE_ASPECT_COLOR_BIT,   VK_IMAGE_ASPECT_DEPTH_BIT,
                                              VK_IMAGE_ASPECT_STENCIL_BIT, VK_IMAGE_ASPECT_PLANE_0_BIT,
                                              VK_IMAGE_ASPECT_PLANE_1_BIT, VK_IMAGE_ASPECT_PLANE_2_BIT};
constexpr uint32_t kAspectCount = sizeof kAspects / sizeof kAspects[0];

}  // namespace

const char* layout_name(VkImageLayout layout) {
  switch (layout) {
#define KILN_LAYOUT(name) \
  case VK_IMAGE_LAYOUT_##name: return "VK_IMAGE_LAYOUT_" #name;
    KILN_LAYOUT(UNDEFINED)
    KILN_LAYOUT(GENERAL)
    KILN_LAYOUT(COLOR_ATTACHMENT_OPTIMAL)
    KILN_LAYOUT(DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
    KILN_LAYOUT(DEPTH_STENCIL_READ_ONLY_OPTIMAL)
    KILN_LAYOUT(SHADER_READ_ONLY_OPTIMAL)
    KILN_LAYOUT(TRANSFER_SRC_OPTIMAL)
    KILN_LAYOUT(TRANSFER_DST_OPTIMAL)
    KILN_LAYOUT(PREINITIALIZED)
    KILN_LAYOUT(DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL)
    KILN_LAYOUT(DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL)
    KILN_LAYOUT(DEPTH_ATTACHMENT_OPTIMAL)
    KILN_LAYOUT(DEPTH_READ_ONLY_OPTIMAL)
    KILN_LAYOUT(STENCIL_ATTACHMENT_OPTIMAL)
    KILN_LAYOUT(STENCIL_READ_ONLY_OPTIMAL)
    KILN_LAYOUT(READ_ONLY_OPTIMAL)
    KILN_LAYOUT(ATTACHMENT_OPTIMAL)
    KILN_LAYOUT(PRESENT_SRC_KHR)
    KILN_LAYOUT(SHARED_PRESENT_KHR)
    KILN_LAYOUT(ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT)
#undef KILN_LAYOUT
    default: return "(another layout)";
  }
}

VkImageLayout layout_for_aspect(VkImageLayout layout, VkImageAspectFlagBits aspect) {
  const bool depth = aspect == VK_IMAGE_ASPECT_DEPTH_BIT, stencil = aspect == VK_IMAGE_ASPECT_STENCIL_BIT;
  switch (layout) {
    case VK_IMAGE_LAYOUT_ATTACHMENT_OPTIMAL:
      return depth ? VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL
             : stencil ? VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL
                       : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    case VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL:
      return depth ? VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL
             : stencil ? VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL
                       : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL:
      return depth ? VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL : stencil ? VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL : layout;
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL:
      return depth ? VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL : stencil ? VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL : layout;
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL:
      return depth ? VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL : stencil ? VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL : layout;
    case VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL:
      return depth ? VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL : stencil ? VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL : layout;
    default:
      return layout;
  }
}

template <typename Fn>
void LayoutTracker::for_each(const mem::Image& image, const VkImageSubresourceRange& range, Fn&& fn) {
  const VkImageSubresourceRange r = mem::resolve_range(image, range);
  const uint32_t mips = image.desc.mip_levels, layers = image.desc.array_layers;
  for (uint32_t a = 0; a < kAspectCount; ++a) {
    if (!(r.aspectMask & kAspects[a])) continue;
    for (uint32_t mip = r.baseMipLevel; mip < r.baseMipLevel + r.levelCount && mip < mips; ++mip)
      for (uint32_t layer = r.baseArrayLayer; layer < r.baseArrayLayer + r.layerCount && layer < layers; ++layer)
        fn(kAspects[a], mip, layer, (size_t(a) * mips + mip) * layers + layer);
  }
}

void LayoutTracker::check(const mem::Image& image, const VkImageSubresourceRange& range, VkImageLayout layout,
                          std::vector<LayoutMismatch>* out) const {
  const auto it = layouts_.find(&image);
  if (it == layouts_.end() || layout == kUnknownLayout) return;
  bool found = false;
  for_each(image, range, [&](VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer, size_t index) {
    const Entry& e = it->second[index];
    if (found || e.layout == kUnknownLayout) return;
    if (layout_for_aspect(e.layout, aspect) != layout_for_aspect(layout, aspect)) {
      out->push_back({&image, aspect, mip, layer, layout, e.layout, e.set_by});
      found = true;
    }
  });
}

void LayoutTracker::set(const mem::Image& image, const VkImageSubresourceRange& range, VkImageLayout layout,
                        const char* command) {
  std::vector<Entry>& entries = layouts_[&image];
  entries.resize(size_t(kAspectCount) * image.desc.mip_levels * image.desc.array_layers);
  for_each(image, range, [&](VkImageAspectFlagBits, uint32_t, uint32_t, size_t index) { entries[index] = {layout, command}; });
}

}  // namespace kiln::exec::strict
