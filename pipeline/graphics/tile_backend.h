#pragma once
// The back end of a draw for one 64x64 tile: rasterizes the tile's triangles in API order
// (exact edge functions on 8-bit sub-pixel positions, top-left fill rule, per-sample coverage
// masks), groups covered 2x2 quads W/4 at a time for the fragment kernel, interpolates its inputs
// and hands each fragment to the OutputMerger. One worker owns a tile at a time, so the
// per-sample tests and writes need no locks and happen in primitive order.
#include <vector>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/output_merge.h"

namespace kiln::exec::gfx {

void run_tile(const DrawContext& ctx, const OutputMerger& merger, const std::vector<BatchOutput>& batches,
              const std::vector<BinEntry>& bin, const Rect& tile, uint32_t* faults);

}  // namespace kiln::exec::gfx
