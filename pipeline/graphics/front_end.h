#pragma once
// The front end of one batch of primitives: shade its distinct vertices (vertex reuse within the
// batch), then clip and set up each primitive in API order into a BatchOutput.
#include <vector>

#include "pipeline/graphics/draw_types.h"

namespace kiln::exec::gfx {

// A run of consecutive primitives of one draw and instance.
struct BatchJob {
  const DrawParams* params;
  const PrimitiveList* primitives;  // the draw's assembled primitives, or null: the batch assembles
                                    // its own from the ids it reads (assemble_uncut_window)
  uint32_t instance;
  uint32_t begin, end;  // primitive range
};

void run_front_end(const DrawContext& ctx, const BatchJob& job, BatchOutput& out, uint32_t* faults);

}  // namespace kiln::exec::gfx
