#pragma once
// Kiln's environment settings (documented in README "Environment variables").
#include <cstdint>
#include <string>

namespace kiln {

// Integer setting from the environment; `fallback` when unset or not a number.
int64_t env_int(const char* name, int64_t fallback);
// String setting from the environment; empty when unset.
std::string env_string(const char* name);

// Whether KILN_STRICT asks for strict mode (docs/strict-mode.md): the engine checks commands, the
// compiler builds kernels that report out-of-bounds accesses.
bool strict_mode_requested();

}  // namespace kiln
