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
// How often a wait on a shared payload looks at it: another device or process signals it
// without notifying this hub.
constexpr auto kSharedPayloadPoll = std::chrono::milliseconds(1);

// Waits on the hub until `ready()` holds; false on timeout. The hub's mutex must be held. With
// `poll`, ready() is also checked every kSharedPayloadPoll.
template <typename Ready>
bool wait_until(SyncHub& hub, std::unique_lock<std::mutex>& lock, Deadline deadline, Ready ready, bool poll = false) {
  while (!ready()) {
    if (hub.released()) return false;
    if (poll) {
      const Deadline next = std::chrono::steady_clock::now() + kSharedPayloadPoll;
      if (hub.changed.wait_until(lock, std::min(deadline, next)) == std::cv_status::timeout &&
          std::chrono::steady_clock::now() >= deadline)
        return ready();
    } else if (deadline == Deadline::max()) {
      hub.changed.wait(lock);
    } else if (hub.changed.wait_until(lock, deadline) == std::cv_status::timeout) {
      return ready();
    }
  }
  return true;
}

// Raises `value` to at least `target` (a timeline's signal).
void raise_to(std::atomic<uint64_t>& value, uint64_t target) {
  uint64_t now = value.load();
  while (now < target && !value.compare_exchange_weak(now, target)) {
  }
}
}  // namespace

void Fence::signal() {
  std::lock_guard lock(hub_.mutex);
  if (SharedPayload* shared = payload_locked()) shared->value().store(1);
  else signaled_ = true;
  mark_ = hub_.commands_begun.load();
  hub_.note_signal();
  hub_.changed.notify_all();
}

void Fence::reset() {
  std::lock_guard lock(hub_.mutex);
  temporary_.reset();
  if (SharedPayload* shared = payload_locked()) shared->value().store(0);
  else signaled_ = false;
}

bool Fence::signaled_locked() const {
  if (const SharedPayload* shared = payload_locked()) return shared->value().load() != 0;
  return signaled_;
}

bool Fence::is_signaled() {
  std::lock_guard lock(hub_.mutex);
  const bool signaled = signaled_locked();
  if (signaled) hub_.synchronize_up_to(mark_);
  return signaled;
}

std::shared_ptr<SharedPayload> Fence::shared_payload() {
  std::lock_guard lock(hub_.mutex);
  if (temporary_) return temporary_;
  if (!permanent_) permanent_ = SharedPayload::create(SharedPayload::Kind::Fence, signaled_ ? 1 : 0);
  return permanent_;
}

void Fence::import_payload(std::shared_ptr<SharedPayload> payload, bool temporary) {
  std::lock_guard lock(hub_.mutex);
  (temporary ? temporary_ : permanent_) = std::move(payload);
  if (!temporary) temporary_.reset();
  hub_.changed.notify_all();
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
  const bool poll = std::any_of(fences.begin(), fences.end(), [](Fence* f) { return f->shared_locked(); });
  if (wait_until(hub, lock, deadline, ready, poll)) {
    for (Fence* f : fences)
      if (f->signaled_locked()) hub.synchronize_up_to(f->mark_locked());
    return VK_SUCCESS;
  }
  return hub.released() ? VK_ERROR_DEVICE_LOST : VK_TIMEOUT;
}

void Semaphore::signal(uint64_t value) {
  std::lock_guard lock(hub_.mutex);
  const uint64_t target = type_ == VK_SEMAPHORE_TYPE_BINARY ? 1 : value;
  if (SharedPayload* shared = payload_locked()) raise_to(shared->value(), target);
  else value_ = std::max(value_, target);
  mark_ = hub_.commands_begun.load();
  hub_.note_signal();
  hub_.changed.notify_all();
}

uint64_t Semaphore::value_locked() const {
  if (const SharedPayload* shared = payload_locked()) return shared->value().load();
  return value_;
}

bool Semaphore::consume_locked() {
  if (SharedPayload* shared = payload_locked()) {
    uint64_t signaled = 1;  // another device or process may take it first
    return shared->value().compare_exchange_strong(signaled, 0);
  }
  if (value_ == 0) return false;
  value_ = 0;
  return true;
}

VkResult Semaphore::wait(uint64_t value, Deadline deadline, uint64_t* mark) {
  std::unique_lock lock(hub_.mutex);
  auto ready = [&] { return type_ == VK_SEMAPHORE_TYPE_BINARY ? consume_locked() : value_locked() >= value; };
  if (!wait_until(hub_, lock, deadline, ready, shared_locked())) return hub_.released() ? VK_ERROR_DEVICE_LOST : VK_TIMEOUT;
  temporary_.reset();
  if (mark) *mark = mark_;
  return VK_SUCCESS;
}

uint64_t Semaphore::value() {
  std::lock_guard lock(hub_.mutex);
  return value_locked();
}

std::shared_ptr<SharedPayload> Semaphore::shared_payload() {
  std::lock_guard lock(hub_.mutex);
  if (temporary_) return temporary_;
  if (!permanent_) permanent_ = SharedPayload::create(payload_kind(), value_);
  return permanent_;
}

void Semaphore::import_payload(std::shared_ptr<SharedPayload> payload, bool temporary) {
  std::lock_guard lock(hub_.mutex);
  (temporary ? temporary_ : permanent_) = std::move(payload);
  if (!temporary) temporary_.reset();
  hub_.changed.notify_all();
}

VkResult wait_for_semaphores(SyncHub& hub, std::span<Semaphore* const> semaphores, std::span<const uint64_t> values,
                             bool wait_any, Deadline deadline) {
  std::unique_lock lock(hub.mutex);
  auto ready = [&] {
    size_t reached = 0;
    for (size_t i = 0; i < semaphores.size(); ++i) reached += semaphores[i]->value_locked() >= values[i];
    return wait_any ? (reached > 0 || semaphores.empty()) : reached == semaphores.size();
  };
  const bool poll = std::any_of(semaphores.begin(), semaphores.end(), [](Semaphore* s) { return s->shared_locked(); });
  if (wait_until(hub, lock, deadline, ready, poll)) {
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
