#pragma once
// What render passes do to attachments outside of draws: load-op clears and vkCmdClearAttachments
// (a rectangle of some layers of a view) and multisample resolves at the end of a subpass or of
// vkCmdBeginRendering. Views are mem::ImageView (already checked against their images); every
// routine clips its rectangle to the view's base mip level, so a bad render area cannot write
// outside the image.
#include <vulkan/vulkan.h>

#include "memory/image_view.h"

namespace kiln::mem {

// Layers of a view an attachment operation touches: [base, base + count), or — when view_mask
// is not 0 (multiview) — the view's layers whose bit is set in view_mask.
struct LayerSet {
  uint32_t base = 0;
  uint32_t count = 1;
  uint32_t view_mask = 0;
};

// Writes `value` into `rect` of the layers of `view`, for the aspects in `aspects` (COLOR, or
// DEPTH and/or STENCIL) that the view has as an attachment (attachment_aspects). Colour values are packed in the view's format, with
// VkClearColorValue's rules (memory/format_pack.h); every sample of a multisampled texel gets the
// value. Returns false when the format cannot be packed (nothing written).
bool clear_view_rect(const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value, const VkRect2D& rect,
                     const LayerSet& layers);

// Resolves `rect` of the layers of multisampled `src` into single-sampled `dst` (same layers).
// `mode` applies to the aspect(s) in `aspect` (COLOR, DEPTH or STENCIL — one bit):
// VK_RESOLVE_MODE_AVERAGE_BIT averages the samples (float-valued formats, through unpack_color so
// sRGB is averaged in linear space), SAMPLE_ZERO takes sample 0, MIN/MAX the extreme. Colour
// resolves pass AVERAGE for float-valued formats and SAMPLE_ZERO for integer ones, as the spec
// requires. A single-sampled `src` is copied. Returns false for formats that cannot be converted.
bool resolve_view_rect(const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect, VkResolveModeFlagBits mode,
                       const VkRect2D& rect, const LayerSet& layers);

// vkCmdResolveImage(2): resolves one region of multisampled colour image `src` into
// single-sampled `dst` of the same format (AVERAGE for float-valued formats, sample 0 for integer
// ones, like colour attachments). resolve_region_valid is the record-time check (formats, aspects,
// sample counts, subresources and rectangles inside both images).
bool resolve_region_valid(const Image& src, const Image& dst, const VkImageResolve2& region);
bool resolve_image(const Image& src, Image& dst, const VkImageResolve2& region);

// The resolve mode of a colour attachment of `format`: AVERAGE for float-valued, SAMPLE_ZERO for
// integer formats.
VkResolveModeFlagBits color_resolve_mode(VkFormat format);

}  // namespace kiln::mem
