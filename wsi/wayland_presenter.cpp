#include "wsi/wayland_presenter.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "common/log.h"
#include "wsi/wayland_connection.h"

namespace kiln::wsi {

namespace {

using Clock = std::chrono::steady_clock;

// A compositor keeps at most the buffer on screen plus one it has not latched yet, so a pool of
// this many is never exhausted by a working compositor.
constexpr size_t kMaxBuffers = 4;
// How long show() waits for a buffer release when all are with the compositor before it drops
// the frame (a stuck compositor must not stall the swapchain forever).
constexpr auto kReleaseTimeout = std::chrono::seconds(1);

// One wl_buffer and its shared memory (the compositor maps the same memfd).
struct ShmBuffer {
  wl_buffer* buffer = nullptr;
  uint8_t* pixels = nullptr;
  size_t size = 0;
  VkExtent2D extent{};
  bool busy = false;  // attached and not yet released by the compositor

  ~ShmBuffer() {
    if (buffer) wl_buffer_destroy(buffer);
    if (pixels) munmap(pixels, size);
  }
};

class WaylandPresenter final : public Presenter {
 public:
  WaylandPresenter(std::unique_ptr<WaylandConnection> connection, wl_surface* surface, uint32_t shm_format)
      : connection_(std::move(connection)), shm_format_(shm_format) {
    surface_ = static_cast<wl_surface*>(wl_proxy_create_wrapper(surface));
    if (surface_) wl_proxy_set_queue(reinterpret_cast<wl_proxy*>(surface_), connection_->queue());
  }

  ~WaylandPresenter() override {
    if (frame_callback_) wl_callback_destroy(frame_callback_);
    buffers_.clear();
    if (surface_) wl_proxy_wrapper_destroy(surface_);
    wl_display_flush(connection_->display());
    // connection_ (queue, wl_shm) goes last: every proxy on its queue is destroyed by now.
  }

  bool ready() const { return surface_ != nullptr; }

  VkResult show(const Frame& frame) override {
    if (wayland_connection_lost(connection_->display())) return VK_ERROR_SURFACE_LOST_KHR;
    ShmBuffer* buffer = nullptr;
    if (VkResult r = free_buffer(frame.extent, &buffer); r != VK_SUCCESS) return r;
    if (!buffer) {
      KILN_LOG_ONCE(LogLevel::Warn, "Wayland presentation: the compositor releases no wl_shm buffer; frame dropped");
      return VK_SUCCESS;
    }
    // The X byte is set to 0xff although compositors ignore it: screenshot tools (weston's) and
    // some renderers read it as alpha, and compositeAlpha OPAQUE promises an opaque window.
    const size_t row = size_t(frame.extent.width) * 4;
    for (uint32_t y = 0; y < frame.extent.height; ++y) {
      uint8_t* dst = buffer->pixels + y * row;
      std::memcpy(dst, frame.pixels + y * frame.row_pitch, row);
      for (size_t x = 3; x < row; x += 4) dst[x] = 0xff;
    }

    wl_surface_attach(surface_, buffer->buffer, 0, 0);
    if (wl_proxy_get_version(reinterpret_cast<wl_proxy*>(surface_)) >= WL_SURFACE_DAMAGE_BUFFER_SINCE_VERSION)
      wl_surface_damage_buffer(surface_, 0, 0, int32_t(frame.extent.width), int32_t(frame.extent.height));
    else
      wl_surface_damage(surface_, 0, 0, int32_t(frame.extent.width), int32_t(frame.extent.height));
    if (frame_callback_) wl_callback_destroy(frame_callback_);  // superseded: this commit's counts
    frame_callback_ = wl_surface_frame(surface_);
    static const wl_callback_listener callback_listener = {on_frame_done};
    wl_callback_add_listener(frame_callback_, &callback_listener, this);
    refreshed_ = false;
    wl_surface_commit(surface_);
    buffer->busy = true;
    // EAGAIN (socket full) sends the rest with the next flush; EPIPE: the compositor is gone.
    if (wl_display_flush(connection_->display()) < 0 && errno != EAGAIN) return VK_ERROR_SURFACE_LOST_KHR;
    return VK_SUCCESS;
  }

  bool announces_refreshes() const override { return true; }

  void wait_for_refresh(Clock::time_point fallback) override {
    // A lost connection shows up in the next show(); here it only ends the wait.
    connection_->dispatch_until(fallback, [this] { return refreshed_; });
  }

 private:
  static void on_frame_done(void* data, wl_callback* callback, uint32_t) {
    auto* self = static_cast<WaylandPresenter*>(data);
    wl_callback_destroy(callback);
    if (self->frame_callback_ == callback) self->frame_callback_ = nullptr;
    self->refreshed_ = true;
  }

  static void on_release(void* data, wl_buffer*) { static_cast<ShmBuffer*>(data)->busy = false; }

  // A released buffer of `extent`, a new one while the pool has room, or else the first one the
  // compositor releases within kReleaseTimeout (null when none is).
  VkResult free_buffer(VkExtent2D extent, ShmBuffer** out) {
    auto find = [&] {
      for (auto& b : buffers_)
        if (!b->busy && b->extent.width == extent.width && b->extent.height == extent.height) return b.get();
      return static_cast<ShmBuffer*>(nullptr);
    };
    // Releases that already arrived first.
    if (connection_->dispatch_until(Clock::now(), [] { return false; }) == WaylandConnection::Wait::Lost)
      return VK_ERROR_SURFACE_LOST_KHR;
    const auto deadline = Clock::now() + kReleaseTimeout;
    for (;;) {
      if ((*out = find())) return VK_SUCCESS;
      if (buffers_.size() < kMaxBuffers) {
        *out = create_buffer(extent);
        return *out ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      // Full: buffers of another size can go (never the case within one swapchain).
      for (auto it = buffers_.begin(); it != buffers_.end(); ++it)
        if (!(*it)->busy) {
          buffers_.erase(it);
          break;
        }
      if (buffers_.size() < kMaxBuffers) continue;
      switch (connection_->dispatch_until(deadline, [&] { return find() != nullptr; })) {
        case WaylandConnection::Wait::Lost: return VK_ERROR_SURFACE_LOST_KHR;
        case WaylandConnection::Wait::TimedOut: *out = nullptr; return VK_SUCCESS;
        case WaylandConnection::Wait::Done: break;
      }
    }
  }

  ShmBuffer* create_buffer(VkExtent2D extent) {
    auto buffer = std::make_unique<ShmBuffer>();
    const size_t stride = size_t(extent.width) * 4;
    buffer->size = stride * extent.height;
    buffer->extent = extent;
    const int fd = memfd_create("kiln-wl-shm", MFD_CLOEXEC);
    if (fd < 0) return nullptr;
    void* pixels = MAP_FAILED;
    if (ftruncate(fd, off_t(buffer->size)) == 0)
      pixels = mmap(nullptr, buffer->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) {
      close(fd);
      return nullptr;
    }
    buffer->pixels = static_cast<uint8_t*>(pixels);
    // The pool only hands the memfd over; the buffer keeps the memory alive on both sides.
    wl_shm_pool* pool = wl_shm_create_pool(connection_->shm(), fd, int32_t(buffer->size));
    buffer->buffer = wl_shm_pool_create_buffer(pool, 0, int32_t(extent.width), int32_t(extent.height),
                                               int32_t(stride), shm_format_);
    wl_shm_pool_destroy(pool);
    close(fd);
    static const wl_buffer_listener buffer_listener = {on_release};
    wl_buffer_add_listener(buffer->buffer, &buffer_listener, buffer.get());
    buffers_.push_back(std::move(buffer));
    return buffers_.back().get();
  }

  std::unique_ptr<WaylandConnection> connection_;
  uint32_t shm_format_;
  wl_surface* surface_ = nullptr;  // the application's surface, wrapped onto Kiln's queue
  wl_callback* frame_callback_ = nullptr;
  bool refreshed_ = true;  // the last commit's frame callback arrived (or nothing was committed)
  std::vector<std::unique_ptr<ShmBuffer>> buffers_;
};

}  // namespace

uint32_t wl_shm_format_of(VkFormat format) {
  switch (format) {
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
      return WL_SHM_FORMAT_XRGB8888;
    default:  // R8G8B8A8_UNORM / _SRGB
      return WL_SHM_FORMAT_XBGR8888;
  }
}

std::unique_ptr<Presenter> make_wayland_presenter(wl_display* display, wl_surface* surface, VkFormat format,
                                                  VkResult* result) {
  std::unique_ptr<WaylandConnection> connection = WaylandConnection::open(display);
  if (!connection) {
    *result = VK_ERROR_SURFACE_LOST_KHR;
    return nullptr;
  }
  const uint32_t shm_format = wl_shm_format_of(format);
  if (!connection->offers_format(shm_format)) {
    KILN_LOG_ONCE(LogLevel::Error, "Wayland presentation: the compositor's wl_shm lacks format 0x%x for VkFormat %d",
                  shm_format, format);
    *result = VK_ERROR_INITIALIZATION_FAILED;
    return nullptr;
  }
  auto presenter = std::make_unique<WaylandPresenter>(std::move(connection), surface, shm_format);
  if (!presenter->ready()) {
    *result = VK_ERROR_OUT_OF_HOST_MEMORY;
    return nullptr;
  }
  *result = VK_SUCCESS;
  return presenter;
}

}  // namespace kiln::wsi
