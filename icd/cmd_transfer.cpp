// Recording of transfer commands: copies, fills, updates and clears (both the original and the
// `*2` forms; the originals are converted to the `*2` structs so one path records both).
#include <vector>

#include "common/log.h"
#include "icd/command_buffer.h"
#include "kiln_entrypoints.h"
#include "memory/attachment_ops.h"
#include "memory/blit.h"
#include "memory/transfer.h"

using namespace kiln;

namespace {

// Copies the regions that pass `in_bounds` into the command list (pNext cleared: the app's
// chain is gone by execution time); logs once about any that do not.
template <typename Region, typename InBounds>
const Region* keep_valid_regions(CommandBuffer* cb, const char* command, const Region* regions, uint32_t count,
                                 uint32_t* kept, InBounds in_bounds) {
  std::vector<Region> valid;
  valid.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (!in_bounds(regions[i])) {
      KILN_LOG_ONCE(LogLevel::Error, "%s: region %u is outside its resources and is skipped", command, i);
      continue;
    }
    valid.push_back(regions[i]);
    valid.back().pNext = nullptr;
  }
  *kept = static_cast<uint32_t>(valid.size());
  return cb->commands->copy_array(valid.data(), valid.size());
}

void record_copy_buffer(CommandBuffer* cb, const VkCopyBufferInfo2& info) {
  auto* src = from_handle<mem::Buffer>(info.srcBuffer);
  auto* dst = from_handle<mem::Buffer>(info.dstBuffer);
  auto* cmd = cb->commands->append<exec::CopyBufferCmd>();
  cmd->src = src;
  cmd->dst = dst;
  cmd->regions = keep_valid_regions(cb, "vkCmdCopyBuffer", info.pRegions, info.regionCount, &cmd->region_count,
                                    [&](const VkBufferCopy2& r) { return mem::buffer_copy_in_bounds(*src, *dst, r); });
}

void record_copy_image(CommandBuffer* cb, const VkCopyImageInfo2& info) {
  auto* src = from_handle<mem::Image>(info.srcImage);
  auto* dst = from_handle<mem::Image>(info.dstImage);
  auto* cmd = cb->commands->append<exec::CopyImageCmd>();
  cmd->src = src;
  cmd->dst = dst;
  cmd->src_layout = info.srcImageLayout;
  cmd->dst_layout = info.dstImageLayout;
  cmd->regions = keep_valid_regions(cb, "vkCmdCopyImage", info.pRegions, info.regionCount, &cmd->region_count,
                                    [&](const VkImageCopy2& r) { return mem::image_copy_in_bounds(*src, *dst, r); });
}

void record_blit_image(CommandBuffer* cb, const VkBlitImageInfo2& info) {
  auto* src = from_handle<mem::Image>(info.srcImage);
  auto* dst = from_handle<mem::Image>(info.dstImage);
  auto* cmd = cb->commands->append<exec::BlitImageCmd>();
  cmd->src = src;
  cmd->dst = dst;
  cmd->filter = info.filter;
  cmd->src_layout = info.srcImageLayout;
  cmd->dst_layout = info.dstImageLayout;
  cmd->regions = keep_valid_regions(cb, "vkCmdBlitImage", info.pRegions, info.regionCount, &cmd->region_count,
                                    [&](const VkImageBlit2& r) { return mem::blit_region_valid(*src, *dst, r, info.filter); });
}

void record_resolve_image(CommandBuffer* cb, const VkResolveImageInfo2& info) {
  auto* src = from_handle<mem::Image>(info.srcImage);
  auto* dst = from_handle<mem::Image>(info.dstImage);
  auto* cmd = cb->commands->append<exec::ResolveImageCmd>();
  cmd->src = src;
  cmd->dst = dst;
  cmd->src_layout = info.srcImageLayout;
  cmd->dst_layout = info.dstImageLayout;
  cmd->regions = keep_valid_regions(cb, "vkCmdResolveImage", info.pRegions, info.regionCount, &cmd->region_count,
                                    [&](const VkImageResolve2& r) { return mem::resolve_region_valid(*src, *dst, r); });
}

void record_buffer_image_copy(CommandBuffer* cb, exec::CommandType type, VkBuffer buffer_handle, VkImage image_handle,
                              VkImageLayout layout, const VkBufferImageCopy2* regions, uint32_t count) {
  auto* buffer = from_handle<mem::Buffer>(buffer_handle);
  auto* image = from_handle<mem::Image>(image_handle);
  if (image->desc.samples != VK_SAMPLE_COUNT_1_BIT) {
    // The spec forbids it (VUID-vkCmdCopyBufferToImage-dstImage-07973): buffers have no sample layout.
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdCopyBufferToImage/ImageToBuffer: multisampled image; skipped");
    return;
  }
  auto* cmd = cb->commands->append<exec::BufferImageCopyCmd>(type);
  cmd->buffer = buffer;
  cmd->image = image;
  cmd->image_layout = layout;
  cmd->regions = keep_valid_regions(cb, "vkCmdCopyBufferToImage/ImageToBuffer", regions, count, &cmd->region_count,
                                    [&](const VkBufferImageCopy2& r) { return mem::buffer_image_copy_in_bounds(*buffer, *image, r); });
}

VkBufferCopy2 to_v2(const VkBufferCopy& r) { return {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, r.srcOffset, r.dstOffset, r.size}; }
VkImageCopy2 to_v2(const VkImageCopy& r) {
  return {VK_STRUCTURE_TYPE_IMAGE_COPY_2, nullptr, r.srcSubresource, r.srcOffset, r.dstSubresource, r.dstOffset, r.extent};
}
VkImageBlit2 to_v2(const VkImageBlit& r) {
  return {VK_STRUCTURE_TYPE_IMAGE_BLIT_2, nullptr, r.srcSubresource, {r.srcOffsets[0], r.srcOffsets[1]},
          r.dstSubresource, {r.dstOffsets[0], r.dstOffsets[1]}};
}
VkImageResolve2 to_v2(const VkImageResolve& r) {
  return {VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2, nullptr, r.srcSubresource, r.srcOffset, r.dstSubresource, r.dstOffset, r.extent};
}
VkBufferImageCopy2 to_v2(const VkBufferImageCopy& r) {
  return {VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2, nullptr, r.bufferOffset, r.bufferRowLength, r.bufferImageHeight,
          r.imageSubresource, r.imageOffset, r.imageExtent};
}

template <typename V1>
auto regions_to_v2(const V1* regions, uint32_t count) {
  std::vector<decltype(to_v2(regions[0]))> out;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) out.push_back(to_v2(regions[i]));
  return out;
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdCopyBuffer2(VkCommandBuffer commandBuffer, const VkCopyBufferInfo2* pInfo) {
  record_copy_buffer(command_buffer_of(commandBuffer), *pInfo);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdCopyBuffer(VkCommandBuffer commandBuffer, VkBuffer src, VkBuffer dst,
                                                         uint32_t count, const VkBufferCopy* pRegions) {
  auto regions = regions_to_v2(pRegions, count);
  record_copy_buffer(command_buffer_of(commandBuffer),
                     {VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2, nullptr, src, dst, count, regions.data()});
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdCopyImage2(VkCommandBuffer commandBuffer, const VkCopyImageInfo2* pInfo) {
  record_copy_image(command_buffer_of(commandBuffer), *pInfo);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdCopyImage(VkCommandBuffer commandBuffer, VkImage src, VkImageLayout srcLayout,
                                                        VkImage dst, VkImageLayout dstLayout, uint32_t count,
                                                        const VkImageCopy* pRegions) {
  auto regions = regions_to_v2(pRegions, count);
  record_copy_image(command_buffer_of(commandBuffer),
                    {VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2, nullptr, src, srcLayout, dst, dstLayout, count, regions.data()});
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBlitImage2(VkCommandBuffer commandBuffer, const VkBlitImageInfo2* pInfo) {
  record_blit_image(command_buffer_of(commandBuffer), *pInfo);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBlitImage(VkCommandBuffer commandBuffer, VkImage src, VkImageLayout srcLayout,
                                                        VkImage dst, VkImageLayout dstLayout, uint32_t count,
                                                        const VkImageBlit* pRegions, VkFilter filter) {
  auto regions = regions_to_v2(pRegions, count);
  record_blit_image(command_buffer_of(commandBuffer), {VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2, nullptr, src, srcLayout, dst,
                                                       dstLayout, count, regions.data(), filter});
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdResolveImage2(VkCommandBuffer commandBuffer, const VkResolveImageInfo2* pInfo) {
  record_resolve_image(command_buffer_of(commandBuffer), *pInfo);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdResolveImage(VkCommandBuffer commandBuffer, VkImage src, VkImageLayout srcLayout,
                                                           VkImage dst, VkImageLayout dstLayout, uint32_t count,
                                                           const VkImageResolve* pRegions) {
  auto regions = regions_to_v2(pRegions, count);
  record_resolve_image(command_buffer_of(commandBuffer), {VK_STRUCTURE_TYPE_RESOLVE_IMAGE_INFO_2, nullptr, src, srcLayout,
                                                          dst, dstLayout, count, regions.data()});
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdCopyBufferToImage2(VkCommandBuffer commandBuffer,
                                                                 const VkCopyBufferToImageInfo2* pInfo) {
  record_buffer_image_copy(command_buffer_of(commandBuffer), exec::CommandType::CopyBufferToImage, pInfo->srcBuffer,
                           pInfo->dstImage, pInfo->dstImageLayout, pInfo->pRegions, pInfo->regionCount);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdCopyBufferToImage(VkCommandBuffer commandBuffer, VkBuffer src, VkImage dst,
                                                                VkImageLayout dstLayout, uint32_t count,
                                                                const VkBufferImageCopy* pRegions) {
  auto regions = regions_to_v2(pRegions, count);
  record_buffer_image_copy(command_buffer_of(commandBuffer), exec::CommandType::CopyBufferToImage, src, dst, dstLayout,
                           regions.data(), count);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdCopyImageToBuffer2(VkCommandBuffer commandBuffer,
                                                                 const VkCopyImageToBufferInfo2* pInfo) {
  record_buffer_image_copy(command_buffer_of(commandBuffer), exec::CommandType::CopyImageToBuffer, pInfo->dstBuffer,
                           pInfo->srcImage, pInfo->srcImageLayout, pInfo->pRegions, pInfo->regionCount);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdCopyImageToBuffer(VkCommandBuffer commandBuffer, VkImage src,
                                                                VkImageLayout srcLayout, VkBuffer dst, uint32_t count,
                                                                const VkBufferImageCopy* pRegions) {
  auto regions = regions_to_v2(pRegions, count);
  record_buffer_image_copy(command_buffer_of(commandBuffer), exec::CommandType::CopyImageToBuffer, dst, src, srcLayout,
                           regions.data(), count);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdFillBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize offset,
                                                         VkDeviceSize size, uint32_t data) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  auto* dst = from_handle<mem::Buffer>(dstBuffer);
  if (size == VK_WHOLE_SIZE) size = offset <= dst->size ? (dst->size - offset) & ~VkDeviceSize{3} : 0;
  if (!dst->data || offset > dst->size || size > dst->size - offset || (offset | size) % 4) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdFillBuffer: range outside the buffer or not 4-byte aligned; skipped");
    return;
  }
  auto* cmd = cb->commands->append<exec::FillBufferCmd>();
  cmd->dst = dst;
  cmd->offset = offset;
  cmd->size = size;
  cmd->data = data;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdUpdateBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize offset,
                                                           VkDeviceSize size, const void* pData) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  auto* dst = from_handle<mem::Buffer>(dstBuffer);
  if (!dst->data || offset > dst->size || size > dst->size - offset || size > 65536) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdUpdateBuffer: range outside the buffer or over 65536 bytes; skipped");
    return;
  }
  auto* cmd = cb->commands->append<exec::UpdateBufferCmd>();
  cmd->dst = dst;
  cmd->offset = offset;
  cmd->size = size;
  cmd->data = cb->commands->copy_array(static_cast<const uint8_t*>(pData), size);  // data is captured at record time
}

template <typename Cmd, typename Value>
static void record_clear(CommandBuffer* cb, const char* command, VkImage handle, VkImageLayout layout, const Value& value,
                         uint32_t count, const VkImageSubresourceRange* pRanges) {
  auto* image = from_handle<mem::Image>(handle);
  std::vector<VkImageSubresourceRange> valid;
  for (uint32_t i = 0; i < count; ++i) {
    if (mem::range_in_bounds(*image, pRanges[i])) valid.push_back(mem::resolve_range(*image, pRanges[i]));
    else KILN_LOG_ONCE(LogLevel::Error, "%s: range %u is outside the image; skipped", command, i);
  }
  auto* cmd = cb->commands->append<Cmd>();
  cmd->image = image;
  cmd->layout = layout;
  if constexpr (std::is_same_v<Value, VkClearColorValue>) cmd->color = value;
  else cmd->value = value;
  cmd->range_count = static_cast<uint32_t>(valid.size());
  cmd->ranges = cb->commands->copy_array(valid.data(), valid.size());
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdClearColorImage(VkCommandBuffer commandBuffer, VkImage image,
                                                              VkImageLayout imageLayout, const VkClearColorValue* pColor,
                                                              uint32_t rangeCount, const VkImageSubresourceRange* pRanges) {
  const VkClearColorValue color = fmt::scaled_clear_value(from_handle<mem::Image>(image)->desc.format, *pColor);
  record_clear<exec::ClearColorImageCmd>(command_buffer_of(commandBuffer), "vkCmdClearColorImage", image, imageLayout, color,
                                         rangeCount, pRanges);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdClearDepthStencilImage(VkCommandBuffer commandBuffer, VkImage image,
                                                                     VkImageLayout imageLayout,
                                                                     const VkClearDepthStencilValue* pDepthStencil,
                                                                     uint32_t rangeCount, const VkImageSubresourceRange* pRanges) {
  record_clear<exec::ClearDepthStencilImageCmd>(command_buffer_of(commandBuffer), "vkCmdClearDepthStencilImage", image,
                                                imageLayout, *pDepthStencil, rangeCount, pRanges);
}
