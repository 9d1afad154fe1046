// The fixed-function tessellator (pipeline/graphics/tessellator.*): domain points against
// hand-computed ones for every domain and spacing, level clamping and rounding, discards, the
// point and primitive counts the spec's construction gives, exact symmetry of outer-edge points,
// coverage of the domain (every sample point inside exactly one triangle) and watertightness
// between two patches that walk a shared edge in opposite directions.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "pipeline/graphics/tessellator.h"

namespace kiln::exec::gfx {
namespace {

constexpr TessSpacing kSpacings[] = {TessSpacing::Equal, TessSpacing::FractionalEven, TessSpacing::FractionalOdd};
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::string name(TessSpacing s) {
  return s == TessSpacing::Equal ? "equal" : s == TessSpacing::FractionalEven ? "fractional_even" : "fractional_odd";
}

TessellatorState state(TessDomain domain, TessSpacing spacing = TessSpacing::Equal, bool point_mode = false) {
  TessellatorState s;
  s.domain = domain;
  s.spacing = spacing;
  s.point_mode = point_mode;
  return s;
}

TessLevels levels(std::initializer_list<float> outer, std::initializer_list<float> inner = {}) {
  TessLevels l;
  std::copy(outer.begin(), outer.end(), l.outer);
  std::copy(inner.begin(), inner.end(), l.inner);
  return l;
}

using Coord = std::tuple<float, float, float>;

std::multiset<Coord> points_of(const Tessellation& t) {
  std::multiset<Coord> s;
  for (uint32_t i = 0; i < t.point_count(); ++i) s.insert({t.u[i], t.v[i], t.w[i]});
  return s;
}

// `got` holds exactly the points of `want`, each within 2^-22 (coordinates are fixed point with 23
// fraction bits; hand-computed thirds are not exact).
void expect_points(const Tessellation& got, std::vector<Coord> want, const std::string& what) {
  ASSERT_EQ(got.point_count(), want.size()) << what;
  std::vector<bool> used(want.size(), false);
  for (uint32_t i = 0; i < got.point_count(); ++i) {
    bool found = false;
    for (size_t k = 0; k < want.size() && !found; ++k) {
      const auto [u, v, w] = want[k];
      if (!used[k] && std::fabs(got.u[i] - u) <= 0x1p-22f && std::fabs(got.v[i] - v) <= 0x1p-22f &&
          std::fabs(got.w[i] - w) <= 0x1p-22f)
        used[k] = found = true;
    }
    EXPECT_TRUE(found) << what << ": unexpected point (" << got.u[i] << ", " << got.v[i] << ", " << got.w[i] << ")";
  }
}

// The u values of the points on the isoline v = 0 (point mode, outer {1, level}).
std::vector<float> isoline_division(TessSpacing spacing, float level) {
  Tessellation t;
  EXPECT_TRUE(tessellate(state(TessDomain::Isolines, spacing, true), levels({1.0f, level}), t));
  std::vector<float> u(t.u);
  std::sort(u.begin(), u.end());
  return u;
}

TEST(Tessellator, TrianglesWithEqualSpacingMatchHandComputedPoints) {
  Tessellation t;
  // All levels 1: the patch's own triangle.
  ASSERT_TRUE(tessellate(state(TessDomain::Triangles), levels({1, 1, 1}, {1}), t));
  expect_points(t, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, "all ones");
  EXPECT_EQ(t.primitive_count(), 1u);
  // Inner 2: the inner ring is the centre; outer 2 on the edge u = 0 adds its midpoint.
  ASSERT_TRUE(tessellate(state(TessDomain::Triangles), levels({2, 1, 1}, {2}), t));
  const float third = 1.0f / 3.0f;
  expect_points(t, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0.5f, 0.5f}, {third, third, third}}, "inner 2");
  EXPECT_EQ(t.primitive_count(), 4u);  // a fan of the four outer segments around the centre
  // Inner 3: one inner triangle with corners at a = 2/9.
  ASSERT_TRUE(tessellate(state(TessDomain::Triangles), levels({1, 1, 1}, {3}), t));
  const float a = 2.0f / 9.0f, b = 1.0f - 2 * a;
  expect_points(t, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {b, a, a}, {a, b, a}, {a, a, b}}, "inner 3");
  EXPECT_EQ(t.primitive_count(), 3u + 3u + 1u);
  // Inner 1 with an outer level above 1 acts as inner 2.
  ASSERT_TRUE(tessellate(state(TessDomain::Triangles), levels({1, 3, 1}, {1}), t));
  expect_points(t, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {third, 0, 2 * third}, {2 * third, 0, third}, {third, third, third}},
                "inner 1 + epsilon");
}

TEST(Tessellator, QuadsAndIsolinesWithEqualSpacingMatchHandComputedPoints) {
  Tessellation t;
  ASSERT_TRUE(tessellate(state(TessDomain::Quads), levels({1, 1, 1, 1}, {1, 1}), t));
  expect_points(t, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, "all ones");
  EXPECT_EQ(t.primitive_count(), 2u);
  // Inner {3, 2}: grid points (1/3, 1/2) and (2/3, 1/2); outer 2 on u = 0 adds (0, 1/2).
  ASSERT_TRUE(tessellate(state(TessDomain::Quads), levels({2, 1, 1, 1}, {3, 2}), t));
  expect_points(t, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0.5f, 0}, {1 / 3.0f, 0.5f, 0}, {2 / 3.0f, 0.5f, 0}},
                "inner 3x2");
  EXPECT_EQ(t.primitive_count(), 2u * 0 + 2u * 1 + 2u * 0 + 5u);
  // Isolines: outer {2, 3}: lines at v = 0 and 1/2 (none at v = 1), 3 segments each.
  ASSERT_TRUE(tessellate(state(TessDomain::Isolines), levels({2, 3}), t));
  std::vector<Coord> want;
  for (float v : {0.0f, 0.5f})
    for (float u : {0.0f, 1 / 3.0f, 2 / 3.0f, 1.0f}) want.push_back({u, v, 0.0f});
  expect_points(t, want, "isolines 2x3");
  EXPECT_EQ(t.vertices_per_primitive, 2u);
  EXPECT_EQ(t.primitive_count(), 6u);
  // The line count always uses equal spacing: 2.5 lines round to 3 for fractional-even segments.
  ASSERT_TRUE(tessellate(state(TessDomain::Isolines, TessSpacing::FractionalEven), levels({2.5f, 2}), t));
  EXPECT_EQ(t.point_count(), 3u * 3u);
}

TEST(Tessellator, FractionalSpacingPutsTwoEqualShorterSegmentsAtTheEnds) {
  // Fractional odd, level 2: n = 3, long segment 1/2, short ones (1 - 1/2) / 2.
  std::vector<float> u = isoline_division(TessSpacing::FractionalOdd, 2.0f);
  ASSERT_EQ(u.size(), 4u);
  EXPECT_EQ(u[0], 0.0f);
  EXPECT_NEAR(u[1], 0.25f, 0x1p-22f);
  EXPECT_NEAR(u[2], 0.75f, 0x1p-22f);
  EXPECT_EQ(u[3], 1.0f);
  // Fractional even, level 3: n = 4, long segments 1/3, short ones 1/6.
  u = isoline_division(TessSpacing::FractionalEven, 3.0f);
  ASSERT_EQ(u.size(), 5u);
  EXPECT_NEAR(u[1], 1 / 6.0f, 0x1p-22f);
  EXPECT_EQ(u[2], 0.5f);
  EXPECT_NEAR(u[3], 5 / 6.0f, 0x1p-22f);
  // Whole levels of the right parity divide equally.
  u = isoline_division(TessSpacing::FractionalOdd, 5.0f);
  ASSERT_EQ(u.size(), 6u);
  for (int k = 0; k <= 5; ++k) EXPECT_NEAR(u[k], k / 5.0f, 0x1p-22f);
  // Every level: n + 1 points from exactly 0 to exactly 1, n - 2 equal segments, the two others
  // equal to each other, no longer, at the ends, and growing with the level for the same n.
  for (TessSpacing spacing : {TessSpacing::FractionalEven, TessSpacing::FractionalOdd}) {
    float last_short = -1.0f;
    uint32_t last_n = 0;
    for (float level = 1.0f; level <= 64.0f; level += 0.1f) {
      u = isoline_division(spacing, level);
      const uint32_t n = uint32_t(u.size() - 1);
      const std::string what = name(spacing) + " level " + std::to_string(level);
      ASSERT_GE(n, 1u) << what;
      EXPECT_EQ(u.front(), 0.0f) << what;
      EXPECT_EQ(u.back(), 1.0f) << what;
      EXPECT_EQ(n % 2, spacing == TessSpacing::FractionalEven ? 0u : 1u) << what;
      if (n < 3) continue;
      const float first = u[1] - u[0], last = u[n] - u[n - 1], middle = u[2] - u[1];
      EXPECT_NEAR(first, last, 1e-6f) << what;
      EXPECT_LE(first, middle + 1e-6f) << what;
      for (uint32_t k = 2; k < n; ++k) EXPECT_NEAR(u[k] - u[k - 1], middle, 1e-6f) << what << " segment " << k;
      if (n == last_n) {
        EXPECT_GE(first, last_short - 1e-6f) << what;
      }
      last_short = first, last_n = n;
    }
  }
}

TEST(Tessellator, LevelsAreClampedAndRoundedPerSpacing) {
  // Equal: [1, 64], rounded up. Fractional even: [2, 64] to even. Fractional odd: [1, 63] to odd.
  EXPECT_EQ(isoline_division(TessSpacing::Equal, 2.2f).size(), 4u);
  EXPECT_EQ(isoline_division(TessSpacing::Equal, 1000.0f).size(), 65u);
  EXPECT_EQ(isoline_division(TessSpacing::Equal, 0.3f).size(), 2u);
  EXPECT_EQ(isoline_division(TessSpacing::FractionalEven, 0.3f).size(), 3u);
  EXPECT_EQ(isoline_division(TessSpacing::FractionalEven, 2.01f).size(), 5u);
  EXPECT_EQ(isoline_division(TessSpacing::FractionalEven, 1000.0f).size(), 65u);
  EXPECT_EQ(isoline_division(TessSpacing::FractionalOdd, 1.0f).size(), 2u);
  EXPECT_EQ(isoline_division(TessSpacing::FractionalOdd, 1.5f).size(), 4u);
  EXPECT_EQ(isoline_division(TessSpacing::FractionalOdd, 1000.0f).size(), 64u);
  // A NaN inner level acts as the smallest one.
  Tessellation t;
  ASSERT_TRUE(tessellate(state(TessDomain::Quads), levels({1, 1, 1, 1}, {kNaN, kNaN}), t));
  EXPECT_EQ(t.point_count(), 4u);
}

TEST(Tessellator, PatchesWithAnOuterLevelAtOrBelowZeroOrNaNAreDiscarded) {
  Tessellation t;
  for (float bad : {0.0f, -1.0f, -0.0f, kNaN}) {
    for (int e = 0; e < 4; ++e) {
      TessLevels l = levels({4, 4, 4, 4}, {4, 4});
      l.outer[e] = bad;
      EXPECT_EQ(tessellate(state(TessDomain::Quads), l, t), false) << "quad outer " << e;
      EXPECT_EQ(t.point_count(), 0u);
      EXPECT_EQ(tessellate(state(TessDomain::Triangles), l, t), e == 3) << "triangle outer " << e;
      EXPECT_EQ(tessellate(state(TessDomain::Isolines), l, t), e >= 2) << "isoline outer " << e;
    }
    // Inner levels never discard.
    EXPECT_TRUE(tessellate(state(TessDomain::Quads), levels({4, 4, 4, 4}, {bad, bad}), t));
  }
}

// Point and primitive counts of the spec's construction (the CTS's reference counts).
TEST(Tessellator, CountsFollowTheConstruction) {
  const float some[] = {1, 2, 3, 4, 5, 7, 8, 16, 31, 64};
  for (TessSpacing spacing : {TessSpacing::Equal}) {
    for (float inner : some)
      for (float o0 : some)
        for (float o1 : {1.0f, 6.0f, 64.0f}) {
          const uint32_t n = uint32_t(inner), a = uint32_t(o0), b = uint32_t(o1);
          Tessellation t, p;
          ASSERT_TRUE(tessellate(state(TessDomain::Triangles, spacing), levels({o0, o1, o1}, {inner}), t));
          ASSERT_TRUE(tessellate(state(TessDomain::Triangles, spacing, true), levels({o0, o1, o1}, {inner}), p));
          const std::string what = "triangles inner " + std::to_string(n) + " outer " + std::to_string(a) + "," +
                                   std::to_string(b);
          uint32_t points = a + 2 * b, triangles = a + 2 * b;
          if (n == 1 && a == 1 && b == 1) {
            points = 3, triangles = 1;
          } else {
            const uint32_t inner_n = n == 1 ? 2 : n;
            for (uint32_t k = 1; 2 * k <= inner_n; ++k) {
              const uint32_t m = inner_n - 2 * k;
              points += m == 0 ? 1 : 3 * m;
              triangles += m == 1 ? 4 : 6 * m;
            }
          }
          EXPECT_EQ(p.point_count(), points) << what;
          EXPECT_EQ(p.primitive_count(), points) << what;
          EXPECT_EQ(t.primitive_count(), triangles) << what;
          // Quads with inner {inner, o1}.
          ASSERT_TRUE(tessellate(state(TessDomain::Quads, spacing), levels({o0, o1, o0, o1}, {inner, o1}), t));
          uint32_t i0 = n, i1 = b;
          if (n == 1 && a == 1 && b == 1) {
            EXPECT_EQ(t.primitive_count(), 2u);
            continue;
          }
          i0 = i0 == 1 ? 2 : i0, i1 = i1 == 1 ? 2 : i1;
          EXPECT_EQ(t.point_count(), 2 * a + 2 * b + (i0 - 1) * (i1 - 1)) << "quads " << what;
          EXPECT_EQ(t.primitive_count(), 2 * (i0 - 2) * (i1 - 2) + 2 * (i0 - 2) + 2 * (i1 - 2) + 2 * a + 2 * b)
              << "quads " << what;
        }
  }
  Tessellation t;
  ASSERT_TRUE(tessellate(state(TessDomain::Isolines, TessSpacing::Equal, true), levels({5, 7}), t));
  EXPECT_EQ(t.point_count(), 5u * 8u);
  EXPECT_EQ(t.primitive_count(), 5u * 8u);
}

// The work bound that cuts a draw's patches into batches: never below what tessellate() makes
// (points plus primitives), never far above it, 0 for discarded patches.
TEST(Tessellator, WorkBoundCoversWhatTessellationMakes) {
  const float some[] = {0.5f, 1, 1.5f, 2, 2.2f, 3, 4.9f, 7, 16, 31.5f, 63.9f, 64, 100};
  for (TessDomain domain : {TessDomain::Triangles, TessDomain::Quads, TessDomain::Isolines})
    for (TessSpacing spacing : {TessSpacing::Equal, TessSpacing::FractionalEven, TessSpacing::FractionalOdd})
      for (bool point_mode : {false, true})
        for (float inner : some)
          for (float outer : some)
            for (float other : {1.0f, 5.5f, 64.0f}) {
              const TessLevels l = levels({outer, other, outer, other}, {inner, other});
              const TessellatorState s = state(domain, spacing, point_mode);
              Tessellation t;
              ASSERT_TRUE(tessellate(s, l, t));
              const uint32_t made = t.point_count() + t.primitive_count(), bound = tessellation_work_bound(s, l);
              EXPECT_GE(bound, made) << int(domain) << " " << int(spacing) << " " << inner << " " << outer << " " << other;
              EXPECT_LE(bound, 2 * made + 16) << int(domain) << " " << int(spacing) << " " << inner << " " << outer;
            }
  EXPECT_EQ(tessellation_work_bound(state(TessDomain::Quads), levels({4, 0, 4, 4}, {4, 4})), 0u);
  EXPECT_EQ(tessellation_work_bound(state(TessDomain::Triangles), levels({4, 4, kNaN}, {4})), 0u);
}

// Every point on an outer edge has its mirror image on the same edge, exactly (1 - x computed
// in float equals the mirrored coordinate bit for bit), for every domain and spacing.
TEST(Tessellator, OuterEdgePointsAreExactlySymmetric) {
  for (TessSpacing spacing : kSpacings)
    for (float level : {1.0f, 1.2f, 2.3f, 3.8f, 7.0f, 10.2f, 24.7f, 63.0f, 64.0f}) {
      const std::string what = name(spacing) + " level " + std::to_string(level);
      Tessellation t;
      ASSERT_TRUE(tessellate(state(TessDomain::Triangles, spacing), levels({level, level, level}, {5.3f}), t));
      const std::multiset<Coord> tri = points_of(t);
      for (const auto& [u, v, w] : tri) {
        if (u == 0) {
          EXPECT_TRUE(tri.count({0.0f, w, v})) << what << " (0, " << v << ", " << w << ")";
        }
        if (v == 0) {
          EXPECT_TRUE(tri.count({w, 0.0f, u})) << what;
        }
        if (w == 0) {
          EXPECT_TRUE(tri.count({v, u, 0.0f})) << what;
        }
        if (u == 0 || v == 0 || w == 0) {
          EXPECT_EQ(u + v + w, 1.0f) << what;
        }
      }
      ASSERT_TRUE(tessellate(state(TessDomain::Quads, spacing), levels({level, level, level, level}, {3.3f, 9.1f}), t));
      const std::multiset<Coord> quad = points_of(t);
      for (const auto& [u, v, w] : quad) {
        if (u == 0 || u == 1) {
          EXPECT_TRUE(quad.count({u, 1.0f - v, 0.0f})) << what;
        }
        if (v == 0 || v == 1) {
          EXPECT_TRUE(quad.count({1.0f - u, v, 0.0f})) << what;
        }
      }
      ASSERT_TRUE(tessellate(state(TessDomain::Isolines, spacing), levels({level, level}), t));
      const std::multiset<Coord> lines = points_of(t);
      for (const auto& [u, v, w] : lines) EXPECT_TRUE(lines.count({1.0f - u, v, 0.0f})) << what;
    }
}

// Whether (x, y) is strictly inside the triangle (either orientation); `on_edge` when it lies on
// an edge line of a non-degenerate triangle (the caller then skips the sample).
bool strictly_inside(const double (&x)[3], const double (&y)[3], double px, double py, bool& on_edge) {
  double e[3];
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    e[i] = (x[j] - x[i]) * (py - y[i]) - (y[j] - y[i]) * (px - x[i]);
  }
  const double area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
  if (area == 0) return false;
  const double s = area > 0 ? 1 : -1;
  if (e[0] * s < 0 || e[1] * s < 0 || e[2] * s < 0) return false;
  if (e[0] == 0 || e[1] == 0 || e[2] == 0) return on_edge = true, false;
  return true;
}

// The triangles cover the domain (unit square, or the triangle u + v <= 1 in (u, v)) exactly
// once at a few thousand sample points, and every triangle has the orientation the winding asks.
void expect_covers_once(const TessellatorState& s, const TessLevels& l, const std::string& what) {
  Tessellation t;
  ASSERT_TRUE(tessellate(s, l, t)) << what;
  ASSERT_EQ(t.vertices_per_primitive, 3u);
  // ccw with the origin at the upper left is clockwise with v up: negative area in (u, v).
  const bool want_negative = s.counter_clockwise != s.origin_lower_left;
  std::vector<std::array<double, 6>> tris;
  for (uint32_t p = 0; p < t.primitive_count(); ++p) {
    const uint32_t* i = &t.indices[p * 3];
    std::array<double, 6> c{t.u[i[0]], t.u[i[1]], t.u[i[2]], t.v[i[0]], t.v[i[1]], t.v[i[2]]};
    const double area = (c[1] - c[0]) * (c[5] - c[3]) - (c[4] - c[3]) * (c[2] - c[0]);
    if (area != 0) {
      EXPECT_EQ(area < 0, want_negative) << what << " triangle " << p;
    }
    tris.push_back(c);
  }
  int checked = 0;
  for (int sy = 0; sy < 61; ++sy)
    for (int sx = 0; sx < 67; ++sx) {
      const double px = (sx + 0.3183) / 67.0, py = (sy + 0.5772) / 61.0;
      if (s.domain == TessDomain::Triangles && px + py >= 1.0) continue;
      int hits = 0;
      bool on_edge = false;
      for (const auto& c : tris) {
        const double x[3] = {c[0], c[1], c[2]}, y[3] = {c[3], c[4], c[5]};
        hits += strictly_inside(x, y, px, py, on_edge);
      }
      if (on_edge) continue;
      ++checked;
      EXPECT_EQ(hits, 1) << what << " at (" << px << ", " << py << ")";
      if (hits != 1) return;
    }
  EXPECT_GT(checked, 1000) << what;
}

TEST(Tessellator, TrianglesCoverTheDomainExactlyOnceInEitherWinding) {
  for (TessSpacing spacing : kSpacings)
    for (bool ccw : {true, false})
      for (bool lower_left : {false, true})
        for (const TessLevels& l : {levels({1, 1, 1}, {1}), levels({1, 2.5f, 7}, {1}), levels({3, 3, 3}, {2}),
                                    levels({5.5f, 1, 17}, {4.2f}), levels({64, 64, 64}, {64}), levels({1, 1, 1}, {9.7f}),
                                    levels({23, 2, 7}, {33.3f})}) {
          TessellatorState s = state(TessDomain::Triangles, spacing);
          s.counter_clockwise = ccw, s.origin_lower_left = lower_left;
          expect_covers_once(s, l,
                             "triangles " + name(spacing) + (ccw ? " ccw" : " cw") + (lower_left ? " lower-left" : "") +
                                 " inner " + std::to_string(l.inner[0]) + " outer " + std::to_string(l.outer[0]) +
                                 "," + std::to_string(l.outer[1]) + "," + std::to_string(l.outer[2]));
        }
}

TEST(Tessellator, QuadsCoverTheDomainExactlyOnceInEitherWinding) {
  for (TessSpacing spacing : kSpacings)
    for (bool ccw : {true, false})
      for (const TessLevels& l : {levels({1, 1, 1, 1}, {1, 1}), levels({1, 1, 1, 1}, {5, 1}), levels({2, 3, 4, 5}, {2, 2}),
                                  levels({7.5f, 1, 2.2f, 13}, {3.7f, 6.1f}), levels({64, 64, 64, 64}, {64, 64}),
                                  levels({1, 9, 1, 9}, {2, 17})}) {
        TessellatorState s = state(TessDomain::Quads, spacing);
        s.counter_clockwise = ccw;
        expect_covers_once(s, l, "quads " + name(spacing) + (ccw ? " ccw" : " cw") + " inner " +
                                     std::to_string(l.inner[0]) + "x" + std::to_string(l.inner[1]) + " outer " +
                                     std::to_string(l.outer[0]) + "," + std::to_string(l.outer[1]) + "," +
                                     std::to_string(l.outer[2]) + "," + std::to_string(l.outer[3]));
      }
}

// Inside the outermost ring, each cell of the quad grid is split along the diagonal that points at
// the patch centre, so every inner ring is mitred at its four corners (the CTS's
// misc_draw.fill_overlap_quads reference images colour the rings).
TEST(Tessellator, InnerQuadCellsAreSplitTowardsThePatchCentre) {
  for (TessSpacing spacing : kSpacings)
    for (const TessLevels& l : {levels({6, 6, 6, 6}, {6, 6}), levels({3, 8, 5, 2}, {7, 5}), levels({9, 9, 9, 9}, {9.5f, 12})}) {
      Tessellation t;
      ASSERT_TRUE(tessellate(state(TessDomain::Quads, spacing), l, t));
      const std::string what = name(spacing) + " inner " + std::to_string(l.inner[0]) + "x" + std::to_string(l.inner[1]);
      auto inside = [&](uint32_t i) { return t.u[i] > 0.0f && t.u[i] < 1.0f && t.v[i] > 0.0f && t.v[i] < 1.0f; };
      uint32_t checked = 0;
      for (uint32_t p = 0; p < t.primitive_count(); ++p) {
        const uint32_t* tri = &t.indices[p * 3];
        if (!inside(tri[0]) || !inside(tri[1]) || !inside(tri[2])) continue;  // the outer ring's stitching
        for (int e = 0; e < 3; ++e) {
          const uint32_t a = tri[e], b = tri[(e + 1) % 3];
          const float du = t.u[b] - t.u[a], dv = t.v[b] - t.v[a];
          if (du == 0.0f || dv == 0.0f) continue;  // a grid line, not the cell's diagonal
          const float centre_side = ((t.u[a] + t.u[b]) / 2 - 0.5f) * ((t.v[a] + t.v[b]) / 2 - 0.5f);
          if (centre_side == 0.0f) continue;  // a cell on a centre line: either diagonal points at it
          ++checked;
          EXPECT_EQ(du * dv > 0.0f, centre_side > 0.0f)
              << what << ": diagonal (" << t.u[a] << ", " << t.v[a] << ") - (" << t.u[b] << ", " << t.v[b] << ")";
        }
      }
      EXPECT_GE(checked, 8u) << what;
    }
}

// Two quad patches side by side share the edge x = x1; the second walks it the other way (its
// corners are listed rotated by 180 degrees) and has other inner levels and other outer levels on
// its other edges. An evaluation shader that interpolates the corners bilinearly with
// mix(a, b, t) = a * (1 - t) + b * t must place the shared edge's points bit for bit alike.
TEST(Tessellator, PatchesSharingAnEdgeGiveBitIdenticalPositionsAlongIt) {
  struct P {
    float x, y;
  };
  auto mix = [](float a, float b, float t) { return a * (1.0f - t) + b * t; };
  auto evaluate = [&](const P (&c)[4], float u, float v) {  // c: (0,0), (1,0), (1,1), (0,1) corners
    const float x = mix(mix(c[0].x, c[1].x, u), mix(c[3].x, c[2].x, u), v);
    const float y = mix(mix(c[0].y, c[1].y, u), mix(c[3].y, c[2].y, u), v);
    return std::pair<float, float>(x, y);
  };
  const float x0 = 0.1f, x1 = 0.73f, x2 = 1.37f, y0 = 0.21f, y1 = 0.97f;
  const P a[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};  // shared edge: a's u = 1 (outer 2)
  const P b[4] = {{x2, y1}, {x1, y1}, {x1, y0}, {x2, y0}};  // shared edge: b's u = 1, v reversed
  for (TessSpacing spacing : kSpacings)
    for (float shared : {1.0f, 3.0f, 4.7f, 11.3f, 37.9f, 64.0f}) {
      Tessellation ta, tb;
      ASSERT_TRUE(tessellate(state(TessDomain::Quads, spacing), levels({5, 2.5f, shared, 7}, {3.3f, 8}), ta));
      ASSERT_TRUE(tessellate(state(TessDomain::Quads, spacing), levels({19, 1, shared, 4.4f}, {13, 2.1f}), tb));
      std::set<std::pair<float, float>> edge_a, edge_b;
      for (uint32_t i = 0; i < ta.point_count(); ++i)
        if (ta.u[i] == 1.0f) edge_a.insert(evaluate(a, ta.u[i], ta.v[i]));
      for (uint32_t i = 0; i < tb.point_count(); ++i)
        if (tb.u[i] == 1.0f) edge_b.insert(evaluate(b, tb.u[i], tb.v[i]));
      const std::string what = name(spacing) + " shared level " + std::to_string(shared);
      EXPECT_GE(edge_a.size(), 2u) << what;
      EXPECT_EQ(edge_a, edge_b) << what;
      for (const auto& [x, y] : edge_a) EXPECT_NEAR(x, x1, 1e-6f) << what;
    }
}

}  // namespace
}  // namespace kiln::exec::gfx
