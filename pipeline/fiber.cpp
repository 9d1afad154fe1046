#include "pipeline/fiber.h"

#include <cstdint>
#include <cstring>

extern "C" void kiln_fiber_switch(void** save_sp, void* load_sp);

namespace kiln::exec {
namespace {
// The group whose fiber is starting on this thread (read once by the new fiber's entry).
thread_local FiberGroup* starting_group = nullptr;
}  // namespace

void FiberGroup::entry() {
  FiberGroup* group = starting_group;
  const size_t index = group->current_;
  (*group->body_)(index);
  group->fibers_[index].finished = true;
  void* discarded;
  kiln_fiber_switch(&discarded, group->scheduler_sp_);  // never returns: the fiber is finished
  __builtin_unreachable();
}

void FiberGroup::yield_current(void* group_pointer) {
  auto* group = static_cast<FiberGroup*>(group_pointer);
  kiln_fiber_switch(&group->fibers_[group->current_].stack_pointer, group->scheduler_sp_);
}

void FiberGroup::run(size_t count, const std::function<void(size_t)>& body) {
  body_ = &body;
  if (fibers_.size() < count) fibers_.resize(count);
  for (size_t i = 0; i < count; ++i) {
    Fiber& f = fibers_[i];
    if (!f.stack) f.stack.reset(new char[kStackBytes]);
    f.finished = false;
    // A fresh stack laid out as kiln_fiber_switch expects to find it: x87/MXCSR control words,
    // six callee-saved registers, then the return address = entry(). The top is 16-byte aligned
    // so that entry() starts with the ABI's stack alignment (rsp % 16 == 8 after the "call").
    auto top = reinterpret_cast<uintptr_t>(f.stack.get() + kStackBytes) & ~uintptr_t{15};
    auto* sp = reinterpret_cast<uint64_t*>(top);
    *--sp = 0;                                      // padding: entry() sees a call-aligned stack
    *--sp = reinterpret_cast<uint64_t>(&entry);     // "return address" of the first switch
    for (int r = 0; r < 6; ++r) *--sp = 0;          // rbp, rbx, r12-r15
    sp -= 2;                                        // control words
    uint32_t mxcsr;
    uint16_t fpu_cw;
    asm volatile("stmxcsr %0" : "=m"(mxcsr));
    asm volatile("fnstcw %0" : "=m"(fpu_cw));
    memcpy(reinterpret_cast<char*>(sp) + 8, &mxcsr, 4);
    memcpy(reinterpret_cast<char*>(sp), &fpu_cw, 2);
    f.stack_pointer = sp;
  }
  for (bool any_live = true; any_live;) {
    any_live = false;
    for (size_t i = 0; i < count; ++i) {
      if (fibers_[i].finished) continue;
      current_ = i;
      starting_group = this;
      kiln_fiber_switch(&scheduler_sp_, fibers_[i].stack_pointer);
      any_live |= !fibers_[i].finished;
    }
  }
}

}  // namespace kiln::exec
