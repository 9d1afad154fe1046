#include "common/env.h"

#include <cstdlib>

namespace kiln {

int64_t env_int(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long long parsed = std::strtoll(v, &end, 0);
  return (end && *end == '\0') ? parsed : fallback;
}

std::string env_string(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool strict_mode_requested() { return env_int("KILN_STRICT", 0) != 0; }

}  // namespace kiln
