#pragma once
// A presentation surface: where a swapchain's images go. Each window system implements Surface
// (what the window looks like now) and Presenter (how one frame reaches it). The icd layer turns
// VkSurfaceKHR handles into these; nothing here knows Vulkan objects beyond formats and extents.
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>

namespace kiln::wsi {

enum class Platform { Headless, X11 };

// One frame as the presenter sees it: the colour plane of a swapchain image (layer 0, mip 0).
struct Frame {
  const uint8_t* pixels = nullptr;
  uint64_t row_pitch = 0;
  VkExtent2D extent{};
  VkFormat format = VK_FORMAT_UNDEFINED;
};

// Shows frames of one swapchain on its surface. show() runs on the swapchain's presentation
// thread only; it returns VK_SUCCESS or VK_ERROR_SURFACE_LOST_KHR (window or connection gone).
class Presenter {
 public:
  virtual ~Presenter() = default;
  virtual VkResult show(const Frame& frame) = 0;
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
  // Whether frames can be shown at all (e.g. an X visual Kiln can convert to).
  virtual bool formats_supported() { return true; }
  // A presenter for frames of `extent`; null with *result set when the surface is lost.
  virtual std::unique_ptr<Presenter> make_presenter(VkExtent2D extent, VkResult* result) = 0;

  // The one swapchain that is not retired (VK_ERROR_NATIVE_WINDOW_IN_USE_KHR for a second one).
  std::atomic<const void*> active_swapchain{nullptr};

 private:
  Platform platform_;
};

}  // namespace kiln::wsi
