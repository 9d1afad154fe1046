#include "pipeline/graphics/line_raster.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/edge.h"
#include "pipeline/graphics/quad_batch.h"

namespace kiln::exec::gfx {
namespace {

constexpr int64_t kHalfPixel = kSubpixelOne / 2;

int64_t floor_div(int64_t v, int64_t d) { return v >= 0 ? v / d : -((-v + d - 1) / d); }

// The Vulkan spec perturbs both endpoints by (-eps, -eps^2) so no endpoint lies on a diamond's
// boundary. Whether the perturbed point p' is inside the open diamond |x-cx| + |y-cy| < 1/2 of
// the pixel centred at c: on the boundary the -eps in x decides, which moves p' inside exactly
// when p is right of the centre.
bool in_diamond(int64_t px, int64_t py, int64_t cx, int64_t cy) {
  const int64_t f = std::llabs(px - cx) + std::llabs(py - cy);
  return f < kHalfPixel || (f == kHalfPixel && px > cx);
}

int64_t centre(int64_t pixel) { return pixel * kSubpixelOne + kHalfPixel; }

// A line seen along its major axis (x for x-major lines) and minor axis.
struct MajorMinor {
  int64_t a_major, a_minor, b_major, b_minor;
  bool x_major;
  explicit MajorMinor(const LineRaster& l)
      : a_major(l.x_major ? l.ax : l.ay), a_minor(l.x_major ? l.ay : l.ax), b_major(l.x_major ? l.bx : l.by),
        b_minor(l.x_major ? l.by : l.bx), x_major(l.x_major) {}
  bool in_diamond_of(int64_t p_major, int64_t p_minor, int64_t pixel_major, int64_t pixel_minor) const {
    const int64_t c_major = centre(pixel_major), c_minor = centre(pixel_minor);
    return x_major ? in_diamond(p_major, p_minor, c_major, c_minor) : in_diamond(p_minor, p_major, c_minor, c_major);
  }
};

bool stipple_bit(const LineRaster& l, float counter) {
  const uint32_t s = counter > 0.0f ? uint32_t(counter) : 0u;
  return (l.stipple_pattern >> ((s / l.stipple_factor) % 16)) & 1u;
}

// Smooth lines: the share of a 4x4 grid of points in the pixel that are inside the rectangle
// (and in an "on" stipple step), approximating the area the rectangle covers.
float smooth_coverage(const LineRaster& l, int32_t x, int32_t y) {
  constexpr int kGrid = 4;
  int inside = 0;
  for (int j = 0; j < kGrid; ++j)
    for (int i = 0; i < kGrid; ++i) {
      const float px = float(x) + (float(i) + 0.5f) / kGrid - l.origin_x;
      const float py = float(y) + (float(j) + 0.5f) / kGrid - l.origin_y;
      const float along = px * l.dir_x + py * l.dir_y, across = py * l.dir_x - px * l.dir_y;
      if (along < 0.0f || along > l.length || std::fabs(across) > l.half_width) continue;
      if (l.stipple && !stipple_bit(l, l.stipple_start + along)) continue;
      ++inside;
    }
  return float(inside) / float(kGrid * kGrid);
}

bool center_inside(const TriangleEdges& edges, int32_t x, int32_t y) {
  const int64_t cx = centre(x), cy = centre(y);
  for (const Edge& e : edges.e)
    if (e.at(cx, cy) < 0) return false;
  return true;
}

}  // namespace

bool bresenham_thin_minor(const LineRaster& l, int32_t major, int32_t* minor) {
  const MajorMinor m(l);
  const int64_t c = centre(major);
  int64_t row = 0;
  bool found = false;
  if (c >= std::min(m.a_major, m.b_major) && c < std::max(m.a_major, m.b_major)) {
    // The perturbed segment crosses the column's centre line (for a perturbation of -eps along
    // the major axis that is exactly min <= c < max). With |slope| <= 1 it meets a diamond of
    // the column exactly when it crosses that diamond's diagonal: the fragment is the pixel
    // whose minor extent holds the crossing point, minor = a + (c - a_major) * d_minor / d_major.
    int64_t d = m.b_major - m.a_major;
    const int64_t d_minor = m.b_minor - m.a_minor;
    int64_t n = m.a_minor * d + (c - m.a_major) * d_minor;
    if (d < 0) d = -d, n = -n;
    const int64_t unit = d * kSubpixelOne;
    row = floor_div(n, unit);
    if (n == row * unit) {
      // On a pixel boundary. The perturbation moves the crossing by eps * dy/dx - eps^2 for
      // x-major lines (up when the slope is positive) and by -eps for y-major ones.
      const bool moves_up = m.x_major && d_minor != 0 && ((d_minor > 0) == (m.b_major > m.a_major));
      if (!moves_up) row -= 1;
    }
    found = true;
  } else {
    // Outside the columns the segment crosses, it meets a diamond only if that diamond holds an
    // endpoint (moving along the segment away from the column never gets closer to a diamond's
    // centre in the |x|+|y| metric when |slope| <= 1). The end's diamond is excluded below.
    const int64_t r0 = floor_div(m.a_minor, kSubpixelOne);
    for (int64_t r = r0 - 1; r <= r0 + 1 && !found; ++r)
      if (m.in_diamond_of(m.a_major, m.a_minor, major, r)) row = r, found = true;
  }
  // "except if pb is contained in R_f": the segment ends inside this fragment's diamond.
  if (!found || m.in_diamond_of(m.b_major, m.b_minor, major, row)) return false;
  *minor = int32_t(row);
  return true;
}

void finish_bresenham_line(LineRaster& l) {
  const MajorMinor m(l);
  l.first_major = 0, l.last_major = -1, l.major_step = 1;
  l.stipple_length = 0.0f;
  if (m.a_major == m.b_major) return;  // x-major with dx == 0: a point, which produces nothing
  const int32_t step = m.b_major > m.a_major ? 1 : -1;
  const int32_t a = int32_t(floor_div(m.a_major, kSubpixelOne)), b = int32_t(floor_div(m.b_major, kSubpixelOne));
  // Fragments form one run of consecutive major coordinates within [a - step, b + step].
  int32_t minor = 0, first = a - step;
  const int32_t past = b + 2 * step;
  while (first != past && !bresenham_thin_minor(l, first, &minor)) first += step;
  if (first == past) return;
  int32_t last = b + step;
  while (last != first && !bresenham_thin_minor(l, last, &minor)) last -= step;
  l.first_major = first, l.last_major = last, l.major_step = step;
  l.stipple_length = float((last - first) * step + 1);
}

uint32_t line_coverage(const LineRaster& l, const TriangleEdges& edges, const DrawContext& ctx, int32_t x, int32_t y,
                       uint32_t edge_mask) {
  const uint32_t all_samples = (1u << ctx.samples) - 1;
  if (l.smooth) {
    // Bounding triangles as for Bresenham lines; every pixel the rectangle touches is a fragment
    // with all samples, its coverage goes into alpha (scale_smooth_line_alpha).
    return center_inside(edges, x, y) && smooth_coverage(l, x, y) > 0.0f ? all_samples : 0;
  }
  if (l.bresenham) {
    // The two triangles only bound the candidates: a pixel belongs to the one holding its centre
    // (the fill rule gives a centre on their shared edge to exactly one).
    if (!center_inside(edges, x, y)) return 0;
    const int32_t major = l.x_major ? x : y, minor = l.x_major ? y : x;
    const int32_t along = (major - l.first_major) * l.major_step;  // fragments before this one
    if (along < 0 || along > (l.last_major - l.first_major) * l.major_step) return 0;
    int32_t thin = 0;
    if (!bresenham_thin_minor(l, major, &thin) || minor < thin || minor >= thin + l.width) return 0;
    if (l.stipple && !stipple_bit(l, l.stipple_start + float(along))) return 0;
    return all_samples;  // Bresenham fragments cover the whole pixel
  }
  if (!l.stipple) return edge_mask;
  // Rectangular (and default) lines: the counter is the distance along the line from its start
  // to where the sample projects onto it, so each 1-pixel length of the line shares one bit.
  uint32_t kept = 0;
  for (uint32_t s = 0; s < ctx.samples; ++s) {
    if (!(edge_mask & (1u << s))) continue;
    const float px = float(x) + float(ctx.sample_x[s]) / float(kSubpixelOne);
    const float py = float(y) + float(ctx.sample_y[s]) / float(kSubpixelOne);
    const float along = (px - l.origin_x) * l.dir_x + (py - l.origin_y) * l.dir_y;
    if (stipple_bit(l, l.stipple_start + std::max(along, 0.0f))) kept |= 1u << s;
  }
  return kept;
}

void scale_smooth_line_alpha(const LineRaster& l, const QuadBatch& batch, uint32_t lanes, float* alpha) {
  for (uint32_t lane = 0; lane < batch.lanes(); ++lane)
    if (lanes & (1u << lane)) alpha[lane] *= smooth_coverage(l, batch.x(lane), batch.y(lane));
}

void resolve_line_stipple(std::vector<LineRaster>& lines, float& carry) {
  for (LineRaster& l : lines) {
    if (!l.stipple) continue;
    if (!l.continues_strip) carry = 0.0f;
    l.stipple_start = carry;
    carry += l.stipple_length;
  }
}

}  // namespace kiln::exec::gfx
