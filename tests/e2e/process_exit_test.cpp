// A process may end with work still running on its queues: piglit's tests, for one, call exit()
// as soon as they have their result, without waiting for the GL context (zink's Vulkan device)
// to finish. The driver's queue threads then keep running kernels while the process's static
// objects are destroyed; Kiln's JIT was one of them, and the next kernel call jumped into unmapped
// code (SIGSEGV after the test had passed). The child here submits thousands of dispatches and
// exits at once; the parent checks that it ended with exit status 0.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "e2e/child_process.h"
#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class ProcessExitTest : public VulkanTest {};

TEST_F(ProcessExitTest, ExitWithDispatchesInFlightEndsCleanly) {
  int status = 0;
  // The child leaves its objects behind on purpose: LeakSanitizer (sanitizer builds) must not count them.
  const std::string output =
      run_this_binary("KILN_TEST_EXIT_CHILD=1 ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\"", "ProcessExitChild.*", &status);
  ASSERT_TRUE(WIFEXITED(status)) << "the child ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0) << "\n"
                                 << output;
  EXPECT_EQ(WEXITSTATUS(status), 0) << output;
  EXPECT_NE(output.find("submitted; exiting"), std::string::npos) << output;
}

// Runs only as the child of the test above.
class ProcessExitChild : public VulkanTest {};

TEST_F(ProcessExitChild, SubmitsDispatchesAndExits) {
  if (!std::getenv("KILN_TEST_EXIT_CHILD")) GTEST_SKIP() << "runs as the child process of ProcessExitTest";
  TestDevice& device = this->device();
  constexpr uint32_t kElements = 1 << 16;
  Buffer x = device.create_buffer(kElements * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer y = device.create_buffer(kElements * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer params = device.create_buffer(16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  const struct {
    float a;
    uint32_t n;
  } p{1.0f, kElements};
  std::memcpy(params.mapped, &p, sizeof p);
  ComputeJob job(device, "saxpy.comp",
                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, x);
  job.bind_buffer(1, y);
  job.bind_buffer(2, params);
  VkCommandBuffer cb = device.record_commands([&](VkCommandBuffer cmd) {
    for (int i = 0; i < 4000; ++i) {  // each a kernel call after the previous one (a barrier between)
      job.record(cmd, kElements / 64);
      full_barrier(cmd);
    }
  });
  ASSERT_EQ(submit(device.queue(), cb), VK_SUCCESS);
  std::printf("submitted; exiting\n");
  std::fflush(stdout);
  std::exit(0);  // no wait, no vkDestroyDevice: the queue thread is still dispatching
}

}  // namespace
}  // namespace kiln::test
