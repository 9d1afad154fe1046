#include "pipeline/fiber.h"

#include <cstdint>

namespace kiln::exec {

void FiberGroup::trampoline(unsigned lo, unsigned hi, unsigned index_lo, unsigned index_hi) {
  // makecontext passes int arguments only: pointers and indices arrive split in halves.
  auto* group = reinterpret_cast<FiberGroup*>((uintptr_t{hi} << 32) | lo);
  const size_t index = (size_t{index_hi} << 32) | index_lo;
  (*group->body_)(index);
  group->fibers_[index].finished = true;
  swapcontext(&group->fibers_[index].context, &group->scheduler_);
}

void FiberGroup::yield_current(void* group_pointer) {
  auto* group = static_cast<FiberGroup*>(group_pointer);
  swapcontext(&group->fibers_[group->current_].context, &group->scheduler_);
}

void FiberGroup::run(size_t count, const std::function<void(size_t)>& body) {
  body_ = &body;
  if (fibers_.size() < count) fibers_.resize(count);
  const auto self = reinterpret_cast<uintptr_t>(this);
  for (size_t i = 0; i < count; ++i) {
    Fiber& f = fibers_[i];
    if (!f.stack) f.stack.reset(new char[kStackBytes]);
    f.finished = false;
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.get();
    f.context.uc_stack.ss_size = kStackBytes;
    f.context.uc_link = nullptr;
    makecontext(&f.context, reinterpret_cast<void (*)()>(&trampoline), 4, static_cast<unsigned>(self),
                static_cast<unsigned>(self >> 32), static_cast<unsigned>(i), static_cast<unsigned>(uint64_t{i} >> 32));
  }
  for (bool any_live = true; any_live;) {
    any_live = false;
    for (size_t i = 0; i < count; ++i) {
      if (fibers_[i].finished) continue;
      current_ = i;
      swapcontext(&scheduler_, &fibers_[i].context);
      any_live |= !fibers_[i].finished;
    }
  }
}

}  // namespace kiln::exec
