#pragma once
// Which descriptor bindings a SPIR-V module's code uses, and how: whether it may read through them
// (a load, an image read or sample), write (a store, image write or memory copy) or use atomics,
// with the pointer or image coming from the binding's variable. A conservative static scan of the words, no SPIRV-Tools IR: any function of the
// module counts, dead code included. Strict mode uses it to know what a dispatch or draw reads and
// writes (pipeline/descriptor_uses.h).
#include <cstdint>
#include <span>
#include <vector>

namespace kiln::compiler {

struct BindingUsage {
  uint32_t set = 0, binding = 0;
  bool read = false, written = false, atomic = false;
};

// Sorted by (set, binding). An unparsable module gives what was found before the problem.
std::vector<BindingUsage> binding_usage(std::span<const uint32_t> words);

}  // namespace kiln::compiler
