#pragma once
// Exact per-sample coverage of an 8x8 pixel block by a triangle's three edges, 16 pixels per
// AVX-512 operation: the tile back end's path for blocks that an edge crosses (block
// classification, edge.h, settles the blocks no edge crosses).
//
// Lanes are laid out as the fragment kernel's quads (quad_batch.h): 16 lanes are one row of four
// 2x2 quads, lane l is pixel (2 (l / 4) + (l & 1), (l >> 1) & 1) of the row, and the block's four
// quad rows are lanes 0-15, 16-31, 32-47, 48-63 of a 64-bit mask. Covered quads are then nibbles
// of that mask and copy straight into a QuadBatch.
//
// Why 32 bits is exact: the edge function E = a x + b y + c (+ bias) is affine. When an edge
// crosses the block, E + bias has a zero inside the block, so anywhere in the block's sample box
// (at most 2047 sub-pixel units from that zero along each axis) |E + bias| <= (|a| + |b|) * 2047,
// below 2^31 when |a| + |b| < 2^20 (edges shorter than 4096 pixels along x and along y).
// Each lane's value, computed as E(block corner) + a dx + b dy in wrapping 32-bit arithmetic, is
// then exactly the int64 value (two's-complement sums and products are exact modulo 2^32, and
// the true value fits). Longer crossing edges fall back to the per-pixel int64 path. Edges that
// do not cross the block are either outside (block skipped) or inside everywhere (left out).
#include <cstdint>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/edge.h"

namespace kiln::exec::gfx {

// Small triangles need no block classification: when the triangle's bounding box is at most
// 2^14 sub-pixel units (64 pixels) wide and tall, |a| and |b| are at most 2^14 and every sample
// of a pixel its bounds hold is within 255 units of the box, so each edge there is at most
// 2^14 (2^14 + 255) * 2 + 1 < 2^31 in magnitude: a block anywhere around it can take all three
// edges as crossing (make_block_edges with crossing = 7), lanes outside the bounds being masked.
constexpr int64_t kSmallTriangleExtent = int64_t{1} << 14;

// Edges with |a| + |b| below this are exact in 32 bits over any block they cross.
constexpr int64_t kBlockEdgeLimit = int64_t{1} << 20;

// The draw's sample positions as lane offsets from the block corner (sub-pixel units) for quad
// row 0, one vector of 16 lanes per sample that coverage keeps (the draw's sample mask).
struct BlockSamples {
  uint32_t count = 0;
  uint32_t bit[kMaxSamples] = {};  // coverage bit of each kept sample
  alignas(64) int32_t x[kMaxSamples][16] = {};
  alignas(64) int32_t y[kMaxSamples][16] = {};
  BlockSamples(const DrawContext& ctx, uint32_t sample_mask);
};

// The edges of one triangle over one block, relative to the block's upper-left corner: lane
// value = at_corner + a * x + b * y (x, y in sub-pixel units from the corner). An edge that is
// inside the whole block is stored as 0, 0, 0 (always passes).
struct BlockEdges {
  int32_t a[3], b[3], at_corner[3];
};

// Pixel offsets of lane l (0..15) inside a quad row: quad_batch.h's lane order, four quads side by side.
constexpr int32_t block_lane_column(uint32_t l) { return int32_t(2 * (l / 4) + (l & 1)); }
constexpr int32_t block_lane_row(uint32_t l) { return int32_t((l >> 1) & 1); }

// The block at pixel (x0, y0) as BlockEdges, from the triangle's int64 edges. `crossing` has bit
// i set for edges that cross the block (the others are inside it). False when a crossing edge is
// too long for 32-bit arithmetic (|a| + |b| >= kBlockEdgeLimit).
inline bool make_block_edges(const TriangleEdges& edges, uint32_t crossing, int32_t x0, int32_t y0, BlockEdges* out) {
  const int64_t cx = int64_t{x0} << kSubpixelBits, cy = int64_t{y0} << kSubpixelBits;
  for (int k = 0; k < 3; ++k) {
    const Edge& e = edges.e[k];
    if (!(crossing & (1u << k))) {
      out->a[k] = out->b[k] = out->at_corner[k] = 0;  // inside the whole block
      continue;
    }
    if ((e.a < 0 ? -e.a : e.a) + (e.b < 0 ? -e.b : e.b) >= kBlockEdgeLimit) return false;
    out->a[k] = int32_t(e.a);
    out->b[k] = int32_t(e.b);
    out->at_corner[k] = int32_t(e.at(cx, cy));  // exact modulo 2^32, which is all the lanes need
  }
  return true;
}

inline bool small_triangle(const TriangleEdges& edges) {
  int64_t extent = 0;  // the bounding box's width and height are the largest |b| and |a|
  for (const Edge& e : edges.e) extent |= (e.a < 0 ? -e.a : e.a) | (e.b < 0 ? -e.b : e.b);
  return extent <= kSmallTriangleExtent;
}

// block_lanes as two tables indexed by [first][end] (0..8 each): the lanes of pixel columns
// [first, end) in every row, and the lanes of pixel rows [first, end) in every column.
struct BlockLaneTables {
  uint64_t columns[9][9] = {}, rows[9][9] = {};
  constexpr BlockLaneTables() {
    for (uint32_t first = 0; first <= 8; ++first)
      for (uint32_t end = first; end <= 8; ++end)
        for (uint32_t l = 0; l < 64; ++l) {
          const uint32_t column = uint32_t(block_lane_column(l % 16));
          const uint32_t row = 2 * (l / 16) + uint32_t(block_lane_row(l % 16));
          columns[first][end] |= uint64_t(column >= first && column < end) << l;
          rows[first][end] |= uint64_t(row >= first && row < end) << l;
        }
  }
};
inline constexpr BlockLaneTables kBlockLaneTables;

// The lanes (bit 16 r + l: quad row r, lane l) that lie in pixel rectangle `r` of the block at
// (x0, y0) (r need not lie inside the block).
inline uint64_t block_lanes(const Rect& r, int32_t x0, int32_t y0) {
  auto clamp8 = [](int32_t v) { return uint32_t(v < 0 ? 0 : v > 8 ? 8 : v); };
  const uint32_t cx0 = clamp8(r.x0 - x0), cx1 = clamp8(r.x1 - x0), cy0 = clamp8(r.y0 - y0), cy1 = clamp8(r.y1 - y0);
  return kBlockLaneTables.columns[cx0][cx1] & kBlockLaneTables.rows[cy0][cy1];
}

// Coverage of the lanes in `region` (bit 16 r + l): coverage[16 r + l] gets the samples of
// lane l of quad row r inside all three edges (BlockSamples::bit; 0 outside `region`), for the
// quad rows that hold a lane of `region` (other rows are left alone, and all of them when no
// sample is kept). Returns the lanes that cover a sample.
uint64_t block_coverage(const BlockEdges& edges, const BlockSamples& samples, uint64_t region, uint32_t* coverage);

// The same, one lane and sample at a time in plain C++ (the reference for tests, and the path on
// CPUs without AVX-512).
uint64_t block_coverage_scalar(const BlockEdges& edges, const BlockSamples& samples, uint64_t region,
                               uint32_t* coverage);

// The back end's routine: block_coverage's AVX-512 body (`region` must not be empty), or null
// when the CPU lacks AVX-512 F, VL and BW or tests turned it off (enable_block_coverage(false),
// to compare whole draws against the per-pixel path).
using BlockCoverageFn = uint64_t (*)(const BlockEdges&, const BlockSamples&, uint64_t region, uint32_t* coverage);
BlockCoverageFn block_coverage_routine();
bool block_coverage_supported();  // AVX-512 F, VL and BW
void enable_block_coverage(bool enabled);

}  // namespace kiln::exec::gfx
