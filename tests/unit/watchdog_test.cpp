// The device watchdog's rules (docs/design/device-loss.md): a queue in one command for the timeout
// is stuck; a waiting queue only when nothing on the device moved for the timeout; idle queues
// never; timeout 0 is off. And a queue engine blocked on a semaphore nobody signals comes back.
#include "pipeline/watchdog.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "pipeline/queue_engine.h"

namespace kiln::exec {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr uint64_t kTimeoutMs = 60;
// For the "not lost" checks: progress every 10 ms, and room for a loaded machine's scheduling delays.
constexpr uint64_t kSlackTimeoutMs = 250;

// Waits (at most `limit`) for the device to be lost; the time it took, or `limit` if it never was.
std::chrono::milliseconds time_to_loss(const SyncHub& hub, std::chrono::milliseconds limit = 3000ms) {
  const auto start = Clock::now();
  while (!hub.is_lost() && Clock::now() - start < limit) std::this_thread::sleep_for(2ms);
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

TEST(Watchdog, OneCommandPastTheTimeoutLosesTheDevice) {
  SyncHub hub;
  QueueProgress queue;
  Watchdog watchdog(hub, kTimeoutMs);
  watchdog.watch(&queue);
  queue.begin(/*wait=*/false);
  const auto took = time_to_loss(hub);
  EXPECT_TRUE(hub.is_lost());
  EXPECT_GE(took.count(), int64_t(kTimeoutMs) - 5);
  EXPECT_LT(took.count(), 2000);
}

TEST(Watchdog, CommandsThatKeepBeginningAreNotLost) {
  SyncHub hub;
  QueueProgress queue;
  Watchdog watchdog(hub, kSlackTimeoutMs);
  watchdog.watch(&queue);
  for (int i = 0; i < 60; ++i) {  // 600 ms of 10 ms commands: more than two timeouts in all
    queue.begin(/*wait=*/false);
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_FALSE(hub.is_lost());
  queue.idle();
  std::this_thread::sleep_for(std::chrono::milliseconds(2 * kSlackTimeoutMs));
  EXPECT_FALSE(hub.is_lost()) << "an idle queue was declared stuck";
}

TEST(Watchdog, WaitingIsNotStuckWhileSignalsArriveOrOtherQueuesWork) {
  SyncHub hub;
  QueueProgress waiting, working;
  Watchdog watchdog(hub, kSlackTimeoutMs);
  watchdog.watch(&waiting);
  watchdog.watch(&working);
  waiting.begin(/*wait=*/true);
  for (int i = 0; i < 40; ++i) {  // signals (from anywhere) every 10 ms
    hub.note_signal();
    std::this_thread::sleep_for(10ms);
  }
  for (int i = 0; i < 40; ++i) {  // then another queue's commands
    working.begin(/*wait=*/false);
    std::this_thread::sleep_for(10ms);
  }
  working.idle();
  EXPECT_FALSE(hub.is_lost());
  // Now nothing moves: the waiting queue is stuck.
  const auto took = time_to_loss(hub);
  EXPECT_TRUE(hub.is_lost());
  EXPECT_LT(took.count(), 2000);
}

TEST(Watchdog, ZeroTimeoutIsOff) {
  SyncHub hub;
  QueueProgress queue;
  Watchdog watchdog(hub, 0);
  watchdog.watch(&queue);
  queue.begin(/*wait=*/false);
  std::this_thread::sleep_for(150ms);
  EXPECT_FALSE(hub.is_lost());
}

// A queue engine whose batch waits for a semaphore nobody signals: the loss releases it, its fence
// stays unsignalled, wait_idle reports the loss, and later batches are dropped.
TEST(Watchdog, StuckQueueEngineComesBackOnLoss) {
  SyncHub hub;
  ThreadPool pool(2);
  Semaphore never(hub, VK_SEMAPHORE_TYPE_BINARY, 0);
  Fence fence(hub, false), later(hub, false);
  Watchdog watchdog(hub, kTimeoutMs);
  {
    QueueEngine engine(hub, pool);
    watchdog.watch(&engine.progress());
    std::vector<Batch> batches(1);
    batches[0].waits.push_back({&never, 0});
    batches[0].fence = &fence;
    engine.submit(std::move(batches));
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, engine.wait_idle());
    EXPECT_TRUE(hub.is_lost());
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, fence.status());
    std::vector<Batch> after(1);
    after[0].fence = &later;
    engine.submit(std::move(after));
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, engine.wait_idle());
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, later.status());
    Fence* fences[] = {&fence};
    EXPECT_EQ(VK_ERROR_DEVICE_LOST, wait_for_fences(hub, fences, true, Deadline::max()));
    watchdog.stop();  // before the engine (and its progress) goes
  }
}

}  // namespace
}  // namespace kiln::exec
