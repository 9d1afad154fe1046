// The execution engine's ordering: semaphores, fences, events and submission order; and batches
// holding their command lists until they have run.
#include "pipeline/queue_engine.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

namespace kiln::exec {
namespace {

using namespace std::chrono_literals;

// A command list that fills a 4-byte buffer with `value`, so execution order is observable.
struct Marker {
  mem::Buffer buffer;
  uint32_t word = 0;
  std::shared_ptr<CommandList> list = std::make_shared<CommandList>();
  Marker(uint32_t value) {
    buffer.size = 4;
    buffer.data = reinterpret_cast<uint8_t*>(&word);
    auto* cmd = list->append<FillBufferCmd>();
    cmd->dst = &buffer;
    cmd->offset = 0;
    cmd->size = 4;
    cmd->data = value;
  }
};

TEST(Sync, FenceWaitTimesOutThenSucceeds) {
  SyncHub hub;
  Fence fence(hub, false);
  Fence* list[] = {&fence};
  EXPECT_EQ(wait_for_fences(hub, list, true, deadline_after(0)), VK_TIMEOUT);
  std::thread signaller([&] {
    std::this_thread::sleep_for(10ms);
    fence.signal();
  });
  EXPECT_EQ(wait_for_fences(hub, list, true, deadline_after(UINT64_MAX)), VK_SUCCESS);
  signaller.join();
  fence.reset();
  EXPECT_FALSE(fence.is_signaled());
}

TEST(Sync, WaitAnyVersusWaitAll) {
  SyncHub hub;
  Fence a(hub, true), b(hub, false);
  Fence* list[] = {&a, &b};
  EXPECT_EQ(wait_for_fences(hub, list, false, deadline_after(0)), VK_SUCCESS);
  EXPECT_EQ(wait_for_fences(hub, list, true, deadline_after(1000000)), VK_TIMEOUT);
}

TEST(Sync, TimelineValuesOnlyIncrease) {
  SyncHub hub;
  Semaphore s(hub, VK_SEMAPHORE_TYPE_TIMELINE, 5);
  EXPECT_EQ(s.value(), 5u);
  s.signal(9);
  s.signal(7);  // lower values never move a timeline back
  EXPECT_EQ(s.value(), 9u);
  EXPECT_EQ(s.wait(9, deadline_after(0)), VK_SUCCESS);
  EXPECT_EQ(s.wait(10, deadline_after(0)), VK_TIMEOUT);
  Semaphore* list[] = {&s};
  uint64_t values[] = {12};
  EXPECT_EQ(wait_for_semaphores(hub, list, values, false, deadline_after(1000)), VK_TIMEOUT);
}

TEST(Sync, BinaryWaitConsumesTheSignal) {
  SyncHub hub;
  Semaphore s(hub, VK_SEMAPHORE_TYPE_BINARY, 0);
  s.signal(0);
  EXPECT_EQ(s.wait(0, deadline_after(0)), VK_SUCCESS);
  EXPECT_EQ(s.wait(0, deadline_after(0)), VK_TIMEOUT);
}

TEST(QueueEngine, BatchWaitsForItsSemaphoreBeforeRunning) {
  SyncHub hub;
  ThreadPool pool(2);
  QueueEngine engine(hub, pool);
  Semaphore timeline(hub, VK_SEMAPHORE_TYPE_TIMELINE, 0);
  Fence fence(hub, false);
  Marker marker(0xABCD);
  std::vector<Batch> batches(1);
  batches[0].waits.push_back({&timeline, 3});
  batches[0].command_lists.push_back(marker.list);
  batches[0].fence = &fence;
  engine.submit(std::move(batches));
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(fence.is_signaled());
  EXPECT_EQ(marker.word, 0u);  // not run before the wait is satisfied
  timeline.signal(3);
  Fence* list[] = {&fence};
  ASSERT_EQ(wait_for_fences(hub, list, true, deadline_after(5'000'000'000)), VK_SUCCESS);
  EXPECT_EQ(marker.word, 0xABCDu);
}

TEST(QueueEngine, BatchesRunInSubmissionOrderAndSignal) {
  SyncHub hub;
  ThreadPool pool(2);
  QueueEngine engine(hub, pool);
  Marker first(1), second(2);
  // Both write the same word through one buffer: the last writer must be the second batch.
  second.buffer.data = first.buffer.data;
  Semaphore done(hub, VK_SEMAPHORE_TYPE_TIMELINE, 0);
  std::vector<Batch> batches(2);
  batches[0].command_lists.push_back(first.list);
  batches[1].command_lists.push_back(second.list);
  batches[1].signals.push_back({&done, 1});
  engine.submit(std::move(batches));
  engine.wait_idle();
  EXPECT_EQ(done.value(), 1u);
  EXPECT_EQ(first.word, 2u);
}

TEST(QueueEngine, EventBlocksTheQueueUntilSet) {
  SyncHub hub;
  Event event(hub);
  Marker marker(7);
  auto waiting = std::make_shared<CommandList>();
  ThreadPool pool(2);
  QueueEngine engine(hub, pool);
  Event* events[] = {&event};
  auto* wait = waiting->append<WaitEventsCmd>();
  wait->event_count = 1;
  wait->events = waiting->copy_array(events, 1);
  Fence fence(hub, false);
  std::vector<Batch> batches(1);
  batches[0].command_lists = {waiting, marker.list};
  batches[0].fence = &fence;
  engine.submit(std::move(batches));
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(marker.word, 0u);
  event.set();
  engine.wait_idle();
  EXPECT_EQ(marker.word, 7u);
  EXPECT_TRUE(fence.is_signaled());
}

// vkResetCommandBuffer / vkFreeCommandBuffers drop the command buffer's reference while a
// submission is pending (issue 21): the batch's own reference keeps the commands to run.
TEST(QueueEngine, PendingBatchKeepsItsCommandListsAfterTheOwnerDropsThem) {
  SyncHub hub;
  ThreadPool pool(2);
  QueueEngine engine(hub, pool);
  Semaphore timeline(hub, VK_SEMAPHORE_TYPE_TIMELINE, 0);
  Marker marker(0x5EED);
  std::weak_ptr<const CommandList> watched = marker.list;
  std::vector<Batch> batches(1);
  batches[0].waits.push_back({&timeline, 1});
  batches[0].command_lists.push_back(marker.list);
  engine.submit(std::move(batches));
  marker.list.reset();  // the owner lets go while the batch is still waiting
  EXPECT_FALSE(watched.expired());
  timeline.signal(1);
  engine.wait_idle();
  EXPECT_EQ(marker.word, 0x5EEDu);
}

TEST(QueueEngine, ShutdownReleasesAQueueBlockedOnAnEvent) {
  SyncHub hub;
  Event never_set(hub);
  Fence fence(hub, false);
  {
    auto waiting = std::make_shared<CommandList>();
    ThreadPool pool(2);
    QueueEngine engine(hub, pool);
    Event* events[] = {&never_set};
    auto* wait = waiting->append<WaitEventsCmd>();
    wait->event_count = 1;
    wait->events = waiting->copy_array(events, 1);
    std::vector<Batch> batches(1);
    batches[0].command_lists = {waiting};
    batches[0].fence = &fence;
    engine.submit(std::move(batches));
    std::this_thread::sleep_for(10ms);
    EXPECT_FALSE(fence.is_signaled());
    std::lock_guard lock(hub.mutex);
    hub.shutting_down = true;
    hub.changed.notify_all();
  }  // the engine's destructor joins its thread: this test hangs if shutdown does not release it
  // Released, the batch ran to its end: nothing waiting on its fence is left blocked either.
  EXPECT_TRUE(fence.is_signaled());
}

}  // namespace
}  // namespace kiln::exec
