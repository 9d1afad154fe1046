#include "pipeline/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace kiln::exec {
namespace {

TEST(ThreadPool, RunsEveryItemExactlyOnce) {
  ThreadPool pool(4);
  EXPECT_EQ(pool.thread_count(), 4u);
  std::vector<std::atomic<int>> hits(1000);
  pool.parallel_for(hits.size(), [&](size_t i) { hits[i]++; });
  for (size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].load(), 1) << i;
}

TEST(ThreadPool, SeveralCallersShareThePool) {
  ThreadPool pool(3);
  std::atomic<uint64_t> sum{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round) pool.parallel_for(17, [&](size_t i) { sum += i; });
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(sum.load(), 4u * 50 * (16 * 17 / 2));
}

TEST(ThreadPool, SingleThreadPoolRunsOnTheCaller) {
  ThreadPool pool(1);
  const auto caller = std::this_thread::get_id();
  bool same = true;
  pool.parallel_for(5, [&](size_t) { same = same && std::this_thread::get_id() == caller; });
  EXPECT_TRUE(same);
}

// Each thread starts with its own contiguous range, so repeated calls of one shape keep item i on
// one thread (a tile's render target in one core's cache). Every item waits until each range has
// started, so no thread can finish its own range and take another's first item.
TEST(ThreadPool, RepeatedCallsGiveEachRangeToTheSameThread) {
  ThreadPool pool(4);
  constexpr size_t kItems = 8;  // two per thread
  std::vector<std::thread::id> first_run(kItems);
  for (int call = 0; call < 3; ++call) {
    std::vector<std::thread::id> ran_on(kItems);
    std::atomic<int> started{0};
    pool.parallel_for(kItems, [&](size_t i) {
      ran_on[i] = std::this_thread::get_id();
      if (i % 2) return;
      ++started;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (started.load() < 4 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    });
    ASSERT_EQ(started.load(), 4);
    EXPECT_EQ(ran_on[0], std::this_thread::get_id());  // the caller takes the first range
    for (size_t a = 0; a < kItems; a += 2)
      for (size_t b = a + 2; b < kItems; b += 2) EXPECT_NE(ran_on[a], ran_on[b]) << a << " and " << b;
    if (call == 0) first_run = ran_on;
    for (size_t i = 0; i < kItems; i += 2) EXPECT_EQ(ran_on[i], first_run[i]) << "item " << i << ", call " << call;
  }
}

}  // namespace
}  // namespace kiln::exec
