#pragma once
// Shows frames in an X11 window: through an MIT-SHM segment when the server offers the extension
// and can attach Kiln's segment (a local server), else with plain PutImage requests split to the
// server's maximum request size. KILN_WSI_NO_SHM=1 forces the PutImage path (tests use it).
#include <xcb/xcb.h>

#include <memory>

#include "wsi/pixel_convert.h"
#include "wsi/surface.h"

namespace kiln::wsi {

std::unique_ptr<Presenter> make_x11_presenter(xcb_connection_t* connection, xcb_window_t window, uint8_t depth,
                                              const PixelLayout& layout, VkExtent2D extent, VkResult* result);

}  // namespace kiln::wsi
