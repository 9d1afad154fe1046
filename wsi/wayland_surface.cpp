#include "wsi/wayland_surface.h"

#include "wsi/wayland_connection.h"
#include "wsi/wayland_presenter.h"

namespace kiln::wsi {

VkResult WaylandSurface::current_extent(VkExtent2D* extent) {
  if (wayland_connection_lost(display_)) return VK_ERROR_SURFACE_LOST_KHR;
  *extent = {0xFFFFFFFFu, 0xFFFFFFFFu};  // a Wayland window takes the size of what is attached
  return VK_SUCCESS;
}

std::vector<VkSurfaceFormatKHR> WaylandSurface::formats() {
  std::unique_ptr<WaylandConnection> connection = WaylandConnection::open(display_);
  std::vector<VkSurfaceFormatKHR> formats;
  if (!connection) return formats;
  for (const VkSurfaceFormatKHR& f : presentable_formats())
    if (connection->offers_format(wl_shm_format_of(f.format))) formats.push_back(f);
  return formats;
}

std::unique_ptr<Presenter> WaylandSurface::make_presenter(VkExtent2D, VkFormat format, VkResult* result) {
  return make_wayland_presenter(display_, surface_, format, result);
}

bool wayland_presentation_supported(wl_display* display) { return WaylandConnection::open(display) != nullptr; }

}  // namespace kiln::wsi
