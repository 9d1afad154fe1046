#include "pipeline/thread_pool.h"

#include <algorithm>

#include "common/env.h"

namespace kiln::exec {

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) {
    int64_t configured = env_int("KILN_THREADS", 0);
    threads = configured > 0 ? static_cast<unsigned>(std::min<int64_t>(configured, 256))
                             : std::max(1u, std::thread::hardware_concurrency());
  }
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_available_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::work_on(Job& job) {
  for (size_t i; (i = job.next.fetch_add(1)) < job.count;) {
    (*job.fn)(i);
    job.finished.fetch_add(1);
  }
}

void ThreadPool::parallel_for(size_t count, const std::function<void(size_t)>& fn) {
  if (count == 0) return;
  if (count == 1 || workers_.empty()) {
    for (size_t i = 0; i < count; ++i) fn(i);
    return;
  }
  Job job;
  job.fn = &fn;
  job.count = count;
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(&job);
  }
  work_available_.notify_all();
  work_on(job);
  std::unique_lock lock(mutex_);
  // The job leaves the queue once every item has been claimed; then wait for stragglers.
  std::erase(jobs_, &job);
  job_finished_.wait(lock, [&] { return job.finished.load() == job.count && job.workers_inside == 0; });
}

void ThreadPool::worker_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_available_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (stopping_) return;
    Job* job = jobs_.front();
    if (job->next.load() >= job->count) {
      // Fully claimed: drop it so the next job is seen, and wait for more work.
      jobs_.pop_front();
      continue;
    }
    ++job->workers_inside;  // the caller keeps the job alive until this drops back to zero
    lock.unlock();
    work_on(*job);
    lock.lock();
    if (--job->workers_inside == 0) job_finished_.notify_all();
  }
}

}  // namespace kiln::exec
