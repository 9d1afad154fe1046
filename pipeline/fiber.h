#pragma once
// Minimal cooperative fibers for workgroup barriers: a set of fibers is run in rounds; each
// fiber runs until it yields (a barrier) or returns. A round ends when every live fiber has
// yielded or finished, which is exactly "all live subgroups reached the barrier".
// Context switches are a few instructions (fiber_switch_x86_64.S), not swapcontext's system call.
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace kiln::exec {

class FiberGroup {
 public:
  // `count` fibers, fiber i runs body(i). Stacks are reused across runs on the same thread.
  void run(size_t count, const std::function<void(size_t)>& body);
  ~FiberGroup();
  // Called from inside a fiber: suspends it until the next round.
  static void yield_current(void* group);

 private:
  struct Fiber {
    void* stack_pointer = nullptr;  // saved while suspended
    std::unique_ptr<char[]> stack;
    bool finished = false;
    void* tsan_fiber = nullptr;  // ThreadSanitizer's record of this fiber (TSan builds only)
  };
  [[noreturn]] static void entry();

  static constexpr size_t kStackBytes = 256 * 1024;
  std::vector<Fiber> fibers_;
  void* scheduler_sp_ = nullptr;
  void* scheduler_tsan_fiber_ = nullptr;  // TSan builds: the thread that runs the rounds
  const std::function<void(size_t)>* body_ = nullptr;
  size_t current_ = 0;
};

}  // namespace kiln::exec
