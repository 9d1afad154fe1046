// Device loss (docs/design/device-loss.md): work that never ends — a shader stuck in a loop, a
// queue waiting for a semaphore nothing signals — ends in VK_ERROR_DEVICE_LOST once Kiln's
// watchdog sees no progress for KILN_DEVICE_TIMEOUT_MS; afterwards every command answers as the
// spec says for a lost device, and everything can still be destroyed (no thread left behind).
//
// Kiln only: other drivers (lavapipe) have no watchdog, and the endless work would hang them.
// The tests set a short timeout around the device's creation (the device reads it then).
#include <dirent.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "e2e/compute_job.h"
#include "e2e/draw_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint64_t kTimeoutMs = 400;

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Threads of this process (Kiln's queue, worker and watchdog threads among them).
size_t thread_count() {
  size_t n = 0;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* e = readdir(dir)) n += e->d_name[0] != '.';
    closedir(dir);
  }
  return n;
}

// vkQueueSubmit2 of `cmd` that first waits for timeline `semaphore` to reach `value`.
VkResult submit_after_timeline(VkQueue queue, VkCommandBuffer cmd, VkSemaphore semaphore, uint64_t value, VkFence fence) {
  VkSemaphoreSubmitInfo wait{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = semaphore, .value = value,
                             .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
  VkCommandBufferSubmitInfo command{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd};
  VkSubmitInfo2 info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = 1, .pWaitSemaphoreInfos = &wait,
                     .commandBufferInfoCount = 1, .pCommandBufferInfos = &command};
  return vkQueueSubmit2(queue, 1, &info, fence);
}

class DeviceLossTest : public VulkanTest {
 protected:
  // A device whose watchdog gives up after kTimeoutMs, on an instance without the validation
  // layer: the layer (1.3.239) does not take VK_ERROR_DEVICE_LOST from a wait as the end of the
  // work waited for, as the spec does ("Lost Device": equivalent to VK_SUCCESS for whether a
  // command buffer is pending or an object in use), and so reports the destruction of the lost
  // work's fences, semaphores and command buffers as destroying objects in use.
  TestDevice& lossy_device() {
    std::unique_ptr<TestDevice> device = create_lossy_device();
    TestDevice& result = *device;
    devices_.push_back(std::move(device));
    return result;
  }
  // The same, owned by the caller (to see its threads end with it).
  std::unique_ptr<TestDevice> create_lossy_device() {
    DeviceFeatures enabled;
    enabled.v12.timelineSemaphore = VK_TRUE;
    enabled.v13.synchronization2 = VK_TRUE;
    enabled.v13.maintenance4 = VK_TRUE;
    DeviceOptions options;
    options.create_info_chain = &enabled.core;
    setenv("KILN_DEVICE_TIMEOUT_MS", std::to_string(kTimeoutMs).c_str(), 1);
    std::unique_ptr<TestDevice> device;
    const VkResult result = TestDevice::create(unvalidated().physical_device, options, &device);
    unsetenv("KILN_DEVICE_TIMEOUT_MS");
    require(result, "vkCreateDevice");
    return device;
  }
  UnvalidatedContext& unvalidated() {
    if (!unvalidated_.instance) unvalidated_ = create_unvalidated_context();
    return unvalidated_;
  }
  UnvalidatedContext unvalidated_;
  void TearDown() override {
    devices_.clear();
    VulkanTest::TearDown();
  }
  std::vector<std::unique_ptr<TestDevice>> devices_;

  // Submits `cmd` with a fence (through `submit`, vkQueueSubmit by default), waits for the fence
  // without a timeout and expects the loss within a few timeouts; then checks the lost device's
  // answers.
  void expect_lost_after_submit(TestDevice& device, VkCommandBuffer cmd,
                                const std::function<VkResult(VkFence)>& custom_submit = {}) {
    VkFence fence = device.create_fence(false);
    const auto start = Clock::now();
    ASSERT_EQ(VK_SUCCESS, custom_submit ? custom_submit(fence) : submit(device.queue(), cmd, fence));
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkWaitForFences(device.handle(), 1, &fence, VK_TRUE, UINT64_MAX));
    const double waited = ms_since(start);
    EXPECT_GE(waited, kTimeoutMs * 0.9) << "lost before the timeout";
    EXPECT_LT(waited, kTimeoutMs * 5.0) << "the watchdog took far longer than KILN_DEVICE_TIMEOUT_MS";
    std::printf("device lost after %.0f ms (KILN_DEVICE_TIMEOUT_MS=%llu)\n", waited,
                static_cast<unsigned long long>(kTimeoutMs));
    expect_lost_answers(device, fence);
  }

  void expect_endless_draw_lost(const char* vertex, const char* fragment, uint32_t vertex_count = 3);

  // What every command says on a lost device.
  void expect_lost_answers(TestDevice& device, VkFence pending_fence) {
    VkDevice dev = device.handle();
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkGetFenceStatus(dev, pending_fence));
    // The lost work stops promptly: the queue empties (every worker is back) soon after the loss.
    const auto idle_start = Clock::now();
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkQueueWaitIdle(device.queue()));
    EXPECT_LT(ms_since(idle_start), kTimeoutMs * 5.0) << "the queue kept running the lost work";
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkDeviceWaitIdle(dev));
    // A new submission is refused; waits on it end at once.
    VkFence fence = device.create_fence(false);
    VkCommandBuffer empty = device.record_commands([](VkCommandBuffer) {});
    VkSubmitInfo submit{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &empty;
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkQueueSubmit(device.queue(), 1, &submit, fence));
    VkSubmitInfo2 submit2{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkQueueSubmit2(device.queue(), 1, &submit2, VK_NULL_HANDLE));
    const auto start = Clock::now();
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkWaitForFences(dev, 1, &pending_fence, VK_TRUE, UINT64_MAX));
    EXPECT_LT(ms_since(start), 100.0);
    // A signalled fence stays signalled.
    VkFence signalled = device.create_fence(true);
    EXPECT_EQ(VK_SUCCESS, vkGetFenceStatus(dev, signalled));
    EXPECT_EQ(VK_SUCCESS, vkWaitForFences(dev, 1, &signalled, VK_TRUE, UINT64_MAX));
    // Queries: results are not available.
    VkQueryPoolCreateInfo query_info{.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = 1;
    VkQueryPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkCreateQueryPool(dev, &query_info, nullptr, &pool));
    uint64_t value = 0;
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkGetQueryPoolResults(dev, pool, 0, 1, sizeof value, &value, sizeof value,
                                                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    vkDestroyQueryPool(dev, pool, nullptr);
    // Timeline waits end at once too; objects can still be made and destroyed.
    VkSemaphore timeline = device.create_timeline_semaphore(0);
    VkSemaphoreWaitInfo wait{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    const uint64_t one = 1;
    wait.semaphoreCount = 1;
    wait.pSemaphores = &timeline;
    wait.pValues = &one;
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkWaitSemaphores(dev, &wait, UINT64_MAX));
    Buffer buffer = device.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    EXPECT_NE(nullptr, buffer.mapped);
  }
};

TEST_F(DeviceLossTest, EndlessComputeShaderLosesTheDeviceAndEverythingIsDestroyed) {
  KILN_ONLY();
  const size_t threads_before = thread_count();
  {
    std::unique_ptr<TestDevice> device = create_lossy_device();
    EXPECT_GT(thread_count(), threads_before) << "no queue, worker or watchdog threads?";
    Buffer data = device->create_buffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0);
    {
      ComputeJob job(*device, "watchdog_loop.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
      ASSERT_EQ(VK_SUCCESS, job.pipeline_result());
      job.bind_buffer(0, data);
      // Many workgroups, so every worker thread is stuck in the kernel when the loss comes.
      VkCommandBuffer cmd = device->record_commands([&](VkCommandBuffer cb) { job.record(cb, 64); });
      expect_lost_after_submit(*device, cmd);
    }
    // Every invocation left its loop: none got past it to count itself as finished.
    EXPECT_EQ(0u, mapped_as<uint32_t>(data)[2]);
  }
  EXPECT_EQ(threads_before, thread_count()) << "a thread of the lost device is still running";
}

// An endless shader in a graphics stage: `vertex_count` / 3 full-screen triangles drawn with
// `vertex` and `fragment`, whose set 0 binding 0 is a storage buffer of zeros.
void DeviceLossTest::expect_endless_draw_lost(const char* vertex, const char* fragment, uint32_t vertex_count) {
  TestDevice& device = lossy_device();
  Buffer data = device.create_buffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0);
  DrawJobOptions options;
  options.vertex_shader = vertex;
  options.fragment_shader = fragment;
  options.bindings = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  DrawJob job(device, options);
  ASSERT_EQ(VK_SUCCESS, job.pipeline_result());
  job.bind_buffer(0, data);
  VkCommandBuffer cmd = device.record_commands([&](VkCommandBuffer cb) {
    job.record_pass(cb, VkClearColorValue{}, [&](VkCommandBuffer pass) { vkCmdDraw(pass, vertex_count, 1, 0, 0); });
  });
  expect_lost_after_submit(device, cmd);
}

TEST_F(DeviceLossTest, EndlessFragmentShaderLosesTheDevice) {
  KILN_ONLY();
  expect_endless_draw_lost("fullscreen.vert", "watchdog_loop.frag");
}

TEST_F(DeviceLossTest, EndlessVertexShaderLosesTheDevice) {
  KILN_ONLY();
  expect_endless_draw_lost("watchdog_loop.vert", "watchdog_red.frag");
}

// No shader loops, but a draw far too big to finish (about 200 million full-screen triangles): the
// watchdog's limit is on one command, and once the device is lost the draw's remaining batches
// and tiles are skipped.
TEST_F(DeviceLossTest, DrawThatWouldTakeHoursLosesTheDevice) {
  KILN_ONLY();
  expect_endless_draw_lost("fullscreen.vert", "watchdog_red.frag", 600'000'000);
}

// A submission waits for a timeline value nothing will ever signal (wait-before-signal is valid):
// the queue is stuck, and the host's endless fence wait and vkQueueWaitIdle end in the loss.
TEST_F(DeviceLossTest, WaitForASemaphoreNobodySignalsLosesTheDevice) {
  KILN_ONLY();
  TestDevice& device = lossy_device();
  VkSemaphore never = device.create_timeline_semaphore(0);
  VkCommandBuffer cmd = device.record_commands([](VkCommandBuffer) {});
  expect_lost_after_submit(device, cmd, [&](VkFence fence) {
    return submit_after_timeline(device.queue(), cmd, never, 1, fence);
  });
}

// vkQueueWaitIdle (rather than a fence) is what ends in the loss, for an event never set.
TEST_F(DeviceLossTest, QueueWaitIdleOnAnEventNobodySetsEndsInTheLoss) {
  KILN_ONLY();
  TestDevice& device = lossy_device();
  VkEvent event = device.create_event();
  VkCommandBuffer cmd = device.record_commands([&](VkCommandBuffer cb) {
    vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0, nullptr,
                    0, nullptr);
  });
  ASSERT_EQ(VK_SUCCESS, submit(device.queue(), cmd));
  const auto start = Clock::now();
  EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkQueueWaitIdle(device.queue()));
  EXPECT_GE(ms_since(start), kTimeoutMs * 0.9);
  EXPECT_LT(ms_since(start), kTimeoutMs * 5.0);
  EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkGetEventStatus(device.handle(), event));
  EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkDeviceWaitIdle(device.handle()));
}

// Presentation on a lost device: vkAcquireNextImageKHR and vkQueuePresentKHR report the loss (a
// headless surface, on an instance of its own with the surface extensions), and the swapchain and
// surface are destroyed as usual.
TEST_F(DeviceLossTest, AcquireAndPresentReportTheLoss) {
  KILN_ONLY();
  InstanceOptions options;
  options.validation = false;  // see lossy_device()
  options.extensions = {VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};
  std::unique_ptr<TestInstance> instance;
  ASSERT_EQ(VK_SUCCESS, TestInstance::create(options, &instance));
  ASSERT_FALSE(instance->physical_devices().empty());
  const VkPhysicalDevice physical = instance->physical_devices()[0];
  DeviceFeatures enabled;
  enabled.v12.timelineSemaphore = VK_TRUE;
  enabled.v13.synchronization2 = VK_TRUE;
  DeviceOptions device_options;
  device_options.create_info_chain = &enabled.core;
  device_options.extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  setenv("KILN_DEVICE_TIMEOUT_MS", std::to_string(kTimeoutMs).c_str(), 1);
  std::unique_ptr<TestDevice> device;
  const VkResult created = TestDevice::create(physical, device_options, &device);
  unsetenv("KILN_DEVICE_TIMEOUT_MS");
  ASSERT_EQ(VK_SUCCESS, created);
  VkDevice dev = device->handle();

  auto create_surface = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
      vkGetInstanceProcAddr(instance->handle(), "vkCreateHeadlessSurfaceEXT"));
  ASSERT_NE(nullptr, create_surface);
  VkHeadlessSurfaceCreateInfoEXT surface_info{.sType = VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, create_surface(instance->handle(), &surface_info, nullptr, &surface));
  VkSurfaceCapabilitiesKHR caps;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &caps));
  VkSwapchainCreateInfoKHR info{.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface;
  info.minImageCount = caps.minImageCount;
  info.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
  info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  info.imageExtent = {64, 64};
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateSwapchainKHR(dev, &info, nullptr, &swapchain));
  VkFence acquired = device->create_fence(false);
  uint32_t index = UINT32_MAX;
  ASSERT_EQ(VK_SUCCESS, vkAcquireNextImageKHR(dev, swapchain, kGpuTimeoutNs, VK_NULL_HANDLE, acquired, &index));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(dev, 1, &acquired, VK_TRUE, kGpuTimeoutNs));

  // Lose the device: a submission waits for a timeline value nobody signals.
  VkSemaphore never = device->create_timeline_semaphore(0);
  VkFence stuck = device->create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit_after_timeline(device->queue(), device->record_commands([](VkCommandBuffer) {}), never,
                                              1, stuck));
  EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkWaitForFences(dev, 1, &stuck, VK_TRUE, UINT64_MAX));

  VkPresentInfoKHR present{.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  VkResult present_result = VK_SUCCESS;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &index;
  present.pResults = &present_result;
  EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkQueuePresentKHR(device->queue(), &present));
  EXPECT_EQ(VK_ERROR_DEVICE_LOST, present_result);
  uint32_t next = UINT32_MAX;
  EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkAcquireNextImageKHR(dev, swapchain, UINT64_MAX, VK_NULL_HANDLE, VK_NULL_HANDLE, &next));
  VkAcquireNextImageInfoKHR acquire2{.sType = VK_STRUCTURE_TYPE_ACQUIRE_NEXT_IMAGE_INFO_KHR};
  acquire2.swapchain = swapchain;
  acquire2.timeout = UINT64_MAX;
  acquire2.fence = device->create_fence(false);
  acquire2.deviceMask = 1;
  EXPECT_EQ(VK_ERROR_DEVICE_LOST, vkAcquireNextImage2KHR(dev, &acquire2, &next));

  vkDestroySwapchainKHR(dev, swapchain, nullptr);
  device.reset();
  vkDestroySurfaceKHR(instance->handle(), surface, nullptr);
  instance->destroy();
  for (const std::string& message : instance->messages()) ADD_FAILURE() << "message: " << message;
}

// Waiting is not a hang while something moves: a queue blocked on a semaphore the host signals
// after more than the timeout, in steps shorter than it, is never declared lost.
TEST_F(DeviceLossTest, SlowButProgressingWorkIsNotLost) {
  DeviceFeatures enabled;
  enabled.v12.timelineSemaphore = VK_TRUE;
  enabled.v13.synchronization2 = VK_TRUE;
  enabled.v13.maintenance4 = VK_TRUE;
  setenv("KILN_DEVICE_TIMEOUT_MS", std::to_string(kTimeoutMs).c_str(), 1);
  TestDevice* validated = create_device(enabled);
  unsetenv("KILN_DEVICE_TIMEOUT_MS");
  ASSERT_NE(nullptr, validated);
  TestDevice& device = *validated;
  VkSemaphore timeline = device.create_timeline_semaphore(0);
  const uint64_t last = 4;
  VkFence fence = device.create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit_after_timeline(device.queue(), device.record_commands([](VkCommandBuffer) {}), timeline,
                                              last, fence));
  for (uint64_t v = 1; v <= last; ++v) {
    std::this_thread::sleep_for(std::chrono::milliseconds(kTimeoutMs / 2));
    VkSemaphoreSignalInfo signal{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    signal.semaphore = timeline;
    signal.value = v;
    ASSERT_EQ(VK_SUCCESS, vkSignalSemaphore(device.handle(), &signal));
  }
  EXPECT_EQ(VK_SUCCESS, vkWaitForFences(device.handle(), 1, &fence, VK_TRUE, kGpuTimeoutNs));
  EXPECT_EQ(VK_SUCCESS, vkQueueWaitIdle(device.queue()));
}

}  // namespace
}  // namespace kiln::test
