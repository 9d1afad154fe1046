// Command buffers reset, re-recorded or freed while a submission of them is still pending (issue
// 21). The spec forbids it (VUID-vkResetCommandBuffer-commandBuffer-00045,
// VUID-vkFreeCommandBuffers-pCommandBuffers-00047), so these tests run without the validation
// layer; but gfxrecon-replay's virtual swapchain re-records its blit command buffer on every
// present while the previous present's blit may still be running, and GPU drivers survive that.
// Kiln must too: a pending submission runs what was submitted, and no application call frees the
// memory a queue is executing. Kiln-only: how a driver treats invalid usage is its own choice.
#include <array>
#include <memory>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkImageLayout kGeneral = VK_IMAGE_LAYOUT_GENERAL;
using Rgba8 = std::array<uint8_t, 4>;

VkClearColorValue clear_value(Rgba8 c) { return {{c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, c[3] / 255.0f}}; }

constexpr Rgba8 kRed{255, 0, 0, 255}, kGreen{0, 255, 0, 255}, kBlue{0, 0, 255, 255}, kBlack{0, 0, 0, 0};

class PendingCommandBufferTest : public VulkanTest {
 protected:
  void TearDown() override {
    device_.reset();  // before VulkanTest destroys the unvalidated instance it was made from
    VulkanTest::TearDown();
  }

  // A device of an instance without the validation layer (these tests misuse the API on purpose).
  TestDevice& unvalidated_device() {
    if (!device_) {
      UnvalidatedContext context = create_unvalidated_context();
      require(TestDevice::create(context.physical_device, DeviceOptions{}, &device_), "unvalidated device");
    }
    return *device_;
  }

  // An RGBA8 image in GENERAL layout (used so throughout), cleared to `color`.
  Image make_image(VkExtent2D extent, Rgba8 color) {
    TestDevice& d = unvalidated_device();
    Image image = d.create_image(VK_IMAGE_TYPE_2D, kFormat, {extent.width, extent.height, 1});
    d.run_commands([&](VkCommandBuffer cmd) {
      transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, kGeneral);
      const VkClearColorValue value = clear_value(color);
      const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cmd, image.image, kGeneral, &value, 1, &range);
      full_barrier(cmd);
    });
    return image;
  }

  // Every texel of `image` equals `color`.
  ::testing::AssertionResult all_texels_are(const Image& image, Rgba8 color) {
    const std::vector<uint8_t> bytes =
        unvalidated_device().read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kGeneral);
    if (bytes.empty()) return ::testing::AssertionFailure() << "image could not be read back";
    for (size_t i = 0; i < bytes.size(); i += 4) {
      if (bytes[i] != color[0] || bytes[i + 1] != color[1] || bytes[i + 2] != color[2] || bytes[i + 3] != color[3])
        return ::testing::AssertionFailure() << "texel " << i / 4 << " is (" << int(bytes[i]) << ", " << int(bytes[i + 1])
                                             << ", " << int(bytes[i + 2]) << ", " << int(bytes[i + 3]) << "), expected ("
                                             << int(color[0]) << ", " << int(color[1]) << ", " << int(color[2]) << ", "
                                             << int(color[3]) << ")";
    }
    return ::testing::AssertionSuccess();
  }

  // A command buffer that holds the queue until the host sets `event`: submissions behind it stay
  // pending for as long as the test needs.
  VkCommandBuffer record_gate(VkEvent event) {
    VkCommandBuffer cmd = unvalidated_device().allocate_command_buffer();
    const VkCommandBufferBeginInfo begin = begin_info();
    require(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    vkCmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0, nullptr,
                    0, nullptr);
    require(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    return cmd;
  }

  VkResult submit_all(const std::vector<VkCommandBuffer>& cmds, VkFence fence) {
    VkSubmitInfo info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
    info.commandBufferCount = static_cast<uint32_t>(cmds.size());
    info.pCommandBuffers = cmds.data();
    return vkQueueSubmit(unvalidated_device().queue(), 1, &info, fence);
  }

  VkResult wait_for(VkFence fence) {
    return vkWaitForFences(unvalidated_device().handle(), 1, &fence, VK_TRUE, kGpuTimeoutNs);
  }

 private:
  std::unique_ptr<TestDevice> device_;
};

// What gfxrecon-replay records for each present: a whole-image NEAREST blit with the original
// vkCmdBlitImage (whose regions Kiln converts to VkImageBlit2), between barriers.
void record_blit(VkCommandBuffer cmd, const Image& src, const Image& dst,
                 const VkCommandBufferInheritanceInfo* inheritance = nullptr) {
  VkCommandBufferBeginInfo begin = begin_info();
  begin.pInheritanceInfo = inheritance;
  require(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  full_barrier(cmd);
  const VkOffset3D end{int32_t(src.info.extent.width), int32_t(src.info.extent.height), 1};
  const VkImageBlit blit{layers(VK_IMAGE_ASPECT_COLOR_BIT, 0), {{0, 0, 0}, end}, layers(VK_IMAGE_ASPECT_COLOR_BIT, 0),
                         {{0, 0, 0}, end}};
  vkCmdBlitImage(cmd, src.image, kGeneral, dst.image, kGeneral, 1, &blit, VK_FILTER_NEAREST);
  full_barrier(cmd);
  require(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
}

// The first submission was made before the re-recording: it must run the blit it was given, not
// the one recorded into the same command buffer afterwards (which runs with the second).
TEST_F(PendingCommandBufferTest, ReRecordedWhilePendingRunsWhatWasSubmitted) {
  KILN_ONLY();
  TestDevice& d = unvalidated_device();
  const Image red = make_image({64, 64}, kRed), green = make_image({64, 64}, kGreen);
  const Image first = make_image({64, 64}, kBlack), second = make_image({64, 64}, kBlack);
  VkEvent event = d.create_event();
  VkCommandBuffer gate = record_gate(event);
  VkCommandBuffer blit = d.allocate_command_buffer();
  record_blit(blit, red, first);
  VkFence first_done = d.create_fence(false), second_done = d.create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit_all({gate, blit}, first_done));

  ASSERT_EQ(VK_SUCCESS, vkResetCommandBuffer(blit, 0));
  record_blit(blit, green, second);
  ASSERT_EQ(VK_SUCCESS, submit_all({blit}, second_done));
  ASSERT_EQ(VK_SUCCESS, vkSetEvent(d.handle(), event));
  ASSERT_EQ(VK_SUCCESS, wait_for(first_done));
  ASSERT_EQ(VK_SUCCESS, wait_for(second_done));

  EXPECT_TRUE(all_texels_are(first, kRed));
  EXPECT_TRUE(all_texels_are(second, kGreen));
}

// Freeing a pending command buffer (or resetting its pool) leaves its submission intact.
TEST_F(PendingCommandBufferTest, FreedOrPoolResetWhilePendingStillRuns) {
  KILN_ONLY();
  TestDevice& d = unvalidated_device();
  const Image red = make_image({64, 64}, kRed), green = make_image({64, 64}, kGreen);
  const Image freed_dst = make_image({64, 64}, kBlack), reset_dst = make_image({64, 64}, kBlack);
  VkEvent event = d.create_event();
  VkCommandBuffer gate = record_gate(event);
  VkCommandBuffer freed = d.allocate_command_buffer();
  record_blit(freed, red, freed_dst);

  VkCommandPoolCreateInfo pool_info{.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateCommandPool(d.handle(), &pool_info, nullptr, &pool));
  const VkDevice dev = d.handle();
  d.defer_destroy([=] { vkDestroyCommandPool(dev, pool, nullptr); });
  VkCommandBufferAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VkCommandBuffer in_reset_pool = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkAllocateCommandBuffers(dev, &allocate, &in_reset_pool));
  record_blit(in_reset_pool, green, reset_dst);

  VkFence done = d.create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit_all({gate, freed, in_reset_pool}, done));
  vkFreeCommandBuffers(dev, d.command_pool(), 1, &freed);
  ASSERT_EQ(VK_SUCCESS, vkResetCommandPool(dev, pool, VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT));
  ASSERT_EQ(VK_SUCCESS, vkSetEvent(dev, event));
  ASSERT_EQ(VK_SUCCESS, wait_for(done));

  EXPECT_TRUE(all_texels_are(freed_dst, kRed));
  EXPECT_TRUE(all_texels_are(reset_dst, kGreen));
}

// A secondary re-recorded while a primary that executes it is pending: the primary runs the
// secondary's commands as they were when it was recorded.
TEST_F(PendingCommandBufferTest, SecondaryReRecordedWhileItsPrimaryIsPending) {
  KILN_ONLY();
  TestDevice& d = unvalidated_device();
  const Image red = make_image({64, 64}, kRed), green = make_image({64, 64}, kGreen);
  const Image first = make_image({64, 64}, kBlack), second = make_image({64, 64}, kBlack);
  VkEvent event = d.create_event();
  VkCommandBuffer gate = record_gate(event);
  VkCommandBuffer secondary = d.allocate_command_buffer(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  const VkCommandBufferInheritanceInfo inheritance{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  record_blit(secondary, red, first, &inheritance);
  VkCommandBuffer primary = d.allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info();
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(primary, &begin));
  vkCmdExecuteCommands(primary, 1, &secondary);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(primary));
  VkFence done = d.create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit_all({gate, primary}, done));

  record_blit(secondary, green, second, &inheritance);  // vkBeginCommandBuffer resets it implicitly
  ASSERT_EQ(VK_SUCCESS, vkSetEvent(d.handle(), event));
  ASSERT_EQ(VK_SUCCESS, wait_for(done));

  EXPECT_TRUE(all_texels_are(first, kRed));
  EXPECT_TRUE(all_texels_are(second, kBlack));  // the new recording was never submitted
}

// gfxrecon-replay's present loop as issue 21 saw it: one command buffer re-recorded and submitted
// for every frame with no wait in between, so each reset meets the previous frame's blit still on
// the queue, usually in the middle of running (large images, split across the worker pool).
// Before the fix the queue ran whatever the list held by then: parts of blits went missing, or
// mem::blit_image read a freed region and crashed.
TEST_F(PendingCommandBufferTest, BlitReRecordedEveryFrameWhileThePreviousOneRuns) {
  KILN_ONLY();
  TestDevice& d = unvalidated_device();
  constexpr VkExtent2D kExtent{1024, 1024};
  const std::array<Image, 2> sources{make_image(kExtent, kRed), make_image(kExtent, kGreen)};
  const std::array<Image, 2> targets{make_image(kExtent, kBlack), make_image(kExtent, kBlack)};
  const Image last_source = make_image(kExtent, kBlue);
  VkCommandBuffer blit = d.allocate_command_buffer();
  constexpr int kFrames = 60;
  for (int frame = 0; frame < kFrames; ++frame) {
    ASSERT_EQ(VK_SUCCESS, vkResetCommandBuffer(blit, 0));  // as gfxrecon-replay does before each recording
    const bool last = frame == kFrames - 1;
    record_blit(blit, last ? last_source : sources[frame % 2], targets[frame % 2]);
    ASSERT_EQ(VK_SUCCESS, submit_all({blit}, VK_NULL_HANDLE));
  }
  ASSERT_EQ(VK_SUCCESS, vkQueueWaitIdle(d.queue()));

  EXPECT_TRUE(all_texels_are(targets[(kFrames - 2) % 2], kRed));  // the second to last frame's
  EXPECT_TRUE(all_texels_are(targets[(kFrames - 1) % 2], kBlue));  // the last frame's
}

}  // namespace
}  // namespace kiln::test
