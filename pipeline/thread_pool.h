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
  void parallel_for(size_t count, const std::function<void(size_t)>& fn);

 private:
  struct Job {
    const std::function<void(size_t)>* fn;
    size_t count;
    std::atomic<size_t> next{0};
    std::atomic<size_t> finished{0};
    int workers_inside = 0;  // workers that may still touch the job (guarded by mutex_)
  };
  // Runs items of `job` until none are left to claim.
  void work_on(Job& job);
  void worker_loop();

  std::mutex mutex_;
  std::condition_variable work_available_;
  std::condition_variable job_finished_;
  std::deque<Job*> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace kiln::exec
