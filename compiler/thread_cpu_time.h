#pragma once
// CPU time of the calling thread, for the compile-phase timings logged at KILN_LOG=debug: on a
// loaded machine wall time also counts the other processes, CPU time only the compiler's work.
#include <ctime>

namespace kiln::compiler {

inline double thread_cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

}  // namespace kiln::compiler
