#pragma once
// Running a draw: the graphics front end (vertex kernels over batches, primitive assembly,
// clipping, viewport transform, fixed-point setup, binning into 64x64 tiles with API-order keys)
// and back end (per-tile rasterization, fragment kernels over 2x2 quads, depth/stencil tests,
// blending, attachment stores) of ARCHITECTURE.md "The execution engine".
#include "pipeline/command_list.h"
#include "pipeline/thread_pool.h"

namespace kiln::exec {

void run_draw(ThreadPool& pool, const DrawCmd& draw);

}  // namespace kiln::exec
