#pragma once
// The primitives a non-indexed draw assembles from its vertices, as the Vulkan specification
// defines them (chapter "Drawing Commands", section "Primitive Topologies", one subsection per
// topology): for primitive p_i, the numbers of its vertices v_k in the order a geometry shader
// receives them in gl_in. A CPU reference for the geometry shader input tests.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace kiln::test {

// Every topology but PATCH_LIST; vertices that make no complete primitive are dropped.
std::vector<std::vector<uint32_t>> assembled_primitives(VkPrimitiveTopology topology, uint32_t vertex_count);

}  // namespace kiln::test
