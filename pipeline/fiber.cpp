#include "pipeline/fiber.h"

#include <cstdint>
#include <cstring>

extern "C" void kiln_fiber_switch(void** save_sp, void* load_sp);

// ThreadSanitizer must be told about every stack switch (it keeps a shadow call stack and the
// happens-before state per fiber); without it a TSan build reports nonsense or crashes.
#if defined(__SANITIZE_THREAD__)
#define KILN_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KILN_TSAN_FIBERS 1
#endif
#endif
#ifdef KILN_TSAN_FIBERS
extern "C" {
void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
}
#define KILN_TSAN_SWITCH_TO(fiber) __tsan_switch_to_fiber(fiber, 0)
#else
#define KILN_TSAN_SWITCH_TO(fiber) (void)(fiber)
#endif

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
  KILN_TSAN_SWITCH_TO(group->scheduler_tsan_fiber_);
  void* discarded;
  kiln_fiber_switch(&discarded, group->scheduler_sp_);  // never returns: the fiber is finished
  __builtin_unreachable();
}

void FiberGroup::yield_current(void* group_pointer) {
  auto* group = static_cast<FiberGroup*>(group_pointer);
  KILN_TSAN_SWITCH_TO(group->scheduler_tsan_fiber_);
  kiln_fiber_switch(&group->fibers_[group->current_].stack_pointer, group->scheduler_sp_);
}

void FiberGroup::run(size_t count, const std::function<void(size_t)>& body) {
  body_ = &body;
  if (fibers_.size() < count) fibers_.resize(count);
  for (size_t i = 0; i < count; ++i) {
    Fiber& f = fibers_[i];
    if (!f.stack) f.stack.reset(new char[kStackBytes]);
#ifdef KILN_TSAN_FIBERS
    if (!f.tsan_fiber) f.tsan_fiber = __tsan_create_fiber(0);
#endif
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
#ifdef KILN_TSAN_FIBERS
  scheduler_tsan_fiber_ = __tsan_get_current_fiber();
#endif
  for (bool any_live = true; any_live;) {
    any_live = false;
    for (size_t i = 0; i < count; ++i) {
      if (fibers_[i].finished) continue;
      current_ = i;
      starting_group = this;
      KILN_TSAN_SWITCH_TO(fibers_[i].tsan_fiber);
      kiln_fiber_switch(&scheduler_sp_, fibers_[i].stack_pointer);
      any_live |= !fibers_[i].finished;
    }
  }
}

FiberGroup::~FiberGroup() {
#ifdef KILN_TSAN_FIBERS
  for (Fiber& f : fibers_)
    if (f.tsan_fiber) __tsan_destroy_fiber(f.tsan_fiber);
#endif
}

}  // namespace kiln::exec
