#pragma once
// The geometry stage of the primitive stream (docs/design/geometry.md): the geometry kernel runs
// over a run of input primitives — every invocation of each, W lanes per call — and what the
// lanes emit is read back in the spec's order (primitives of one invocation in emit order,
// invocations of a primitive in invocation order, primitives in API order), assembled from
// strips into points, lines or triangles and appended to a PrimitiveBatch as the consumer's
// vertex rows.
#include <cstdint>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/primitive_stream.h"

namespace kiln::exec::gfx {

// A run of input primitives in the previous stage's record layout.
struct GeometryStageInput {
  const uint32_t* records;        // primitive p's vertex v at records + (p * vertices + v) * record_words
  uint32_t record_words;          // the previous stage's slot_count * 4
  uint32_t vertices;              // per primitive
  const uint32_t* primitive_ids;  // PrimitiveIdIn of each primitive
  uint32_t count;
};

// Appends the primitives the geometry kernel (ctx.kernels->geometry) emits for `input` to
// `batch`, whose want_positions must be false. `faults` collects the kernel's fault bits.
void run_geometry_stage(const DrawContext& ctx, const GeometryStageInput& input, PrimitiveBatch& batch, uint32_t* faults);

}  // namespace kiln::exec::gfx
