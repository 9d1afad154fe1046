#pragma once
// Shared machinery of the window-system tests: a VulkanTest whose instance has the surface
// extensions, a device with VK_KHR_swapchain, swapchain creation, one-frame "clear and present",
// and reading frames that Kiln's presentation wrote to KILN_WSI_DUMP_DIR (wsi/frame_dump.h).
#include <array>
#include <string>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {

// An 8-bit RGB picture (PPM P6 as written by KILN_WSI_DUMP_DIR, or captured from a window).
struct RgbImage {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;  // 3 bytes per pixel, rows top to bottom
  std::array<uint8_t, 3> at(uint32_t x, uint32_t y) const {
    const uint8_t* p = &rgb[(size_t(y) * width + x) * 3];
    return {p[0], p[1], p[2]};
  }
};

// A fresh directory for presented frames; KILN_WSI_DUMP_DIR points at it until destruction.
class FrameDumpDir {
 public:
  FrameDumpDir();
  ~FrameDumpDir();
  // The first `count` frames presented since construction (in order), waiting up to 5 s for them.
  std::vector<RgbImage> wait_for_frames(size_t count) const;
  // How many frames have been written so far.
  size_t frame_count() const;

 private:
  std::string path_;
};

struct SwapchainSetup {
  VkFormat format = VK_FORMAT_B8G8R8A8_UNORM;
  VkExtent2D extent{64, 48};
  VkPresentModeKHR present_mode = VK_PRESENT_MODE_FIFO_KHR;
  uint32_t min_image_count = 0;  // 0: the surface's minImageCount
  VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkSwapchainKHR old_swapchain = VK_NULL_HANDLE;
  uint32_t present_queue = 0;  // clear_and_present renders on queue 0 and presents on this one
  // VK_KHR_swapchain_mutable_format: MUTABLE_FORMAT with these view formats (VkImageFormatListCreateInfo).
  std::vector<VkFormat> view_formats;
};

class WsiTest : public VulkanTest {
 protected:
  // The surface extensions the loader and driver offer (a driver may lack some, e.g. headless).
  std::vector<const char*> instance_extensions() const override;
  bool instance_extension_enabled(const char* name) const;
  void TearDown() override;  // swapchains, surfaces, then VulkanTest's teardown

  // The device (up to two queues of family 0, VK_KHR_swapchain), made on first use.
  TestDevice& wsi_device();
  // Takes ownership of a surface (destroyed at TearDown, after the swapchains).
  VkSurfaceKHR adopt_surface(VkSurfaceKHR surface);
  VkSurfaceKHR create_headless_surface();
  // Queries support (as the spec requires before vkCreateSwapchainKHR) and creates the swapchain;
  // the result of vkCreateSwapchainKHR is returned, `out` set on success (destroyed at TearDown).
  VkResult create_swapchain(VkSurfaceKHR surface, const SwapchainSetup& setup, VkSwapchainKHR* out);
  void destroy_swapchain(VkSwapchainKHR swapchain);  // before TearDown (waits for the device first)
  std::vector<VkImage> swapchain_images(VkSwapchainKHR swapchain);
  // Whether vkGetPhysicalDeviceSurfaceFormatsKHR lists `format` (SRGB_NONLINEAR) for the surface.
  bool surface_offers(VkSurfaceKHR surface, VkFormat format);

  // The device has VK_KHR_incremental_present (enabled when the driver offers it).
  bool incremental_present_enabled();

  // Acquires an image (waiting on a fence), clears it to `color`, optionally copies it to
  // `readback` (tightly packed texels) and presents it (semaphore-ordered) with `present_next`
  // chained to VkPresentInfoKHR. Returns the present's result; `image_index` gets the image presented.
  VkResult clear_and_present(VkSwapchainKHR swapchain, const SwapchainSetup& setup, const VkClearColorValue& color,
                             std::vector<uint8_t>* readback = nullptr, uint32_t* image_index = nullptr,
                             const void* present_next = nullptr);

  // Expected 8-bit value of a UNORM clear of `v`.
  static uint8_t unorm8(float v) { return static_cast<uint8_t>(v * 255.0f + 0.5f); }

 private:
  std::vector<VkSwapchainKHR> swapchains_;
  std::vector<VkSurfaceKHR> surfaces_;
  TestDevice* device_ = nullptr;
};

// Checks every pixel of `image` against `expected` RGB, reporting the first mismatch.
::testing::AssertionResult all_pixels_are(const RgbImage& image, std::array<uint8_t, 3> expected);

}  // namespace kiln::test
