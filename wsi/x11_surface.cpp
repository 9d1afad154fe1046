#include "wsi/x11_surface.h"

#include <cstdlib>

#include "common/log.h"
#include "wsi/x11_presenter.h"

namespace kiln::wsi {

namespace {

// Frees xcb replies on every path.
template <typename T>
struct Reply {
  T* p = nullptr;
  ~Reply() { std::free(p); }
  T* operator->() const { return p; }
  explicit operator bool() const { return p != nullptr; }
};

// The visual's type and depth from the connection's setup; null when no screen has it.
const xcb_visualtype_t* find_visual(xcb_connection_t* c, xcb_visualid_t id, uint8_t* depth_out) {
  for (auto screens = xcb_setup_roots_iterator(xcb_get_setup(c)); screens.rem; xcb_screen_next(&screens))
    for (auto depths = xcb_screen_allowed_depths_iterator(screens.data); depths.rem; xcb_depth_next(&depths))
      for (auto visuals = xcb_depth_visuals_iterator(depths.data); visuals.rem; xcb_visualtype_next(&visuals))
        if (visuals.data->visual_id == id) {
          *depth_out = depths.data->depth;
          return visuals.data;
        }
  return nullptr;
}

// The window's visual and depth (false when the window or connection is gone).
bool window_visual(xcb_connection_t* c, xcb_window_t window, xcb_visualid_t* visual, uint8_t* depth) {
  Reply<xcb_get_window_attributes_reply_t> attrs{
      xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, window), nullptr)};
  if (!attrs) return false;
  *visual = attrs->visual;
  Reply<xcb_get_geometry_reply_t> geometry{xcb_get_geometry_reply(c, xcb_get_geometry(c, window), nullptr)};
  if (!geometry) return false;
  *depth = geometry->depth;
  return true;
}

}  // namespace

bool x11_pixel_layout(xcb_connection_t* c, xcb_visualid_t id, PixelLayout* layout) {
  if (!c || xcb_connection_has_error(c)) return false;
  uint8_t depth = 0;
  const xcb_visualtype_t* visual = find_visual(c, id, &depth);
  if (!visual || (visual->_class != XCB_VISUAL_CLASS_TRUE_COLOR && visual->_class != XCB_VISUAL_CLASS_DIRECT_COLOR))
    return false;
  const xcb_setup_t* setup = xcb_get_setup(c);
  for (auto formats = xcb_setup_pixmap_formats_iterator(setup); formats.rem; xcb_format_next(&formats)) {
    if (formats.data->depth != depth) continue;
    const uint32_t bpp = formats.data->bits_per_pixel;
    if (bpp != 16 && bpp != 24 && bpp != 32) return false;
    layout->bits_per_pixel = bpp;
    layout->scanline_pad = formats.data->scanline_pad;
    layout->red_mask = visual->red_mask;
    layout->green_mask = visual->green_mask;
    layout->blue_mask = visual->blue_mask;
    // A 32-bit-depth (ARGB) visual: keep the frame opaque, as compositeAlpha OPAQUE promises.
    const uint32_t depth_bits = depth >= 32 ? 0xffffffffu : (1u << depth) - 1;
    layout->opaque_mask = depth_bits & ~(visual->red_mask | visual->green_mask | visual->blue_mask);
    layout->msb_first = setup->image_byte_order == XCB_IMAGE_ORDER_MSB_FIRST;
    return true;
  }
  return false;
}

bool x11_visual_supported(xcb_connection_t* c, xcb_visualid_t visual) {
  PixelLayout layout;
  return x11_pixel_layout(c, visual, &layout);
}

VkResult X11Surface::current_extent(VkExtent2D* extent) {
  if (xcb_connection_has_error(connection_)) return VK_ERROR_SURFACE_LOST_KHR;
  Reply<xcb_get_geometry_reply_t> geometry{
      xcb_get_geometry_reply(connection_, xcb_get_geometry(connection_, window_), nullptr)};
  if (!geometry) return VK_ERROR_SURFACE_LOST_KHR;  // BadDrawable (window destroyed) or I/O error
  *extent = {geometry->width, geometry->height};
  return VK_SUCCESS;
}

std::vector<VkSurfaceFormatKHR> X11Surface::formats() {
  xcb_visualid_t visual;
  uint8_t depth;
  if (window_visual(connection_, window_, &visual, &depth) && x11_visual_supported(connection_, visual))
    return Surface::formats();
  return {};
}

std::unique_ptr<Presenter> X11Surface::make_presenter(VkExtent2D extent, VkFormat, VkResult* result) {
  xcb_visualid_t visual;
  uint8_t depth;
  PixelLayout layout;
  if (!window_visual(connection_, window_, &visual, &depth)) {
    *result = VK_ERROR_SURFACE_LOST_KHR;
    return nullptr;
  }
  if (!x11_pixel_layout(connection_, visual, &layout)) {
    KILN_LOG_ONCE(LogLevel::Error, "X11 presentation: window visual 0x%x is not TrueColor 16/24/32 bpp", visual);
    *result = VK_ERROR_INITIALIZATION_FAILED;
    return nullptr;
  }
  return make_x11_presenter(connection_, window_, depth, layout, extent, result);
}

}  // namespace kiln::wsi
