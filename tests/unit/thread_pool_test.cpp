#include "pipeline/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
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

}  // namespace
}  // namespace kiln::exec
