#pragma once
// The unit of work of the tile back end: up to W/4 2x2 quads of one triangle, in the fragment
// kernel's lane order (lane i is pixel (i & 1, (i >> 1) & 1) of quad i / 4), with the samples
// each lane covers. Rasterization fills it, the depth/stencil tests narrow the coverage, the
// fragment kernel shades it and the output merger stores it — each step loops over lanes, so the
// per-fragment work stays in tight loops instead of per-pixel calls.
#include <cstdint>

namespace kiln::exec::gfx {

struct QuadBatch {
  static constexpr uint32_t kMaxLanes = 64;  // W <= 64
  uint32_t quads = 0;
  int32_t quad_x[kMaxLanes / 4], quad_y[kMaxLanes / 4];  // upper-left pixel of each quad
  // Covered samples per lane (0: helper). Cache-line aligned: later steps read it a quad (16
  // bytes) or a whole vector at a time, and a quad split over two lines costs extra.
  alignas(64) uint32_t coverage[kMaxLanes];

  uint32_t lanes() const { return quads * 4; }
  int32_t x(uint32_t lane) const { return quad_x[lane / 4] + int32_t(lane & 1); }
  int32_t y(uint32_t lane) const { return quad_y[lane / 4] + int32_t((lane >> 1) & 1); }
};

}  // namespace kiln::exec::gfx
