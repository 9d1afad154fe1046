#pragma once
// Copies, fills and clears between buffers and images: the work behind Vulkan's transfer
// commands. Every routine trusts that the icd layer checked the regions against the resources
// (out-of-range regions are clipped there, never here).
#include <vulkan/vulkan.h>

#include "memory/resources.h"

namespace kiln::mem {

// Large transfers are split across worker threads: each routine does part `index` of `count`
// equal shares of its work (byte ranges or rows), and the parts together do all of it.
struct WorkPart {
  uint32_t index = 0;
  uint32_t count = 1;
};

void copy_buffer(const Buffer& src, Buffer& dst, const VkBufferCopy2& region, WorkPart part = {});
// `size` is a multiple of 4 (or the rest of the buffer rounded down), as vkCmdFillBuffer defines.
void fill_buffer(Buffer& dst, VkDeviceSize offset, VkDeviceSize size, uint32_t data, WorkPart part = {});
void update_buffer(Buffer& dst, VkDeviceSize offset, VkDeviceSize size, const void* data);

enum class CopyDirection { BufferToImage, ImageToBuffer };
void copy_buffer_image(Buffer& buffer, Image& image, const VkBufferImageCopy2& region, CopyDirection direction,
                       WorkPart part = {});

void copy_image(const Image& src, Image& dst, const VkImageCopy2& region, WorkPart part = {});

// Returns false when the format cannot be packed (then nothing is written).
bool clear_color_image(Image& image, const VkClearColorValue& color, const VkImageSubresourceRange& range,
                       WorkPart part = {});
bool clear_depth_stencil_image(Image& image, const VkClearDepthStencilValue& value, const VkImageSubresourceRange& range,
                               WorkPart part = {});

// Bounds checks the icd layer runs at record time, so a bad region is dropped (and logged)
// instead of touching memory outside a resource.
bool buffer_copy_in_bounds(const Buffer& src, const Buffer& dst, const VkBufferCopy2& region);
bool buffer_image_copy_in_bounds(const Buffer& buffer, const Image& image, const VkBufferImageCopy2& region);
// One past the last buffer byte a (bounds-checked) buffer-image copy region touches.
VkDeviceSize buffer_image_copy_end(const Image& image, const VkBufferImageCopy2& region);
bool image_copy_in_bounds(const Image& src, const Image& dst, const VkImageCopy2& region);
bool range_in_bounds(const Image& image, const VkImageSubresourceRange& range);

// Resolves VK_REMAINING_MIP_LEVELS / VK_REMAINING_ARRAY_LAYERS against the image.
VkImageSubresourceRange resolve_range(const Image& image, const VkImageSubresourceRange& range);

}  // namespace kiln::mem
