#pragma once
// Kiln's logging: one line per event on stderr, filtered by KILN_LOG (error|warn|info|debug;
// default warn). Application mistakes are logged once per call site (KILN_LOG_ONCE) so a bad
// app in a loop does not flood the output.
#include <atomic>

namespace kiln {

enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

bool log_enabled(LogLevel level);
void log(LogLevel level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

}  // namespace kiln

#define KILN_LOG_ONCE(level, ...)                                        \
  do {                                                                   \
    static std::atomic<bool> kiln_logged_{false};                        \
    if (!kiln_logged_.exchange(true)) ::kiln::log(level, __VA_ARGS__);   \
  } while (0)
