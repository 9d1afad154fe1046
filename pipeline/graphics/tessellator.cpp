#include "pipeline/graphics/tessellator.h"

#include <algorithm>
#include <cmath>

#include "common/thread_local_ref.h"

namespace kiln::exec::gfx {
namespace {

// Domain coordinates in fixed point: multiples of 2^-23 in [0, 1] are exact floats, and so is one
// minus any of them (the symmetry that makes shared edges watertight).
constexpr int kFractionBits = 23;
constexpr int32_t kOne = int32_t{1} << kFractionBits;
constexpr uint32_t kMaxSegments = 64;

struct Point {
  int32_t u, v, w;
};

// A tessellation level after clamping (f) and rounding (n segments), per spacing.
struct Level {
  float f;
  uint32_t n;
};

Level clamp_and_round(float level, TessSpacing spacing) {
  const float lo = spacing == TessSpacing::FractionalEven ? 2.0f : 1.0f;
  const float hi = spacing == TessSpacing::FractionalOdd ? kMaxTessellationLevel - 1.0f : kMaxTessellationLevel;
  const float f = !(level > lo) ? lo : level > hi ? hi : level;  // NaN (inner levels) clamps low
  uint32_t n = uint32_t(std::ceil(f));
  if (spacing == TessSpacing::FractionalEven) n += n % 2;
  if (spacing == TessSpacing::FractionalOdd) n += 1 - n % 2;
  return {f, n};
}

// An inner level of 1 with some other level above 1 acts as 1 + epsilon: two segments, or for
// fractional-odd spacing three of which the outer two have length 0 (the spec's limit as the
// level approaches 1 from above; the first inner ring then lies on the outer edges).
Level one_plus_epsilon(TessSpacing spacing) {
  return spacing == TessSpacing::FractionalOdd ? Level{1.0f, 3} : Level{2.0f, 2};
}

// The n + 1 points that divide [0, 1] for one level, in fixed point. Equal spacing: n equal
// segments. Fractional spacing: n - 2 segments of length 1/f and two shorter equal ones at the
// ends, which grow from 0 (f = n - 2) to 1/f (f = n), so the points move continuously with f.
// Points in the upper half are one minus their mirror image, exactly.
struct Subdivision {
  uint32_t n = 1;
  int32_t at[kMaxSegments + 1];

  Subdivision(Level level, TessSpacing spacing) : n(level.n) {
    const bool equal = spacing == TessSpacing::Equal || level.f == float(level.n);
    const double long_segment = 1.0 / level.f;
    const double short_segment = (1.0 - (n - 2.0) * long_segment) / 2.0;
    for (uint32_t k = 0; 2 * k < n; ++k) {
      const double x = equal ? double(k) / n : k == 0 ? 0.0 : short_segment + (k - 1) * long_segment;
      at[k] = int32_t(std::llround(x * kOne));
    }
    if (n % 2 == 0) at[n / 2] = kOne / 2;
    for (uint32_t k = (n + 2) / 2; k <= n; ++k) at[k] = kOne - at[n - k];
  }
};

// Collects points (fixed point, kept for the winding test) and primitives.
class Builder {
 public:
  explicit Builder(Tessellation& out, std::vector<Point>& points) : out_(out), points_(points) {
    points_.clear();
  }
  uint32_t add(Point p) {
    points_.push_back(p);
    return uint32_t(points_.size() - 1);
  }
  Point point(uint32_t i) const { return points_[i]; }
  void triangle(uint32_t a, uint32_t b, uint32_t c) { out_.indices.insert(out_.indices.end(), {a, b, c}); }
  void line(uint32_t a, uint32_t b) { out_.indices.insert(out_.indices.end(), {a, b}); }

  // Fills the float coordinates and orients the triangles for the requested winding.
  void finish(const TessellatorState& state) {
    constexpr float kScale = 1.0f / float(kOne);  // a power of two: the conversion is exact
    out_.u.resize(points_.size());
    out_.v.resize(points_.size());
    out_.w.resize(points_.size());
    for (size_t i = 0; i < points_.size(); ++i) {
      out_.u[i] = float(points_[i].u) * kScale;
      out_.v[i] = float(points_[i].v) * kScale;
      out_.w[i] = float(points_[i].w) * kScale;
    }
    if (out_.vertices_per_primitive != 3) return;
    // Triangles are built counter-clockwise in (u, v) with v up (positive area). The spec's
    // winding is seen with the domain origin at the upper left (v down) unless it is lower left.
    const bool want_negative = state.counter_clockwise != state.origin_lower_left;
    if (!want_negative) return;
    for (size_t t = 0; t < out_.indices.size(); t += 3) std::swap(out_.indices[t + 1], out_.indices[t + 2]);
  }

 private:
  Tessellation& out_;
  std::vector<Point>& points_;
};

// Fills the strip between two polylines running the same way, `inner` to the left of `outer`
// (towards the inside of the domain), with counter-clockwise triangles: |outer| - 1 + |inner| - 1
// of them. Advances along whichever polyline's next point comes first along the outer edge's
// direction (ties: the outer one), so the strip depends on nothing but the two polylines (the
// triangles along an outer edge are the same whatever the other edges' levels), and where both
// polylines have points at the same places — equal outer and inner levels — the strip is a row of
// grid cells each split in two, as the CTS's geometry_interaction grids expect.
void stitch(Builder& b, const std::vector<uint32_t>& outer, const std::vector<uint32_t>& inner) {
  const uint64_t p = outer.size() - 1, q = inner.size() - 1;
  const Point a = b.point(outer.front()), z = b.point(outer.back());
  const double du = double(z.u) - a.u, dv = double(z.v) - a.v;
  auto along = [&](uint32_t id) {
    const Point point = b.point(id);
    return (double(point.u) - a.u) * du + (double(point.v) - a.v) * dv;
  };
  uint64_t i = 0, j = 0;
  while (i < p || j < q) {
    const bool advance_outer = j == q || (i < p && along(outer[i + 1]) <= along(inner[j + 1]));
    if (advance_outer) {
      b.triangle(outer[i], outer[i + 1], inner[j]);
      ++i;
    } else {
      b.triangle(outer[i], inner[j + 1], inner[j]);
      ++j;
    }
  }
}

// An inner ring's edge: points from `from` to `to` at the fractions (sub.at[first + i] -
// sub.at[first]) / (sub.at[first + count] - sub.at[first]), so it follows the inner spacing.
std::vector<uint32_t> ring_edge(Builder& b, uint32_t from, uint32_t to, const Subdivision& sub, uint32_t first,
                                uint32_t count) {
  std::vector<uint32_t> edge{from};
  const Point a = b.point(from);  // copies: add() may move the points
  const Point c = b.point(to);
  const double span = double(sub.at[first + count]) - sub.at[first];
  for (uint32_t i = 1; i < count; ++i) {
    const double t = (double(sub.at[first + i]) - sub.at[first]) / span;
    const int32_t u = int32_t(std::llround(a.u + (double(c.u) - a.u) * t));
    const int32_t v = int32_t(std::llround(a.v + (double(c.v) - a.v) * t));
    edge.push_back(b.add({u, v, kOne - u - v}));
  }
  edge.push_back(to);
  return edge;
}

// The outer edge from corner `from` to corner `to` divided by `level`: point k is computed from
// the nearer end, so it mirrors exactly with the patch that walks the edge the other way.
std::vector<uint32_t> outer_edge(Builder& b, uint32_t from, uint32_t to, const Subdivision& sub) {
  std::vector<uint32_t> edge{from};
  const Point a = b.point(from);  // copies: add() may move the points
  const Point c = b.point(to);
  for (uint32_t k = 1; k < sub.n; ++k) {
    const int32_t t = sub.at[k];  // exact: at[n - k] == kOne - at[k]
    auto mix = [&](int32_t x, int32_t y) {  // x at t = 0, y at t = 1; the edge's coordinates are 0 or kOne
      return x == y ? x : x == 0 ? t : kOne - t;
    };
    edge.push_back(b.add({mix(a.u, c.u), mix(a.v, c.v), mix(a.w, c.w)}));
  }
  edge.push_back(to);
  return edge;
}

void tessellate_triangles(const TessellatorState& s, const TessLevels& levels, Builder& b) {
  Level outer[3], inner = clamp_and_round(levels.inner[0], s.spacing);
  bool all_one = inner.n == 1;
  for (int e = 0; e < 3; ++e) {
    outer[e] = clamp_and_round(levels.outer[e], s.spacing);
    all_one &= outer[e].n == 1;
  }
  // Corners: u = 1, v = 1, w = 1. Outer level 0 is the edge u = 0 (T1-T2), 1 is v = 0 (T2-T0),
  // 2 is w = 0 (T0-T1).
  const uint32_t t[3] = {b.add({kOne, 0, 0}), b.add({0, kOne, 0}), b.add({0, 0, kOne})};
  if (all_one) {
    b.triangle(t[0], t[1], t[2]);
    return;
  }
  if (inner.n == 1) inner = one_plus_epsilon(s.spacing);
  const int edge_level[3] = {2, 0, 1};  // edge T_j -> T_j+1
  std::vector<uint32_t> previous[3];
  for (int j = 0; j < 3; ++j)
    previous[j] = outer_edge(b, t[j], t[(j + 1) % 3], Subdivision(outer[edge_level[j]], s.spacing));
  // Concentric inner triangles: ring k's corners lie where the perpendiculars through the inner
  // subdivision's point k of two edges meet (barycentric a = 2/3 of that point's parameter).
  const Subdivision sub(inner, s.spacing);
  for (uint32_t k = 1; 2 * k <= inner.n; ++k) {
    const uint32_t m = inner.n - 2 * k;
    const int32_t a = int32_t(std::llround(2.0 * sub.at[k] / 3.0));
    std::vector<uint32_t> ring[3];
    if (m == 0) {
      const uint32_t centre = b.add({a, a, kOne - 2 * a});
      for (int j = 0; j < 3; ++j) ring[j] = {centre};
    } else {
      const uint32_t c[3] = {b.add({kOne - 2 * a, a, a}), b.add({a, kOne - 2 * a, a}), b.add({a, a, kOne - 2 * a})};
      for (int j = 0; j < 3; ++j) ring[j] = ring_edge(b, c[j], c[(j + 1) % 3], sub, k, m);
    }
    for (int j = 0; j < 3; ++j) stitch(b, previous[j], ring[j]);
    if (m == 1) b.triangle(ring[0][0], ring[1][0], ring[2][0]);
    for (int j = 0; j < 3; ++j) previous[j] = std::move(ring[j]);
  }
}

void tessellate_quads(const TessellatorState& s, const TessLevels& levels, Builder& b) {
  Level outer[4], inner[2];
  bool all_one = true;
  for (int e = 0; e < 4; ++e) {
    outer[e] = clamp_and_round(levels.outer[e], s.spacing);
    all_one &= outer[e].n == 1;
  }
  for (int e = 0; e < 2; ++e) {
    inner[e] = clamp_and_round(levels.inner[e], s.spacing);
    all_one &= inner[e].n == 1;
  }
  // Corners (0,0), (1,0), (1,1), (0,1). Outer level 0 is the edge u = 0, 1 is v = 0, 2 is u = 1,
  // 3 is v = 1.
  const uint32_t q[4] = {b.add({0, 0, 0}), b.add({kOne, 0, 0}), b.add({kOne, kOne, 0}), b.add({0, kOne, 0})};
  if (all_one) {
    b.triangle(q[0], q[1], q[2]);
    b.triangle(q[0], q[2], q[3]);
    return;
  }
  for (Level& l : inner)
    if (l.n == 1) l = one_plus_epsilon(s.spacing);
  const int edge_level[4] = {1, 2, 3, 0};  // edge Q_j -> Q_j+1
  const Subdivision su(inner[0], s.spacing), sv(inner[1], s.spacing);
  // The inner grid: points (x, y) for x in 1 .. n0 - 1, y in 1 .. n1 - 1.
  const uint32_t nx = inner[0].n - 1, ny = inner[1].n - 1;
  std::vector<uint32_t> grid(size_t(nx) * ny);
  for (uint32_t y = 0; y < ny; ++y)
    for (uint32_t x = 0; x < nx; ++x) grid[y * nx + x] = b.add({su.at[x + 1], sv.at[y + 1], 0});
  auto g = [&](uint32_t x, uint32_t y) { return grid[y * nx + x]; };
  // The grid's boundary as four polylines running the same way as the outer edges.
  std::vector<uint32_t> ring[4];
  for (uint32_t x = 0; x < nx; ++x) ring[0].push_back(g(x, 0));
  for (uint32_t y = 0; y < ny; ++y) ring[1].push_back(g(nx - 1, y));
  for (uint32_t x = nx; x-- > 0;) ring[2].push_back(g(x, ny - 1));
  for (uint32_t y = ny; y-- > 0;) ring[3].push_back(g(0, y));
  for (int j = 0; j < 4; ++j)
    stitch(b, outer_edge(b, q[j], q[(j + 1) % 4], Subdivision(outer[edge_level[j]], s.spacing)), ring[j]);
  // Each grid cell is split along the diagonal that points at the patch centre, so the inner
  // rings are mitred at all four corners (the CTS's fill_overlap_quads reference images).
  const uint32_t cells_x = nx - 1, cells_y = ny - 1;
  for (uint32_t y = 0; y + 1 < ny; ++y)
    for (uint32_t x = 0; x + 1 < nx; ++x) {
      const bool left = 2 * x + 1 < cells_x, low = 2 * y + 1 < cells_y;
      if (left == low) {
        b.triangle(g(x, y), g(x + 1, y), g(x + 1, y + 1));
        b.triangle(g(x, y), g(x + 1, y + 1), g(x, y + 1));
      } else {
        b.triangle(g(x, y), g(x + 1, y), g(x, y + 1));
        b.triangle(g(x + 1, y), g(x + 1, y + 1), g(x, y + 1));
      }
    }
}

void tessellate_isolines(const TessellatorState& s, const TessLevels& levels, Builder& b) {
  // Outer level 0 is the number of lines (always equal spacing), 1 the segments of each; lines run
  // along u at v = y / lines, y < lines (no line at v = 1).
  const Subdivision lines(clamp_and_round(levels.outer[0], TessSpacing::Equal), TessSpacing::Equal);
  const Subdivision segments(clamp_and_round(levels.outer[1], s.spacing), s.spacing);
  for (uint32_t y = 0; y < lines.n; ++y) {
    b.add({0, lines.at[y], 0});
    for (uint32_t x = 1; x <= segments.n; ++x) {
      const uint32_t p = b.add({segments.at[x], lines.at[y], 0});
      b.line(p - 1, p);
    }
  }
}

thread_local std::vector<Point> tls_points;

}  // namespace

bool tessellation_discards(TessDomain domain, const TessLevels& levels) {
  const int relevant = domain == TessDomain::Triangles ? 3 : domain == TessDomain::Quads ? 4 : 2;
  for (int e = 0; e < relevant; ++e)
    if (!(levels.outer[e] > 0.0f)) return true;  // <= 0 or NaN
  return false;
}

uint32_t tessellation_work_bound(const TessellatorState& state, const TessLevels& levels) {
  if (tessellation_discards(state.domain, levels)) return 0;
  const TessSpacing spacing = state.spacing;
  auto segments = [&](float level) { return clamp_and_round(level, spacing).n; };
  // An inner level of one with an outer level above one subdivides as 1 + epsilon.
  auto inner_segments = [&](float level) { return std::max(segments(level), one_plus_epsilon(spacing).n); };
  uint32_t points = 0, primitives = 0;  // the counts of the construction above
  switch (state.domain) {
    case TessDomain::Isolines: {
      const uint32_t lines = clamp_and_round(levels.outer[0], TessSpacing::Equal).n, s = segments(levels.outer[1]);
      points = lines * (s + 1);
      primitives = lines * s;
      break;
    }
    case TessDomain::Quads: {
      const uint32_t outer = segments(levels.outer[0]) + segments(levels.outer[1]) + segments(levels.outer[2]) +
                             segments(levels.outer[3]);
      if (outer == 4 && segments(levels.inner[0]) == 1 && segments(levels.inner[1]) == 1) {
        points = 4, primitives = 2;
        break;
      }
      const uint32_t n0 = inner_segments(levels.inner[0]), n1 = inner_segments(levels.inner[1]);
      points = outer + (n0 - 1) * (n1 - 1);
      primitives = outer + 2 * (n0 - 1) * (n1 - 1);
      break;
    }
    case TessDomain::Triangles: {
      const uint32_t outer = segments(levels.outer[0]) + segments(levels.outer[1]) + segments(levels.outer[2]);
      if (outer == 3 && segments(levels.inner[0]) == 1) {
        points = 3, primitives = 1;
        break;
      }
      const uint32_t n = inner_segments(levels.inner[0]);
      points = primitives = outer;
      for (uint32_t k = 1; 2 * k <= n; ++k) {  // the inner rings
        const uint32_t m = n - 2 * k;
        points += m == 0 ? 1 : 3 * m;
        primitives += m == 1 ? 4 : 6 * m;
      }
      break;
    }
  }
  return points + (state.point_mode ? points : primitives);
}

bool tessellate(const TessellatorState& state, const TessLevels& levels, Tessellation& out) {
  out.u.clear(), out.v.clear(), out.w.clear(), out.indices.clear();
  out.vertices_per_primitive = state.domain == TessDomain::Isolines ? 2 : 3;
  if (tessellation_discards(state.domain, levels)) return false;
  Builder b(out, thread_local_ref(tls_points));
  switch (state.domain) {
    case TessDomain::Triangles: tessellate_triangles(state, levels, b); break;
    case TessDomain::Quads: tessellate_quads(state, levels, b); break;
    case TessDomain::Isolines: tessellate_isolines(state, levels, b); break;
  }
  if (state.point_mode) {  // every distinct point once
    out.vertices_per_primitive = 1;
    out.indices.resize(0);
  }
  b.finish(state);
  if (state.point_mode)
    for (uint32_t i = 0; i < out.point_count(); ++i) out.indices.push_back(i);
  return true;
}

}  // namespace kiln::exec::gfx
