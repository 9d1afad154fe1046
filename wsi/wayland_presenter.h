#pragma once
// Shows frames on a wl_surface: each frame is copied into a wl_shm buffer (a small pool of
// memfd-backed buffers, each reused once the compositor releases it), then attached, damaged and
// committed, all on the swapchain's presentation thread and on Kiln's private event queue. Every
// commit asks for a frame callback; those pace FIFO/MAILBOX (Presenter::wait_for_refresh).
#include <wayland-client.h>

#include <memory>

#include "wsi/surface.h"

namespace kiln::wsi {

// The wl_shm format whose bytes equal `format`'s texels with alpha ignored (compositeAlpha is
// OPAQUE): XRGB8888 for B8G8R8A8, XBGR8888 for R8G8B8A8 (wl_shm formats name little-endian words).
uint32_t wl_shm_format_of(VkFormat format);

std::unique_ptr<Presenter> make_wayland_presenter(wl_display* display, wl_surface* surface, VkFormat format,
                                                  VkResult* result);

}  // namespace kiln::wsi
