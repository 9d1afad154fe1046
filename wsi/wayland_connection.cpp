#include "wsi/wayland_connection.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace kiln::wsi {

namespace {
using Clock = std::chrono::steady_clock;
}

bool wayland_connection_lost(wl_display* display) {
  if (!display || wl_display_get_error(display) != 0) return true;
  // A compositor that exited closed its end: the socket reports a hang-up without anything
  // being read (reading is the application's business).
  pollfd p{wl_display_get_fd(display), 0, 0};
  return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

std::unique_ptr<WaylandConnection> WaylandConnection::open(wl_display* display) {
  if (wayland_connection_lost(display)) return nullptr;
  std::unique_ptr<WaylandConnection> c(new WaylandConnection(display));
  c->queue_ = wl_display_create_queue(display);
  if (!c->queue_) return nullptr;
  c->display_wrapper_ = static_cast<wl_display*>(wl_proxy_create_wrapper(display));
  if (!c->display_wrapper_) return nullptr;
  wl_proxy_set_queue(reinterpret_cast<wl_proxy*>(c->display_wrapper_), c->queue_);
  c->registry_ = wl_display_get_registry(c->display_wrapper_);
  if (!c->registry_) return nullptr;
  static const wl_registry_listener registry_listener = {on_global, on_global_remove};
  wl_registry_add_listener(c->registry_, &registry_listener, c.get());
  // The first round trip delivers the globals (binding wl_shm), the second wl_shm's formats.
  if (wl_display_roundtrip_queue(display, c->queue_) < 0 || !c->shm_) return nullptr;
  if (wl_display_roundtrip_queue(display, c->queue_) < 0) return nullptr;
  return c;
}

void WaylandConnection::on_global(void* data, wl_registry* registry, uint32_t name, const char* interface,
                                  uint32_t) {
  auto* self = static_cast<WaylandConnection*>(data);
  if (self->shm_ || std::strcmp(interface, wl_shm_interface.name) != 0) return;
  self->shm_ = static_cast<wl_shm*>(wl_registry_bind(registry, name, &wl_shm_interface, 1));
  static const wl_shm_listener shm_listener = {on_format};
  wl_shm_add_listener(self->shm_, &shm_listener, self);
}

void WaylandConnection::on_format(void* data, wl_shm*, uint32_t format) {
  static_cast<WaylandConnection*>(data)->formats_.push_back(format);
}

bool WaylandConnection::offers_format(uint32_t format) const {
  // ARGB8888 and XRGB8888 are always supported; compositors need not announce them.
  if (format == WL_SHM_FORMAT_ARGB8888 || format == WL_SHM_FORMAT_XRGB8888) return true;
  return std::find(formats_.begin(), formats_.end(), format) != formats_.end();
}

WaylandConnection::Wait WaylandConnection::dispatch_until(Clock::time_point deadline,
                                                          const std::function<bool()>& done) {
  const int fd = wl_display_get_fd(display_);
  for (;;) {
    if (wl_display_dispatch_queue_pending(display_, queue_) < 0) return Wait::Lost;
    if (done()) return Wait::Done;
    // The multi-threaded read protocol: announce the read (fails while Kiln's queue has events
    // that were read by another thread meanwhile), wait for data, read or cancel.
    if (wl_display_prepare_read_queue(display_, queue_) != 0) continue;
    if (wl_display_flush(display_) < 0 && errno != EAGAIN) {
      wl_display_cancel_read(display_);
      return Wait::Lost;
    }
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, int(std::clamp<long long>(left, 0, 1000)));
    if (ready <= 0) {
      wl_display_cancel_read(display_);
      if (ready < 0 && errno != EINTR) return Wait::Lost;
      if (ready == 0 && Clock::now() >= deadline) {
        if (wl_display_dispatch_queue_pending(display_, queue_) < 0) return Wait::Lost;
        return done() ? Wait::Done : Wait::TimedOut;
      }
      continue;
    }
    if (wl_display_read_events(display_) < 0) return Wait::Lost;  // the compositor is gone
  }
}

WaylandConnection::~WaylandConnection() {
  if (shm_) wl_shm_destroy(shm_);
  if (registry_) wl_registry_destroy(registry_);
  if (display_wrapper_) wl_proxy_wrapper_destroy(display_wrapper_);
  if (queue_) wl_event_queue_destroy(queue_);
}

}  // namespace kiln::wsi
