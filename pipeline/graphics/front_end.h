#pragma once
// The front end of one batch: the pipeline's pre-rasterization producers fill a primitive
// stream (primitive_stream.h) and the consumer clips and sets it up into a BatchOutput in API
// order (docs/design/front-end.md).
#include <cstdint>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/vertex_producer.h"

namespace kiln::exec::gfx {

void run_front_end(const DrawContext& ctx, const BatchJob& job, BatchOutput& out, uint32_t* faults);

}  // namespace kiln::exec::gfx
