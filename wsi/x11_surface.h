#pragma once
// X11 surfaces (VK_KHR_xcb_surface; VK_KHR_xlib_surface goes through the Display's xcb
// connection). Kiln uses the application's connection (xcb is thread-safe) and never reads its
// event queue: window state comes from round trips (GetGeometry), errors from checked requests.
#include <xcb/xcb.h>

#include "wsi/pixel_convert.h"
#include "wsi/surface.h"

namespace kiln::wsi {

class X11Surface final : public Surface {
 public:
  X11Surface(xcb_connection_t* connection, xcb_window_t window)
      : Surface(Platform::X11), connection_(connection), window_(window) {}
  VkResult current_extent(VkExtent2D* extent) override;
  std::vector<VkSurfaceFormatKHR> formats() override;  // all, or none for a visual Kiln cannot convert to
  std::unique_ptr<Presenter> make_presenter(VkExtent2D extent, VkFormat format, VkResult* result) override;

 private:
  xcb_connection_t* connection_;
  xcb_window_t window_;
};

// The pixel layout of `visual` at `depth`: false unless it is a TrueColor or DirectColor visual
// of 16, 24 or 32 bits per pixel, which Kiln converts to.
bool x11_pixel_layout(xcb_connection_t* connection, xcb_visualid_t visual, PixelLayout* layout);
// vkGetPhysicalDeviceXcbPresentationSupportKHR / ...Xlib...: whether windows of `visual` work.
bool x11_visual_supported(xcb_connection_t* connection, xcb_visualid_t visual);

}  // namespace kiln::wsi
