#include "tools/kiln-demo/window_presenter.h"

#include <vulkan/vulkan_xcb.h>  // after window_presenter.h's vulkan.h and xcb.h

#include <algorithm>
#include <stdexcept>

#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::demo {
namespace {

using tools::check;

VkSurfaceFormatKHR choose_format(VkPhysicalDevice physical_device, VkSurfaceKHR surface) {
  uint32_t count = 0;
  check(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device, surface, &count, nullptr),
        "vkGetPhysicalDeviceSurfaceFormatsKHR");
  std::vector<VkSurfaceFormatKHR> formats(count);
  check(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device, surface, &count, formats.data()),
        "vkGetPhysicalDeviceSurfaceFormatsKHR");
  if (formats.empty()) throw tools::VulkanError(VK_ERROR_FORMAT_NOT_SUPPORTED, "finding a surface format");
  // The picture is UNORM: a UNORM swapchain shows its bytes as they are.
  for (const VkSurfaceFormatKHR& format : formats) {
    if (format.format == VK_FORMAT_B8G8R8A8_UNORM || format.format == VK_FORMAT_R8G8B8A8_UNORM) return format;
  }
  return formats.front();
}

}  // namespace

WindowPresenter::WindowPresenter(tools::VulkanContext& context, uint32_t width, uint32_t height)
    : context_(context), width_(width), height_(height) {
  try {
    connection_ = xcb_connect(nullptr, nullptr);
    if (xcb_connection_has_error(connection_)) throw std::runtime_error("cannot connect to the X server ($DISPLAY)");
    xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(connection_)).data;
    window_ = xcb_generate_id(connection_);
    xcb_create_window(connection_, XCB_COPY_FROM_PARENT, window_, screen->root, 0, 0, uint16_t(width),
                      uint16_t(height), 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, nullptr);
    xcb_map_window(connection_, window_);
    xcb_flush(connection_);

    VkXcbSurfaceCreateInfoKHR surface_info{};
    surface_info.sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR;
    surface_info.connection = connection_;
    surface_info.window = window_;
    check(vkCreateXcbSurfaceKHR(context.instance(), &surface_info, nullptr, &surface_), "vkCreateXcbSurfaceKHR");
    VkBool32 supported = VK_FALSE;
    check(vkGetPhysicalDeviceSurfaceSupportKHR(context.physical_device(), context.queue_family(), surface_, &supported),
          "vkGetPhysicalDeviceSurfaceSupportKHR");
    if (!supported) throw tools::VulkanError(VK_ERROR_SURFACE_LOST_KHR, "presenting from the context's queue");

    VkSurfaceCapabilitiesKHR capabilities{};
    check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context.physical_device(), surface_, &capabilities),
          "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (!(capabilities.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) {
      throw tools::VulkanError(VK_ERROR_FEATURE_NOT_PRESENT, "swapchain images as transfer destinations");
    }
    const VkSurfaceFormatKHR format = choose_format(context.physical_device(), surface_);
    VkSwapchainCreateInfoKHR swapchain_info{};
    swapchain_info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
    swapchain_info.surface = surface_;
    swapchain_info.minImageCount = std::max(capabilities.minImageCount, 2u);
    if (capabilities.maxImageCount > 0) {
      swapchain_info.minImageCount = std::min(swapchain_info.minImageCount, capabilities.maxImageCount);
    }
    swapchain_info.imageFormat = format.format;
    swapchain_info.imageColorSpace = format.colorSpace;
    swapchain_info.imageExtent = capabilities.currentExtent.width != UINT32_MAX ? capabilities.currentExtent
                                                                                 : VkExtent2D{width, height};
    swapchain_info.imageArrayLayers = 1;
    swapchain_info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    swapchain_info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    swapchain_info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    swapchain_info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    swapchain_info.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // the one mode every driver has
    swapchain_info.clipped = VK_TRUE;
    check(vkCreateSwapchainKHR(context.device(), &swapchain_info, nullptr, &swapchain_), "vkCreateSwapchainKHR");
    extent_ = swapchain_info.imageExtent;
    uint32_t count = 0;
    check(vkGetSwapchainImagesKHR(context.device(), swapchain_, &count, nullptr), "vkGetSwapchainImagesKHR");
    images_.resize(count);
    check(vkGetSwapchainImagesKHR(context.device(), swapchain_, &count, images_.data()), "vkGetSwapchainImagesKHR");

    VkSemaphoreCreateInfo semaphore_info{};
    semaphore_info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    check(vkCreateSemaphore(context.device(), &semaphore_info, nullptr, &acquired_), "vkCreateSemaphore");
    check(vkCreateSemaphore(context.device(), &semaphore_info, nullptr, &rendered_), "vkCreateSemaphore");
    VkFenceCreateInfo fence_info{};
    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    check(vkCreateFence(context.device(), &fence_info, nullptr, &done_), "vkCreateFence");
  } catch (...) {
    release();
    throw;
  }
}

WindowPresenter::~WindowPresenter() { release(); }

void WindowPresenter::release() {
  const VkDevice device = context_.device();
  if (device != VK_NULL_HANDLE) vkDeviceWaitIdle(device);
  if (done_ != VK_NULL_HANDLE) vkDestroyFence(device, done_, nullptr);
  if (rendered_ != VK_NULL_HANDLE) vkDestroySemaphore(device, rendered_, nullptr);
  if (acquired_ != VK_NULL_HANDLE) vkDestroySemaphore(device, acquired_, nullptr);
  if (swapchain_ != VK_NULL_HANDLE) vkDestroySwapchainKHR(device, swapchain_, nullptr);
  if (surface_ != VK_NULL_HANDLE) vkDestroySurfaceKHR(context_.instance(), surface_, nullptr);
  if (connection_) {
    if (window_) xcb_destroy_window(connection_, window_);
    xcb_disconnect(connection_);
  }
  done_ = VK_NULL_HANDLE;
  rendered_ = acquired_ = VK_NULL_HANDLE;
  swapchain_ = VK_NULL_HANDLE;
  surface_ = VK_NULL_HANDLE;
  connection_ = nullptr;
  window_ = 0;
}

void WindowPresenter::run_frame(const std::function<void(VkCommandBuffer)>& record, VkImage picture) {
  const VkDevice device = context_.device();
  uint32_t index = 0;
  const VkResult acquired = vkAcquireNextImageKHR(device, swapchain_, UINT64_MAX, acquired_, VK_NULL_HANDLE, &index);
  if (acquired != VK_SUBOPTIMAL_KHR) check(acquired, "vkAcquireNextImageKHR");
  const VkImage target = images_[index];

  VkCommandBuffer cmd = context_.allocate_command_buffer();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  record(cmd);
  // The acquire semaphore's wait (TRANSFER stage) orders the transition after the presentation
  // engine is done with the image.
  tools::image_barrier(cmd, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  bench::record_away_from_rest(cmd, picture, bench::kColourAttachmentRest, tools::colour_subresource_range(), false,
                               [&](VkImageLayout layout) {
                                 VkImageBlit blit{};
                                 blit.srcSubresource = tools::colour_subresource_layers();
                                 blit.srcOffsets[1] = {int32_t(width_), int32_t(height_), 1};
                                 blit.dstSubresource = tools::colour_subresource_layers();
                                 blit.dstOffsets[1] = {int32_t(extent_.width), int32_t(extent_.height), 1};
                                 vkCmdBlitImage(cmd, picture, layout, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                                                &blit, VK_FILTER_NEAREST);
                               });
  tools::image_barrier(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0);
  check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &acquired_;
  submit.pWaitDstStageMask = &wait_stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &rendered_;
  check(vkResetFences(device, 1, &done_), "vkResetFences");
  check(vkQueueSubmit(context_.queue(), 1, &submit, done_), "vkQueueSubmit");
  VkPresentInfoKHR present{};
  present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &rendered_;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain_;
  present.pImageIndices = &index;
  const VkResult presented = vkQueuePresentKHR(context_.queue(), &present);
  if (presented != VK_SUBOPTIMAL_KHR) check(presented, "vkQueuePresentKHR");
  check(vkWaitForFences(device, 1, &done_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  context_.free_command_buffer(cmd);
}

}  // namespace kiln::demo
