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

// Assembly in windows: primitives [begin, end) (begin even) of an uncut stream from just the ids
// they read, so a front-end batch fetches and assembles its own primitives and a draw needs no
// draw-sized id and primitive arrays. Every topology but triangle fans (each triangle reads id 0)
// and triangle strips with adjacency (their first and last triangles are special) qualifies.
bool assembles_in_windows(VkPrimitiveTopology topology);
// The id positions primitives [begin, end) read: [first, last).
struct IdWindow {
  size_t first, last;
};
IdWindow uncut_id_window(VkPrimitiveTopology topology, size_t begin, size_t end);
// Primitives [begin, end) into out[0 .. end - begin) from `window`, the ids at positions
// uncut_id_window(topology, begin, end): exactly what assemble_uncut_range gives.
void assemble_uncut_window(VkPrimitiveTopology topology, bool provoking_last, const int64_t* window, size_t begin,
                           size_t end, AssembledPrimitive* out);

// Geometry shader input: the vertices a geometry shader reads per primitive of `topology` (1 points,
// 2 lines, 4 lines with adjacency, 3 triangles, 6 triangles with adjacency; 0 for patch lists).
uint32_t geometry_input_vertex_count(VkPrimitiveTopology topology);
// The id stream's primitives as geometry shader inputs, in API order: vertices in gl_in order
// (the spec's order for strips with adjacency included), PrimitiveIdIn counting across restarts.
void assemble_geometry_inputs(VkPrimitiveTopology topology, const int64_t* ids, size_t count, GeometryInputList& out);

}  // namespace kiln::exec::gfx
