#pragma once
// What transform feedback and the stream queries see of the primitive stream (docs/design/
// transform-feedback.md): a producer's batch, before clipping, as each vertex stream's primitives
// in API order. Runs on the worker that produced the batch; placing the captured bytes in the
// buffers is the queue thread's part (xfb_state.h).
#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/primitive_stream.h"

namespace kiln::exec::gfx {

// The batch's primitives of every stream captured into `out` (the pipeline's XfbPlan over the
// rows' capture words, VertexFormat::xfb_offset): each primitive's
// vertices whole, strips as separate primitives, the provoking vertex first (or last in
// last-vertex mode) with the winding kept.
void capture_transform_feedback(const DrawContext& ctx, const PrimitiveBatch& batch, XfbBatch& out);

// PRIMITIVES_GENERATED (VK_EXT_primitives_generated_query): the batch's primitives per stream.
void count_generated_primitives(const DrawContext& ctx, const PrimitiveBatch& batch);

}  // namespace kiln::exec::gfx
