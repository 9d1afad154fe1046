#pragma once
// Primitive assembly: a vertex-id stream (with restart cuts) -> points, lines or triangles in API
// order, with Vulkan's vertex order for strips/fans and its provoking vertex (first or last).
// Adjacency topologies keep only their main vertices; incomplete trailing primitives are dropped.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "pipeline/graphics/draw_types.h"

namespace kiln::exec::gfx {

// Vertices per primitive after assembly (1, 2 or 3), or 0 for topologies Kiln cannot draw
// (patch lists without tessellation).
uint32_t assembled_vertex_count(VkPrimitiveTopology topology);

void assemble_primitives(VkPrimitiveTopology topology, bool provoking_last, const int64_t* ids, size_t count,
                         std::vector<AssembledPrimitive>& out);

}  // namespace kiln::exec::gfx
