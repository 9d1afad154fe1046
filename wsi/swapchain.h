#pragma once
// A swapchain: presentable images (ordinary Kiln images in their own host memory) cycling between
// the application and a presentation thread.
//
// Image life: free → (acquire) acquired → (vkQueuePresentKHR) in flight on the queue → (the
// queue reaches the present, i.e. its semaphores are signalled) queued for showing → shown by the
// presentation thread → free. The presentation thread paces FIFO, FIFO_RELAXED and MAILBOX to a
// 60 Hz clock, or to the window system's refreshes where it announces them (Wayland frame
// callbacks, with the 60 Hz clock as the fallback), and MAILBOX replaces a queued frame that was
// not shown yet (that image becomes free unshown). An image is free as soon as its pixels are
// copied to the window system, so acquire never waits for a vertical blank.
#include <vulkan/vulkan.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "memory/resources.h"
#include "wsi/surface.h"

namespace kiln::wsi {

struct SwapchainConfig {
  VkFormat format = VK_FORMAT_B8G8R8A8_UNORM;
  VkExtent2D extent{};
  uint32_t image_count = 2;
  uint32_t array_layers = 1;
  VkImageUsageFlags usage = 0;
  VkImageCreateFlags flags = 0;
  VkPresentModeKHR present_mode = VK_PRESENT_MODE_FIFO_KHR;
};

// The part of a presented image that changed since the previous present: everything, or the
// listed rectangles (VK_KHR_incremental_present; clipped to the image by Swapchain).
struct Damage {
  bool whole = true;
  std::vector<VkRect2D> rects;
  void add(const Damage& other);  // the union (as a list): whole if either is
};

class Swapchain {
 public:
  // VK_SUCCESS, VK_ERROR_OUT_OF_HOST_MEMORY, VK_ERROR_SURFACE_LOST_KHR or
  // VK_ERROR_INITIALIZATION_FAILED (the window's pixel format cannot be shown).
  static VkResult create(Surface& surface, const SwapchainConfig& config, std::shared_ptr<Swapchain>* out);
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  const std::vector<mem::Image*>& images() const { return image_ptrs_; }
  const SwapchainConfig& config() const { return config_; }

  // vkAcquireNextImageKHR: VK_SUCCESS (image ready now: the caller signals the semaphore/fence
  // at once), VK_NOT_READY / VK_TIMEOUT, VK_ERROR_OUT_OF_DATE_KHR (retired, or the window's size
  // no longer matches) or VK_ERROR_SURFACE_LOST_KHR.
  VkResult acquire(uint64_t timeout_ns, uint32_t* index);
  // vkQueuePresentKHR, on the application's thread: what the call returns for this swapchain.
  // The image is in flight from now on; finish_present must follow (from the queue).
  VkResult begin_present(uint32_t index);
  // On the queue's thread once the present's waits are satisfied: hands the image to the
  // presentation thread, or frees it unshown when the present was rejected or the swapchain is gone.
  // `damage`: what changed since the previous present (VK_KHR_incremental_present).
  void finish_present(uint32_t index, Damage damage = {});
  // A newer swapchain replaced this one (oldSwapchain): acquire answers OUT_OF_DATE from now on.
  void retire();
  // vkDestroySwapchainKHR: shows the frames already handed to the presentation thread (at once),
  // then stops it; presents still waiting on a queue only free their images when they get there.
  // Nothing touches the window system after this returns.
  void shut_down();
  bool retired() const;

 private:
  enum class State { Free, Acquired, InFlight, Queued };
  Swapchain(Surface& surface, const SwapchainConfig& config) : surface_(surface), config_(config) {}
  void run_presentation();
  void release_locked(uint32_t index);
  Frame frame_of(uint32_t index) const;
  struct QueuedFrame {
    uint32_t index;
    Damage damage;
  };

  Surface& surface_;
  SwapchainConfig config_;
  std::vector<mem::Image> images_;
  std::vector<mem::Image*> image_ptrs_;
  std::vector<std::unique_ptr<uint8_t, void (*)(void*)>> memory_;
  std::unique_ptr<Presenter> presenter_;

  mutable std::mutex mutex_;
  std::condition_variable image_freed_;   // acquire waits on it
  std::condition_variable frame_queued_;  // the presentation thread waits on it
  std::vector<State> state_;
  std::deque<uint32_t> free_;    // in the order images became free, so images are used round robin
  std::deque<QueuedFrame> queued_;  // frames waiting to be shown
  bool shown_any_ = false;  // until a frame was shown, the window's content is unknown: show it whole
  VkResult status_ = VK_SUCCESS;  // or OUT_OF_DATE / SURFACE_LOST, sticky
  bool retired_ = false;
  bool stopping_ = false;
  std::chrono::steady_clock::time_point last_shown_{};
  std::thread thread_;
};

}  // namespace kiln::wsi
