// VK_KHR_surface, VK_KHR_xcb_surface, VK_EXT_headless_surface, VK_KHR_get_surface_capabilities2,
// VK_KHR_surface_protected_capabilities:
// surface creation and the physical-device surface queries. (Xlib entry points: wsi_xlib.cpp,
// Wayland: wsi_wayland.cpp.)
#include <algorithm>
#include <iterator>
#include <vector>

#include "common/log.h"
#include "icd/instance.h"
#include "icd/wsi_objects.h"
#include "kiln_entrypoints.h"
#include "wsi/headless_surface.h"
#include "wsi/x11_surface.h"

using namespace kiln;

namespace kiln {

VkResult publish_surface(std::unique_ptr<wsi::Surface> surface, VkSurfaceKHR* out) {
  if (!surface) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *out = to_handle<VkSurfaceKHR>(surface.release());
  return VK_SUCCESS;
}

}  // namespace kiln

namespace {

// Every mode is real: the presentation thread paces FIFO/FIFO_RELAXED/MAILBOX to 60 Hz, shows
// IMMEDIATE frames at once, and MAILBOX replaces frames not yet shown (wsi/swapchain.h).
constexpr VkPresentModeKHR kPresentModes[] = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR,
                                              VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR};

// Usage every swapchain image may have. COLOR_ATTACHMENT is required by the spec for every
// surface; the images are ordinary Kiln images, so transfers work on them.
constexpr VkImageUsageFlags kSwapchainUsage =
    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;

VkResult surface_capabilities(VkPhysicalDevice physicalDevice, wsi::Surface* surface, VkSurfaceCapabilitiesKHR* caps) {
  VkExtent2D extent;
  if (VkResult r = surface->current_extent(&extent); r != VK_SUCCESS) return r;
  const uint32_t max_dim = from_handle<PhysicalDevice>(physicalDevice)->properties.limits.maxImageDimension2D;
  *caps = {};
  caps->minImageCount = 2;
  caps->maxImageCount = 8;
  caps->currentExtent = extent;
  if (extent.width == 0xFFFFFFFFu) {  // headless and Wayland: the swapchain decides
    caps->minImageExtent = {1, 1};
    caps->maxImageExtent = {max_dim, max_dim};
  } else {
    caps->minImageExtent = extent;
    caps->maxImageExtent = extent;
  }
  caps->maxImageArrayLayers = 1;
  caps->supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  caps->currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  caps->supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  caps->supportedUsageFlags = kSwapchainUsage;
  return VK_SUCCESS;
}

template <typename T, typename Fill>
VkResult enumerate(uint32_t available, uint32_t* count, T* out, Fill fill) {
  if (!out) {
    *count = available;
    return VK_SUCCESS;
  }
  const uint32_t n = std::min(*count, available);
  for (uint32_t i = 0; i < n; ++i) fill(i, &out[i]);
  *count = n;
  return n < available ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateHeadlessSurfaceEXT(VkInstance, const VkHeadlessSurfaceCreateInfoEXT*,
                                                                        const VkAllocationCallbacks*, VkSurfaceKHR* pSurface) {
  return publish_surface(std::make_unique<wsi::HeadlessSurface>(), pSurface);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateXcbSurfaceKHR(VkInstance, const VkXcbSurfaceCreateInfoKHR* pCreateInfo,
                                                                   const VkAllocationCallbacks*, VkSurfaceKHR* pSurface) {
  return publish_surface(std::make_unique<wsi::X11Surface>(pCreateInfo->connection, pCreateInfo->window), pSurface);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroySurfaceKHR(VkInstance, VkSurfaceKHR surface, const VkAllocationCallbacks*) {
  delete surface_of(surface);
}

extern "C" VKAPI_ATTR VkBool32 VKAPI_CALL kiln_GetPhysicalDeviceXcbPresentationSupportKHR(VkPhysicalDevice, uint32_t queueFamilyIndex,
                                                                                          xcb_connection_t* connection,
                                                                                          xcb_visualid_t visual_id) {
  return queueFamilyIndex == 0 && wsi::x11_visual_supported(connection, visual_id);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceSurfaceSupportKHR(VkPhysicalDevice, uint32_t queueFamilyIndex,
                                                                                  VkSurfaceKHR surface, VkBool32* pSupported) {
  VkExtent2D extent;
  if (VkResult r = surface_of(surface)->current_extent(&extent); r != VK_SUCCESS) return r;
  // Kiln's one queue family presents: a present is host work on the queue's thread.
  *pSupported = queueFamilyIndex == 0 && !surface_of(surface)->formats().empty();
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceSurfaceCapabilitiesKHR(VkPhysicalDevice physicalDevice,
                                                                                       VkSurfaceKHR surface,
                                                                                       VkSurfaceCapabilitiesKHR* pCaps) {
  return surface_capabilities(physicalDevice, surface_of(surface), pCaps);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceSurfaceCapabilities2KHR(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR* pSurfaceInfo, VkSurfaceCapabilities2KHR* pCaps) {
  for (auto* s = static_cast<VkBaseOutStructure*>(pCaps->pNext); s; s = s->pNext) {
    // VK_KHR_surface_protected_capabilities: Kiln has no protected memory, so no protected swapchains.
    if (s->sType == VK_STRUCTURE_TYPE_SURFACE_PROTECTED_CAPABILITIES_KHR)
      reinterpret_cast<VkSurfaceProtectedCapabilitiesKHR*>(s)->supportsProtected = VK_FALSE;
  }
  return surface_capabilities(physicalDevice, surface_of(pSurfaceInfo->surface), &pCaps->surfaceCapabilities);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceSurfaceFormatsKHR(VkPhysicalDevice, VkSurfaceKHR surface,
                                                                                  uint32_t* pCount, VkSurfaceFormatKHR* pFormats) {
  const std::vector<VkSurfaceFormatKHR> formats = surface_of(surface)->formats();
  return enumerate(static_cast<uint32_t>(formats.size()), pCount, pFormats,
                   [&](uint32_t i, VkSurfaceFormatKHR* out) { *out = formats[i]; });
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceSurfaceFormats2KHR(VkPhysicalDevice,
                                                                                   const VkPhysicalDeviceSurfaceInfo2KHR* pSurfaceInfo,
                                                                                   uint32_t* pCount, VkSurfaceFormat2KHR* pFormats) {
  const std::vector<VkSurfaceFormatKHR> formats = surface_of(pSurfaceInfo->surface)->formats();
  return enumerate(static_cast<uint32_t>(formats.size()), pCount, pFormats,
                   [&](uint32_t i, VkSurfaceFormat2KHR* out) { out->surfaceFormat = formats[i]; });
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceSurfacePresentModesKHR(VkPhysicalDevice, VkSurfaceKHR,
                                                                                       uint32_t* pCount, VkPresentModeKHR* pModes) {
  return enumerate(static_cast<uint32_t>(std::size(kPresentModes)), pCount, pModes,
                   [](uint32_t i, VkPresentModeKHR* out) { *out = kPresentModes[i]; });
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDevicePresentRectanglesKHR(VkPhysicalDevice physicalDevice,
                                                                                     VkSurfaceKHR surface, uint32_t* pCount,
                                                                                     VkRect2D* pRects) {
  VkSurfaceCapabilitiesKHR caps;
  if (VkResult r = surface_capabilities(physicalDevice, surface_of(surface), &caps); r != VK_SUCCESS) return r;
  // The whole surface; when the swapchain decides the size (headless), the largest it may be.
  const VkExtent2D extent = caps.currentExtent.width == 0xFFFFFFFFu ? caps.maxImageExtent : caps.currentExtent;
  return enumerate(1, pCount, pRects, [&](uint32_t, VkRect2D* out) { *out = {{0, 0}, extent}; });
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetDeviceGroupSurfacePresentModesKHR(VkDevice, VkSurfaceKHR,
                                                                                    VkDeviceGroupPresentModeFlagsKHR* pModes) {
  *pModes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}
