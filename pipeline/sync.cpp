#include "pipeline/sync.h"

#include <algorithm>

namespace kiln::exec {

Deadline deadline_after(uint64_t timeout_ns) {
  const auto now = std::chrono::steady_clock::now();
  // Anything past a year is "forever" (and avoids overflowing the clock's representation).
  constexpr uint64_t kForever = 365ull * 24 * 3600 * 1000000000ull;
  if (timeout_ns >= kForever) return Deadline::max();
  return now + std::chrono::nanoseconds(timeout_ns);
}

namespace {
// Waits on the hub until `ready()` holds; false on timeout. The hub's mutex must be held.
template <typename Ready>
bool wait_until(SyncHub& hub, std::unique_lock<std::mutex>& lock, Deadline deadline, Ready ready) {
  while (!ready()) {
    if (hub.released()) return false;
    if (deadline == Deadline::max()) {
      hub.changed.wait(lock);
    } else if (hub.changed.wait_until(lock, deadline) == std::cv_status::timeout) {
      return ready();
    }
  }
  return true;
}
}  // namespace

void Fence::signal() {
  std::lock_guard lock(hub_.mutex);
  signaled_ = true;
  mark_ = hub_.commands_begun.load();
  hub_.note_signal();
  hub_.changed.notify_all();
}

void Fence::reset() {
  std::lock_guard lock(hub_.mutex);
  signaled_ = false;
}

bool Fence::is_signaled() {
  std::lock_guard lock(hub_.mutex);
  if (signaled_) hub_.synchronize_up_to(mark_);
  return signaled_;
}

VkResult Fence::status() {
  if (is_signaled()) return VK_SUCCESS;
  return hub_.is_lost() ? VK_ERROR_DEVICE_LOST : VK_NOT_READY;
}

VkResult wait_for_fences(SyncHub& hub, std::span<Fence* const> fences, bool wait_all, Deadline deadline) {
  std::unique_lock lock(hub.mutex);
  auto ready = [&] {
    auto signaled = [](Fence* f) { return f->signaled_locked(); };
    return wait_all ? std::all_of(fences.begin(), fences.end(), signaled)
                    : std::any_of(fences.begin(), fences.end(), signaled);
  };
  if (wait_until(hub, lock, deadline, ready)) {
    for (Fence* f : fences)
      if (f->signaled_locked()) hub.synchronize_up_to(f->mark_locked());
    return VK_SUCCESS;
  }
  return hub.released() ? VK_ERROR_DEVICE_LOST : VK_TIMEOUT;
}

void Semaphore::signal(uint64_t value) {
  std::lock_guard lock(hub_.mutex);
  if (type_ == VK_SEMAPHORE_TYPE_BINARY) value_ = 1;
  else value_ = std::max(value_, value);
  mark_ = hub_.commands_begun.load();
  hub_.note_signal();
  hub_.changed.notify_all();
}

VkResult Semaphore::wait(uint64_t value, Deadline deadline, uint64_t* mark) {
  std::unique_lock lock(hub_.mutex);
  const uint64_t target = type_ == VK_SEMAPHORE_TYPE_BINARY ? 1 : value;
  if (!wait_until(hub_, lock, deadline, [&] { return value_ >= target; }))
    return hub_.released() ? VK_ERROR_DEVICE_LOST : VK_TIMEOUT;
  if (type_ == VK_SEMAPHORE_TYPE_BINARY) value_ = 0;  // a binary wait consumes the payload
  if (mark) *mark = mark_;
  return VK_SUCCESS;
}

uint64_t Semaphore::value() {
  std::lock_guard lock(hub_.mutex);
  return value_;
}

VkResult wait_for_semaphores(SyncHub& hub, std::span<Semaphore* const> semaphores, std::span<const uint64_t> values,
                             bool wait_any, Deadline deadline) {
  std::unique_lock lock(hub.mutex);
  auto ready = [&] {
    size_t reached = 0;
    for (size_t i = 0; i < semaphores.size(); ++i) reached += semaphores[i]->value_locked() >= values[i];
    return wait_any ? (reached > 0 || semaphores.empty()) : reached == semaphores.size();
  };
  if (wait_until(hub, lock, deadline, ready)) {
    for (size_t i = 0; i < semaphores.size(); ++i)
      if (semaphores[i]->value_locked() >= values[i]) hub.synchronize_up_to(semaphores[i]->mark_locked());
    return VK_SUCCESS;
  }
  return hub.released() ? VK_ERROR_DEVICE_LOST : VK_TIMEOUT;
}

void Event::set() {
  std::lock_guard lock(hub_.mutex);
  set_ = true;
  hub_.note_signal();
  hub_.changed.notify_all();
}

void Event::reset() {
  std::lock_guard lock(hub_.mutex);
  set_ = false;
}

bool Event::is_set() {
  std::lock_guard lock(hub_.mutex);
  return set_;
}

bool Event::wait_set() {
  std::unique_lock lock(hub_.mutex);
  return wait_until(hub_, lock, Deadline::max(), [&] { return set_; });
}

}  // namespace kiln::exec
