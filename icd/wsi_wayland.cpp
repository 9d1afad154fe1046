// VK_KHR_wayland_surface: surfaces on the application's wl_display/wl_surface (wsi/wayland_*).
#include "icd/wsi_objects.h"
#include "kiln_entrypoints.h"
#include "wsi/wayland_surface.h"

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateWaylandSurfaceKHR(VkInstance,
                                                                       const VkWaylandSurfaceCreateInfoKHR* pCreateInfo,
                                                                       const VkAllocationCallbacks*, VkSurfaceKHR* pSurface) {
  return publish_surface(std::make_unique<wsi::WaylandSurface>(pCreateInfo->display, pCreateInfo->surface), pSurface);
}

extern "C" VKAPI_ATTR VkBool32 VKAPI_CALL kiln_GetPhysicalDeviceWaylandPresentationSupportKHR(VkPhysicalDevice,
                                                                                              uint32_t queueFamilyIndex,
                                                                                              wl_display* display) {
  return queueFamilyIndex == 0 && wsi::wayland_presentation_supported(display);
}
