#pragma once
// The vertex-shading producer of the primitive stream (primitive_stream.h): a run of a draw's
// primitives is assembled from its vertex ids, its distinct vertices are shaded once each (vertex
// reuse within the batch) and each primitive gets its header, layer and viewport taken from its
// provoking vertex.
#include <cstdint>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/primitive_stream.h"

namespace kiln::exec::gfx {

// A run of consecutive primitives of one draw and instance.
struct MeshLaunch;  // mesh_producer.h
struct ShadedPatches;  // tessellation_producer.h

struct BatchJob {
  const DrawParams* params;
  const PrimitiveList* primitives;  // the draw's assembled primitives, or null: the batch assembles
                                    // its own from the ids it reads (assemble_uncut_window)
  uint32_t instance;
  uint32_t begin, end;  // primitive range
  // Draws with a geometry shader and no tessellation: the draw's primitives as the geometry
  // shader reads them (`primitives` is then unused).
  const GeometryInputList* geometry_inputs = nullptr;
  // Mesh-shading draws: the grid whose workgroups [begin, end) the batch runs (mesh_producer.h).
  const MeshLaunch* mesh_launch = nullptr;
  // Tessellated draws: the shaded patches among which [begin, end) are (tessellation_producer.h).
  const ShadedPatches* patches = nullptr;
};

// Fills `batch` (whose want_positions the caller has set) with the job's shaded vertices and
// primitives. `faults` collects the vertex kernel's fault bits.
void produce_vertex_primitives(const DrawContext& ctx, const BatchJob& job, PrimitiveBatch& batch, uint32_t* faults);

}  // namespace kiln::exec::gfx
