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
                         PrimitiveList& out);

// For a vertex-id stream without restart cuts, where every primitive is a function of its index
// (so a draw's primitives can be assembled in parallel pieces): how many primitives `count` ids
// make, and primitives [begin, end) written to out[0 .. end - begin), exactly as
// assemble_primitives would produce them.
size_t uncut_primitive_count(VkPrimitiveTopology topology, size_t count);
void assemble_uncut_range(VkPrimitiveTopology topology, bool provoking_last, const int64_t* ids, size_t begin,
                          size_t end, AssembledPrimitive* out);

}  // namespace kiln::exec::gfx
