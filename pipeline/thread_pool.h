#pragma once
// The device's worker pool (ARCHITECTURE.md: size = hardware threads, KILN_THREADS overrides).
// Queues hand it the parallel parts of a command with parallel_for; the calling thread works
// too, so a pool of N threads has N-1 workers plus the caller. Several queues may call at once.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::exec {

class ThreadPool {
 public:
  // 0 threads: KILN_THREADS, else the machine's hardware threads.
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned thread_count() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Runs fn(0) … fn(count-1) across the pool and returns when all have finished.
  // The items are split into one contiguous range per thread (the caller takes the first); a
  // thread runs its own range first and then helps with the others'. So consecutive calls of
  // the same shape give item i to the same thread: a tile's render target stays in the cache
  // of the core that wrote it last time (crossing cores for every tile of every frame cost more
  // than a second thread gained).
  void parallel_for(size_t count, const std::function<void(size_t)>& fn);

 private:
  static constexpr unsigned kMaxRanges = 16;
  struct alignas(64) RangeCursor {  // own cache line: owners and helpers claim from it at once
    std::atomic<size_t> next{0};
    size_t end = 0;
  };
  struct Job {
    const std::function<void(size_t)>* fn;
    size_t count;
    unsigned ranges;
    RangeCursor cursor[kMaxRanges];
    std::atomic<size_t> finished{0};
    int workers_inside = 0;  // workers that may still touch the job (guarded by mutex_)
    bool all_claimed() const;
  };
  // Runs items of `job`, starting with participant's own range, until none are left to claim.
  void work_on(Job& job, unsigned participant);
  void worker_loop(unsigned participant);

  std::mutex mutex_;
  std::condition_variable work_available_;
  std::condition_variable job_finished_;
  std::deque<Job*> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace kiln::exec
