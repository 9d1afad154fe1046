// VK_KHR_external_semaphore_fd and VK_KHR_external_fence_fd (OPAQUE_FD): a semaphore or fence
// exported by one device and imported by another device, or by another process, is one payload —
// what either side signals, the other waits for; temporary imports last until the next wait
// (semaphores) or reset (fences); a descriptor that is not such a payload is refused and stays the
// application's. Kiln only: lavapipe 22.3 has neither extension.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "e2e/child_process.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint64_t kShortNs = 20'000'000;  // a wait that must time out

// A device with timeline semaphores and both extensions.
class ExternalSyncFdFixture : public VulkanTest {
 protected:
  TestDevice* make_device() {
    enabled_.v12.timelineSemaphore = VK_TRUE;
    return create_device(enabled_, {VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME});
  }

 private:
  DeviceFeatures enabled_;
};

class ExternalSyncFdTest : public ExternalSyncFdFixture {
 protected:
  void SetUp() override {
    ExternalSyncFdFixture::SetUp();
    REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) &&
                        device_has_extension(physical_device(), VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME),
                    "VK_KHR_external_semaphore_fd and VK_KHR_external_fence_fd");
  }
};

template <typename Pfn>
Pfn proc(TestDevice& device, const char* name) {
  auto pfn = reinterpret_cast<Pfn>(vkGetDeviceProcAddr(device.handle(), name));
  EXPECT_NE(pfn, nullptr) << name;
  return pfn;
}

// A semaphore of `type` (timeline: starting at `initial`), exportable as an opaque fd when `exportable`.
VkSemaphore make_semaphore(TestDevice& device, VkSemaphoreType type, bool exportable, uint64_t initial = 0) {
  VkSemaphoreTypeCreateInfo type_info{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type_info.semaphoreType = type;
  type_info.initialValue = initial;
  VkExportSemaphoreCreateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, &type_info};
  export_info.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, exportable ? static_cast<void*>(&export_info) : &type_info};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSemaphore(device.handle(), &info, nullptr, &semaphore), VK_SUCCESS);
  VkDevice d = device.handle();
  device.defer_destroy([d, semaphore] { vkDestroySemaphore(d, semaphore, nullptr); });
  return semaphore;
}

int export_semaphore(TestDevice& device, VkSemaphore semaphore) {
  VkSemaphoreGetFdInfoKHR info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
  info.semaphore = semaphore;
  info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  EXPECT_EQ(proc<PFN_vkGetSemaphoreFdKHR>(device, "vkGetSemaphoreFdKHR")(device.handle(), &info, &fd), VK_SUCCESS);
  return fd;
}

VkResult import_semaphore(TestDevice& device, VkSemaphore semaphore, int fd, VkSemaphoreImportFlags flags = 0) {
  VkImportSemaphoreFdInfoKHR info{VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR};
  info.semaphore = semaphore;
  info.flags = flags;
  info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  info.fd = fd;
  return proc<PFN_vkImportSemaphoreFdKHR>(device, "vkImportSemaphoreFdKHR")(device.handle(), &info);
}

uint64_t counter(TestDevice& device, VkSemaphore semaphore) {
  uint64_t value = 0;
  EXPECT_EQ(vkGetSemaphoreCounterValue(device.handle(), semaphore, &value), VK_SUCCESS);
  return value;
}

VkResult wait_value(TestDevice& device, VkSemaphore semaphore, uint64_t value, uint64_t timeout_ns) {
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &semaphore;
  info.pValues = &value;
  return vkWaitSemaphores(device.handle(), &info, timeout_ns);
}

void signal_value(TestDevice& device, VkSemaphore semaphore, uint64_t value) {
  VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = semaphore;
  info.value = value;
  EXPECT_EQ(vkSignalSemaphore(device.handle(), &info), VK_SUCCESS);
}

// An empty batch on `device`'s queue that waits for `wait` (if any), then signals `signal` (if
// any) and `fence`.
void submit(TestDevice& device, VkSemaphore wait, VkSemaphore signal, VkFence fence) {
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.waitSemaphoreCount = wait ? 1 : 0;
  info.pWaitSemaphores = &wait;
  info.pWaitDstStageMask = &stage;
  info.signalSemaphoreCount = signal ? 1 : 0;
  info.pSignalSemaphores = &signal;
  EXPECT_EQ(vkQueueSubmit(device.queue(), 1, &info, fence), VK_SUCCESS);
}

TEST_F(ExternalSyncFdTest, TimelineSharedWithASecondDevice) {
  TestDevice& a = *make_device();
  TestDevice& b = *make_device();
  VkSemaphore exported = make_semaphore(a, VK_SEMAPHORE_TYPE_TIMELINE, true, 3);
  VkSemaphore imported = make_semaphore(b, VK_SEMAPHORE_TYPE_TIMELINE, false);
  ASSERT_EQ(import_semaphore(b, imported, export_semaphore(a, exported)), VK_SUCCESS);
  EXPECT_EQ(counter(b, imported), 3u);
  EXPECT_EQ(wait_value(b, imported, 5, kShortNs), VK_TIMEOUT);
  // Another thread raises it on device a while device b waits.
  std::thread signaller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    signal_value(a, exported, 5);
  });
  EXPECT_EQ(wait_value(b, imported, 5, kGpuTimeoutNs), VK_SUCCESS);
  signaller.join();
  signal_value(b, imported, 9);
  EXPECT_EQ(counter(a, exported), 9u);
}

// A binary semaphore signalled by device a's queue and waited for by device b's: b's batch, and
// the fence it signals, wait until a's batch has run.
TEST_F(ExternalSyncFdTest, BinarySignalledOnOneQueueIsWaitedForOnAnother) {
  TestDevice& a = *make_device();
  TestDevice& b = *make_device();
  VkSemaphore exported = make_semaphore(a, VK_SEMAPHORE_TYPE_BINARY, true);
  VkSemaphore imported = make_semaphore(b, VK_SEMAPHORE_TYPE_BINARY, false);
  ASSERT_EQ(import_semaphore(b, imported, export_semaphore(a, exported)), VK_SUCCESS);
  VkFence done = b.create_fence(false);
  submit(b, imported, VK_NULL_HANDLE, done);
  EXPECT_EQ(vkWaitForFences(b.handle(), 1, &done, VK_TRUE, kShortNs), VK_TIMEOUT);
  submit(a, VK_NULL_HANDLE, exported, VK_NULL_HANDLE);
  EXPECT_EQ(vkWaitForFences(b.handle(), 1, &done, VK_TRUE, kGpuTimeoutNs), VK_SUCCESS);
  EXPECT_EQ(vkQueueWaitIdle(a.queue()), VK_SUCCESS);
}

// A temporary import replaces the semaphore's payload for one wait: b's own payload is signalled
// first, a's (unsignalled) is imported temporarily, so b's first wait waits for a; the second wait
// takes b's own payload again and does not.
TEST_F(ExternalSyncFdTest, SemaphoreTemporaryImportLastsOneWait) {
  TestDevice& a = *make_device();
  TestDevice& b = *make_device();
  VkSemaphore exported = make_semaphore(a, VK_SEMAPHORE_TYPE_BINARY, true);
  VkSemaphore own = make_semaphore(b, VK_SEMAPHORE_TYPE_BINARY, false);
  submit(b, VK_NULL_HANDLE, own, VK_NULL_HANDLE);
  ASSERT_EQ(vkQueueWaitIdle(b.queue()), VK_SUCCESS);
  ASSERT_EQ(import_semaphore(b, own, export_semaphore(a, exported), VK_SEMAPHORE_IMPORT_TEMPORARY_BIT), VK_SUCCESS);
  VkFence first = b.create_fence(false), second = b.create_fence(false);
  submit(b, own, VK_NULL_HANDLE, first);
  EXPECT_EQ(vkWaitForFences(b.handle(), 1, &first, VK_TRUE, kShortNs), VK_TIMEOUT) << "waited on b's own payload";
  submit(a, VK_NULL_HANDLE, exported, VK_NULL_HANDLE);
  EXPECT_EQ(vkWaitForFences(b.handle(), 1, &first, VK_TRUE, kGpuTimeoutNs), VK_SUCCESS);
  submit(b, own, VK_NULL_HANDLE, second);
  EXPECT_EQ(vkWaitForFences(b.handle(), 1, &second, VK_TRUE, kGpuTimeoutNs), VK_SUCCESS) << "b's own payload not restored";
  EXPECT_EQ(vkQueueWaitIdle(a.queue()), VK_SUCCESS);
}

VkFence make_exportable_fence(TestDevice& device) {
  VkExportFenceCreateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, &export_info};
  VkFence fence = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateFence(device.handle(), &info, nullptr, &fence), VK_SUCCESS);
  VkDevice d = device.handle();
  device.defer_destroy([d, fence] { vkDestroyFence(d, fence, nullptr); });
  return fence;
}

int export_fence(TestDevice& device, VkFence fence) {
  VkFenceGetFdInfoKHR info{VK_STRUCTURE_TYPE_FENCE_GET_FD_INFO_KHR};
  info.fence = fence;
  info.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  EXPECT_EQ(proc<PFN_vkGetFenceFdKHR>(device, "vkGetFenceFdKHR")(device.handle(), &info, &fd), VK_SUCCESS);
  return fd;
}

VkResult import_fence(TestDevice& device, VkFence fence, int fd, VkFenceImportFlags flags) {
  VkImportFenceFdInfoKHR info{VK_STRUCTURE_TYPE_IMPORT_FENCE_FD_INFO_KHR};
  info.fence = fence;
  info.flags = flags;
  info.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
  info.fd = fd;
  return proc<PFN_vkImportFenceFdKHR>(device, "vkImportFenceFdKHR")(device.handle(), &info);
}

// Device a's queue signals the fence that devices b (permanently) and c (temporarily) imported;
// resetting c's restores c's own, unsignalled payload and leaves the shared one signalled;
// resetting b's unsignals the shared payload, a's fence included.
TEST_F(ExternalSyncFdTest, FenceSignalledByOneDeviceIsSeenByTheImporters) {
  TestDevice& a = *make_device();
  TestDevice& b = *make_device();
  TestDevice& c = *make_device();
  VkFence exported = make_exportable_fence(a);
  VkFence permanent = b.create_fence(false), temporary = c.create_fence(false);
  ASSERT_EQ(import_fence(b, permanent, export_fence(a, exported), 0), VK_SUCCESS);
  ASSERT_EQ(import_fence(c, temporary, export_fence(a, exported), VK_FENCE_IMPORT_TEMPORARY_BIT), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(b.handle(), permanent), VK_NOT_READY);
  submit(a, VK_NULL_HANDLE, VK_NULL_HANDLE, exported);
  EXPECT_EQ(vkWaitForFences(b.handle(), 1, &permanent, VK_TRUE, kGpuTimeoutNs), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(c.handle(), 1, &temporary, VK_TRUE, kGpuTimeoutNs), VK_SUCCESS);
  EXPECT_EQ(vkResetFences(c.handle(), 1, &temporary), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(c.handle(), temporary), VK_NOT_READY);
  EXPECT_EQ(vkGetFenceStatus(a.handle(), exported), VK_SUCCESS);
  EXPECT_EQ(vkResetFences(b.handle(), 1, &permanent), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(a.handle(), exported), VK_NOT_READY);
}

// A descriptor that is not a Kiln payload of the object's kind is refused, and stays open for the
// application to close.
TEST_F(ExternalSyncFdTest, ImportOfAForeignDescriptorIsAnInvalidHandle) {
  KILN_ONLY();
  TestDevice& a = *make_device();
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  VkSemaphore binary = make_semaphore(a, VK_SEMAPHORE_TYPE_BINARY, true);
  VkSemaphore timeline = make_semaphore(a, VK_SEMAPHORE_TYPE_TIMELINE, false);
  VkFence fence = a.create_fence(false);
  EXPECT_EQ(import_semaphore(a, binary, pipe_fds[0]), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  EXPECT_EQ(import_fence(a, fence, pipe_fds[0], 0), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  // A binary semaphore's payload is not a timeline's, nor a fence's.
  const int binary_fd = export_semaphore(a, binary);
  EXPECT_EQ(import_semaphore(a, timeline, binary_fd), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  EXPECT_EQ(import_fence(a, fence, binary_fd, 0), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  for (int fd : {pipe_fds[0], pipe_fds[1], binary_fd}) EXPECT_EQ(close(fd), 0) << "fd " << fd << " was closed by the driver";
}

// The timeline of another process: the child imports the descriptor it inherits, reads the value
// the parent set and raises it; the parent sees the raised value.
TEST_F(ExternalSyncFdTest, TimelineSharedWithAnotherProcess) {
  TestDevice& a = *make_device();
  VkSemaphore exported = make_semaphore(a, VK_SEMAPHORE_TYPE_TIMELINE, true, 11);
  const int exported_fd = export_semaphore(a, exported);
  const int inherited = fcntl(exported_fd, F_DUPFD, 100);  // without close-on-exec
  ASSERT_GE(inherited, 0);
  close(exported_fd);
  int status = 0;
  const std::string output =
      run_this_binary("KILN_TEST_SEMAPHORE_FD=" + std::to_string(inherited), "ExternalSyncFdChild.*", &status);
  close(inherited);
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("[  PASSED  ] 1 test"), std::string::npos) << output;
  EXPECT_EQ(counter(a, exported), 42u);
  EXPECT_EQ(wait_value(a, exported, 42, kShortNs), VK_SUCCESS);
}

// Runs only as the child of the test above (it passes the descriptor).
class ExternalSyncFdChild : public ExternalSyncFdFixture {};

TEST_F(ExternalSyncFdChild, RaisesTheInheritedTimeline) {
  const char* fd = std::getenv("KILN_TEST_SEMAPHORE_FD");
  if (!fd) GTEST_SKIP() << "runs as the child process of ExternalSyncFdTest.TimelineSharedWithAnotherProcess";
  TestDevice& device = *make_device();
  VkSemaphore imported = make_semaphore(device, VK_SEMAPHORE_TYPE_TIMELINE, false);
  ASSERT_EQ(import_semaphore(device, imported, std::atoi(fd)), VK_SUCCESS);
  EXPECT_EQ(counter(device, imported), 11u);
  signal_value(device, imported, 42);
}

}  // namespace
}  // namespace kiln::test
