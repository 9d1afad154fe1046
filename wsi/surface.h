#pragma once
// A presentation surface: where a swapchain's images go. Each window system implements Surface
// (what the window looks like now) and Presenter (how one frame reaches it). The icd layer turns
// VkSurfaceKHR handles into these; nothing here knows Vulkan objects beyond formats and extents.
#include <vulkan/vulkan.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace kiln::wsi {

enum class Platform { Headless, X11, Wayland };

// One frame as the presenter sees it: the colour plane of a swapchain image (layer 0, mip 0).
struct Frame {
  const uint8_t* pixels = nullptr;
  uint64_t row_pitch = 0;
  VkExtent2D extent{};
  VkFormat format = VK_FORMAT_UNDEFINED;
  // VK_KHR_incremental_present: unless whole_frame, only `regions` (inside extent, possibly none)
  // differ from the frame shown before, and a presenter may send just those. Presenters that
  // copy whole frames ignore them.
  bool whole_frame = true;
  std::span<const VkRect2D> regions;
};

// Shows frames of one swapchain on its surface. show() runs on the swapchain's presentation
// thread only; it returns VK_SUCCESS or VK_ERROR_SURFACE_LOST_KHR (window or connection gone).
class Presenter {
 public:
  virtual ~Presenter() = default;
  virtual VkResult show(const Frame& frame) = 0;
  // Presenters whose window system announces its refreshes (Wayland frame callbacks) pace FIFO,
  // FIFO_RELAXED and MAILBOX by them: wait_for_refresh blocks, on the presentation thread, until
  // the refresh after the last shown frame or `fallback` (the swapchain's 60 Hz clock), whichever
  // comes first. The others are paced by the 60 Hz clock alone.
  virtual bool announces_refreshes() const { return false; }
  virtual void wait_for_refresh(std::chrono::steady_clock::time_point /*fallback*/) {}
};

// The formats every surface offers (all SRGB_NONLINEAR): 8-bit BGRA and RGBA, sRGB first.
std::span<const VkSurfaceFormatKHR> presentable_formats();
bool is_presentable_format(VkFormat format);

class Surface {
 public:
  explicit Surface(Platform platform) : platform_(platform) {}
  virtual ~Surface() = default;
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;

  Platform platform() const { return platform_; }
  // The window's size now, or {0xFFFFFFFF, 0xFFFFFFFF} when the swapchain decides (headless).
  // VK_ERROR_SURFACE_LOST_KHR when the window or the connection is gone.
  virtual VkResult current_extent(VkExtent2D* extent) = 0;
  // The formats frames can have on this surface: presentable_formats(), or fewer (none when the
  // window cannot show Kiln's frames at all, e.g. an X visual Kiln cannot convert to).
  virtual std::vector<VkSurfaceFormatKHR> formats();
  // A presenter for frames of `extent` and `format`; null with *result set when the surface is
  // lost (SURFACE_LOST) or cannot show `format` (INITIALIZATION_FAILED).
  virtual std::unique_ptr<Presenter> make_presenter(VkExtent2D extent, VkFormat format, VkResult* result) = 0;

  // The one swapchain that is not retired (VK_ERROR_NATIVE_WINDOW_IN_USE_KHR for a second one).
  std::atomic<const void*> active_swapchain{nullptr};

 private:
  Platform platform_;
};

}  // namespace kiln::wsi
