#pragma once
// Kiln's private view of an application's Wayland connection. Kiln shares the application's
// wl_display (libwayland is thread-safe) but keeps every object it creates on its own event queue
// (through proxy wrappers), so the application's queues never see Kiln's events and Kiln never
// dispatches the application's. Each user (a surface query, a swapchain's presenter) opens its own.
#include <wayland-client.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace kiln::wsi {

// True when the connection can no longer be used: libwayland recorded a fatal error, or the
// compositor hung up (seen on the socket without reading from it, so any thread may ask).
bool wayland_connection_lost(wl_display* display);

class WaylandConnection {
 public:
  // Binds wl_shm on a new private queue (two round trips on that queue); null when the
  // connection is dead or the compositor offers no wl_shm.
  static std::unique_ptr<WaylandConnection> open(wl_display* display);
  ~WaylandConnection();
  WaylandConnection(const WaylandConnection&) = delete;
  WaylandConnection& operator=(const WaylandConnection&) = delete;

  wl_display* display() const { return display_; }
  wl_event_queue* queue() const { return queue_; }
  // Objects made from it (pools, buffers) deliver their events to queue().
  wl_shm* shm() const { return shm_; }
  bool offers_format(uint32_t wl_shm_format) const;

  enum class Wait { Done, TimedOut, Lost };
  // Sends what is buffered, then dispatches the private queue (reading the socket as needed)
  // until done() holds or `deadline` passes (a past deadline dispatches only what has arrived).
  Wait dispatch_until(std::chrono::steady_clock::time_point deadline, const std::function<bool()>& done);

 private:
  explicit WaylandConnection(wl_display* display) : display_(display) {}
  static void on_global(void* data, wl_registry* registry, uint32_t name, const char* interface, uint32_t version);
  static void on_global_remove(void*, wl_registry*, uint32_t) {}
  static void on_format(void* data, wl_shm*, uint32_t format);

  wl_display* display_;
  wl_event_queue* queue_ = nullptr;
  wl_display* display_wrapper_ = nullptr;  // the display, with Kiln's queue for new objects
  wl_registry* registry_ = nullptr;
  wl_shm* shm_ = nullptr;
  std::vector<uint32_t> formats_;
};

}  // namespace kiln::wsi
