#pragma once
// The device watchdog (docs/design/device-loss.md): one thread per device that declares the device
// lost (SyncHub::lose) when a queue has made no progress for KILN_DEVICE_TIMEOUT_MS — a command
// that runs that long (an endless shader loop), or a wait for a semaphore or event that nothing on
// the device or host has moved in that time. Loss wakes every waiter with VK_ERROR_DEVICE_LOST and
// makes running kernels leave their loops, so every queue thread and worker comes back.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "pipeline/sync.h"

namespace kiln::exec {

// Default KILN_DEVICE_TIMEOUT_MS: far above any single command or wait of the test suites (the
// slowest CTS command on this machine takes a few seconds), below the CTS runner's 60 s per test.
constexpr uint64_t kDefaultDeviceTimeoutMs = 30000;
// KILN_DEVICE_TIMEOUT_MS, or the default; 0 turns the watchdog off.
uint64_t device_timeout_ms();

// What a queue thread tells the watchdog. Written by the queue thread only (relaxed stores: the
// watchdog needs a recent value, not an ordered one).
struct QueueProgress {
  std::atomic<int64_t> since_ns{0};  // steady_ns() when the current command or wait began; 0: idle
  std::atomic<bool> waiting{false};  // blocked on a semaphore or event, not running a command
  const SyncHub* hub = nullptr;      // the queue's device: its loss stops the queue's work
  bool lost() const { return hub && hub->is_lost(); }
  void begin(bool wait) {
    waiting.store(wait, std::memory_order_relaxed);
    since_ns.store(steady_ns(), std::memory_order_relaxed);
  }
  void idle() { since_ns.store(0, std::memory_order_relaxed); }
};

class Watchdog {
 public:
  // timeout_ms 0: no thread, the device is never lost by a timeout.
  Watchdog(SyncHub& hub, uint64_t timeout_ms);
  ~Watchdog() { stop(); }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Watches a queue until stop() (its position among the watched queues names it in the log).
  void watch(const QueueProgress* queue);
  // Ends the thread (before the watched queues are destroyed); idempotent.
  void stop();
  uint64_t timeout_ms() const { return timeout_ms_; }

 private:
  void run();

  SyncHub& hub_;
  const uint64_t timeout_ms_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<const QueueProgress*> queues_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace kiln::exec
