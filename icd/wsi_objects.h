#pragma once
// VkSurfaceKHR and VkSwapchainKHR as Kiln objects (wsi/ holds the logic).
//
// Surfaces belong to Kiln, not to the loader: with loader interface version >= 3 the loader
// calls an ICD's vkCreate*SurfaceKHR when vk_icdGetInstanceProcAddr returns it, keeps the ICD's
// handle next to its own VkIcdSurface, and passes the ICD's handle to every later call (surface
// queries, vkCreateSwapchainKHR, vkDestroySurfaceKHR). See docs/design/wsi.md.
#include <vulkan/vulkan.h>

#include <memory>

#include "icd/object.h"
#include "wsi/surface.h"
#include "wsi/swapchain.h"

namespace kiln {

inline wsi::Surface* surface_of(VkSurfaceKHR handle) { return from_handle<wsi::Surface>(handle); }

// Hands a new surface to the application (takes ownership).
VkResult publish_surface(std::unique_ptr<wsi::Surface> surface, VkSurfaceKHR* out);

struct SwapchainObject {
  // Shared with presents still queued on a VkQueue, which may run after vkDestroySwapchainKHR.
  std::shared_ptr<wsi::Swapchain> swapchain;
  wsi::Surface* surface = nullptr;
};

inline SwapchainObject* swapchain_of(VkSwapchainKHR handle) { return from_handle<SwapchainObject>(handle); }

}  // namespace kiln
