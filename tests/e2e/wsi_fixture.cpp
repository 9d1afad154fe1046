#include "e2e/wsi_fixture.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace kiln::test {

namespace fs = std::filesystem;

// --- Frame dumps --------------------------------------------------------------------------------

FrameDumpDir::FrameDumpDir() {
  std::string pattern = (fs::temp_directory_path() / "kiln-wsi-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
  setenv("KILN_WSI_DUMP_DIR", path_.c_str(), 1);
}

FrameDumpDir::~FrameDumpDir() {
  unsetenv("KILN_WSI_DUMP_DIR");
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

size_t FrameDumpDir::frame_count() const {
  size_t n = 0;
  while (fs::exists(fs::path(path_) / ("kiln-frame-" + std::to_string(n) + ".ppm"))) ++n;
  return n;
}

namespace {
bool read_ppm(const fs::path& path, RgbImage* out) {
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  int max_value = 0;
  in >> magic >> out->width >> out->height >> max_value;
  if (magic != "P6" || max_value != 255) return false;
  in.get();  // the single whitespace after the header
  out->rgb.resize(size_t(out->width) * out->height * 3);
  in.read(reinterpret_cast<char*>(out->rgb.data()), std::streamsize(out->rgb.size()));
  return bool(in);
}
}  // namespace

std::vector<RgbImage> FrameDumpDir::wait_for_frames(size_t count) const {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (frame_count() < count && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::vector<RgbImage> frames;
  for (size_t i = 0; i < count; ++i) {
    RgbImage image;
    if (!read_ppm(fs::path(path_) / ("kiln-frame-" + std::to_string(i) + ".ppm"), &image)) break;
    frames.push_back(std::move(image));
  }
  return frames;
}

::testing::AssertionResult all_pixels_are(const RgbImage& image, std::array<uint8_t, 3> expected) {
  if (image.width == 0 || image.height == 0) return ::testing::AssertionFailure() << "empty image";
  for (uint32_t y = 0; y < image.height; ++y)
    for (uint32_t x = 0; x < image.width; ++x)
      if (image.at(x, y) != expected) {
        const auto got = image.at(x, y);
        return ::testing::AssertionFailure() << "pixel (" << x << "," << y << ") is (" << int(got[0]) << ","
                                             << int(got[1]) << "," << int(got[2]) << "), expected (" << int(expected[0])
                                             << "," << int(expected[1]) << "," << int(expected[2]) << ")";
      }
  return ::testing::AssertionSuccess();
}

// --- The fixture --------------------------------------------------------------------------------

std::vector<const char*> WsiTest::instance_extensions() const {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> available(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, available.data());
  std::vector<const char*> wanted;
  for (const char* name : {VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME, "VK_KHR_xcb_surface",
                           "VK_KHR_xlib_surface", "VK_KHR_wayland_surface",
                           VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME,
                           VK_KHR_SURFACE_PROTECTED_CAPABILITIES_EXTENSION_NAME})
    for (const VkExtensionProperties& p : available)
      if (std::string(p.extensionName) == name) wanted.push_back(name);
  return wanted;
}

bool WsiTest::instance_extension_enabled(const char* name) const {
  for (const char* enabled : instance_extensions())
    if (std::string(enabled) == name) return true;
  return false;
}

void WsiTest::TearDown() {
  if (device_) vkDeviceWaitIdle(device_->handle());
  for (auto it = swapchains_.rbegin(); it != swapchains_.rend(); ++it)
    vkDestroySwapchainKHR(device_->handle(), *it, nullptr);
  swapchains_.clear();
  for (VkSurfaceKHR surface : surfaces_) vkDestroySurfaceKHR(instance().handle(), surface, nullptr);
  surfaces_.clear();
  VulkanTest::TearDown();
}

TestDevice& WsiTest::wsi_device() {
  if (!device_) {
    uint32_t family_count = 1;
    VkQueueFamilyProperties family{};
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device(), &family_count, &family);
    DeviceOptions options;
    options.queue_count = std::min(2u, family.queueCount);
    options.extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    for (const char* optional : {VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME, VK_KHR_SWAPCHAIN_MUTABLE_FORMAT_EXTENSION_NAME})
      if (device_has_extension(physical_device(), optional)) options.extensions.push_back(optional);
    device_ = create_device(options);
    if (!device_) throw std::runtime_error("cannot create a device with VK_KHR_swapchain");
  }
  return *device_;
}

bool WsiTest::incremental_present_enabled() {
  wsi_device();
  return device_has_extension(physical_device(), VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME);
}

VkSurfaceKHR WsiTest::adopt_surface(VkSurfaceKHR surface) {
  surfaces_.push_back(surface);
  return surface;
}

VkSurfaceKHR WsiTest::create_headless_surface() {
  VkHeadlessSurfaceCreateInfoEXT info{.sType = VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
  auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
      vkGetInstanceProcAddr(instance().handle(), "vkCreateHeadlessSurfaceEXT"));
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  require(create(instance().handle(), &info, nullptr, &surface), "vkCreateHeadlessSurfaceEXT");
  return adopt_surface(surface);
}

VkResult WsiTest::create_swapchain(VkSurfaceKHR surface, const SwapchainSetup& setup, VkSwapchainKHR* out) {
  TestDevice& device = wsi_device();
  VkBool32 supported = VK_FALSE;
  require(vkGetPhysicalDeviceSurfaceSupportKHR(device.physical_device(), 0, surface, &supported),
          "vkGetPhysicalDeviceSurfaceSupportKHR");
  if (!supported) throw std::runtime_error("queue family 0 cannot present to the surface");
  VkSurfaceCapabilitiesKHR caps;
  require(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(device.physical_device(), surface, &caps),
          "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");

  VkSwapchainCreateInfoKHR info{.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface;
  info.minImageCount = setup.min_image_count ? setup.min_image_count : caps.minImageCount;
  info.imageFormat = setup.format;
  info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  info.imageExtent = setup.extent;
  info.imageArrayLayers = 1;
  info.imageUsage = setup.usage;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  info.presentMode = setup.present_mode;
  info.clipped = VK_TRUE;
  info.oldSwapchain = setup.old_swapchain;
  VkImageFormatListCreateInfo format_list{.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO};
  if (!setup.view_formats.empty()) {
    info.flags = VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR;
    format_list.viewFormatCount = static_cast<uint32_t>(setup.view_formats.size());
    format_list.pViewFormats = setup.view_formats.data();
    info.pNext = &format_list;
  }
  const VkResult result = vkCreateSwapchainKHR(device.handle(), &info, nullptr, out);
  if (result == VK_SUCCESS) swapchains_.push_back(*out);
  return result;
}

void WsiTest::destroy_swapchain(VkSwapchainKHR swapchain) {
  vkDeviceWaitIdle(wsi_device().handle());
  vkDestroySwapchainKHR(wsi_device().handle(), swapchain, nullptr);
  std::erase(swapchains_, swapchain);
}

std::vector<VkImage> WsiTest::swapchain_images(VkSwapchainKHR swapchain) {
  uint32_t count = 0;
  require(vkGetSwapchainImagesKHR(wsi_device().handle(), swapchain, &count, nullptr), "vkGetSwapchainImagesKHR");
  std::vector<VkImage> images(count);
  require(vkGetSwapchainImagesKHR(wsi_device().handle(), swapchain, &count, images.data()), "vkGetSwapchainImagesKHR");
  return images;
}

bool WsiTest::surface_offers(VkSurfaceKHR surface, VkFormat format) {
  uint32_t count = 0;
  require(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device(), surface, &count, nullptr), "surface formats");
  std::vector<VkSurfaceFormatKHR> formats(count);
  require(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device(), surface, &count, formats.data()), "surface formats");
  for (const VkSurfaceFormatKHR& f : formats)
    if (f.format == format && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return true;
  return false;
}

VkResult WsiTest::clear_and_present(VkSwapchainKHR swapchain, const SwapchainSetup& setup, const VkClearColorValue& color,
                                    std::vector<uint8_t>* readback, uint32_t* image_index, const void* present_next) {
  TestDevice& device = wsi_device();
  const std::vector<VkImage> images = swapchain_images(swapchain);
  VkSemaphore acquired = device.create_binary_semaphore();
  VkFence acquire_fence = device.create_fence(false);
  uint32_t index = UINT32_MAX;
  const VkResult acquire_result =
      vkAcquireNextImageKHR(device.handle(), swapchain, kGpuTimeoutNs, acquired, acquire_fence, &index);
  if (acquire_result != VK_SUCCESS && acquire_result != VK_SUBOPTIMAL_KHR) return acquire_result;
  require(vkWaitForFences(device.handle(), 1, &acquire_fence, VK_TRUE, kGpuTimeoutNs), "acquire fence");
  if (image_index) *image_index = index;

  const VkDeviceSize size = VkDeviceSize(setup.extent.width) * setup.extent.height * 4;
  Buffer copy = device.create_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer cmd = device.allocate_command_buffer();
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  const VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  require(vkBeginCommandBuffer(cmd, &begin), "begin");
  VkImageMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = 0;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = images[index];
  barrier.subresourceRange = range;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                       &barrier);
  vkCmdClearColorImage(cmd, images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
  VkImageLayout layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  if (readback) {
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    barrier.oldLayout = layout;
    barrier.newLayout = layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                         &barrier);
    VkBufferImageCopy region{};
    region.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    region.imageExtent = {setup.extent.width, setup.extent.height, 1};
    vkCmdCopyImageToBuffer(cmd, images[index], layout, copy.buffer, 1, &region);
  }
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = 0;
  barrier.oldLayout = layout;
  barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &barrier);
  require(vkEndCommandBuffer(cmd), "end");

  VkSemaphore rendered = device.create_binary_semaphore();
  VkFence done = device.create_fence(false);
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo submit_info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit_info.waitSemaphoreCount = 1;
  submit_info.pWaitSemaphores = &acquired;
  submit_info.pWaitDstStageMask = &wait_stage;
  submit_info.commandBufferCount = 1;
  submit_info.pCommandBuffers = &cmd;
  submit_info.signalSemaphoreCount = 1;
  submit_info.pSignalSemaphores = &rendered;
  require(vkQueueSubmit(device.queue(), 1, &submit_info, done), "vkQueueSubmit");

  VkPresentInfoKHR present{.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, .pNext = present_next};
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &rendered;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &index;
  VkResult per_swapchain = VK_RESULT_MAX_ENUM;
  present.pResults = &per_swapchain;
  const VkResult result = vkQueuePresentKHR(device.queue(setup.present_queue), &present);
  EXPECT_EQ(result, per_swapchain) << "pResults disagrees with the return value";
  require(vkWaitForFences(device.handle(), 1, &done, VK_TRUE, kGpuTimeoutNs), "submit fence");
  if (readback) readback->assign(copy.mapped, copy.mapped + size);
  return result;
}

}  // namespace kiln::test
