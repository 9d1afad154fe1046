#pragma once
// A reference to a thread_local object whose address is computed once. In a shared library every
// thread_local access is a __tls_get_addr call, and GCC rematerialises the address at each use
// after inlining instead of keeping it in a register (30 calls per tile in the back end); the
// empty asm hides where the pointer came from, so it stays computed.
namespace kiln {

template <typename T>
T& thread_local_ref(T& object) {
  T* p = &object;
  asm("" : "+r"(p));
  return *p;
}

}  // namespace kiln
