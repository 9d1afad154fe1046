#pragma once
// Nanoseconds of a POSIX clock (CLOCK_MONOTONIC for device timestamps, CLOCK_MONOTONIC_RAW for
// calibrated timestamps' deviation).
#include <time.h>

#include <cstdint>

namespace kiln {

inline uint64_t clock_ns(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

}  // namespace kiln
