// KILN_STRICT=1 (pipeline/strict/, docs/strict-mode.md): deliberately buggy programs each get
// exactly the expected report through the application's debug-utils messenger, and the same
// programs with the missing synchronisation added get none. Every program also runs on a device
// without strict mode (the default) without a report. Reports are once per pair of commands.
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <set>

#include <spirv/unified1/spirv.hpp11>

#include "e2e/compute_job.h"
#include "e2e/debug_messages.h"
#include "e2e/descriptor_pipeline.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"
#include "shaders/test_shaders.h"

namespace kiln::test {
namespace {

constexpr VkDebugUtilsMessageSeverityFlagsEXT kWarningsAndErrors =
    VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;

class StrictModeTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (!is_kiln()) GTEST_SKIP() << "strict mode is Kiln's; driver under test is " << properties().deviceName;
    set_expecting_strict_reports(true);
    reports_.create(instance().handle(), kWarningsAndErrors, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT);
  }
  void TearDown() override {
    reports_.destroy();
    VulkanTest::TearDown();
    set_expecting_strict_reports(false);
  }

  // A device with two queues, made with KILN_STRICT=1 (strict mode is chosen at vkCreateDevice)
  // or without it.
  TestDevice& strict_device(bool strict = true, bool robust_buffer_access = false) {
    if (strict) setenv("KILN_STRICT", "1", 1);
    else unsetenv("KILN_STRICT");
    DeviceFeatures enabled;
    enabled.core.features.robustBufferAccess = robust_buffer_access;
    enabled.v13.synchronization2 = VK_TRUE;
    enabled.v13.maintenance4 = features().v13.maintenance4;  // glslang's LocalSizeId
    DeviceOptions options;
    options.queue_count = 2;
    options.create_info_chain = &enabled.core;
    TestDevice* device = create_device(options);
    unsetenv("KILN_STRICT");
    if (!device) throw std::runtime_error("no device");
    return *device;
  }

  std::vector<DebugMessage> strict_reports() const { return reports_.with_id("KILN-strict-"); }

  // Runs `program` on a strict device and checks it makes exactly one report with `id` whose text
  // contains each of `words`; then runs it on a default device: no report. With `unvalidated`, on
  // an instance without the validation layer (for mistakes the layer reports too: the report must
  // come from Kiln).
  void expect_one_report(const std::function<void(TestDevice&)>& program, const std::string& id,
                         const std::vector<std::string>& words, bool unvalidated = false) {
    std::unique_ptr<TestDevice> own;
    MessageLog own_reports;
    UnvalidatedContext context;
    if (unvalidated) {
      context = create_unvalidated_context();
      ASSERT_NE(context.physical_device, VK_NULL_HANDLE);
      own_reports.create(context.instance->handle(), kWarningsAndErrors, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT);
    }
    MessageLog& reports = unvalidated ? own_reports : reports_;
    auto device = [&](bool strict) -> TestDevice& {
      if (!unvalidated) return strict_device(strict);
      if (strict) setenv("KILN_STRICT", "1", 1);
      own.reset();
      const VkResult created = TestDevice::create(context.physical_device, {}, &own);
      unsetenv("KILN_STRICT");
      if (created != VK_SUCCESS) throw std::runtime_error("no device");
      return *own;
    };
    program(device(true));
    std::vector<DebugMessage> got = reports.with_id("KILN-strict-");
    ASSERT_EQ(1u, got.size()) << (got.empty() ? "no report" : got[0].text + (got.size() > 1 ? "\n" + got[1].text : ""));
    EXPECT_EQ(id, got[0].id);
    for (const std::string& word : words) EXPECT_NE(std::string::npos, got[0].text.find(word)) << word << " in " << got[0].text;
    reports.clear();
    program(device(false));
    got = reports.with_id("KILN-strict-");
    EXPECT_TRUE(got.empty()) << "without KILN_STRICT: " << got[0].text;
  }
  void expect_no_report(const std::function<void(TestDevice&)>& program) {
    program(strict_device());
    for (const DebugMessage& m : strict_reports()) ADD_FAILURE() << "false report: " << m.text;
  }

  MessageLog reports_;
};

void buffer_barrier(VkCommandBuffer cb, const Buffer& buffer, VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access) {
  VkBufferMemoryBarrier2 b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
  b.srcStageMask = src;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst;
  b.dstAccessMask = dst_access;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.buffer = buffer.buffer;
  b.size = VK_WHOLE_SIZE;
  VkDependencyInfo info{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  info.bufferMemoryBarrierCount = 1;
  info.pBufferMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cb, &info);
}

// A compute shader writes a vertex buffer (saxpy with a = 0 writes y back unchanged: a rectangle)
// and a draw fetches it. ComputeJob's own barrier orders compute and host only.
void compute_then_draw(TestDevice& device, bool with_barrier) {
  ComputeJob job(device, "saxpy.comp",
                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER});
  ASSERT_EQ(VK_SUCCESS, job.pipeline_result());
  const std::vector<ColoredVertex> quad = rect(-0.5f, -0.5f, 0.5f, 0.5f, 0.5f, {1, 0, 0, 1});
  const uint32_t floats = uint32_t(quad.size() * sizeof(ColoredVertex) / 4);
  Buffer x = device.create_buffer(floats * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer y = device.create_buffer(floats * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  std::memcpy(y.mapped, quad.data(), floats * 4);
  Buffer params = device.create_buffer(8, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  reinterpret_cast<float*>(params.mapped)[0] = 0.0f;
  reinterpret_cast<uint32_t*>(params.mapped)[1] = floats;
  job.bind_buffer(0, x);
  job.bind_buffer(1, y);
  job.bind_buffer(2, params);
  DrawJob draw(device, colored_options());
  ASSERT_EQ(VK_SUCCESS, draw.pipeline_result());
  device.run_commands([&](VkCommandBuffer cb) {
    job.record(cb, 1);
    if (with_barrier)
      buffer_barrier(cb, y, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT);
    draw.record_pass(cb, {}, [&](VkCommandBuffer cb) {
      bind_vertices(cb, y);
      vkCmdDraw(cb, 6, 1, 0, 0);
    });
  });
  // The draw worked either way (in-order execution): the centre is red.
  EXPECT_EQ(255, draw.read_color()[(32 * 64 + 32) * 4]);
}

TEST_F(StrictModeTest, ComputeWriteThenVertexFetchWithoutABarrierIsReported) {
  expect_one_report([](TestDevice& d) { compute_then_draw(d, false); }, "KILN-strict-read-after-write",
                    {"vkCmdDraw", "VERTEX_ATTRIBUTE_INPUT/VERTEX_ATTRIBUTE_READ", "vkCmdDispatch",
                     "COMPUTE_SHADER/SHADER_STORAGE_WRITE"});
}

TEST_F(StrictModeTest, ComputeWriteThenVertexFetchWithABarrierIsNot) {
  expect_no_report([](TestDevice& d) { compute_then_draw(d, true); });
}

// Two copies into overlapping bytes of one buffer (named, so reports name it).
void copy_twice(TestDevice& device, bool with_barrier) {
  Buffer src = device.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 7);
  Buffer dst = device.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  auto set_name = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
      vkGetDeviceProcAddr(device.handle(), "vkSetDebugUtilsObjectNameEXT"));
  ASSERT_NE(nullptr, set_name);
  const VkDebugUtilsObjectNameInfoEXT name{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, nullptr, VK_OBJECT_TYPE_BUFFER,
                                           reinterpret_cast<uint64_t>(dst.buffer), "copy target"};
  ASSERT_EQ(VK_SUCCESS, set_name(device.handle(), &name));
  device.run_commands([&](VkCommandBuffer cb) {
    const VkBufferCopy first{0, 0, 128}, second{0, 64, 128};
    vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &first);
    if (with_barrier)
      buffer_barrier(cb, dst, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &second);
  });
}

TEST_F(StrictModeTest, OverlappingCopiesWithoutABarrierAreReported) {
  expect_one_report([](TestDevice& d) { copy_twice(d, false); }, "KILN-strict-write-after-write",
                    {"vkCmdCopyBuffer", "buffer \"copy target\"", "bytes [64, 128)", "COPY/TRANSFER_WRITE"});
}

TEST_F(StrictModeTest, OverlappingCopiesWithABarrierAreNot) {
  expect_no_report([](TestDevice& d) { copy_twice(d, true); });
}

// A copy reads a buffer, then a fill overwrites it: only an execution dependency is needed.
void read_then_fill(TestDevice& device, bool with_barrier) {
  Buffer a = device.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1);
  Buffer b = device.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  device.run_commands([&](VkCommandBuffer cb) {
    const VkBufferCopy region{0, 0, 256};
    vkCmdCopyBuffer(cb, a.buffer, b.buffer, 1, &region);
    if (with_barrier) buffer_barrier(cb, a, VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT, 0);
    vkCmdFillBuffer(cb, a.buffer, 0, VK_WHOLE_SIZE, 0);
  });
  EXPECT_EQ(1, b.mapped[0]) << "the copy read before the fill";
}

TEST_F(StrictModeTest, FillAfterARead_WithoutAnExecutionDependency_IsReported) {
  expect_one_report([](TestDevice& d) { read_then_fill(d, false); }, "KILN-strict-write-after-read",
                    {"vkCmdFillBuffer", "vkCmdCopyBuffer", "COPY/TRANSFER_READ"});
}

TEST_F(StrictModeTest, FillAfterARead_WithAnExecutionOnlyBarrier_IsNot) {
  expect_no_report([](TestDevice& d) { read_then_fill(d, true); });
}

// An image's contents after a transition from UNDEFINED are undefined: strict mode poisons them
// and reports a read before anything writes them.
void read_after_discard(TestDevice& device, bool clear_first, std::vector<uint8_t>* got) {
  Image image = device.create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1});
  device.run_commands([&](VkCommandBuffer cb) {
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    if (clear_first) {
      const VkClearColorValue green{.float32 = {0, 1, 0, 1}};
      const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &green, 1, &all);
    }
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  *got = device.read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
}

TEST_F(StrictModeTest, ReadingContentsLeftUndefinedIsReportedAndSeesPoison) {
  std::vector<uint8_t> got;
  read_after_discard(strict_device(), false, &got);
  const std::vector<DebugMessage> reports = strict_reports();
  ASSERT_EQ(1u, reports.size());
  EXPECT_EQ("KILN-strict-read-of-undefined", reports[0].id);
  EXPECT_EQ(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, reports[0].severity);
  EXPECT_NE(std::string::npos, reports[0].text.find("vkCmdCopyImageToBuffer")) << reports[0].text;
  ASSERT_EQ(64u, got.size());
  for (size_t i = 0; i < got.size(); i += 4)
    EXPECT_EQ((std::vector<uint8_t>{0xDE, 0xAD, 0xBE, 0xEF}), std::vector<uint8_t>(got.begin() + i, got.begin() + i + 4))
        << "texel " << i / 4;
}

TEST_F(StrictModeTest, ReadingContentsWrittenAfterTheTransitionIsNot) {
  std::vector<uint8_t> got;
  expect_no_report([&](TestDevice& d) { read_after_discard(d, true, &got); });
  ASSERT_EQ(64u, got.size());
  EXPECT_EQ(255, got[1]);
}

// Queue 0 fills a buffer in a second submission; queue 1 copies from it after waiting only for a
// semaphore signalled by queue 0's first submission (buggy), or for one the fill's submission
// signals (correct).
void fill_on_one_queue_copy_on_another(TestDevice& device, bool wait_for_the_fill) {
  Buffer buffer = device.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  Buffer out = device.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkSemaphore early = device.create_binary_semaphore(), after_fill = device.create_binary_semaphore();
  VkCommandBuffer empty = device.allocate_command_buffer(), fill = device.allocate_command_buffer(),
                  copy = device.allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  vkBeginCommandBuffer(empty, &begin);
  vkEndCommandBuffer(empty);
  vkBeginCommandBuffer(fill, &begin);
  vkCmdFillBuffer(fill, buffer.buffer, 0, VK_WHOLE_SIZE, 0x01010101);
  vkEndCommandBuffer(fill);
  vkBeginCommandBuffer(copy, &begin);
  const VkBufferCopy region{0, 0, 256};
  vkCmdCopyBuffer(copy, buffer.buffer, out.buffer, 1, &region);
  vkEndCommandBuffer(copy);

  VkSubmitInfo first{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  first.commandBufferCount = 1;
  first.pCommandBuffers = &empty;
  first.signalSemaphoreCount = 1;
  first.pSignalSemaphores = &early;
  VkSubmitInfo second{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  second.commandBufferCount = 1;
  second.pCommandBuffers = &fill;
  second.signalSemaphoreCount = 1;
  second.pSignalSemaphores = &after_fill;
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(0), 1, &first, VK_NULL_HANDLE));
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(0), 1, &second, VK_NULL_HANDLE));
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo third{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  third.waitSemaphoreCount = 1;
  third.pWaitSemaphores = wait_for_the_fill ? &after_fill : &early;
  third.pWaitDstStageMask = &stage;
  third.commandBufferCount = 1;
  third.pCommandBuffers = &copy;
  VkFence fence = device.create_fence(false);
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(1), 1, &third, fence));
  ASSERT_EQ(VK_SUCCESS, vkQueueWaitIdle(device.queue(0)));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(device.handle(), 1, &fence, VK_TRUE, UINT64_MAX));
  // Consume the semaphore nobody waited for, so none is left signalled.
  VkSubmitInfo drain{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  drain.waitSemaphoreCount = 1;
  drain.pWaitSemaphores = wait_for_the_fill ? &early : &after_fill;
  drain.pWaitDstStageMask = &stage;
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(0), 1, &drain, VK_NULL_HANDLE));
  ASSERT_EQ(VK_SUCCESS, vkQueueWaitIdle(device.queue(0)));
  if (wait_for_the_fill) EXPECT_EQ(1, out.mapped[0]);
  vkFreeCommandBuffers(device.handle(), device.command_pool(), 1, &empty);
  vkFreeCommandBuffers(device.handle(), device.command_pool(), 1, &fill);
  vkFreeCommandBuffers(device.handle(), device.command_pool(), 1, &copy);
}

TEST_F(StrictModeTest, QueuesWithoutASemaphoreBetweenTheirAccessesAreReported) {
  fill_on_one_queue_copy_on_another(strict_device(), false);
  // Which queue runs first is up to the threads: the copy reads before or after the fill.
  const std::vector<DebugMessage> reports = strict_reports();
  ASSERT_EQ(1u, reports.size());
  EXPECT_TRUE(reports[0].id == "KILN-strict-read-after-write" || reports[0].id == "KILN-strict-write-after-read")
      << reports[0].id;
  EXPECT_NE(std::string::npos, reports[0].text.find("semaphore wait between the queues")) << reports[0].text;
}

TEST_F(StrictModeTest, QueuesOrderedByASemaphoreAreNot) {
  expect_no_report([](TestDevice& d) { fill_on_one_queue_copy_on_another(d, true); });
}

// The same hazard in a command buffer submitted three times is reported once.
TEST_F(StrictModeTest, AHazardIsReportedOncePerPairOfCommands) {
  TestDevice& device = strict_device();
  Buffer src = device.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  Buffer dst = device.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer cb = device.allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info();
  vkBeginCommandBuffer(cb, &begin);
  const VkBufferCopy region{0, 0, 128};
  vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &region);
  vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &region);
  vkEndCommandBuffer(cb);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(0), 1, &submit, VK_NULL_HANDLE));
    ASSERT_EQ(VK_SUCCESS, vkQueueWaitIdle(device.queue(0)));
  }
  EXPECT_EQ(1u, strict_reports().size()) << "the same pair of recorded commands, three submissions";
  vkFreeCommandBuffers(device.handle(), device.command_pool(), 1, &cb);
}

// Using an image in a layout it is not in. The validation layer reports this too, so the program
// runs on an instance without it (the report must come from Kiln).
void copy_out_in_layout(TestDevice& device, VkImageLayout named) {
  Image image = device.create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1});
  Buffer out = device.create_buffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  device.run_commands([&](VkCommandBuffer cb) {
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkClearColorValue green{.float32 = {0, 1, 0, 1}};
    const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &green, 1, &all);
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, named);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {4, 4, 1};
    vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
    full_barrier(cb);
  });
}

TEST_F(StrictModeTest, UsingAnImageInALayoutItIsNotInIsReported) {
  // The copy names TRANSFER_SRC_OPTIMAL, the image was left in GENERAL.
  expect_one_report([](TestDevice& d) { copy_out_in_layout(d, VK_IMAGE_LAYOUT_GENERAL); }, "KILN-strict-wrong-layout",
                    {"vkCmdCopyImageToBuffer", "names layout VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL",
                     "in layout VK_IMAGE_LAYOUT_GENERAL (since vkCmdPipelineBarrier)"},
                    /*unvalidated=*/true);
}

TEST_F(StrictModeTest, UsingAnImageInTheLayoutItIsInIsNot) {
  expect_no_report([](TestDevice& d) { copy_out_in_layout(d, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL); });
}

// vkCmdWaitEvents on an event that only a later vkCmdSetEvent of the same command buffer sets: a
// GPU waits forever; Kiln reports it (strict mode) or logs it, and does not wait, so the
// submission completes. (The validation layer reports it too.)
TEST_F(StrictModeTest, WaitingForAnEventSetOnlyLaterIsReportedAndDoesNotHang) {
  auto program = [](TestDevice& device) {
    VkEvent event = device.create_event();
    Buffer buffer = device.create_buffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    device.run_commands([&](VkCommandBuffer cb) {
      vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0, nullptr, 0,
                      nullptr);
      vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, 0x02020202);
      vkCmdSetEvent(cb, event, VK_PIPELINE_STAGE_TRANSFER_BIT);
    });
    EXPECT_EQ(2, buffer.mapped[0]);
  };
  expect_one_report(program, "KILN-strict-event-wait-before-set", {"vkCmdWaitEvents", "later vkCmdSetEvent"},
                    /*unvalidated=*/true);
}

// Two dispatches through the same storage binding with no barrier: the second reads what the
// first may have written. Kiln knows bindings, not bytes, so this is reported as possible, at INFO
// severity (the dispatches may work on disjoint parts of the buffer).
TEST_F(StrictModeTest, ShaderAccessesOfOneBindingAreReportedAsPossibleHazardsAtInfoSeverity) {
  MessageLog info;
  info.create(instance().handle(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT);
  TestDevice& device = strict_device();
  Buffer x = device.create_buffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer y = device.create_buffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer params = device.create_buffer(8, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  reinterpret_cast<uint32_t*>(params.mapped)[1] = 64;
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = make_set(device,
                                 {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                  {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER}},
                                 &layout);
  write_buffers(device.handle(), set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{x.buffer, 0, VK_WHOLE_SIZE}});
  write_buffers(device.handle(), set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{y.buffer, 0, VK_WHOLE_SIZE}});
  write_buffers(device.handle(), set, 2, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, {{params.buffer, 0, VK_WHOLE_SIZE}});
  SetsPipeline saxpy(device, "saxpy.comp", {layout});
  device.run_commands([&](VkCommandBuffer cb) {
    saxpy.record_dispatch(cb, {set}, 1);
    saxpy.record_dispatch(cb, {set}, 1);
    shader_writes_to_host_barrier(cb);
  });
  EXPECT_TRUE(strict_reports().empty()) << "no warning or error: " << strict_reports()[0].text;
  const std::vector<DebugMessage> got = info.with_id("KILN-strict-");
  ASSERT_EQ(1u, got.size());
  EXPECT_EQ("KILN-strict-possible-read-after-write", got[0].id);
  EXPECT_EQ(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, got[0].severity);
  EXPECT_NE(std::string::npos, got[0].text.find("Possible only")) << got[0].text;
}

// The ids of `opcode`'s results (or, for OpStore, its pointers) inside the function the module names
// `function` (an OpName prefix, e.g. "fetch("), in the application's SPIR-V.
std::set<uint32_t> ids_in_function(const std::vector<uint32_t>& words, const std::string& function, spv::Op opcode) {
  std::set<uint32_t> names, ids;
  for (size_t pos = 5; pos < words.size() && (words[pos] >> 16); pos += words[pos] >> 16)
    if (static_cast<spv::Op>(words[pos] & 0xFFFF) == spv::Op::OpName &&
        std::string(reinterpret_cast<const char*>(&words[pos + 2])).rfind(function, 0) == 0)
      names.insert(words[pos + 1]);
  bool inside = false;
  for (size_t pos = 5; pos < words.size() && (words[pos] >> 16); pos += words[pos] >> 16) {
    const auto op = static_cast<spv::Op>(words[pos] & 0xFFFF);
    if (op == spv::Op::OpFunction) inside = names.count(words[pos + 2]) != 0;
    if (inside && op == opcode) ids.insert(words[pos + (opcode == spv::Op::OpStore ? 1 : 2)]);
  }
  return ids;
}

// The number after `prefix` in `text` (0 when absent).
uint32_t number_after(const std::string& text, const std::string& prefix) {
  const size_t at = text.find(prefix);
  return at == std::string::npos ? 0 : uint32_t(std::strtoul(text.c_str() + at + prefix.size(), nullptr, 10));
}

// y[i] = x[i + shift] for 16 invocations, x of 16 values, y bound to its first `y_elements`
// (strict_out_of_bounds.debug.comp). Lanes inside both ranges copy; the others read zero (robust
// access) and write nothing. Without `write_x` nothing writes x: the shader reads what the driver
// allocated (strict mode's poison).
void copy_shifted(TestDevice& device, uint32_t shift, uint32_t y_elements, bool write_x = true) {
  ComputeJob job(device, "strict_out_of_bounds.debug.comp",
                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 4);
  ASSERT_EQ(VK_SUCCESS, job.pipeline_result());
  Buffer x = device.create_buffer(16 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, std::nullopt);
  Buffer y = device.create_buffer(16 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  for (uint32_t i = 0; i < 16; ++i) {
    if (write_x) mapped_as<uint32_t>(x)[i] = 100 + i;
    mapped_as<uint32_t>(y)[i] = 7;
  }
  if (!write_x) {  // y just copies x's first 16 words, whatever they are
    job.bind_buffer(0, x);
    job.bind_buffer(1, y);
    job.run(1, 1, 1, &shift, 4);
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(mapped_as<uint32_t>(x)[i], mapped_as<uint32_t>(y)[i]) << "y[" << i << "]";
    return;
  }
  job.bind_buffer(0, x);
  job.bind_buffer(1, y, 0, y_elements * 4);
  job.run(1, 1, 1, &shift, 4);
  for (uint32_t i = 0; i < 16; ++i) {
    const uint32_t expected = i >= y_elements ? 7 : i + shift < 16 ? 100 + i + shift : 0;
    EXPECT_EQ(expected, mapped_as<uint32_t>(y)[i]) << "y[" << i << "]";
  }
}

// A read past the end of a buffer, inside a function the optimizer inlines: reported once, naming
// the application's OpLoad (its id in the module the application gave, not Kiln's renumbered
// one), the source line from the module's OpLine, and the first invocation that went out.
TEST_F(StrictModeTest, AReadPastABuffersEndIsReportedWithItsInstructionAndInvocation) {
  expect_one_report([](TestDevice& device) { copy_shifted(device, 2, 16); }, "KILN-strict-out-of-bounds",
                    {"OpLoad %", "strict_out_of_bounds.debug.comp:13", "compute workgroup (0,0,0) invocation (14,0,0)",
                     "outside the range of its buffer"});
}

// The id in the report is an OpLoad of the function the application wrote (inlining gave Kiln's
// copy of it another id).
TEST_F(StrictModeTest, TheReportNamesTheApplicationsOwnLoad) {
  TestDevice& device = strict_device();
  copy_shifted(device, 2, 16);
  const std::vector<DebugMessage> got = strict_reports();
  ASSERT_EQ(1u, got.size());
  const std::set<uint32_t> loads =
      ids_in_function(kiln_test_shader("strict_out_of_bounds.debug.comp"), "fetch(", spv::Op::OpLoad);
  EXPECT_EQ(1u, loads.count(number_after(got[0].text, "OpLoad %"))) << got[0].text;
}

TEST_F(StrictModeTest, AWritePastABuffersRangeIsReportedWithItsInstruction) {
  expect_one_report([](TestDevice& device) { copy_shifted(device, 0, 12); }, "KILN-strict-out-of-bounds",
                    {"OpStore to %", "strict_out_of_bounds.debug.comp:18", "invocation (12,0,0)"});
}

TEST_F(StrictModeTest, AccessesInsideTheirBuffersAreNotReported) {
  expect_no_report([](TestDevice& device) { copy_shifted(device, 0, 16); });
}

// A shader reading memory nothing wrote reads strict mode's poison: reported (a warning) with the
// instruction that read it. On a default device the memory holds whatever it held: no report.
TEST_F(StrictModeTest, AShaderReadingMemoryNothingWroteIsReportedWithItsInstruction) {
  expect_one_report([](TestDevice& device) { copy_shifted(device, 0, 16, false); }, "KILN-strict-read-of-poison",
                    {"OpLoad %31", "strict_out_of_bounds.debug.comp:13", "invocation (0,0,0)", "read 0xEFBEADDE"});
}

// A storage texel buffer store past the view's end (its range is 12 texels of 16 stored).
void store_texels(TestDevice& device, uint32_t view_texels) {
  Buffer texels = device.create_buffer(16 * 4, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  VkBufferViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  info.buffer = texels.buffer;
  info.format = VK_FORMAT_R32_UINT;
  info.range = view_texels * 4;
  VkBufferView view = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateBufferView(device.handle(), &info, nullptr, &view));
  VkDevice d = device.handle();
  device.defer_destroy([d, view] { vkDestroyBufferView(d, view, nullptr); });
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = make_set(device, {{VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER}}, &layout);
  write_texel_buffers(device, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, {view});
  SetsPipeline store(device, "strict_texel_buffer_store.comp", {layout});
  device.run_commands([&](VkCommandBuffer cb) {
    store.record_dispatch(cb, {set}, 1);
    shader_writes_to_host_barrier(cb);
  });
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(i < view_texels ? i + 1 : 0u, mapped_as<uint32_t>(texels)[i]) << i;
}

TEST_F(StrictModeTest, AStorePastATexelBuffersEndIsReportedWithItsInstruction) {
  expect_one_report([](TestDevice& device) { store_texels(device, 12); }, "KILN-strict-out-of-bounds",
                    {"OpImageWrite to %", "invocation (12,0,0)", "the range of its buffer or texel buffer descriptor"});
}

TEST_F(StrictModeTest, StoresInsideATexelBufferAreNotReported) {
  expect_no_report([](TestDevice& device) { store_texels(device, 16); });
}

// A 4x4 workgroup storing into a `width` x 4 storage image; the texels inside hold their index + 1.
void store_image(TestDevice& device, uint32_t width) {
  Image image = device.create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT, {width, 4, 1}, 1, 1, 0,
                                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  VkImageViewCreateInfo view_info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = image.image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = VK_FORMAT_R32_UINT;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &view_info, nullptr, &view));
  VkDevice d = device.handle();
  device.defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
  Buffer out = device.create_buffer(width * 4 * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = make_set(device, {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}}, &layout);
  write_images(device, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL}});
  SetsPipeline store(device, "strict_image_store.comp", {layout});
  device.run_commands([&](VkCommandBuffer cb) {
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
    store.record_dispatch(cb, {set}, 1);
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {width, 4, 1};
    vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
  });
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < width; ++x) EXPECT_EQ(y * 4 + x + 1, mapped_as<uint32_t>(out)[y * width + x]) << x << "," << y;
}

TEST_F(StrictModeTest, AStorePastAStorageImagesExtentIsReportedWithItsInstruction) {
  expect_one_report([](TestDevice& device) { store_image(device, 3); }, "KILN-strict-out-of-bounds",
                    {"OpImageWrite to %", "invocation (3,0,0)", "outside its image view's extent"});
}

TEST_F(StrictModeTest, StoresInsideAStorageImageAreNotReported) {
  expect_no_report([](TestDevice& device) { store_image(device, 4); });
}

// With robustBufferAccess the same read is defined behaviour (it reads zero here): no report.
TEST_F(StrictModeTest, AReadPastABuffersEndWithRobustBufferAccessIsNotReported) {
  copy_shifted(strict_device(true, true), 2, 16);
  for (const DebugMessage& m : strict_reports()) ADD_FAILURE() << "false report: " << m.text;
}

// New device memory holds poison in strict mode, so code that reads memory it never wrote sees
// a recognisable value.
TEST_F(StrictModeTest, NewMemoryIsPoisoned) {
  TestDevice& device = strict_device();
  const uint32_t type = device.find_memory_type(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  ASSERT_NE(UINT32_MAX, type);
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, 1024, type};
  VkDeviceMemory memory = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkAllocateMemory(device.handle(), &info, nullptr, &memory));
  void* data = nullptr;
  ASSERT_EQ(VK_SUCCESS, vkMapMemory(device.handle(), memory, 0, VK_WHOLE_SIZE, 0, &data));
  uint32_t word;
  std::memcpy(&word, static_cast<uint8_t*>(data) + 512, 4);
  EXPECT_EQ(0xEFBEADDEu, word);
  vkUnmapMemory(device.handle(), memory);
  vkFreeMemory(device.handle(), memory, nullptr);
}

}  // namespace
}  // namespace kiln::test
