#pragma once
// An allocator whose no-argument construct() default-initialises: std::vector<T, it>::resize()
// then leaves trivially constructible elements uninitialised instead of zeroing them. For big
// buffers that are fully overwritten right after resizing (a draw's 12 M vertex ids would
// otherwise be zeroed and then written, doubling the memory traffic).
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace kiln {

template <typename T, typename Base = std::allocator<T>>
class DefaultInitAllocator : public Base {
  using Traits = std::allocator_traits<Base>;

 public:
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U, typename Traits::template rebind_alloc<U>>;
  };
  using Base::Base;

  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    Traits::construct(static_cast<Base&>(*this), p, std::forward<Args>(args)...);
  }
};

// A vector whose resize() does not initialise new trivially constructible elements.
template <typename T>
using UninitializedVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace kiln
