// VkBuffer, VkBufferView and VkImage: creation, memory requirements, subresource layout.
#include <algorithm>

#include "common/log.h"
#include "icd/buffer_view.h"
#include "icd/device.h"
#include "icd/device_limits.h"
#include "icd/format_support.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"
#include "memory/format_table.h"
#include "memory/resources.h"

using namespace kiln;

namespace {

VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

VkMemoryRequirements buffer_requirements(VkDeviceSize size) {
  return {align_up(std::max<VkDeviceSize>(size, 1), kResourceAlignment), kResourceAlignment, kResourceMemoryTypes};
}

void fill_dedicated(void* pNext) {
  if (auto* dedicated = find_in_chain_mut<VkMemoryDedicatedRequirements>(pNext)) {
    dedicated->prefersDedicatedAllocation = VK_FALSE;  // all memory is alike on a CPU
    dedicated->requiresDedicatedAllocation = VK_FALSE;
  }
}

mem::ImageDesc image_desc(const VkImageCreateInfo& info) {
  mem::ImageDesc d;
  d.type = info.imageType;
  d.format = info.format;
  d.extent = info.extent;
  d.mip_levels = info.mipLevels;
  d.array_layers = info.arrayLayers;
  d.samples = info.samples;
  d.tiling = info.tiling;
  return d;
}

// The layout an image created from `info` would have; on failure, why Kiln cannot create it (the
// log names the actual limit: "format/usage not supported" alone sent people hunting for format
// bugs when an extent or the size was the cause).
const char* layout_for(const VkImageCreateInfo& info, mem::ImageLayout* layout) {
  VkImageFormatProperties limits;
  if (image_format_properties(info.format, info.imageType, info.tiling, info.usage, info.flags, &limits) != VK_SUCCESS)
    return "this format, type, tiling, usage and flags are not supported";
  if (info.extent.width > limits.maxExtent.width || info.extent.height > limits.maxExtent.height ||
      info.extent.depth > limits.maxExtent.depth)
    return "the extent exceeds maxExtent";
  if (info.mipLevels > limits.maxMipLevels || info.arrayLayers > limits.maxArrayLayers)
    return "mipLevels or arrayLayers exceed the limits";
  if (__builtin_popcount(info.samples) != 1 || !(info.samples & limits.sampleCounts) ||
      (info.samples != VK_SAMPLE_COUNT_1_BIT && info.mipLevels != 1))
    return "the sample count is not supported";
  // An image larger than maxResourceSize is still created (applications and the CTS create the
  // largest image the limits allow to query its requirements); no allocation can hold it, so
  // vkAllocateMemory or vkBindImageMemory refuse it instead.
  if (!layout->init(image_desc(info))) return "the layout cannot be computed";
  return nullptr;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateBuffer(VkDevice handle, const VkBufferCreateInfo* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator, VkBuffer* pBuffer) {
  Device* device = device_of(handle);
  if (pCreateInfo->size > kMaxResourceSize) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCreateBuffer: size %llu exceeds maxBufferSize", (unsigned long long)pCreateInfo->size);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  if (pCreateInfo->flags & (VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_PROTECTED_BIT)) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCreateBuffer: sparse and protected buffers are not supported");
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  auto* buffer = create_object<mem::Buffer>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!buffer) return VK_ERROR_OUT_OF_HOST_MEMORY;
  buffer->size = pCreateInfo->size;
  buffer->usage = pCreateInfo->usage;
  buffer->flags = pCreateInfo->flags;
  *pBuffer = to_handle<VkBuffer>(buffer);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyBuffer(VkDevice handle, VkBuffer buffer, const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<mem::Buffer>(buffer));
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetBufferMemoryRequirements(VkDevice, VkBuffer buffer,
                                                                       VkMemoryRequirements* pMemoryRequirements) {
  *pMemoryRequirements = buffer_requirements(from_handle<mem::Buffer>(buffer)->size);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetBufferMemoryRequirements2(VkDevice, const VkBufferMemoryRequirementsInfo2* pInfo,
                                                                        VkMemoryRequirements2* pMemoryRequirements) {
  pMemoryRequirements->memoryRequirements = buffer_requirements(from_handle<mem::Buffer>(pInfo->buffer)->size);
  fill_dedicated(pMemoryRequirements->pNext);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDeviceBufferMemoryRequirements(VkDevice, const VkDeviceBufferMemoryRequirements* pInfo,
                                                                             VkMemoryRequirements2* pMemoryRequirements) {
  pMemoryRequirements->memoryRequirements = buffer_requirements(pInfo->pCreateInfo->size);
  fill_dedicated(pMemoryRequirements->pNext);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateBufferView(VkDevice handle, const VkBufferViewCreateInfo* pCreateInfo,
                                                                const VkAllocationCallbacks* pAllocator, VkBufferView* pView) {
  Device* device = device_of(handle);
  auto* buffer = from_handle<mem::Buffer>(pCreateInfo->buffer);
  if (!fmt::format_info(pCreateInfo->format) || pCreateInfo->offset > buffer->size) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCreateBufferView: format %d or offset not usable", pCreateInfo->format);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  auto* view = create_object<BufferView>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!view) return VK_ERROR_OUT_OF_HOST_MEMORY;
  view->buffer = buffer;
  view->format = pCreateInfo->format;
  view->offset = pCreateInfo->offset;
  view->range = pCreateInfo->range == VK_WHOLE_SIZE ? buffer->size - pCreateInfo->offset : pCreateInfo->range;
  *pView = to_handle<VkBufferView>(view);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyBufferView(VkDevice handle, VkBufferView view,
                                                             const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<BufferView>(view));
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateImage(VkDevice handle, const VkImageCreateInfo* pCreateInfo,
                                                           const VkAllocationCallbacks* pAllocator, VkImage* pImage) {
  Device* device = device_of(handle);
  mem::ImageLayout layout;
  if (const char* why = layout_for(*pCreateInfo, &layout)) {
    const VkExtent3D& e = pCreateInfo->extent;
    KILN_LOG_ONCE(LogLevel::Error, "vkCreateImage: format %d, usage 0x%x, flags 0x%x, %ux%ux%u, %u levels, %u layers, "
                  "%u samples: %s (query vkGetPhysicalDeviceImageFormatProperties first)", pCreateInfo->format,
                  pCreateInfo->usage, pCreateInfo->flags, e.width, e.height, e.depth, pCreateInfo->mipLevels,
                  pCreateInfo->arrayLayers, pCreateInfo->samples, why);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  auto* image = create_object<mem::Image>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!image) return VK_ERROR_OUT_OF_HOST_MEMORY;
  image->desc = image_desc(*pCreateInfo);
  image->layout = layout;
  image->usage = pCreateInfo->usage;
  image->flags = pCreateInfo->flags;
  if (layout.total_size() > kMaxResourceSize)
    KILN_LOG_ONCE(LogLevel::Warn, "vkCreateImage: the image needs %llu bytes, more than maxResourceSize: no memory "
                  "allocation can hold it", (unsigned long long)layout.total_size());
  *pImage = to_handle<VkImage>(image);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyImage(VkDevice handle, VkImage image, const VkAllocationCallbacks* pAllocator) {
  if (Device* device = device_of(handle); device->strict && image) device->strict->image_destroyed(from_handle<mem::Image>(image));
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<mem::Image>(image));
}

static VkMemoryRequirements image_requirements(const mem::ImageLayout& layout, VkImageUsageFlags usage) {
  const bool transient = usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
  return {layout.total_size(), kResourceAlignment, transient ? kTransientImageMemoryTypes : kResourceMemoryTypes};
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetImageMemoryRequirements(VkDevice, VkImage image,
                                                                      VkMemoryRequirements* pMemoryRequirements) {
  const mem::Image* img = from_handle<mem::Image>(image);
  *pMemoryRequirements = image_requirements(img->layout, img->usage);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetImageMemoryRequirements2(VkDevice, const VkImageMemoryRequirementsInfo2* pInfo,
                                                                       VkMemoryRequirements2* pMemoryRequirements) {
  const mem::Image* image = from_handle<mem::Image>(pInfo->image);
  pMemoryRequirements->memoryRequirements = image_requirements(image->layout, image->usage);
  fill_dedicated(pMemoryRequirements->pNext);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDeviceImageMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements* pInfo,
                                                                            VkMemoryRequirements2* pMemoryRequirements) {
  mem::ImageLayout layout;
  if (layout_for(*pInfo->pCreateInfo, &layout)) {
    pMemoryRequirements->memoryRequirements = {0, kResourceAlignment, 0};
    return;
  }
  pMemoryRequirements->memoryRequirements = image_requirements(layout, pInfo->pCreateInfo->usage);
  fill_dedicated(pMemoryRequirements->pNext);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetImageSparseMemoryRequirements(VkDevice, VkImage, uint32_t* pCount,
                                                                            VkSparseImageMemoryRequirements*) {
  *pCount = 0;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetImageSparseMemoryRequirements2(VkDevice, const VkImageSparseMemoryRequirementsInfo2*,
                                                                             uint32_t* pCount, VkSparseImageMemoryRequirements2*) {
  *pCount = 0;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDeviceImageSparseMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements*,
                                                                                  uint32_t* pCount, VkSparseImageMemoryRequirements2*) {
  *pCount = 0;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetImageSubresourceLayout(VkDevice, VkImage handle, const VkImageSubresource* pSubresource,
                                                                     VkSubresourceLayout* pLayout) {
  auto* image = from_handle<mem::Image>(handle);
  const auto& d = image->desc;
  if (pSubresource->mipLevel >= d.mip_levels || pSubresource->arrayLayer >= d.array_layers) {
    KILN_LOG_ONCE(LogLevel::Error, "vkGetImageSubresourceLayout: subresource out of range");
    *pLayout = {};
    return;
  }
  mem::SubresourceAddress a = image->layout.address(static_cast<VkImageAspectFlagBits>(pSubresource->aspectMask),
                                                    pSubresource->mipLevel, pSubresource->arrayLayer);
  pLayout->offset = a.offset;
  pLayout->size = a.size;
  pLayout->rowPitch = a.row_pitch;
  pLayout->arrayPitch = a.layer_pitch;
  pLayout->depthPitch = a.slice_pitch;
}
