#include "pipeline/queue_engine.h"

#include <algorithm>

#include "pipeline/executor.h"

namespace kiln::exec {

QueueEngine::QueueEngine(SyncHub& hub, ThreadPool& pool, strict::StrictMode* strict, uint32_t index)
    : hub_(hub), pool_(pool), strict_(strict), index_(index) {
  progress_.hub = &hub_;
  thread_ = std::thread([this] { run(); });
}

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

VkResult QueueEngine::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return pending_.empty() && !busy_; });
  if (hub_.is_lost()) return VK_ERROR_DEVICE_LOST;
  hub_.synchronize_up_to(hub_.commands_begun.load());  // (strict mode) the host saw this queue finish
  return VK_SUCCESS;
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
    if (!batch.waits.empty()) progress_.begin(/*wait=*/true);
    for (const SemaphoreOp& w : batch.waits) {
      uint64_t mark = 0;
      if (w.semaphore->wait(w.value, Deadline::max(), &mark) != VK_SUCCESS) break;  // lost (or destroyed)
      synchronized_ = std::max(synchronized_, mark);
    }
    // After a loss nothing more runs and nothing is signalled: waits for this batch's fence and
    // semaphores return VK_ERROR_DEVICE_LOST instead.
    for (const auto& list : batch.command_lists) {
      if (hub_.is_lost()) break;
      execute_command_list(*list, pool_, strict_, index_, synchronized_, &progress_);
    }
    // Presentation's host step still runs, so the swapchain gets its image back.
    if (batch.host_step) batch.host_step();
    if (!hub_.is_lost()) {
      for (const SemaphoreOp& s : batch.signals) s.semaphore->signal(s.value);
      if (batch.fence) batch.fence->signal();
    }
    progress_.idle();
    {
      std::lock_guard lock(mutex_);
      busy_ = false;
      if (pending_.empty()) idle_.notify_all();
    }
  }
}

}  // namespace kiln::exec
