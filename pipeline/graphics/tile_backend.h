#pragma once
// The back end for one 64x64 tile: rasterizes the tile's triangles (of one or more draws) in API
// order (exact edge functions on 8-bit sub-pixel positions, top-left fill rule, per-sample coverage
// masks), groups covered 2x2 quads W/4 at a time for the fragment kernel, interpolates its inputs
// and hands each fragment to the OutputMerger. One worker owns a tile at a time, so the
// per-sample tests and writes need no locks and happen in primitive order.
#include <vector>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/output_merge.h"

namespace kiln::exec::gfx {

// A front-end batch's raster triangles with the draw they belong to.
struct ShadedBatch {
  const BatchOutput* output;
  const DrawContext* ctx;
  const OutputMerger* merger;
};

// A load-op clear binned with the draws: BinEntry{kClearEntry, i} is clears[i].
constexpr uint32_t kClearEntry = ~0u;

// Runs the tile's bin (entries in API order, from any draws and clears of the scene) inside `tile`.
void run_tile(const std::vector<ShadedBatch>& batches, const std::vector<const ClearViewCmd*>& clears,
              const std::vector<BinEntry>& bin, const Rect& tile, uint32_t* faults);

}  // namespace kiln::exec::gfx
