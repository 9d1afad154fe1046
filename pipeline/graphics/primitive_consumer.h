#pragma once
// The consumer of the primitive stream (primitive_stream.h): clips each primitive of a batch,
// transforms it to the framebuffer and sets it up into RasterTriangles in API order. It reads
// only the batch — never which stage produced it.
#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/primitive_stream.h"

namespace kiln::exec::gfx {

// Whether the consumer wants producers to write the batch's clip positions as arrays too
// (PrimitiveBatch::want_positions): its AVX-512 path reads them for single-viewport batches.
bool consumer_wants_positions();

// Clips and sets up the batch's primitives into `out` (appended in order). Counts clipping
// statistics when a query is active; with rasterizer discard nothing is set up.
void consume_primitives(const DrawContext& ctx, const PrimitiveBatch& batch, BatchOutput& out);

}  // namespace kiln::exec::gfx
