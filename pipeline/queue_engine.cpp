#include "pipeline/queue_engine.h"

#include <algorithm>

#include "pipeline/executor.h"

namespace kiln::exec {

QueueEngine::QueueEngine(SyncHub& hub, ThreadPool& pool, strict::StrictMode* strict, uint32_t index)
    : hub_(hub), pool_(pool), strict_(strict), index_(index), thread_([this] { run(); }) {}

QueueEngine::~QueueEngine() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  thread_.join();
}

void QueueEngine::submit(std::vector<Batch>&& batches) {
  {
    std::lock_guard lock(mutex_);
    for (Batch& b : batches) {
      b.host_synchronized = hub_.synchronized.load();  // host waits before this submission
      pending_.push_back(std::move(b));
    }
  }
  work_ready_.notify_one();
}

void QueueEngine::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return pending_.empty() && !busy_; });
  hub_.synchronize_up_to(hub_.commands_begun.load());  // (strict mode) the host saw this queue finish
}

void QueueEngine::run() {
  for (;;) {
    Batch batch;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      if (pending_.empty()) return;  // stopping, and everything submitted has run
      batch = std::move(pending_.front());
      pending_.pop_front();
      busy_ = true;
    }
    // Strict mode: what this batch may take as finished and visible (permissively carried on to the
    // queue's later batches).
    synchronized_ = std::max(synchronized_, batch.host_synchronized);
    for (const SemaphoreOp& w : batch.waits) {
      uint64_t mark = 0;
      w.semaphore->wait(w.value, Deadline::max(), &mark);
      synchronized_ = std::max(synchronized_, mark);
    }
    for (const auto& list : batch.command_lists) execute_command_list(*list, pool_, strict_, index_, synchronized_);
    if (batch.host_step) batch.host_step();
    for (const SemaphoreOp& s : batch.signals) s.semaphore->signal(s.value);
    if (batch.fence) batch.fence->signal();
    {
      std::lock_guard lock(mutex_);
      busy_ = false;
      if (pending_.empty()) idle_.notify_all();
    }
  }
}

}  // namespace kiln::exec
