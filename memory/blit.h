#pragma once
// vkCmdBlitImage: scaled copies with format conversion through four-component values
// (memory/texel_access.h), nearest or linear filtering, flips by reversed offsets, 3D images.
#include <vulkan/vulkan.h>

#include "memory/resources.h"
#include "memory/transfer.h"

namespace kiln::mem {

// Blits one region; `filter` is VK_FILTER_NEAREST or VK_FILTER_LINEAR. Part `part` of the
// destination rows. The region must have passed blit_region_valid.
void blit_image(const Image& src, Image& dst, const VkImageBlit2& region, VkFilter filter, WorkPart part = {});

// What the icd layer checks at record time so that a blit never touches memory outside either
// image or runs a filter/format combination Kiln does not implement: subresources and offsets
// inside the images, matching layer counts, a single aspect set shared by both images,
// compressed destinations refused, and LINEAR only for float-valued colour formats.
bool blit_region_valid(const Image& src, const Image& dst, const VkImageBlit2& region, VkFilter filter);

// Destination rows (over all layers and depth slices) of a region, for splitting the work.
uint64_t blit_row_count(const VkImageBlit2& region, const Image& dst);

}  // namespace kiln::mem
