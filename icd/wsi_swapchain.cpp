// VK_KHR_swapchain: swapchains, acquire and present. Presents go through the queue's engine
// (a batch that waits for the present's semaphores, then hands the images over), so an image is
// shown only after the work submitted before it on that queue.
#include <algorithm>
#include <utility>
#include <vector>

#include "common/log.h"
#include "icd/device.h"
#include "icd/wsi_objects.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

// Which of two present results vkQueuePresentKHR reports: errors over success, a lost surface
// over an out-of-date one.
VkResult worse(VkResult a, VkResult b) {
  auto rank = [](VkResult r) {
    switch (r) {
      case VK_SUCCESS: return 0;
      case VK_SUBOPTIMAL_KHR: return 1;
      case VK_ERROR_OUT_OF_DATE_KHR: return 2;
      default: return 3;
    }
  };
  return rank(b) > rank(a) ? b : a;
}

// VK_KHR_incremental_present: the rectangles that changed in the image presented to swapchain
// `i`; whole when the application gives none (rectangleCount 0 means the whole image).
wsi::Damage damage_of(const VkPresentInfoKHR* info, uint32_t i) {
  wsi::Damage damage;
  for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext) {
    if (s->sType != VK_STRUCTURE_TYPE_PRESENT_REGIONS_KHR) continue;
    const auto* regions = reinterpret_cast<const VkPresentRegionsKHR*>(s);
    if (!regions->pRegions || i >= regions->swapchainCount) break;
    const VkPresentRegionKHR& region = regions->pRegions[i];
    if (region.rectangleCount == 0 || !region.pRectangles) break;
    damage.whole = false;
    for (uint32_t r = 0; r < region.rectangleCount; ++r)  // swapchain images have one layer
      damage.rects.push_back({region.pRectangles[r].offset, region.pRectangles[r].extent});
  }
  return damage;
}

VkResult acquire(VkSwapchainKHR handle, uint64_t timeout, VkSemaphore semaphore, VkFence fence, uint32_t* pIndex) {
  const VkResult result = swapchain_of(handle)->swapchain->acquire(timeout, pIndex);
  if (result == VK_SUCCESS) {
    // The image is free when acquire returns (its pixels already went to the window system),
    // so the semaphore and fence are signalled at once.
    if (semaphore != VK_NULL_HANDLE) from_handle<exec::Semaphore>(semaphore)->signal(0);
    if (fence != VK_NULL_HANDLE) from_handle<exec::Fence>(fence)->signal();
  }
  return result;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateSwapchainKHR(VkDevice handle, const VkSwapchainCreateInfoKHR* pCreateInfo,
                                                                  const VkAllocationCallbacks* pAllocator, VkSwapchainKHR* pSwapchain) {
  Device* device = device_of(handle);
  wsi::Surface* surface = surface_of(pCreateInfo->surface);
  // The old swapchain is retired even when creating the new one fails (the spec says so).
  SwapchainObject* old = swapchain_of(pCreateInfo->oldSwapchain);
  if (old) {
    old->swapchain->retire();
    const void* expected = old;
    surface->active_swapchain.compare_exchange_strong(expected, nullptr);
  }
  if (surface->active_swapchain.load()) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCreateSwapchainKHR: the surface already has a swapchain (pass it as oldSwapchain)");
    return VK_ERROR_NATIVE_WINDOW_IN_USE_KHR;
  }
  const VkExtent2D extent = pCreateInfo->imageExtent;
  if (!wsi::is_presentable_format(pCreateInfo->imageFormat) || extent.width == 0 || extent.height == 0 ||
      pCreateInfo->imageArrayLayers != 1) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCreateSwapchainKHR: format %d, extent %ux%u or %u layers not supported",
                  pCreateInfo->imageFormat, extent.width, extent.height, pCreateInfo->imageArrayLayers);
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  wsi::SwapchainConfig config;
  config.format = pCreateInfo->imageFormat;
  config.extent = extent;
  config.image_count = std::clamp(pCreateInfo->minImageCount, 2u, 8u);
  config.array_layers = pCreateInfo->imageArrayLayers;
  config.usage = pCreateInfo->imageUsage;
  // VK_KHR_swapchain_mutable_format: views in other formats of the image's compatibility class
  // (presentation still reads the swapchain's format), and their usages.
  if (pCreateInfo->flags & VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR)
    config.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
  config.present_mode = pCreateInfo->presentMode;

  auto* object = create_object<SwapchainObject>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!object) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (VkResult r = wsi::Swapchain::create(*surface, config, &object->swapchain); r != VK_SUCCESS) {
    destroy_object(choose_allocator(pAllocator, device->allocator), object);
    return r;
  }
  object->surface = surface;
  surface->active_swapchain = object;
  *pSwapchain = to_handle<VkSwapchainKHR>(object);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroySwapchainKHR(VkDevice handle, VkSwapchainKHR swapchain,
                                                               const VkAllocationCallbacks* pAllocator) {
  SwapchainObject* object = swapchain_of(swapchain);
  if (!object) return;
  object->swapchain->shut_down();
  const void* expected = object;
  object->surface->active_swapchain.compare_exchange_strong(expected, nullptr);
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), object);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetSwapchainImagesKHR(VkDevice, VkSwapchainKHR swapchain, uint32_t* pCount,
                                                                     VkImage* pImages) {
  const std::vector<mem::Image*>& images = swapchain_of(swapchain)->swapchain->images();
  if (!pImages) {
    *pCount = static_cast<uint32_t>(images.size());
    return VK_SUCCESS;
  }
  const uint32_t n = std::min<uint32_t>(*pCount, static_cast<uint32_t>(images.size()));
  for (uint32_t i = 0; i < n; ++i) pImages[i] = to_handle<VkImage>(images[i]);
  *pCount = n;
  return n < images.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_AcquireNextImageKHR(VkDevice handle, VkSwapchainKHR swapchain, uint64_t timeout,
                                                                   VkSemaphore semaphore, VkFence fence, uint32_t* pImageIndex) {
  if (device_of(handle)->lost()) return VK_ERROR_DEVICE_LOST;
  return acquire(swapchain, timeout, semaphore, fence, pImageIndex);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_AcquireNextImage2KHR(VkDevice handle, const VkAcquireNextImageInfoKHR* pAcquireInfo,
                                                                    uint32_t* pImageIndex) {
  if (device_of(handle)->lost()) return VK_ERROR_DEVICE_LOST;
  return acquire(pAcquireInfo->swapchain, pAcquireInfo->timeout, pAcquireInfo->semaphore, pAcquireInfo->fence, pImageIndex);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_QueuePresentKHR(VkQueue queueHandle, const VkPresentInfoKHR* pPresentInfo) {
  if (from_handle<Queue>(queueHandle)->device->lost()) {
    if (pPresentInfo->pResults)
      for (uint32_t i = 0; i < pPresentInfo->swapchainCount; ++i) pPresentInfo->pResults[i] = VK_ERROR_DEVICE_LOST;
    return VK_ERROR_DEVICE_LOST;
  }
  struct Present {
    std::shared_ptr<wsi::Swapchain> swapchain;
    uint32_t index;
    wsi::Damage damage;
  };
  std::vector<Present> presents;
  VkResult overall = VK_SUCCESS;
  for (uint32_t i = 0; i < pPresentInfo->swapchainCount; ++i) {
    std::shared_ptr<wsi::Swapchain> swapchain = swapchain_of(pPresentInfo->pSwapchains[i])->swapchain;
    const uint32_t index = pPresentInfo->pImageIndices[i];
    const VkResult result = swapchain->begin_present(index);
    if (pPresentInfo->pResults) pPresentInfo->pResults[i] = result;
    overall = worse(overall, result);
    presents.push_back({std::move(swapchain), index, damage_of(pPresentInfo, i)});
  }
  // Rejected presents are queued too: their semaphore waits still happen and their images come
  // back through the same path.
  exec::Batch batch;
  for (uint32_t w = 0; w < pPresentInfo->waitSemaphoreCount; ++w)
    batch.waits.push_back({from_handle<exec::Semaphore>(pPresentInfo->pWaitSemaphores[w]), 0});
  batch.host_step = [presents = std::move(presents)] {
    for (const Present& present : presents) present.swapchain->finish_present(present.index, present.damage);
  };
  std::vector<exec::Batch> batches;
  batches.push_back(std::move(batch));
  from_handle<Queue>(queueHandle)->engine.submit(std::move(batches));
  return overall;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetDeviceGroupPresentCapabilitiesKHR(
    VkDevice, VkDeviceGroupPresentCapabilitiesKHR* pCaps) {
  std::fill(std::begin(pCaps->presentMask), std::end(pCaps->presentMask), 0u);
  pCaps->presentMask[0] = 1;  // one physical device, which presents
  pCaps->modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}
