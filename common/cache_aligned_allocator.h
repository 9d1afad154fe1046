#pragma once
// An allocator that starts every buffer on a 64-byte cache line. For SoA lane buffers that one side
// writes and the other reads right away as 64-byte vectors (a fragment kernel's inputs and outputs):
// with malloc's 16-byte alignment each such vector may straddle two lines, and a store that splits
// is not forwarded to the load of the same bytes, which then waits for it to reach the cache.
#include <cstddef>
#include <new>
#include <vector>

namespace kiln {

template <typename T>
struct CacheAlignedAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};

  CacheAlignedAllocator() = default;
  template <typename U>
  CacheAlignedAllocator(const CacheAlignedAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T* p, std::size_t n) noexcept { ::operator delete(p, n * sizeof(T), kAlignment); }

  template <typename U>
  bool operator==(const CacheAlignedAllocator<U>&) const noexcept {
    return true;
  }
};

template <typename T>
using CacheAlignedVector = std::vector<T, CacheAlignedAllocator<T>>;

}  // namespace kiln
