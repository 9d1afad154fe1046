#pragma once
// The geometry-shading producer of the primitive stream (primitive_stream.h) for draws without
// tessellation: a run of the draw's primitives, as the geometry shader reads them (adjacent
// vertices included), has its vertices shaded into records and goes through the geometry stage
// (geometry_stage.h). docs/design/geometry.md.
#include <cstdint>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/primitive_stream.h"
#include "pipeline/graphics/vertex_producer.h"

namespace kiln::exec::gfx {

// Input primitives per front-end batch for the pipeline's geometry shader: fewer when each
// primitive may emit many vertices, so a batch's output stays a few thousand vertices.
uint32_t geometry_primitives_per_batch(const GeometryKernels& gk);

// Fills `batch` with what the geometry shader emits for primitives [job.begin, job.end) of
// *job.geometry_inputs. `faults` collects the kernels' fault bits.
void produce_geometry_primitives(const DrawContext& ctx, const BatchJob& job, PrimitiveBatch& batch, uint32_t* faults);

}  // namespace kiln::exec::gfx
