#include "common/cpu.h"

#include <unistd.h>

#include "common/env.h"
#include "common/log.h"

namespace kiln {

uint32_t host_simd_width() {
  static const uint32_t width = [] {
    int64_t forced = env_int("KILN_SIMD_WIDTH", 0);
    if (forced == 4 || forced == 8 || forced == 16) return static_cast<uint32_t>(forced);
    if (forced != 0) log(LogLevel::Warn, "KILN_SIMD_WIDTH=%lld ignored (use 4, 8 or 16)", (long long)forced);
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return 16u;
    if (__builtin_cpu_supports("avx2")) return 8u;
    return 4u;
  }();
  return width;
}

uint64_t host_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return uint64_t{4} << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

}  // namespace kiln
