#include "pipeline/watchdog.h"

#include <algorithm>
#include <chrono>

#include "common/env.h"
#include "common/log.h"

namespace kiln::exec {

uint64_t device_timeout_ms() {
  const int64_t configured = env_int("KILN_DEVICE_TIMEOUT_MS", int64_t(kDefaultDeviceTimeoutMs));
  return configured < 0 ? kDefaultDeviceTimeoutMs : uint64_t(configured);
}

Watchdog::Watchdog(SyncHub& hub, uint64_t timeout_ms) : hub_(hub), timeout_ms_(timeout_ms) {
  if (timeout_ms_) thread_ = std::thread([this] { run(); });
}

void Watchdog::watch(const QueueProgress* queue) {
  std::lock_guard lock(mutex_);
  queues_.push_back(queue);
}

void Watchdog::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::run() {
  const int64_t timeout = int64_t(timeout_ms_) * 1000000;
  std::unique_lock lock(mutex_);
  while (!stopping_ && !hub_.is_lost()) {
    const int64_t now = steady_ns();
    // Progress anywhere on the device: a signal (from a queue or the host) or a command beginning.
    // A queue blocked on a wait is only stuck when nothing moved for the whole timeout, since
    // another queue's long but live work may be what it waits for.
    int64_t device_progress = hub_.last_signal_ns.load(std::memory_order_relaxed);
    for (const QueueProgress* q : queues_)
      if (!q->waiting.load(std::memory_order_relaxed))
        device_progress = std::max(device_progress, q->since_ns.load(std::memory_order_relaxed));
    int64_t next = now + timeout;
    for (size_t i = 0; i < queues_.size(); ++i) {
      const int64_t since = queues_[i]->since_ns.load(std::memory_order_relaxed);
      if (since == 0) continue;  // idle
      const bool waiting = queues_[i]->waiting.load(std::memory_order_relaxed);
      const int64_t deadline = (waiting ? std::max(since, device_progress) : since) + timeout;
      if (deadline <= now) {
        if (hub_.lose())
          log(LogLevel::Error,
              "device lost: queue %zu made no progress for %llu ms (%s); KILN_DEVICE_TIMEOUT_MS sets the limit", i,
              static_cast<unsigned long long>(timeout_ms_),
              waiting ? "waiting for a semaphore or event that is never signalled" : "one command never finished");
        return;
      }
      next = std::min(next, deadline);
    }
    wake_.wait_until(lock, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(next)),
                     [&] { return stopping_; });
  }
}

}  // namespace kiln::exec
