// VK_EXT_headless_surface + VK_KHR_swapchain: surface queries, acquire (timeouts, semaphores,
// fences), clear + present, what was presented (Kiln's KILN_WSI_DUMP_DIR frames), recreation with
// oldSwapchain and the present modes.
#include <algorithm>
#include <chrono>
#include <thread>

#include "e2e/wsi_fixture.h"

namespace kiln::test {
namespace {

class HeadlessWsiTest : public WsiTest {
 protected:
  void SetUp() override {
    WsiTest::SetUp();
    if (HasFatalFailure()) return;
    REQUIRE_ON_KILN(instance_extension_enabled(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME), "VK_EXT_headless_surface");
  }
};

bool has_format(const std::vector<VkSurfaceFormatKHR>& formats, VkFormat format) {
  return std::any_of(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR& f) {
    return f.format == format && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  });
}

std::vector<VkPresentModeKHR> present_modes(VkPhysicalDevice pd, VkSurfaceKHR surface) {
  uint32_t count = 0;
  require(vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &count, nullptr), "present modes");
  std::vector<VkPresentModeKHR> modes(count);
  require(vkGetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &count, modes.data()), "present modes");
  return modes;
}

TEST_F(HeadlessWsiTest, SurfaceCapabilitiesFormatsAndModes) {
  VkSurfaceKHR surface = create_headless_surface();
  VkBool32 supported = VK_FALSE;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceSupportKHR(physical_device(), 0, surface, &supported));
  EXPECT_TRUE(supported);

  VkSurfaceCapabilitiesKHR caps;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_device(), surface, &caps));
  EXPECT_GE(caps.minImageCount, 1u);
  EXPECT_TRUE(caps.maxImageCount == 0 || caps.maxImageCount >= caps.minImageCount);
  EXPECT_TRUE(caps.supportedUsageFlags & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);  // required by the spec
  EXPECT_TRUE(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  EXPECT_TRUE(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR);
  EXPECT_TRUE(caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR);
  EXPECT_GE(caps.maxImageArrayLayers, 1u);

  uint32_t count = 0;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device(), surface, &count, nullptr));
  std::vector<VkSurfaceFormatKHR> formats(count);
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device(), surface, &count, formats.data()));
  EXPECT_TRUE(has_format(formats, VK_FORMAT_B8G8R8A8_UNORM));
  EXPECT_TRUE(has_format(formats, VK_FORMAT_B8G8R8A8_SRGB));
  if (count > 1) {  // the two-call idiom: a short array gives VK_INCOMPLETE
    uint32_t short_count = 1;
    VkSurfaceFormatKHR one;
    EXPECT_EQ(VK_INCOMPLETE, vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device(), surface, &short_count, &one));
    EXPECT_EQ(formats[0].format, one.format);
  }

  const std::vector<VkPresentModeKHR> modes = present_modes(physical_device(), surface);
  EXPECT_NE(modes.end(), std::find(modes.begin(), modes.end(), VK_PRESENT_MODE_FIFO_KHR));

  // VK_KHR_get_surface_capabilities2 gives the same answers.
  auto caps2_fn = reinterpret_cast<PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR>(
      vkGetInstanceProcAddr(instance().handle(), "vkGetPhysicalDeviceSurfaceCapabilities2KHR"));
  auto formats2_fn = reinterpret_cast<PFN_vkGetPhysicalDeviceSurfaceFormats2KHR>(
      vkGetInstanceProcAddr(instance().handle(), "vkGetPhysicalDeviceSurfaceFormats2KHR"));
  ASSERT_NE(nullptr, caps2_fn);
  ASSERT_NE(nullptr, formats2_fn);
  VkPhysicalDeviceSurfaceInfo2KHR info{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR};
  info.surface = surface;
  VkSurfaceCapabilities2KHR caps2{.sType = VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR};
  ASSERT_EQ(VK_SUCCESS, caps2_fn(physical_device(), &info, &caps2));
  EXPECT_EQ(caps.minImageCount, caps2.surfaceCapabilities.minImageCount);
  EXPECT_EQ(caps.currentExtent.width, caps2.surfaceCapabilities.currentExtent.width);
  EXPECT_EQ(caps.supportedUsageFlags, caps2.surfaceCapabilities.supportedUsageFlags);
  uint32_t count2 = 0;
  ASSERT_EQ(VK_SUCCESS, formats2_fn(physical_device(), &info, &count2, nullptr));
  ASSERT_EQ(count, count2);
  std::vector<VkSurfaceFormat2KHR> formats2(count2, {.sType = VK_STRUCTURE_TYPE_SURFACE_FORMAT_2_KHR});
  ASSERT_EQ(VK_SUCCESS, formats2_fn(physical_device(), &info, &count2, formats2.data()));
  for (uint32_t i = 0; i < count; ++i) EXPECT_EQ(formats[i].format, formats2[i].surfaceFormat.format);

  // VK_KHR_surface_protected_capabilities: the answer goes into the chained structure.
  if (instance_extension_enabled(VK_KHR_SURFACE_PROTECTED_CAPABILITIES_EXTENSION_NAME)) {
    VkSurfaceProtectedCapabilitiesKHR protected_caps{.sType = VK_STRUCTURE_TYPE_SURFACE_PROTECTED_CAPABILITIES_KHR};
    protected_caps.supportsProtected = 0xcd;  // not a VkBool32: the driver must write it
    VkSurfaceCapabilities2KHR chained{.sType = VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR, .pNext = &protected_caps};
    ASSERT_EQ(VK_SUCCESS, caps2_fn(physical_device(), &info, &chained));
    EXPECT_EQ(&protected_caps, chained.pNext);
    EXPECT_TRUE(protected_caps.supportsProtected == VK_FALSE || protected_caps.supportsProtected == VK_TRUE);
    if (is_kiln()) EXPECT_EQ(VkBool32(VK_FALSE), protected_caps.supportsProtected);  // no protected memory
  } else {
    EXPECT_FALSE(is_kiln()) << "Kiln offers VK_KHR_surface_protected_capabilities";
  }

  if (!is_kiln()) return;
  // Kiln: the swapchain decides a headless surface's size; every present mode is real.
  EXPECT_EQ(0xFFFFFFFFu, caps.currentExtent.width);
  EXPECT_EQ(0xFFFFFFFFu, caps.currentExtent.height);
  EXPECT_EQ(4u, modes.size());
  EXPECT_TRUE(has_format(formats, VK_FORMAT_R8G8B8A8_UNORM));
  EXPECT_TRUE(has_format(formats, VK_FORMAT_R8G8B8A8_SRGB));
}

TEST_F(HeadlessWsiTest, ClearPresentAndReadBack) {
  FrameDumpDir dumps;
  VkSurfaceKHR surface = create_headless_surface();
  SwapchainSetup setup;
  setup.extent = {40, 24};
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  const std::vector<VkImage> images = swapchain_images(swapchain);
  ASSERT_GE(images.size(), 1u);

  const VkClearColorValue color{{1.0f, 0.2f, 0.4f, 1.0f}};
  std::vector<uint8_t> texels;
  ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, color, &texels));
  // The swapchain image holds the clear (B8G8R8A8: blue first in memory).
  ASSERT_EQ(size_t(40 * 24 * 4), texels.size());
  for (size_t i = 0; i < texels.size(); i += 4) {
    ASSERT_EQ(unorm8(0.4f), texels[i + 0]) << "texel " << i / 4;
    ASSERT_EQ(unorm8(0.2f), texels[i + 1]) << "texel " << i / 4;
    ASSERT_EQ(255, texels[i + 2]) << "texel " << i / 4;
    ASSERT_EQ(255, texels[i + 3]) << "texel " << i / 4;
  }
  if (!is_kiln()) return;
  // What Kiln's presentation delivered (KILN_WSI_DUMP_DIR): the cleared image, whole.
  const std::vector<RgbImage> frames = dumps.wait_for_frames(1);
  ASSERT_EQ(1u, frames.size()) << "no presented frame within 5 s";
  EXPECT_EQ(40u, frames[0].width);
  EXPECT_EQ(24u, frames[0].height);
  EXPECT_TRUE(all_pixels_are(frames[0], {255, unorm8(0.2f), unorm8(0.4f)}));
}

// VK_KHR_swapchain_mutable_format: a B8G8R8A8_UNORM swapchain made MUTABLE_FORMAT with the view
// formats {UNORM, SRGB} gives images with B8G8R8A8_SRGB views; a render pass clearing through such
// a view to linear 0.5 stores the sRGB encoding, 188, which the image (read as UNORM) shows.
TEST_F(HeadlessWsiTest, MutableFormatSwapchainImagesTakeSrgbViews) {
  if (!device_has_extension(physical_device(), VK_KHR_SWAPCHAIN_MUTABLE_FORMAT_EXTENSION_NAME)) {
    EXPECT_FALSE(is_kiln()) << "Kiln offers VK_KHR_swapchain_mutable_format";
    GTEST_SKIP() << "no VK_KHR_swapchain_mutable_format";
  }
  VkSurfaceKHR surface = create_headless_surface();
  SwapchainSetup setup;
  setup.extent = {8, 4};
  setup.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  setup.view_formats = {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB};
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  TestDevice& device = wsi_device();
  const VkDevice d = device.handle();
  VkSemaphore acquired = device.create_binary_semaphore();
  uint32_t index = 0;
  ASSERT_EQ(VK_SUCCESS, vkAcquireNextImageKHR(d, swapchain, kGpuTimeoutNs, acquired, VK_NULL_HANDLE, &index));
  const VkImage image = swapchain_images(swapchain)[index];
  VkImageViewCreateInfo view_info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = VK_FORMAT_B8G8R8A8_SRGB;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateImageView(d, &view_info, nullptr, &view));
  device.defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
  // A render pass clears through the sRGB view, then the image is copied out.
  VkAttachmentDescription attachment{};
  attachment.format = VK_FORMAT_B8G8R8A8_SRGB;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  const VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  const VkSubpassDependency dependencies[] = {
      {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
      {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, 0}};
  VkRenderPassCreateInfo pass_info{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  pass_info.attachmentCount = 1;
  pass_info.pAttachments = &attachment;
  pass_info.subpassCount = 1;
  pass_info.pSubpasses = &subpass;
  pass_info.dependencyCount = 2;
  pass_info.pDependencies = dependencies;
  VkRenderPass pass = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateRenderPass(d, &pass_info, nullptr, &pass));
  device.defer_destroy([d, pass] { vkDestroyRenderPass(d, pass, nullptr); });
  VkFramebufferCreateInfo fb_info{.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb_info.renderPass = pass;
  fb_info.attachmentCount = 1;
  fb_info.pAttachments = &view;
  fb_info.width = 8;
  fb_info.height = 4;
  fb_info.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateFramebuffer(d, &fb_info, nullptr, &framebuffer));
  device.defer_destroy([d, framebuffer] { vkDestroyFramebuffer(d, framebuffer, nullptr); });
  Buffer copy = device.create_buffer(8 * 4 * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0);
  VkCommandBuffer cmd = device.allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  const VkClearValue clear{.color = {{0.5f, 0.5f, 0.5f, 1.0f}}};
  VkRenderPassBeginInfo pass_begin{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  pass_begin.renderPass = pass;
  pass_begin.framebuffer = framebuffer;
  pass_begin.renderArea = {{0, 0}, {8, 4}};
  pass_begin.clearValueCount = 1;
  pass_begin.pClearValues = &clear;
  vkCmdBeginRenderPass(cmd, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdEndRenderPass(cmd);
  VkBufferImageCopy region{};
  region.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
  region.imageExtent = {8, 4, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copy.buffer, 1, &region);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));
  VkFence done = device.create_fence(false);
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo submit{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &acquired;
  submit.pWaitDstStageMask = &wait_stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(), 1, &submit, done));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(d, 1, &done, VK_TRUE, kGpuTimeoutNs));
  for (uint32_t i = 0; i < 8 * 4; ++i) {
    for (uint32_t c = 0; c < 3; ++c) ASSERT_EQ(188, copy.mapped[i * 4 + c]) << "texel " << i << " channel " << c;
    ASSERT_EQ(255, copy.mapped[i * 4 + 3]) << "texel " << i;
  }
}

TEST_F(HeadlessWsiTest, RgbaSwapchainPresentsSwizzledCorrectly) {
  KILN_ONLY();  // reads Kiln's frame dumps
  FrameDumpDir dumps;
  VkSurfaceKHR surface = create_headless_surface();
  SwapchainSetup setup;
  setup.format = VK_FORMAT_R8G8B8A8_SRGB;
  setup.extent = {16, 16};
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  // An sRGB clear stores encoded values; 1.0 and 0.0 encode exactly.
  ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{0.0f, 1.0f, 0.0f, 1.0f}}));
  const std::vector<RgbImage> frames = dumps.wait_for_frames(1);
  ASSERT_EQ(1u, frames.size());
  EXPECT_TRUE(all_pixels_are(frames[0], {0, 255, 0}));
}

TEST_F(HeadlessWsiTest, AcquireTimeoutsSemaphoresAndFences) {
  VkSurfaceKHR surface = create_headless_surface();
  SwapchainSetup setup;
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  const uint32_t image_count = static_cast<uint32_t>(swapchain_images(swapchain).size());
  TestDevice& device = wsi_device();

  // Acquire every image without presenting: each acquire signals its fence; the images are
  // distinct.
  std::vector<uint32_t> acquired;
  for (uint32_t i = 0; i < image_count; ++i) {
    VkFence fence = device.create_fence(false);
    uint32_t index = UINT32_MAX;
    const VkResult r = vkAcquireNextImageKHR(device.handle(), swapchain, 0, VK_NULL_HANDLE, fence, &index);
    if (r == VK_NOT_READY) break;  // a driver may keep some images back
    ASSERT_EQ(VK_SUCCESS, r);
    ASSERT_EQ(VK_SUCCESS, vkWaitForFences(device.handle(), 1, &fence, VK_TRUE, kGpuTimeoutNs));
    ASSERT_LT(index, image_count);
    EXPECT_EQ(acquired.end(), std::find(acquired.begin(), acquired.end(), index)) << "image acquired twice";
    acquired.push_back(index);
  }
  ASSERT_GE(acquired.size(), 1u);
  if (is_kiln()) {
    EXPECT_EQ(image_count, acquired.size());
  }
  // Nothing left: timeout 0 → NOT_READY, a short timeout → TIMEOUT, and neither waits forever.
  uint32_t index = UINT32_MAX;
  VkFence unused = device.create_fence(false);
  EXPECT_EQ(VK_NOT_READY, vkAcquireNextImageKHR(device.handle(), swapchain, 0, VK_NULL_HANDLE, unused, &index));
  EXPECT_EQ(VK_TIMEOUT, vkAcquireNextImageKHR(device.handle(), swapchain, 2'000'000, VK_NULL_HANDLE, unused, &index));
  EXPECT_EQ(VK_NOT_READY, vkGetFenceStatus(device.handle(), unused)) << "a failed acquire signalled its fence";
}

TEST_F(HeadlessWsiTest, AcquireSemaphoreOrdersSubmission) {
  // The acquire's semaphore is what a submission waits on (clear_and_present), and presenting
  // returns the image: many frames on a 2-image swapchain all succeed.
  FrameDumpDir dumps;
  VkSurfaceKHR surface = create_headless_surface();
  SwapchainSetup setup;
  setup.extent = {8, 8};
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  constexpr int kFrames = 6;
  for (int f = 0; f < kFrames; ++f) {
    const float v = float(f + 1) / 8.0f;
    ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{v, 0.0f, 1.0f - v, 1.0f}}));
  }
  if (!is_kiln()) return;
  // FIFO shows every frame, in order.
  const std::vector<RgbImage> frames = dumps.wait_for_frames(kFrames);
  ASSERT_EQ(size_t(kFrames), frames.size());
  for (int f = 0; f < kFrames; ++f) {
    const float v = float(f + 1) / 8.0f;
    EXPECT_TRUE(all_pixels_are(frames[f], {unorm8(v), 0, unorm8(1.0f - v)})) << "frame " << f;
  }
}

TEST_F(HeadlessWsiTest, PresentFromAnotherQueueWaitsForTheRendering) {
  // Queue 0 clears, queue 1 presents after the clear's semaphore: the frame shows the clear.
  FrameDumpDir dumps;
  VkSurfaceKHR surface = create_headless_surface();
  REQUIRE_ON_KILN(wsi_device().queue_count() >= 2, "two queues");
  SwapchainSetup setup;
  setup.extent = {20, 10};
  setup.present_queue = 1;
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  for (int f = 0; f < 3; ++f)
    ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{0.0f, 0.0f, f / 2.0f, 1.0f}}));
  if (!is_kiln()) return;
  const std::vector<RgbImage> frames = dumps.wait_for_frames(3);
  ASSERT_EQ(3u, frames.size());
  for (int f = 0; f < 3; ++f) EXPECT_TRUE(all_pixels_are(frames[f], {0, 0, unorm8(f / 2.0f)})) << "frame " << f;
}

TEST_F(HeadlessWsiTest, OnePresentCallForTwoSwapchains) {
  FrameDumpDir dumps;
  TestDevice& device = wsi_device();
  const VkExtent2D extents[2] = {{12, 6}, {7, 9}};
  const VkClearColorValue colors[2] = {{{1.0f, 0.0f, 0.0f, 1.0f}}, {{0.0f, 1.0f, 0.0f, 1.0f}}};
  VkSwapchainKHR swapchains[2];
  uint32_t indices[2];
  VkSemaphore rendered = device.create_binary_semaphore();
  VkCommandBuffer cmd = device.allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  for (int i = 0; i < 2; ++i) {
    SwapchainSetup setup;
    setup.extent = extents[i];
    ASSERT_EQ(VK_SUCCESS, create_swapchain(create_headless_surface(), setup, &swapchains[i]));
    const std::vector<VkImage> images = swapchain_images(swapchains[i]);  // before acquiring, as the layer wants
    VkFence acquired = device.create_fence(false);
    ASSERT_EQ(VK_SUCCESS, vkAcquireNextImageKHR(device.handle(), swapchains[i], kGpuTimeoutNs, VK_NULL_HANDLE, acquired,
                                                &indices[i]));
    ASSERT_EQ(VK_SUCCESS, vkWaitForFences(device.handle(), 1, &acquired, VK_TRUE, kGpuTimeoutNs));
    const VkImage image = images[indices[i]];
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    transition(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colors[i], 1, &range);
    transition(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  }
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));
  VkSubmitInfo submit_info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit_info.commandBufferCount = 1;
  submit_info.pCommandBuffers = &cmd;
  submit_info.signalSemaphoreCount = 1;
  submit_info.pSignalSemaphores = &rendered;
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(), 1, &submit_info, VK_NULL_HANDLE));

  VkPresentInfoKHR present{.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &rendered;
  present.swapchainCount = 2;
  present.pSwapchains = swapchains;
  present.pImageIndices = indices;
  VkResult results[2] = {VK_RESULT_MAX_ENUM, VK_RESULT_MAX_ENUM};
  present.pResults = results;
  ASSERT_EQ(VK_SUCCESS, vkQueuePresentKHR(device.queue(), &present));
  EXPECT_EQ(VK_SUCCESS, results[0]);
  EXPECT_EQ(VK_SUCCESS, results[1]);
  ASSERT_EQ(VK_SUCCESS, vkQueueWaitIdle(device.queue()));
  if (!is_kiln()) return;
  // Each swapchain showed its own frame (the two presentation threads may finish in any order).
  const std::vector<RgbImage> frames = dumps.wait_for_frames(2);
  ASSERT_EQ(2u, frames.size());
  const bool first_is_red = frames[0].width == 12;
  const RgbImage& red = frames[first_is_red ? 0 : 1];
  const RgbImage& green = frames[first_is_red ? 1 : 0];
  EXPECT_EQ(12u, red.width);
  EXPECT_EQ(6u, red.height);
  EXPECT_TRUE(all_pixels_are(red, {255, 0, 0}));
  EXPECT_EQ(7u, green.width);
  EXPECT_EQ(9u, green.height);
  EXPECT_TRUE(all_pixels_are(green, {0, 255, 0}));
}

TEST_F(HeadlessWsiTest, ImageBoundToSwapchainMemoryAliasesTheSwapchainImage) {
  // Vulkan 1.1 + VK_KHR_swapchain: an image created for the swapchain and bound to one of its
  // images (VkBindImageMemorySwapchainInfoKHR) shares that image's memory.
  FrameDumpDir dumps;
  VkSurfaceKHR surface = create_headless_surface();
  SwapchainSetup setup;
  setup.extent = {16, 8};
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  TestDevice& device = wsi_device();
  swapchain_images(swapchain);  // the validation layer tracks swapchain images from this query on

  VkImageSwapchainCreateInfoKHR for_swapchain{.sType = VK_STRUCTURE_TYPE_IMAGE_SWAPCHAIN_CREATE_INFO_KHR};
  for_swapchain.swapchain = swapchain;
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.pNext = &for_swapchain;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = setup.format;
  info.extent = {setup.extent.width, setup.extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = setup.usage;
  VkImage alias;
  ASSERT_EQ(VK_SUCCESS, vkCreateImage(device.handle(), &info, nullptr, &alias));
  device.defer_destroy([&device, alias] { vkDestroyImage(device.handle(), alias, nullptr); });

  VkFence acquired = device.create_fence(false);
  uint32_t index = 0;
  ASSERT_EQ(VK_SUCCESS, vkAcquireNextImageKHR(device.handle(), swapchain, kGpuTimeoutNs, VK_NULL_HANDLE, acquired, &index));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(device.handle(), 1, &acquired, VK_TRUE, kGpuTimeoutNs));
  VkBindImageMemorySwapchainInfoKHR bind_swapchain{.sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_SWAPCHAIN_INFO_KHR};
  bind_swapchain.swapchain = swapchain;
  bind_swapchain.imageIndex = index;
  VkBindImageMemoryInfo bind{.sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO};
  bind.pNext = &bind_swapchain;
  bind.image = alias;
  ASSERT_EQ(VK_SUCCESS, vkBindImageMemory2(device.handle(), 1, &bind));

  // The clear is written through the alias (the validation layer tracks both as one image, so the
  // alias's transitions are the swapchain image's).
  const VkClearColorValue color{{0.0f, 0.6f, 1.0f, 1.0f}};
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkSemaphore rendered = device.create_binary_semaphore();
  VkFence done = device.create_fence(false);
  VkCommandBuffer cmd = device.allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  transition(cmd, alias, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  vkCmdClearColorImage(cmd, alias, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
  transition(cmd, alias, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));
  VkSubmitInfo submit_info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit_info.commandBufferCount = 1;
  submit_info.pCommandBuffers = &cmd;
  submit_info.signalSemaphoreCount = 1;
  submit_info.pSignalSemaphores = &rendered;
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(), 1, &submit_info, done));
  VkPresentInfoKHR present{.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &rendered;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &index;
  ASSERT_EQ(VK_SUCCESS, vkQueuePresentKHR(device.queue(), &present));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(device.handle(), 1, &done, VK_TRUE, kGpuTimeoutNs));
  if (!is_kiln()) return;
  const std::vector<RgbImage> frames = dumps.wait_for_frames(1);
  ASSERT_EQ(1u, frames.size());
  EXPECT_TRUE(all_pixels_are(frames[0], {0, unorm8(0.6f), 255}));
}

TEST_F(HeadlessWsiTest, RecreateWithOldSwapchain) {
  FrameDumpDir dumps;
  VkSurfaceKHR surface = create_headless_surface();
  SwapchainSetup first;
  first.extent = {32, 32};
  VkSwapchainKHR old_swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, first, &old_swapchain));
  ASSERT_EQ(VK_SUCCESS, clear_and_present(old_swapchain, first, VkClearColorValue{{1.0f, 0.0f, 0.0f, 1.0f}}));

  SwapchainSetup second;
  second.extent = {48, 16};  // a "resized" surface
  second.old_swapchain = old_swapchain;
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, second, &swapchain));
  destroy_swapchain(old_swapchain);
  std::vector<uint8_t> texels;
  ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, second, VkClearColorValue{{0.0f, 0.0f, 1.0f, 1.0f}}, &texels));
  ASSERT_EQ(size_t(48 * 16 * 4), texels.size());
  EXPECT_EQ(255, texels[0]);  // blue, B8G8R8A8
  if (!is_kiln()) return;
  const std::vector<RgbImage> frames = dumps.wait_for_frames(2);
  ASSERT_EQ(2u, frames.size());
  EXPECT_EQ(32u, frames[0].width);
  EXPECT_TRUE(all_pixels_are(frames[0], {255, 0, 0}));
  EXPECT_EQ(48u, frames[1].width);
  EXPECT_EQ(16u, frames[1].height);
  EXPECT_TRUE(all_pixels_are(frames[1], {0, 0, 255}));
}

TEST_F(HeadlessWsiTest, EveryReportedPresentModeShowsTheLastFrame) {
  VkSurfaceKHR surface = create_headless_surface();
  for (VkPresentModeKHR mode : present_modes(physical_device(), surface)) {
    SCOPED_TRACE(::testing::Message() << "present mode " << mode);
    FrameDumpDir dumps;
    SwapchainSetup setup;
    setup.extent = {8, 4};
    setup.present_mode = mode;
    VkSwapchainKHR swapchain;
    ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
    for (int f = 0; f < 3; ++f)
      ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{0.0f, f / 2.0f, 0.0f, 1.0f}}));
    if (is_kiln()) {
      // IMMEDIATE and the FIFOs show every frame in order; MAILBOX may drop frames but never the
      // last one, which it shows at the next refresh.
      const std::array<uint8_t, 3> green{0, 255, 0};
      std::vector<RgbImage> shown;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      do {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        shown = dumps.wait_for_frames(mode == VK_PRESENT_MODE_MAILBOX_KHR ? std::max<size_t>(1, dumps.frame_count()) : 3);
      } while ((shown.empty() || shown.back().at(0, 0) != green) && std::chrono::steady_clock::now() < deadline);
      ASSERT_FALSE(shown.empty());
      EXPECT_TRUE(all_pixels_are(shown.back(), green));
      if (mode != VK_PRESENT_MODE_MAILBOX_KHR) {
        EXPECT_EQ(3u, shown.size());
      }
    }
    destroy_swapchain(swapchain);
  }
}

}  // namespace
}  // namespace kiln::test
