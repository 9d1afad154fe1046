#pragma once
// Shows the demo's frames in an X11 window (kiln-demo --present): an xcb window of the picture's
// size, a swapchain on it, and per frame: acquire an image, run the frame's commands, blit the
// picture into the image, present. What a windowed application does — so the demo can be
// captured with gfxreconstruct and replayed, whose screenshots are taken at presents.
#include <vulkan/vulkan.h>
#include <xcb/xcb.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "tools/common/vulkan_context.h"

namespace kiln::demo {

class WindowPresenter {
 public:
  // Opens a window on $DISPLAY; `context` must have been made with tools::Presentation::Xcb.
  // Throws (std::runtime_error or tools::VulkanError) when there is no display or no usable
  // swapchain.
  WindowPresenter(tools::VulkanContext& context, uint32_t width, uint32_t height);
  ~WindowPresenter();
  WindowPresenter(const WindowPresenter&) = delete;
  WindowPresenter& operator=(const WindowPresenter&) = delete;

  // One frame: `record` records the frame's own commands into a command buffer, then the
  // presenter blits `picture` (a width x height colour image that rests in
  // COLOR_ATTACHMENT_OPTIMAL, left there) into the acquired swapchain image, submits, waits for
  // the frame to complete and presents it.
  void run_frame(const std::function<void(VkCommandBuffer)>& record, VkImage picture);

 private:
  void release();
  tools::VulkanContext& context_;
  uint32_t width_;  // of the picture
  uint32_t height_;
  VkExtent2D extent_{};  // of the swapchain's images (the window's size, normally the picture's)
  xcb_connection_t* connection_ = nullptr;
  xcb_window_t window_ = 0;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  std::vector<VkImage> images_;
  VkSemaphore acquired_ = VK_NULL_HANDLE;
  VkSemaphore rendered_ = VK_NULL_HANDLE;
  VkFence done_ = VK_NULL_HANDLE;
};

}  // namespace kiln::demo
