#pragma once
// The generated table of Vulkan commands (build/generated/kiln_entrypoints.cpp, from vk.xml):
// each command's name, Kiln's implementation (NULL when Kiln has none), its dispatch level and
// what provides it (a core version, or up to three extensions).
#include <vulkan/vulkan.h>

#include <cstddef>

namespace kiln {

enum class EntrypointLevel { Global, Instance, PhysicalDevice, Device };

struct EntrypointInfo {
  const char* name;
  PFN_vkVoidFunction function;
  EntrypointLevel level;
  uint32_t core_version;       // VK_API_VERSION_1_x, or 0 when only extensions provide it
  const char* extensions[3];   // providing extensions (nullptr-terminated when fewer)
};

extern const EntrypointInfo kEntrypoints[];
extern const size_t kEntrypointCount;

// The table row for `name`, or nullptr when vk.xml has no such command.
const EntrypointInfo* find_entrypoint(const char* name);

}  // namespace kiln
