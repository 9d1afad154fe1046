#include "wsi/x11_presenter.h"

#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/shm.h>

#include <algorithm>
#include <cstdlib>
#include <span>
#include <vector>

#include "common/log.h"

namespace kiln::wsi {

namespace {

// Checks a request; true when the server accepted it. Checking costs a round trip, which also
// guarantees the server has finished reading the shared-memory segment before it is reused.
bool request_ok(xcb_connection_t* c, xcb_void_cookie_t cookie) {
  xcb_generic_error_t* error = xcb_request_check(c, cookie);
  if (!error) return !xcb_connection_has_error(c);
  std::free(error);
  return false;
}

class X11Presenter final : public Presenter {
 public:
  X11Presenter(xcb_connection_t* c, xcb_window_t window, uint8_t depth, const PixelLayout& layout)
      : c_(c), window_(window), depth_(depth), layout_(layout) {}

  ~X11Presenter() override {
    if (xcb_connection_has_error(c_)) {
      if (shm_addr_) shmdt(shm_addr_);
      return;
    }
    if (shm_seg_) xcb_shm_detach(c_, shm_seg_);
    if (gc_) xcb_free_gc(c_, gc_);
    xcb_flush(c_);
    if (shm_addr_) {
      // The server may still hold the segment until it processes the detach: sync first.
      std::free(xcb_get_input_focus_reply(c_, xcb_get_input_focus(c_), nullptr));
      shmdt(shm_addr_);
    }
  }

  VkResult init(VkExtent2D extent) {
    gc_ = xcb_generate_id(c_);
    if (!request_ok(c_, xcb_create_gc_checked(c_, gc_, window_, 0, nullptr))) {
      gc_ = 0;
      return VK_ERROR_SURFACE_LOST_KHR;
    }
    const char* no_shm = std::getenv("KILN_WSI_NO_SHM");
    if (!(no_shm && *no_shm == '1')) try_shm(row_bytes(layout_, extent.width) * extent.height);
    log(LogLevel::Debug, "X11 presentation of %ux%u frames through %s", extent.width, extent.height,
        shm_addr_ ? "MIT-SHM" : "PutImage");
    return VK_SUCCESS;
  }

  VkResult show(const Frame& frame) override {
    if (xcb_connection_has_error(c_)) return VK_ERROR_SURFACE_LOST_KHR;
    // VK_KHR_incremental_present: only the changed rectangles travel to the server.
    const VkRect2D whole{{0, 0}, frame.extent};
    const std::span<const VkRect2D> rects = frame.whole_frame ? std::span<const VkRect2D>(&whole, 1) : frame.regions;
    const bool use_shm = shm_addr_ && row_bytes(layout_, frame.extent.width) * frame.extent.height <= shm_size_;
    std::vector<xcb_void_cookie_t> cookies;
    for (const VkRect2D& rect : rects) {
      if (use_shm) put_shm(frame, rect, &cookies);
      else put_image(frame, rect, &cookies);
    }
    // Every request is checked (a round trip): errors report a destroyed window, and the server
    // has read the SHM segment and the staging data before they are reused.
    bool ok = true;
    for (xcb_void_cookie_t cookie : cookies) ok = request_ok(c_, cookie) && ok;
    return ok ? VK_SUCCESS : VK_ERROR_SURFACE_LOST_KHR;
  }

 private:
  void try_shm(size_t size) {
    const xcb_query_extension_reply_t* ext = xcb_get_extension_data(c_, &xcb_shm_id);
    if (!ext || !ext->present || size == 0) return;
    const int id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
    if (id < 0) return;
    void* addr = shmat(id, nullptr, 0);
    if (addr == reinterpret_cast<void*>(-1)) {
      shmctl(id, IPC_RMID, nullptr);
      return;
    }
    const xcb_shm_seg_t seg = xcb_generate_id(c_);
    const bool attached = request_ok(c_, xcb_shm_attach_checked(c_, seg, id, /*read_only=*/1));
    shmctl(id, IPC_RMID, nullptr);  // freed once both sides detach
    if (!attached) {                // e.g. a remote server: fall back to PutImage
      shmdt(addr);
      return;
    }
    shm_addr_ = static_cast<uint8_t*>(addr);
    shm_seg_ = seg;
    shm_size_ = size;
  }

  // The pixels of `rect` (inside the frame) as a frame of their own: rows keep the frame's pitch.
  static Frame part_of(const Frame& frame, const VkRect2D& rect) {
    Frame part = frame;
    part.pixels = frame.pixels + uint64_t(rect.offset.y) * frame.row_pitch + uint64_t(rect.offset.x) * 4;
    part.extent = rect.extent;
    return part;
  }

  // The segment holds the frame at its full size; `rect` is converted in place and sent.
  void put_shm(const Frame& frame, const VkRect2D& rect, std::vector<xcb_void_cookie_t>* cookies) {
    const size_t pitch = row_bytes(layout_, frame.extent.width);
    uint8_t* dst = shm_addr_ + rect.offset.y * pitch + rect.offset.x * (layout_.bits_per_pixel / 8);
    convert_rows(part_of(frame, rect), 0, rect.extent.height, layout_, dst, pitch);
    cookies->push_back(xcb_shm_put_image_checked(
        c_, window_, gc_, uint16_t(frame.extent.width), uint16_t(frame.extent.height), uint16_t(rect.offset.x),
        uint16_t(rect.offset.y), uint16_t(rect.extent.width), uint16_t(rect.extent.height), int16_t(rect.offset.x),
        int16_t(rect.offset.y), depth_, XCB_IMAGE_FORMAT_Z_PIXMAP, 0, shm_seg_, 0));
  }

  // PutImage requests of whole rows of `rect`, as many rows each as the maximum request size allows.
  void put_image(const Frame& frame, const VkRect2D& rect, std::vector<xcb_void_cookie_t>* cookies) {
    const Frame part = part_of(frame, rect);
    const size_t pitch = row_bytes(layout_, rect.extent.width);
    // A request may not exceed the server's maximum length (in 4-byte units), header included.
    const size_t max_bytes = size_t(xcb_get_maximum_request_length(c_)) * 4 - 64;
    const uint32_t band = std::max<uint32_t>(1, uint32_t(std::min<size_t>(rect.extent.height, max_bytes / pitch)));
    staging_.resize(pitch * band);
    for (uint32_t y = 0; y < rect.extent.height; y += band) {
      const uint32_t rows = std::min(band, rect.extent.height - y);
      convert_rows(part, y, rows, layout_, staging_.data(), pitch);  // xcb has taken the previous band's bytes
      cookies->push_back(xcb_put_image_checked(c_, XCB_IMAGE_FORMAT_Z_PIXMAP, window_, gc_, uint16_t(rect.extent.width),
                                               uint16_t(rows), int16_t(rect.offset.x), int16_t(rect.offset.y + y), 0,
                                               depth_, uint32_t(pitch * rows), staging_.data()));
    }
  }

  xcb_connection_t* c_;
  xcb_window_t window_;
  uint8_t depth_;
  PixelLayout layout_;
  xcb_gcontext_t gc_ = 0;
  uint8_t* shm_addr_ = nullptr;
  xcb_shm_seg_t shm_seg_ = 0;
  size_t shm_size_ = 0;
  std::vector<uint8_t> staging_;
};

}  // namespace

std::unique_ptr<Presenter> make_x11_presenter(xcb_connection_t* connection, xcb_window_t window, uint8_t depth,
                                              const PixelLayout& layout, VkExtent2D extent, VkResult* result) {
  auto presenter = std::make_unique<X11Presenter>(connection, window, depth, layout);
  *result = presenter->init(extent);
  if (*result != VK_SUCCESS) return nullptr;
  return presenter;
}

}  // namespace kiln::wsi
