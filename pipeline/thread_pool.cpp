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
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_available_.notify_all();
  for (std::thread& t : workers_) t.join();
}

bool ThreadPool::Job::all_claimed() const {
  for (unsigned r = 0; r < ranges; ++r)
    if (cursor[r].next.load(std::memory_order_relaxed) < cursor[r].end) return false;
  return true;
}

void ThreadPool::work_on(Job& job, unsigned participant) {
  for (unsigned k = 0; k < job.ranges; ++k) {
    RangeCursor& range = job.cursor[(participant + k) % job.ranges];
    for (size_t i; (i = range.next.fetch_add(1)) < range.end;) {
      (*job.fn)(i);
      job.finished.fetch_add(1);
    }
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
  job.ranges = std::min<unsigned>(thread_count(), kMaxRanges);
  for (unsigned r = 0; r < job.ranges; ++r) {
    job.cursor[r].next.store(r * count / job.ranges, std::memory_order_relaxed);
    job.cursor[r].end = (r + 1) * count / job.ranges;
  }
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(&job);
  }
  work_available_.notify_all();
  work_on(job, 0);
  std::unique_lock lock(mutex_);
  // The job leaves the queue once every item has been claimed; then wait for stragglers.
  std::erase(jobs_, &job);
  job_finished_.wait(lock, [&] { return job.finished.load() == job.count && job.workers_inside == 0; });
}

void ThreadPool::worker_loop(unsigned participant) {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_available_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (stopping_) return;
    Job* job = jobs_.front();
    if (job->all_claimed()) {
      // Fully claimed: drop it so the next job is seen, and wait for more work.
      jobs_.pop_front();
      continue;
    }
    ++job->workers_inside;  // the caller keeps the job alive until this drops back to zero
    lock.unlock();
    work_on(*job, participant);
    lock.lock();
    if (--job->workers_inside == 0) job_finished_.notify_all();
  }
}

}  // namespace kiln::exec
