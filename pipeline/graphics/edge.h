#pragma once
// Edge functions of a raster triangle and the coverage of a pixel rectangle by them: shared by
// the tile back end (block classification before per-sample tests) and the scene's binning (a
// triangle that covers a whole tile lets earlier work there be dropped).
#include <algorithm>
#include <cstdint>

#include "pipeline/graphics/draw_types.h"

namespace kiln::exec::gfx {

// Edge function E(p) = a*px + b*py + c over fixed-point positions; a pixel sample is inside
// when E(p) + bias >= 0 for all three edges (bias -1 on edges that are not top or left).
struct Edge {
  int64_t a, b, c, bias;
  int64_t at(int64_t px, int64_t py) const { return a * px + b * py + c + bias; }
};

inline Edge make_edge(int64_t xi, int64_t yi, int64_t xj, int64_t yj) {
  const int64_t dx = xj - xi, dy = yj - yi;
  Edge e;
  e.a = -dy;
  e.b = dx;
  e.c = dy * xi - dx * yi;
  // With y pointing down and the interior on the side where E >= 0, a top edge is horizontal
  // going right and a left edge goes up.
  const bool top_left = dy < 0 || (dy == 0 && dx > 0);
  e.bias = top_left ? 0 : -1;
  return e;
}

struct TriangleEdges {
  Edge e[3];
  explicit TriangleEdges(const RasterTriangle& t) {
    for (int i = 0; i < 3; ++i) e[i] = make_edge(t.x[i], t.y[i], t.x[(i + 1) % 3], t.y[(i + 1) % 3]);
  }
};

// The rectangle a pixel's sample positions span, in sub-pixel units from the pixel's corner.
struct SampleExtent {
  int64_t lo_x = kSubpixelOne, lo_y = kSubpixelOne, hi_x = 0, hi_y = 0;
  explicit SampleExtent(const DrawContext& ctx) {
    for (uint32_t s = 0; s < ctx.samples; ++s) {
      lo_x = std::min<int64_t>(lo_x, ctx.sample_x[s]);
      hi_x = std::max<int64_t>(hi_x, ctx.sample_x[s]);
      lo_y = std::min<int64_t>(lo_y, ctx.sample_y[s]);
      hi_y = std::max<int64_t>(hi_y, ctx.sample_y[s]);
    }
  }
};

enum class RectCoverage { None, Partial, Full };

// Whether every sample of the rectangle's pixels is inside all edges, none is, or some are:
// each edge's minimum and maximum over the rectangle spanned by the samples. `crossing` (when
// given and the answer is Partial) gets bit i set for each edge i that has samples on both sides.
inline RectCoverage classify_rect(const TriangleEdges& edges, const SampleExtent& samples, const Rect& r,
                                  uint32_t* crossing = nullptr) {
  const int64_t x_lo = (int64_t{r.x0} << kSubpixelBits) + samples.lo_x;
  const int64_t x_hi = (int64_t{r.x1 - 1} << kSubpixelBits) + samples.hi_x;
  const int64_t y_lo = (int64_t{r.y0} << kSubpixelBits) + samples.lo_y;
  const int64_t y_hi = (int64_t{r.y1 - 1} << kSubpixelBits) + samples.hi_y;
  uint32_t crossed = 0;
  for (int i = 0; i < 3; ++i) {
    const Edge& e = edges.e[i];
    const int64_t min = e.at(e.a >= 0 ? x_lo : x_hi, e.b >= 0 ? y_lo : y_hi);
    const int64_t max = e.at(e.a >= 0 ? x_hi : x_lo, e.b >= 0 ? y_hi : y_lo);
    if (max < 0) return RectCoverage::None;
    crossed |= uint32_t(min < 0) << i;
  }
  if (crossing) *crossing = crossed;
  return crossed ? RectCoverage::Partial : RectCoverage::Full;
}

}  // namespace kiln::exec::gfx
