// VK_KHR_xlib_surface: an Xlib Display is used through its xcb connection (libX11-xcb), so Xlib
// windows share the xcb surface code. In its own file because Xlib's headers define macros
// (None, Bool, Status...) that no other Kiln source should see.
#include <X11/Xlib-xcb.h>

#include "icd/wsi_objects.h"
#include "kiln_entrypoints.h"
#include "wsi/x11_surface.h"

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateXlibSurfaceKHR(VkInstance, const VkXlibSurfaceCreateInfoKHR* pCreateInfo,
                                                                    const VkAllocationCallbacks*, VkSurfaceKHR* pSurface) {
  xcb_connection_t* connection = XGetXCBConnection(pCreateInfo->dpy);
  return publish_surface(std::make_unique<wsi::X11Surface>(connection, static_cast<xcb_window_t>(pCreateInfo->window)),
                         pSurface);
}

extern "C" VKAPI_ATTR VkBool32 VKAPI_CALL kiln_GetPhysicalDeviceXlibPresentationSupportKHR(VkPhysicalDevice, uint32_t queueFamilyIndex,
                                                                                           Display* dpy, VisualID visualID) {
  return queueFamilyIndex == 0 && wsi::x11_visual_supported(XGetXCBConnection(dpy), static_cast<xcb_visualid_t>(visualID));
}
