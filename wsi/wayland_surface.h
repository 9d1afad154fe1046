#pragma once
// VK_KHR_wayland_surface: frames go to the application's wl_surface as wl_shm buffers
// (wayland_presenter.h). A Wayland window has no size of its own: the swapchain's extent decides
// (currentExtent 0xFFFFFFFF), so resizes never make a swapchain out of date. Kiln never touches
// the application's event queues (wayland_connection.h).
#include <wayland-client.h>

#include "wsi/surface.h"

namespace kiln::wsi {

class WaylandSurface final : public Surface {
 public:
  WaylandSurface(wl_display* display, wl_surface* surface)
      : Surface(Platform::Wayland), display_(display), surface_(surface) {}
  VkResult current_extent(VkExtent2D* extent) override;
  // B8G8R8A8 always (wl_shm XRGB8888), R8G8B8A8 when the compositor offers XBGR8888; none when
  // the connection is dead.
  std::vector<VkSurfaceFormatKHR> formats() override;
  std::unique_ptr<Presenter> make_presenter(VkExtent2D extent, VkFormat format, VkResult* result) override;

 private:
  wl_display* display_;
  wl_surface* surface_;
};

// vkGetPhysicalDeviceWaylandPresentationSupportKHR: whether the compositor offers wl_shm.
bool wayland_presentation_supported(wl_display* display);

}  // namespace kiln::wsi
