#pragma once
// The tessellation producer of the primitive stream (primitive_stream.h): a run of a draw's
// patches goes through vertex shading (records of the patch's control points), the tessellation
// control kernel (per patch: output control points, patch constants, tessellation levels), the
// fixed-function tessellator and the tessellation evaluation kernel (W domain points per call),
// and comes out as the evaluation stage's vertex records and the tessellator's primitives, each
// with the patch's PrimitiveId. docs/design/tessellation.md.
#include <cstdint>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/primitive_stream.h"
#include "pipeline/graphics/vertex_producer.h"

namespace kiln::exec::gfx {

// Patches of `vertices_per_patch` control points that `vertex_count` vertices of a patch-list
// draw make (a trailing incomplete patch is dropped).
uint32_t patch_count(uint32_t vertex_count, uint32_t vertices_per_patch);

// Fills `batch` with the tessellated primitives of patches [job.begin, job.end) of the job's draw
// and instance (ctx.kernels->tessellation is set). `faults` collects the kernels' fault bits.
void produce_tessellated_primitives(const DrawContext& ctx, const BatchJob& job, PrimitiveBatch& batch,
                                    uint32_t* faults);

}  // namespace kiln::exec::gfx
