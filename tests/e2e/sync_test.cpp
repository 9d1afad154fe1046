// Synchronization: fences, binary semaphores across submits and queues, timeline semaphores
// (host signal/wait, waits that block queued work), vkQueueSubmit2, events (host and device, 1 and
// 2 forms), queue/device wait idle.
//
// "Must not complete before X" is checked by waiting kBlockedCheckNs for the work and expecting
// VK_TIMEOUT, then doing X and expecting completion.
#include <chrono>
#include <cstring>
#include <thread>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using SyncTest = VulkanTest;

constexpr uint64_t kBlockedCheckNs = 30'000'000;  // 30 ms
constexpr VkBufferUsageFlags kTransferBoth = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

uint32_t first_word(const Buffer& buffer) {
  uint32_t word;
  std::memcpy(&word, buffer.mapped, 4);
  return word;
}

::testing::AssertionResult all_words_are(const Buffer& buffer, uint32_t value) {
  for (size_t i = 0; i < buffer.size; i += 4) {
    uint32_t word;
    std::memcpy(&word, buffer.mapped + i, 4);
    if (word != value)
      return ::testing::AssertionFailure() << "offset " << i << " holds 0x" << std::hex << word << ", expected 0x"
                                           << value;
  }
  return ::testing::AssertionSuccess();
}

void copy_whole(VkCommandBuffer cmd, const Buffer& from, const Buffer& to) {
  const VkBufferCopy region{0, 0, from.size};
  vkCmdCopyBuffer(cmd, from.buffer, to.buffer, 1, &region);
}

VkResult signal_timeline(VkDevice device, VkSemaphore semaphore, uint64_t value) {
  VkSemaphoreSignalInfo info{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = semaphore;
  info.value = value;
  return vkSignalSemaphore(device, &info);
}

VkResult wait_timelines(VkDevice device, std::initializer_list<VkSemaphore> semaphores,
                        std::initializer_list<uint64_t> values, bool any, uint64_t timeout) {
  const std::vector<VkSemaphore> handles(semaphores);
  const std::vector<uint64_t> targets(values);
  VkSemaphoreWaitInfo info{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.flags = any ? VK_SEMAPHORE_WAIT_ANY_BIT : 0;
  info.semaphoreCount = static_cast<uint32_t>(handles.size());
  info.pSemaphores = handles.data();
  info.pValues = targets.data();
  return vkWaitSemaphores(device, &info, timeout);
}

uint64_t counter_value(VkDevice device, VkSemaphore semaphore) {
  uint64_t value = ~0ull;
  EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(device, semaphore, &value));
  return value;
}

// --- Fences ------------------------------------------------------------------------------------

TEST_F(SyncTest, FenceStatesWaitAndReset) {
  VkDevice dev = device().handle();
  VkFence fence = device().create_fence(true);
  EXPECT_EQ(VK_SUCCESS, vkGetFenceStatus(dev, fence)) << "created signaled";
  EXPECT_EQ(VK_SUCCESS, vkWaitForFences(dev, 1, &fence, VK_TRUE, 0));
  ASSERT_EQ(VK_SUCCESS, vkResetFences(dev, 1, &fence));
  EXPECT_EQ(VK_NOT_READY, vkGetFenceStatus(dev, fence));
  EXPECT_EQ(VK_TIMEOUT, vkWaitForFences(dev, 1, &fence, VK_TRUE, 0));
  EXPECT_EQ(VK_TIMEOUT, vkWaitForFences(dev, 1, &fence, VK_TRUE, 1'000'000));  // 1 ms, nothing pending
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device().queue(), 0, nullptr, fence));
  EXPECT_EQ(VK_SUCCESS, vkWaitForFences(dev, 1, &fence, VK_TRUE, kGpuTimeoutNs));
  EXPECT_EQ(VK_SUCCESS, vkGetFenceStatus(dev, fence));
  VkFence unsignaled = device().create_fence(false);
  EXPECT_EQ(VK_NOT_READY, vkGetFenceStatus(dev, unsignaled));
}

TEST_F(SyncTest, WaitForFencesAllVersusAny) {
  VkDevice dev = device().handle();
  const VkFence fences[] = {device().create_fence(true), device().create_fence(false)};
  EXPECT_EQ(VK_TIMEOUT, vkWaitForFences(dev, 2, fences, VK_TRUE, 0));
  EXPECT_EQ(VK_TIMEOUT, vkWaitForFences(dev, 2, fences, VK_TRUE, 2'000'000));
  EXPECT_EQ(VK_SUCCESS, vkWaitForFences(dev, 2, fences, VK_FALSE, 0));
  ASSERT_EQ(VK_SUCCESS, vkResetFences(dev, 2, fences));
  EXPECT_EQ(VK_TIMEOUT, vkWaitForFences(dev, 2, fences, VK_FALSE, 0));
  // Signal the second by a submit: any → success, all → still timeout.
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device().queue(), 0, nullptr, fences[1]));
  EXPECT_EQ(VK_SUCCESS, vkWaitForFences(dev, 2, fences, VK_FALSE, kGpuTimeoutNs));
  EXPECT_EQ(VK_TIMEOUT, vkWaitForFences(dev, 2, fences, VK_TRUE, 0));
}

// --- Binary semaphores -------------------------------------------------------------------------

// Submission 1 (queue `producer`): fills X, then bounces it through W a few times (long enough
// that an unsynchronised reader would see stale data), signals binary semaphore S.
// Submission 2 (queue `consumer`): waits S, copies X → Y. Y must hold the fill.
// With `host_gate`, submission 1 first waits for an event the host sets later, and submission 2
// must not complete before that.
void binary_semaphore_orders_submits(TestDevice& device, uint32_t producer, uint32_t consumer, bool host_gate) {
  VkDevice dev = device.handle();
  const VkDeviceSize size = 8u << 20;
  Buffer x = device.create_buffer(size, kTransferBoth, 0);
  Buffer w = device.create_buffer(size, kTransferBoth, 0);
  Buffer y = device.create_buffer(size, kTransferBoth, 0);
  VkEvent gate = device.create_event();
  VkSemaphore s = device.create_binary_semaphore();
  VkCommandBuffer produce_cmd = device.record_commands([&](VkCommandBuffer cmd) {
    if (host_gate)
      vkCmdWaitEvents(cmd, 1, &gate, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0,
                      nullptr, 0, nullptr);
    vkCmdFillBuffer(cmd, x.buffer, 0, VK_WHOLE_SIZE, 0xFEEDC0DEu);
    for (int bounce = 0; bounce < 3; ++bounce) {
      full_barrier(cmd);
      copy_whole(cmd, x, w);
      full_barrier(cmd);
      copy_whole(cmd, w, x);
    }
  });
  VkCommandBuffer consume_cmd = device.record_commands([&](VkCommandBuffer cmd) {
    copy_whole(cmd, x, y);
    full_barrier(cmd);
  });

  VkSubmitInfo produce{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  produce.commandBufferCount = 1;
  produce.pCommandBuffers = &produce_cmd;
  produce.signalSemaphoreCount = 1;
  produce.pSignalSemaphores = &s;
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(producer), 1, &produce, VK_NULL_HANDLE));

  VkFence done = device.create_fence(false);
  const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo consume{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  consume.waitSemaphoreCount = 1;
  consume.pWaitSemaphores = &s;
  consume.pWaitDstStageMask = &transfer;
  consume.commandBufferCount = 1;
  consume.pCommandBuffers = &consume_cmd;
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device.queue(consumer), 1, &consume, done));

  if (host_gate) {
    EXPECT_EQ(VK_TIMEOUT, vkWaitForFences(dev, 1, &done, VK_TRUE, kBlockedCheckNs))
        << "the waiting submit finished before its semaphore could be signaled";
    EXPECT_EQ(0u, first_word(y));
    ASSERT_EQ(VK_SUCCESS, vkSetEvent(dev, gate));
  }
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(dev, 1, &done, VK_TRUE, kGpuTimeoutNs));
  EXPECT_TRUE(all_words_are(y, 0xFEEDC0DEu));
  EXPECT_EQ(VK_SUCCESS, vkQueueWaitIdle(device.queue(producer)));
}

TEST_F(SyncTest, BinarySemaphoreOrdersSubmitsOnTwoQueues) {
  REQUIRE_ON_KILN(device().queue_count() >= 2, "two queues in family 0");
  binary_semaphore_orders_submits(device(), 0, 1, false);
}

TEST_F(SyncTest, BinarySemaphoreOrdersSubmitsOnOneQueue) { binary_semaphore_orders_submits(device(), 0, 0, false); }

// Kiln-only: the spec allows this (the signal is submitted before the wait), but lavapipe blocks
// inside vkQueueSubmit until a binary wait's signal has executed, which here needs the host to
// run on — a deadlock. Kiln's submits never block.
TEST_F(SyncTest, BinarySemaphoreWaitHoldsSecondQueueUntilHostReleasesProducer) {
  KILN_ONLY();
  ASSERT_GE(device().queue_count(), 2u);
  binary_semaphore_orders_submits(device(), 0, 1, true);
}

// --- Timeline semaphores -----------------------------------------------------------------------

TEST_F(SyncTest, TimelineHostSignalWaitAndCounter) {
  REQUIRE_ON_KILN(features().v12.timelineSemaphore, "timelineSemaphore");
  VkDevice dev = device().handle();
  VkSemaphore a = device().create_timeline_semaphore(3);
  VkSemaphore b = device().create_timeline_semaphore(0);
  EXPECT_EQ(3u, counter_value(dev, a));
  ASSERT_EQ(VK_SUCCESS, signal_timeline(dev, a, 5));
  EXPECT_EQ(5u, counter_value(dev, a));
  EXPECT_EQ(VK_SUCCESS, wait_timelines(dev, {a}, {5}, false, 0));
  EXPECT_EQ(VK_SUCCESS, wait_timelines(dev, {a}, {4}, false, 0)) << "lower values are reached too";
  EXPECT_EQ(VK_TIMEOUT, wait_timelines(dev, {a}, {6}, false, 0));
  EXPECT_EQ(VK_TIMEOUT, wait_timelines(dev, {a}, {6}, false, 2'000'000));
  // all: a ≥ 5 holds, b ≥ 1 does not; any: one suffices.
  EXPECT_EQ(VK_TIMEOUT, wait_timelines(dev, {a, b}, {5, 1}, false, 0));
  EXPECT_EQ(VK_SUCCESS, wait_timelines(dev, {a, b}, {5, 1}, true, 0));
  EXPECT_EQ(VK_TIMEOUT, wait_timelines(dev, {a, b}, {6, 1}, true, 1'000'000));
  ASSERT_EQ(VK_SUCCESS, signal_timeline(dev, b, 1));
  EXPECT_EQ(VK_SUCCESS, wait_timelines(dev, {a, b}, {5, 1}, false, 0));
}

TEST_F(SyncTest, TimelineWaitBlocksUntilAnotherThreadSignals) {
  REQUIRE_ON_KILN(features().v12.timelineSemaphore, "timelineSemaphore");
  VkDevice dev = device().handle();
  VkSemaphore semaphore = device().create_timeline_semaphore(0);
  const auto start = std::chrono::steady_clock::now();
  std::thread signaler([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    EXPECT_EQ(VK_SUCCESS, signal_timeline(dev, semaphore, 7));
  });
  const VkResult result = wait_timelines(dev, {semaphore}, {7}, false, kGpuTimeoutNs);
  const auto waited = std::chrono::steady_clock::now() - start;
  signaler.join();
  EXPECT_EQ(VK_SUCCESS, result);
  EXPECT_GE(waited, std::chrono::milliseconds(30)) << "the wait returned before the signal";
  EXPECT_EQ(7u, counter_value(dev, semaphore));
}

// A submit waiting on timeline value 2 must not run before the host signals 2; it then signals 3.
TEST_F(SyncTest, SubmitWaitsForHostTimelineSignal) {
  REQUIRE_ON_KILN(features().v12.timelineSemaphore, "timelineSemaphore");
  VkDevice dev = device().handle();
  Buffer source = device().create_buffer(4096, kTransferBoth, 0x7E);
  Buffer destination = device().create_buffer(4096, kTransferBoth, 0);
  VkSemaphore timeline = device().create_timeline_semaphore(1);
  VkCommandBuffer copy = device().record_commands([&](VkCommandBuffer cmd) {
    copy_whole(cmd, source, destination);
    full_barrier(cmd);
  });
  const uint64_t wait_value = 2, signal_value = 3;
  VkTimelineSemaphoreSubmitInfo values{.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  values.waitSemaphoreValueCount = 1;
  values.pWaitSemaphoreValues = &wait_value;
  values.signalSemaphoreValueCount = 1;
  values.pSignalSemaphoreValues = &signal_value;
  const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &values};
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &timeline;
  info.pWaitDstStageMask = &transfer;
  info.commandBufferCount = 1;
  info.pCommandBuffers = &copy;
  info.signalSemaphoreCount = 1;
  info.pSignalSemaphores = &timeline;
  VkFence fence = device().create_fence(false);
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device().queue(), 1, &info, fence));

  EXPECT_EQ(VK_TIMEOUT, wait_timelines(dev, {timeline}, {3}, false, kBlockedCheckNs));
  EXPECT_EQ(VK_NOT_READY, vkGetFenceStatus(dev, fence));
  EXPECT_EQ(1u, counter_value(dev, timeline));
  EXPECT_EQ(0u, first_word(destination)) << "the copy ran before its wait was satisfied";

  ASSERT_EQ(VK_SUCCESS, signal_timeline(dev, timeline, 2));
  EXPECT_EQ(VK_SUCCESS, wait_timelines(dev, {timeline}, {3}, false, kGpuTimeoutNs));
  EXPECT_EQ(VK_SUCCESS, vkWaitForFences(dev, 1, &fence, VK_TRUE, kGpuTimeoutNs));
  EXPECT_EQ(3u, counter_value(dev, timeline));
  EXPECT_TRUE(all_words_are(destination, 0x7E7E7E7Eu));
}

// vkQueueSubmit2: a fill signals timeline 1; a copy waits for it and signals 2, which the host
// waits for. With two queues the copy (queue 1) is submitted before the fill (queue 0) — a wait
// before its signal exists; with one queue the fill must come first (a later signal on the same
// queue could never run).
TEST_F(SyncTest, QueueSubmit2WithTimelineSemaphores) {
  REQUIRE_ON_KILN(features().v12.timelineSemaphore, "timelineSemaphore");
  REQUIRE_ON_KILN(features().v13.synchronization2, "synchronization2");
  VkDevice dev = device().handle();
  Buffer x = device().create_buffer(1 << 16, kTransferBoth, 0);
  Buffer y = device().create_buffer(1 << 16, kTransferBoth, 0);
  VkSemaphore timeline = device().create_timeline_semaphore(0);
  VkCommandBuffer fill = device().record_commands([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, x.buffer, 0, VK_WHOLE_SIZE, 0x0DDBA11u);
  });
  VkCommandBuffer copy = device().record_commands([&](VkCommandBuffer cmd) {
    copy_whole(cmd, x, y);
    full_barrier(cmd);
  });
  const bool two_queues = device().queue_count() > 1;

  VkSemaphoreSubmitInfo wait_1{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  wait_1.semaphore = timeline;
  wait_1.value = 1;
  wait_1.stageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
  VkSemaphoreSubmitInfo signal_2 = wait_1;
  signal_2.value = 2;
  signal_2.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkCommandBufferSubmitInfo copy_info{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  copy_info.commandBuffer = copy;
  VkSubmitInfo2 consume{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  consume.waitSemaphoreInfoCount = 1;
  consume.pWaitSemaphoreInfos = &wait_1;
  consume.commandBufferInfoCount = 1;
  consume.pCommandBufferInfos = &copy_info;
  consume.signalSemaphoreInfoCount = 1;
  consume.pSignalSemaphoreInfos = &signal_2;

  VkSemaphoreSubmitInfo signal_1 = wait_1;
  signal_1.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkCommandBufferSubmitInfo fill_info{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  fill_info.commandBuffer = fill;
  VkSubmitInfo2 produce{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  produce.commandBufferInfoCount = 1;
  produce.pCommandBufferInfos = &fill_info;
  produce.signalSemaphoreInfoCount = 1;
  produce.pSignalSemaphoreInfos = &signal_1;

  VkFence fence = device().create_fence(false);
  if (two_queues) {
    ASSERT_EQ(VK_SUCCESS, vkQueueSubmit2(device().queue(1), 1, &consume, fence));
    EXPECT_EQ(VK_TIMEOUT, vkWaitForFences(dev, 1, &fence, VK_TRUE, kBlockedCheckNs))
        << "the copy ran before the value it waits for was signaled";
    EXPECT_EQ(0u, counter_value(dev, timeline));
    ASSERT_EQ(VK_SUCCESS, vkQueueSubmit2(device().queue(0), 1, &produce, VK_NULL_HANDLE));
  } else {
    ASSERT_EQ(VK_SUCCESS, vkQueueSubmit2(device().queue(0), 1, &produce, VK_NULL_HANDLE));
    ASSERT_EQ(VK_SUCCESS, vkQueueSubmit2(device().queue(0), 1, &consume, fence));
  }
  EXPECT_EQ(VK_SUCCESS, wait_timelines(dev, {timeline}, {2}, false, kGpuTimeoutNs));
  EXPECT_EQ(VK_SUCCESS, vkWaitForFences(dev, 1, &fence, VK_TRUE, kGpuTimeoutNs));
  EXPECT_EQ(2u, counter_value(dev, timeline));
  EXPECT_TRUE(all_words_are(y, 0x0DDBA11u));
}

// --- Events ------------------------------------------------------------------------------------

TEST_F(SyncTest, EventHostSetResetStatus) {
  VkDevice dev = device().handle();
  VkEvent event = device().create_event();
  EXPECT_EQ(VK_EVENT_RESET, vkGetEventStatus(dev, event)) << "events are created unsignaled";
  ASSERT_EQ(VK_SUCCESS, vkSetEvent(dev, event));
  EXPECT_EQ(VK_EVENT_SET, vkGetEventStatus(dev, event));
  ASSERT_EQ(VK_SUCCESS, vkSetEvent(dev, event));  // setting a set event keeps it set
  EXPECT_EQ(VK_EVENT_SET, vkGetEventStatus(dev, event));
  ASSERT_EQ(VK_SUCCESS, vkResetEvent(dev, event));
  EXPECT_EQ(VK_EVENT_RESET, vkGetEventStatus(dev, event));
}

// fill A; set event; wait event (memory dependency fill → copy); copy A → B. The device-set event
// is visible to the host afterwards.
TEST_F(SyncTest, CmdSetEventAndWaitEvents) {
  Buffer a = device().create_buffer(1 << 16, kTransferBoth, 0);
  Buffer b = device().create_buffer(1 << 16, kTransferBoth, 0);
  VkEvent event = device().create_event();
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, 0xE7E7E7E7u);
    vkCmdSetEvent(cmd, event, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &barrier, 0,
                    nullptr, 0, nullptr);
    copy_whole(cmd, a, b);
    full_barrier(cmd);
  });
  EXPECT_TRUE(all_words_are(b, 0xE7E7E7E7u));
  EXPECT_EQ(VK_EVENT_SET, vkGetEventStatus(device().handle(), event));
}

TEST_F(SyncTest, CmdSetEvent2AndWaitEvents2AndResetEvent2) {
  REQUIRE_ON_KILN(features().v13.synchronization2, "synchronization2");
  Buffer a = device().create_buffer(1 << 16, kTransferBoth, 0);
  Buffer b = device().create_buffer(1 << 16, kTransferBoth, 0);
  VkEvent event = device().create_event();
  VkEvent left_set = device().create_event();
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, 0x2E2E2E2Eu);
    VkMemoryBarrier2 barrier{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    barrier.srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;  // vkCmdFillBuffer is a clear command
    barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    barrier.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    barrier.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
    VkDependencyInfo dependency{.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &barrier;
    vkCmdSetEvent2(cmd, event, &dependency);
    vkCmdWaitEvents2(cmd, 1, &event, &dependency);  // same dependency info, as the spec requires
    copy_whole(cmd, a, b);
    vkCmdResetEvent2(cmd, event, VK_PIPELINE_STAGE_2_COPY_BIT);
    VkDependencyInfo nothing{.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    vkCmdSetEvent2(cmd, left_set, &nothing);
    full_barrier(cmd);
  });
  EXPECT_TRUE(all_words_are(b, 0x2E2E2E2Eu));
  EXPECT_EQ(VK_EVENT_RESET, vkGetEventStatus(device().handle(), event)) << "vkCmdResetEvent2 ran last";
  EXPECT_EQ(VK_EVENT_SET, vkGetEventStatus(device().handle(), left_set));
}

// A queued command buffer waits (vkCmdWaitEvents, HOST source stage) for an event the host sets
// later; the host writes the source buffer after submitting, then sets the event.
TEST_F(SyncTest, HostSetEventReleasesQueuedWait) {
  VkDevice dev = device().handle();
  Buffer a = device().create_buffer(4096, kTransferBoth, 0);
  Buffer b = device().create_buffer(4096, kTransferBoth, 0);
  VkEvent event = device().create_event();
  VkCommandBuffer cmd = device().record_commands([&](VkCommandBuffer c) {
    VkMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdWaitEvents(c, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &barrier, 0,
                    nullptr, 0, nullptr);
    copy_whole(c, a, b);
    full_barrier(c);
  });
  VkFence fence = device().create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit(device().queue(), cmd, fence));
  EXPECT_EQ(VK_TIMEOUT, vkWaitForFences(dev, 1, &fence, VK_TRUE, kBlockedCheckNs))
      << "the command buffer did not wait for the event";
  EXPECT_EQ(0u, first_word(b));
  std::memset(a.mapped, 0x6B, 4096);
  ASSERT_EQ(VK_SUCCESS, vkSetEvent(dev, event));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(dev, 1, &fence, VK_TRUE, kGpuTimeoutNs));
  EXPECT_TRUE(all_words_are(b, 0x6B6B6B6Bu)) << "host writes before vkSetEvent must reach the copy";
}

// --- Wait idle ---------------------------------------------------------------------------------

TEST_F(SyncTest, QueueWaitIdleAndDeviceWaitIdle) {
  VkDevice dev = device().handle();
  std::vector<Buffer> buffers;
  for (uint32_t q = 0; q < device().queue_count(); ++q) {
    buffers.push_back(device().create_buffer(1 << 20, kTransferBoth, 0));
    VkCommandBuffer cmd = device().record_commands([&](VkCommandBuffer c) {
      vkCmdFillBuffer(c, buffers.back().buffer, 0, VK_WHOLE_SIZE, 0xA0A0A0A0u + q);
      full_barrier(c);
    });
    ASSERT_EQ(VK_SUCCESS, submit(device().queue(q), cmd));
  }
  ASSERT_EQ(VK_SUCCESS, vkQueueWaitIdle(device().queue(0)));
  EXPECT_TRUE(all_words_are(buffers[0], 0xA0A0A0A0u));
  ASSERT_EQ(VK_SUCCESS, vkDeviceWaitIdle(dev));
  for (uint32_t q = 0; q < device().queue_count(); ++q)
    EXPECT_TRUE(all_words_are(buffers[q], 0xA0A0A0A0u + q)) << "queue " << q;
}

}  // namespace
}  // namespace kiln::test
