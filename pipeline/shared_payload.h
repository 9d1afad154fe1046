#pragma once
// The payload of a fence or semaphore shared through an opaque file descriptor
// (VK_KHR_external_fence_fd / VK_KHR_external_semaphore_fd, OPAQUE_FD): one page of a memfd
// holding the fence's signalled state or the semaphore's value, mapped by every fence or semaphore
// that exported or imported it, in this process or another. The value is a lock-free atomic in
// the shared page; waiters on a shared payload poll it (pipeline/sync.cpp), because a signal from
// another device or process cannot notify this device's SyncHub.
#include <atomic>
#include <cstdint>
#include <memory>

namespace kiln::exec {

class SharedPayload {
 public:
  enum class Kind : uint32_t { Fence = 1, BinarySemaphore = 2, TimelineSemaphore = 3 };

  // A new payload of `kind` holding `value`, in a memfd of its own; nullptr when the system
  // refuses one (out of file descriptors or memory).
  static std::shared_ptr<SharedPayload> create(Kind kind, uint64_t value);
  // The payload `fd` refers to, which then owns `fd` (an import transfers its ownership); nullptr,
  // leaving `fd` to the caller, when `fd` is not a Kiln payload of `kind`.
  static std::shared_ptr<SharedPayload> adopt(int fd, Kind kind);
  ~SharedPayload();
  SharedPayload(const SharedPayload&) = delete;
  SharedPayload& operator=(const SharedPayload&) = delete;

  // A new descriptor of the payload for the application (close-on-exec), or -1.
  int export_fd() const;
  std::atomic<uint64_t>& value() const { return page_->value; }

 private:
  struct Page {
    uint64_t magic;
    Kind kind;
    uint32_t reserved;
    std::atomic<uint64_t> value;
  };
  static_assert(std::atomic<uint64_t>::is_always_lock_free, "the value is shared between processes");
  SharedPayload(Page* page, int fd) : page_(page), fd_(fd) {}

  Page* page_;
  int fd_;
};

}  // namespace kiln::exec
