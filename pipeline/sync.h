#pragma once
// Fences, semaphores (binary and timeline) and events: the host-visible ends of the execution
// engine's ordering. All of a device's sync objects share one SyncHub (one mutex and condition
// variable), so "wait for any of these" is one wait and signalling is one notify; contention is
// negligible next to the work they order.
#include <vulkan/vulkan.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>

#include "pipeline/shared_payload.h"

namespace kiln::exec {

// Nanoseconds of std::chrono::steady_clock (the watchdog's clock).
inline int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct SyncHub {
  std::mutex mutex;
  std::condition_variable changed;
  bool shutting_down = false;  // wakes every waiter (device destruction)
  // Device loss (docs/design/device-loss.md): set once, by the watchdog, and never cleared. Every
  // waiter wakes and returns VK_ERROR_DEVICE_LOST; JIT kernels read this word (through
  // abi::ResourceContext::cancel) on every loop back-edge and leave the loop when it is non-zero.
  std::atomic<uint32_t> lost{0};
  // Marks the device lost and wakes every waiter; false when it already was.
  bool lose() {
    std::lock_guard lock(mutex);
    if (lost.exchange(1)) return false;
    changed.notify_all();
    return true;
  }
  bool is_lost() const { return lost.load(std::memory_order_relaxed) != 0; }
  // The word kernels poll (abi::ResourceContext::cancel).
  const uint32_t* cancel_word() const { return reinterpret_cast<const uint32_t*>(&lost); }
  // Waits end (with VK_ERROR_DEVICE_LOST) when the device is destroyed or lost.
  bool released() const { return shutting_down || is_lost(); }
  // steady_ns() of the last fence, semaphore or event signal (queue or host): progress the
  // watchdog counts for queues that wait.
  std::atomic<int64_t> last_signal_ns{0};
  void note_signal() { last_signal_ns.store(steady_ns(), std::memory_order_relaxed); }
  // Strict mode (pipeline/strict/strict_mode.h; both stay 0 without it): the sequence number of
  // the last command begun on any queue, which every fence and semaphore signal records, and the
  // highest such mark a completed host wait (fence, semaphore, queue idle) has seen — every
  // command up to it happened-before and is visible to work submitted after that wait.
  std::atomic<uint64_t> commands_begun{0};
  std::atomic<uint64_t> synchronized{0};
  void synchronize_up_to(uint64_t mark) {
    uint64_t now = synchronized.load();
    while (mark > now && !synchronized.compare_exchange_weak(now, mark)) {
    }
  }
};

// A Vulkan timeout in nanoseconds as a deadline (UINT64_MAX: never).
using Deadline = std::chrono::steady_clock::time_point;
Deadline deadline_after(uint64_t timeout_ns);

class Fence {
 public:
  Fence(SyncHub& hub, bool signaled) : hub_(hub), signaled_(signaled) {}
  void signal();
  // Restores the permanent payload (after a temporary import), then unsignals it.
  void reset();
  bool is_signaled();
  // vkGetFenceStatus: VK_SUCCESS, VK_NOT_READY, or VK_ERROR_DEVICE_LOST (unsignalled on a lost device).
  VkResult status();
  SyncHub& hub() { return hub_; }
  bool signaled_locked() const;
  uint64_t mark_locked() const { return mark_; }
  // External payloads (pipeline/shared_payload.h). The payload to export: the current one, made
  // shared (holding the fence's state) when it is still the fence's own; nullptr when the system
  // refuses a shared one.
  std::shared_ptr<SharedPayload> shared_payload();
  // Makes `payload` the fence's payload: for good, or until the next reset when `temporary`.
  void import_payload(std::shared_ptr<SharedPayload> payload, bool temporary);
  // Whether the payload is shared, so that waits must poll it (the mutex held).
  bool shared_locked() const { return temporary_ || permanent_; }

 private:
  SharedPayload* payload_locked() const { return temporary_ ? temporary_.get() : permanent_.get(); }

  SyncHub& hub_;
  bool signaled_;      // the fence's own payload (unused while a shared one is current)
  uint64_t mark_ = 0;  // SyncHub::commands_begun when signalled
  std::shared_ptr<SharedPayload> permanent_, temporary_;
};

// VK_SUCCESS, or VK_TIMEOUT when the deadline passed first (VK_ERROR_DEVICE_LOST: destroyed or lost).
VkResult wait_for_fences(SyncHub& hub, std::span<Fence* const> fences, bool wait_all, Deadline deadline);

class Semaphore {
 public:
  Semaphore(SyncHub& hub, VkSemaphoreType type, uint64_t initial) : hub_(hub), type_(type), value_(initial) {}
  VkSemaphoreType type() const { return type_; }
  // Binary: sets the payload; timeline: raises the value to `value`.
  void signal(uint64_t value);
  // Blocks until the payload is signalled (binary, which consumes it) or the value reaches
  // `value` (timeline). VK_TIMEOUT after the deadline; VK_ERROR_DEVICE_LOST on shutdown.
  // `mark` (optional) gets SyncHub::commands_begun as it was at the signal waited for. A wait
  // ends a temporary import: the permanent payload is current again.
  VkResult wait(uint64_t value, Deadline deadline, uint64_t* mark = nullptr);
  uint64_t value();
  SyncHub& hub() { return hub_; }
  uint64_t value_locked() const;
  uint64_t mark_locked() const { return mark_; }
  // External payloads, as for fences (a temporary import lasts until the next wait).
  std::shared_ptr<SharedPayload> shared_payload();
  void import_payload(std::shared_ptr<SharedPayload> payload, bool temporary);
  bool shared_locked() const { return temporary_ || permanent_; }
  SharedPayload::Kind payload_kind() const {
    return type_ == VK_SEMAPHORE_TYPE_TIMELINE ? SharedPayload::Kind::TimelineSemaphore : SharedPayload::Kind::BinarySemaphore;
  }

 private:
  SharedPayload* payload_locked() const { return temporary_ ? temporary_.get() : permanent_.get(); }
  // Takes the binary payload if it is signalled (the mutex held); true when it did.
  bool consume_locked();

  SyncHub& hub_;
  VkSemaphoreType type_;
  uint64_t value_;     // the semaphore's own payload (unused while a shared one is current)
  uint64_t mark_ = 0;  // SyncHub::commands_begun at the last signal
  std::shared_ptr<SharedPayload> permanent_, temporary_;
};

// vkWaitSemaphores: all (or any) of the timelines reach their values.
VkResult wait_for_semaphores(SyncHub& hub, std::span<Semaphore* const> semaphores, std::span<const uint64_t> values,
                             bool wait_any, Deadline deadline);

class Event {
 public:
  explicit Event(SyncHub& hub) : hub_(hub) {}
  void set();
  void reset();
  bool is_set();
  // Blocks the calling queue until the event is set; false when the device shuts down or is lost first.
  bool wait_set();

 private:
  SyncHub& hub_;
  bool set_ = false;
};

}  // namespace kiln::exec
