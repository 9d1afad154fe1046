// VK_EXT_line_rasterization beyond rectangular lines: Bresenham lines (the spec's diamond-exit
// rule, wide lines replicated along the minor axis), smooth lines (coverage into alpha) and line
// stipple (static and vkCmdSetLineStippleEXT, lists and strips). Every pixel is compared with a
// CPU reference written from the spec's text (independently of Kiln's line_raster.cpp); the same
// tests pass on lavapipe, which is held to the exact rule except where it is known to differ.
// Line ends are on a 1/16-pixel grid, exact in every driver's fixed point.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 64;

float clip(float pixel) { return pixel / (kSize / 2.0f) - 1.0f; }

struct Point {
  double x, y;
};
struct Segment {
  Point a, b;
};

// ---- The CPU reference (Vulkan spec, "Bresenham Line Segment Rasterization") ----

// The spec perturbs both ends by (-eps, -eps^2). Ends on a 1/16 grid in a 64-pixel target put
// every distinct crossing at least 1/(16 * 1024) apart, far more than eps; eps^2 still far above
// double rounding at these magnitudes.
constexpr double kEps = 1e-6;

double diamond_distance(Point p, double cx, double cy) { return std::fabs(p.x - cx) + std::fabs(p.y - cy); }

// Whether the segment a -> b meets the open diamond |x - cx| + |y - cy| < 1/2: the distance is
// convex and piecewise linear along the segment, smallest at an end or where x = cx or y = cy.
bool segment_meets_diamond(Point a, Point b, double cx, double cy) {
  double m = std::min(diamond_distance(a, cx, cy), diamond_distance(b, cx, cy));
  if ((a.x - cx) * (b.x - cx) < 0) {
    const double t = (cx - a.x) / (b.x - a.x);
    m = std::min(m, diamond_distance({cx, a.y + t * (b.y - a.y)}, cx, cy));
  }
  if ((a.y - cy) * (b.y - cy) < 0) {
    const double t = (cy - a.y) / (b.y - a.y);
    m = std::min(m, diamond_distance({a.x + t * (b.x - a.x), cy}, cx, cy));
  }
  return m < 0.5;
}

struct Fragment {
  int32_t x, y;
};

// The fragments of one Bresenham line of width `width`, in order from a to b along the major
// axis (each of the `width` replicated fragments of a step share its index in `step`).
// `sign_x`/`sign_y` flip the perturbation (the spec's is +1, +1), to find pixels decided by a tie.
std::vector<Fragment> bresenham_reference(const Segment& s, float width, std::vector<int>* step = nullptr,
                                         int sign_x = 1, int sign_y = 1) {
  const int w = std::max(1, int(std::floor(width + 0.5f)));
  const bool x_major = std::fabs(s.b.x - s.a.x) >= std::fabs(s.b.y - s.a.y);
  // Wide lines: the segment moves by -(w-1)/2 along the minor axis, fragments repeat w times.
  const double shift = -(w - 1) / 2.0;
  Point a = s.a, b = s.b;
  (x_major ? a.y : a.x) += shift;
  (x_major ? b.y : b.x) += shift;
  const Point pa{a.x - sign_x * kEps, a.y - sign_y * kEps * kEps}, pb{b.x - sign_x * kEps, b.y - sign_y * kEps * kEps};
  std::vector<Fragment> thin;
  for (int32_t y = -2; y < int32_t(kSize) + 2; ++y)
    for (int32_t x = -2; x < int32_t(kSize) + 2; ++x) {
      const double cx = x + 0.5, cy = y + 0.5;
      if (segment_meets_diamond(pa, pb, cx, cy) && !(diamond_distance(pb, cx, cy) < 0.5)) thin.push_back({x, y});
    }
  // Order along the direction of travel.
  const double dx = b.x - a.x, dy = b.y - a.y;
  std::sort(thin.begin(), thin.end(), [&](const Fragment& p, const Fragment& q) {
    return x_major ? (p.x - q.x) * dx < 0 : (p.y - q.y) * dy < 0;
  });
  std::vector<Fragment> out;
  for (size_t i = 0; i < thin.size(); ++i)
    for (int k = 0; k < w; ++k) {
      out.push_back(x_major ? Fragment{thin[i].x, thin[i].y + k} : Fragment{thin[i].x + k, thin[i].y});
      if (step) step->push_back(int(i));
    }
  return out;
}

// Pixels of the line that an end or crossing exactly on a diamond's or pixel's boundary decides:
// they change when the perturbation changes direction. Lavapipe breaks some of these ties
// differently from the spec's perturbation (the CTS allows fragments to move by one pixel), so
// only Kiln is held to them.
std::vector<bool> tie_pixels(const Segment& s, float width) {
  std::vector<bool> spec(kSize * kSize), tie(kSize * kSize);
  auto mark = [](std::vector<bool>& map, const std::vector<Fragment>& fragments) {
    for (const Fragment& f : fragments)
      if (f.x >= 0 && f.y >= 0 && f.x < int32_t(kSize) && f.y < int32_t(kSize)) map[size_t(f.y) * kSize + f.x] = true;
  };
  mark(spec, bresenham_reference(s, width));
  for (const auto& [sx, sy] : {std::pair{-1, -1}, std::pair{1, -1}, std::pair{-1, 1}}) {
    std::vector<bool> other(kSize * kSize);
    mark(other, bresenham_reference(s, width, nullptr, sx, sy));
    for (size_t i = 0; i < tie.size(); ++i) tie[i] = tie[i] || other[i] != spec[i];
  }
  return tie;
}

// Marks the pixels within one step of either end of the segment along its major axis.
void mark_ends(const Segment& s, std::vector<bool>& map) {
  const bool x_major = std::fabs(s.b.x - s.a.x) >= std::fabs(s.b.y - s.a.y);
  for (const Point& end : {s.a, s.b}) {
    const int32_t e = int32_t(std::floor(x_major ? end.x : end.y));
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x)
        if (std::abs(int32_t(x_major ? x : y) - e) <= 1) map[size_t(y) * kSize + x] = true;
  }
}

bool stipple_passes(int counter, uint32_t factor, uint16_t pattern) {
  return (pattern >> ((uint32_t(counter) / factor) % 16)) & 1u;
}

// ---- Drawing ----

struct LineDraw {
  std::vector<Point> vertices;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  VkLineRasterizationModeEXT mode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
  float width = 1.0f;
  bool stipple = false, dynamic_stipple = false;
  uint32_t factor = 1;
  uint16_t pattern = 0xFFFF;
};

std::vector<Segment> segments_of(const LineDraw& d) {
  std::vector<Segment> out;
  if (d.topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP) {
    for (size_t i = 0; i + 1 < d.vertices.size(); ++i) out.push_back({d.vertices[i], d.vertices[i + 1]});
  } else {
    for (size_t i = 0; i + 1 < d.vertices.size(); i += 2) out.push_back({d.vertices[i], d.vertices[i + 1]});
  }
  return out;
}

class LineRasterizationTest : public VulkanTest {
 protected:
  // A device with VK_EXT_line_rasterization and the features the draw needs (skips elsewhere,
  // fails on Kiln when they are missing).
  TestDevice* line_device(const LineDraw& d) {
    VkPhysicalDeviceLineRasterizationFeaturesEXT f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
    const bool has = query_extension_features(physical_device(), VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME, f);
    const bool bresenham = d.mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
    const bool smooth = d.mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
    VkBool32 mode_ok = bresenham ? f.bresenhamLines : smooth ? f.smoothLines : f.rectangularLines;
    VkBool32 stipple_ok = !d.stipple || (bresenham ? f.stippledBresenhamLines
                                         : smooth  ? f.stippledSmoothLines
                                                   : f.stippledRectangularLines);
    const bool wide_ok = d.width == 1.0f || features().core.features.wideLines;
    if (!(has && mode_ok && stipple_ok && wide_ok)) {
      if (is_kiln()) ADD_FAILURE() << "Kiln must support these lines";
      return nullptr;
    }
    VkPhysicalDeviceLineRasterizationFeaturesEXT want{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
    (bresenham ? want.bresenhamLines : smooth ? want.smoothLines : want.rectangularLines) = VK_TRUE;
    if (d.stipple)
      (bresenham ? want.stippledBresenhamLines : smooth ? want.stippledSmoothLines : want.stippledRectangularLines) =
          VK_TRUE;
    features_ = std::make_unique<DeviceFeatures>();
    features_->core.features.wideLines = d.width != 1.0f;
    features_->v13.pNext = &want;
    return create_device(*features_, {VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME});
  }

  // Draws `d` in opaque white over transparent black; returns the RGBA8 pixels (empty when unsupported).
  std::vector<uint8_t> draw_rgba(const LineDraw& d) {
    TestDevice* device = line_device(d);
    if (!device) return {};
    std::vector<ColoredVertex> vertices;
    for (const Point& p : d.vertices) vertices.push_back({clip(float(p.x)), clip(float(p.y)), 0.5f, 1, 1, 1, 1});
    Buffer vb = vertex_buffer(*device, vertices);
    DrawJobOptions o = colored_options();
    o.topology = d.topology;
    o.line_mode = d.mode;
    o.line_width = d.width;
    o.line_stipple = d.stipple;
    o.line_stipple_factor = d.dynamic_stipple ? 7 : d.factor;  // dynamic: the pipeline's values are ignored
    o.line_stipple_pattern = d.dynamic_stipple ? 0x1234 : d.pattern;
    if (d.dynamic_stipple) o.dynamic_states = {VK_DYNAMIC_STATE_LINE_STIPPLE_EXT};
    DrawJob job(*device, o);
    EXPECT_EQ(job.pipeline_result(), VK_SUCCESS);
    if (job.pipeline_result() != VK_SUCCESS) return {};
    auto set_stipple = reinterpret_cast<PFN_vkCmdSetLineStippleEXT>(
        vkGetDeviceProcAddr(device->handle(), "vkCmdSetLineStippleEXT"));
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      if (d.dynamic_stipple) set_stipple(cb, d.factor, d.pattern);
      vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
    });
    return job.read_color();
  }

  // Draws `d`; returns whether each pixel is white (empty when unsupported).
  std::vector<bool> draw(const LineDraw& d) {
    const std::vector<uint8_t> pixels = draw_rgba(d);
    if (pixels.empty()) return {};
    std::vector<bool> white(kSize * kSize);
    for (size_t i = 0; i < white.size(); ++i) {
      EXPECT_TRUE(pixels[i * 4] == 0 || pixels[i * 4] == 255) << "pixel " << i << " is neither black nor white";
      white[i] = pixels[i * 4] == 255;
    }
    return white;
  }

  // Draws Bresenham lines and compares every pixel with the reference (stipple included).
  void check_bresenham(const LineDraw& d) {
    const std::vector<bool> got = draw(d);
    if (got.empty()) return;
    std::vector<bool> want(kSize * kSize), unchecked(kSize * kSize);
    int counter = 0;
    for (const Segment& s : segments_of(d)) {
      const std::vector<bool> ties = tie_pixels(s, d.width);
      if (d.stipple) {
        // A tie at a stippled line's start would shift every later stipple bit on lavapipe.
        EXPECT_EQ(std::count(ties.begin(), ties.end(), true), 0) << "stipple test lines must not hit ties";
      } else if (!is_kiln()) {
        for (size_t i = 0; i < ties.size(); ++i) unchecked[i] = unchecked[i] || ties[i];
        // Lavapipe decides a wide line's end fragments on the unmoved segment.
        if (d.width > 1.0f) mark_ends(s, unchecked);
      }
      if (d.topology != VK_PRIMITIVE_TOPOLOGY_LINE_STRIP) counter = 0;  // lists restart the counter per segment
      std::vector<int> step;
      const std::vector<Fragment> fragments = bresenham_reference(s, d.width, &step);
      for (size_t i = 0; i < fragments.size(); ++i) {
        const Fragment& f = fragments[i];
        if (f.x < 0 || f.y < 0 || f.x >= int32_t(kSize) || f.y >= int32_t(kSize)) continue;
        const size_t pixel = size_t(f.y) * kSize + f.x;
        if (d.stipple) {
          const int c = counter + step[i];
          // Lavapipe cuts a stippled line into pieces in floating point, so the fragments next to
          // an on/off change may move by one (the CTS allows it); Kiln is held to the exact count.
          if (!is_kiln() && (stipple_passes(c - 1, d.factor, d.pattern) != stipple_passes(c, d.factor, d.pattern) ||
                             stipple_passes(c + 1, d.factor, d.pattern) != stipple_passes(c, d.factor, d.pattern)))
            unchecked[pixel] = true;
          if (!stipple_passes(c, d.factor, d.pattern)) continue;
        }
        want[pixel] = true;
      }
      counter += step.empty() ? 0 : step.back() + 1;
    }
    compare(got, want, unchecked);
  }

  void compare(const std::vector<bool>& got, const std::vector<bool>& want, const std::vector<bool>& unchecked) {
    PixelCheck check(kSize, kSize);
    uint32_t lit = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      lit += want[i];
      if (!unchecked.empty() && unchecked[i]) continue;
      check.expect_eq(i, int(got[i]), int(want[i]), "white");
    }
    EXPECT_GT(lit, 20u);  // the scene draws something
  }

  std::unique_ptr<DeviceFeatures> features_;
};

// Lines in every octant, one per 16x16 cell: ends on pixel centres, on pixel corners and edges,
// at fractions, slopes of exactly +-1, horizontal, vertical and shorter than a pixel.
std::vector<Point> test_lines() {
  const double ends[16][4] = {
      {2.5, 2.5, 13.5, 7.5},        {13.5, 3.5, 2.5, 12.5},      {3.5, 1.5, 9.5, 14.5},      {11.0, 14.0, 4.0, 1.0},
      {1.25, 8.0625, 14.75, 8.0625}, {8.5, 1.0, 8.5, 14.0},      {2.0, 2.0, 14.0, 14.0},     {14.0, 2.0, 2.0, 14.0},
      {2.6875, 5.3125, 13.1875, 10.9375}, {12.8125, 2.1875, 3.0625, 13.5625}, {5.5, 5.5, 6.25, 5.75},
      {9.75, 9.25, 9.0, 8.125},     {1.9375, 13.4375, 14.5625, 1.3125}, {7.0, 3.5, 7.75, 12.5}, {3.125, 6.5, 12.875, 6.5},
      {0.5, 0.5, 15.5, 4.5}};
  std::vector<Point> out;
  for (int i = 0; i < 16; ++i) {
    const double ox = (i % 4) * 16.0, oy = (i / 4) * 16.0;
    out.push_back({ox + ends[i][0], oy + ends[i][1]});
    out.push_back({ox + ends[i][2], oy + ends[i][3]});
  }
  return out;
}

TEST_F(LineRasterizationTest, BresenhamLinesFollowTheDiamondExitRule) {
  LineDraw d;
  d.vertices = test_lines();
  check_bresenham(d);
}

// Wide Bresenham lines: the segment moved by -(w-1)/2 along the minor axis, each fragment a
// column (x-major) or row (y-major) of w fragments.
TEST_F(LineRasterizationTest, WideBresenhamLinesReplicateAlongTheMinorAxis) {
  for (const float width : {2.0f, 3.0f}) {
    SCOPED_TRACE("width " + std::to_string(width));
    LineDraw d;
    d.vertices = test_lines();
    d.width = width;
    check_bresenham(d);
  }
}

// Stippled Bresenham lines: the counter counts fragments (steps along the major axis) from each
// segment's start; a list restarts it per segment, a strip carries it on.
TEST_F(LineRasterizationTest, StippledBresenhamLinesCountFragments) {
  struct Case {
    VkPrimitiveTopology topology;
    uint32_t factor;
    uint16_t pattern;
    float width;
    bool dynamic;
  };
  const Case cases[] = {{VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 1, 0x5555, 1.0f, false},
                        {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 3, 0x0F0F, 1.0f, true},
                        {VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 2, 0x3C3C, 1.0f, false},
                        {VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 1, 0xE4A1, 3.0f, true}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ? "strip" : "list") + " factor " +
                 std::to_string(c.factor) + (c.dynamic ? " dynamic" : " static"));
    LineDraw d;
    d.topology = c.topology;
    if (c.topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP)
      // Whole-pixel steps along each segment's major axis, so each segment makes exactly that many
      // fragments (drivers that count the stipple along the major axis agree).
      d.vertices = {{3.3125, 4.5625}, {60.3125, 10.5625}, {50.3125, 58.5625}, {6.3125, 40.5625}, {30.3125, 30.5625}};
    else
      d.vertices = {{3.3125, 4.5625}, {60.125, 10.6875}, {50.5625, 20.3125},
                    {45.4375, 60.5625}, {6.0625, 40.1875}, {30.6875, 33.3125}};
    d.width = c.width;
    d.stipple = true;
    d.dynamic_stipple = c.dynamic;
    d.factor = c.factor;
    d.pattern = c.pattern;
    check_bresenham(d);
  }
}

// Stippled rectangular lines: the counter is the distance along the line (1 per pixel of
// length) from the segment's start, carried on along a strip. Segment lengths are whole pixels so
// carrying the fraction or not (both allowed) gives the same result. Pixels whose centre is within
// 0.02 pixel of the rectangle's edge or of a stipple step are not checked.
TEST_F(LineRasterizationTest, StippledRectangularLinesStippleAlongTheLength) {
  for (const VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
    SCOPED_TRACE(topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ? "strip" : "list");
    LineDraw d;
    d.topology = topology;
    d.mode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
    d.width = 3.0f;
    d.stipple = true;
    d.factor = 2;
    d.pattern = 0x3C3C;
    // Lengths 50, 25 (a 3-4-5 triangle scaled by 5), 40, 30.
    d.vertices = topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP
                     ? std::vector<Point>{{5.25, 6.5}, {55.25, 6.5}, {40.25, 26.5}, {40.25, 58.5}, {10.25, 58.5}}
                     : std::vector<Point>{{5.25, 6.5}, {55.25, 6.5}, {55.25, 16.5}, {40.25, 36.5}, {32.25, 20.5}, {32.25, 60.5}};
    const std::vector<bool> got = draw(d);
    if (got.empty()) continue;
    std::vector<bool> want(kSize * kSize), unchecked(kSize * kSize);
    double counter = 0;
    for (const Segment& s : segments_of(d)) {
      if (topology != VK_PRIMITIVE_TOPOLOGY_LINE_STRIP) counter = 0;
      const double dx = s.b.x - s.a.x, dy = s.b.y - s.a.y, length = std::sqrt(dx * dx + dy * dy);
      for (uint32_t y = 0; y < kSize; ++y)
        for (uint32_t x = 0; x < kSize; ++x) {
          const double px = x + 0.5 - s.a.x, py = y + 0.5 - s.a.y;
          const double along = (px * dx + py * dy) / length, across = (px * -dy + py * dx) / length;
          const double margin = std::min({along, length - along, d.width / 2 - std::fabs(across)});
          const size_t i = size_t(y) * kSize + x;
          if (std::fabs(margin) < 0.02) unchecked[i] = true;
          if (margin <= 0) continue;
          const double s_value = counter + along;
          if (std::fabs(s_value - std::round(s_value)) < 0.02) unchecked[i] = true;
          if (stipple_passes(int(std::floor(s_value)), d.factor, d.pattern)) want[i] = true;
        }
      counter += length;
    }
    compare(got, want, unchecked);
  }
}

// Smooth lines: the rectangle of a rectangular line, each pixel's alpha scaled by how much of it
// the rectangle covers (the spec leaves the exact coverage to the implementation). The reference
// is the area of pixel ∩ rectangle (and, stippled, ∩ the "on" steps along the line) from a 32x32
// grid per pixel; alpha must be within 0.2 of it. Pixels the rectangle misses by more than a
// pixel must stay untouched, pixels it mostly covers must be drawn white. Pixels near two segments
// of the strip (its joins) are not compared.
TEST_F(LineRasterizationTest, SmoothLinesScaleAlphaByCoverage) {
  struct Case {
    float width;
    bool stipple;
    std::vector<Point> strip;
  };
  const Case cases[] = {{1.0f, false, {{4.25, 6.5}, {59.5, 30.25}}},
                        {3.0f, false, {{10.125, 58.0}, {30.0, 4.375}, {57.75, 50.5}}},
                        {2.0f, true, {{5.0, 40.5}, {55.0, 40.5}, {55.0, 10.5}}}};
  for (const Case& c : cases) {
    SCOPED_TRACE("width " + std::to_string(c.width) + (c.stipple ? " stippled" : ""));
    LineDraw d;
    d.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    d.mode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
    d.width = c.width;
    d.vertices = c.strip;
    d.stipple = c.stipple;
    d.factor = 4;
    d.pattern = 0x00FF;  // 32 pixels on, 32 off
    const std::vector<uint8_t> pixels = draw_rgba(d);
    if (pixels.empty()) continue;
    const std::vector<Segment> segments = segments_of(d);
    constexpr int kGrid = 32;
    PixelCheck check(kSize, kSize);
    uint32_t partial = 0;
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        double area = 0, distance = 1e9;
        double counter = 0;
        int near_segments = 0;
        for (const Segment& s : segments) {
          const double dx = s.b.x - s.a.x, dy = s.b.y - s.a.y, length = std::sqrt(dx * dx + dy * dy);
          int inside = 0;
          double segment_distance = 1e9;
          for (int j = 0; j < kGrid; ++j)
            for (int i = 0; i < kGrid; ++i) {
              const double px = x + (i + 0.5) / kGrid - s.a.x, py = y + (j + 0.5) / kGrid - s.a.y;
              const double along = (px * dx + py * dy) / length, across = (py * dx - px * dy) / length;
              const double outside = std::max({-along, along - length, std::fabs(across) - d.width / 2});
              segment_distance = std::min(segment_distance, outside);
              distance = std::min(distance, outside);
              if (outside > 0) continue;
              if (d.stipple && !stipple_passes(int(std::floor(counter + along)), d.factor, d.pattern)) continue;
              ++inside;
            }
          area = std::max(area, double(inside) / (kGrid * kGrid));
          near_segments += segment_distance <= 1.0;
          counter += length;
        }
        const size_t p = size_t(y) * kSize + x;
        const int alpha = pixels[p * 4 + 3];
        if (distance > 1.0) {
          check.expect_eq(p, alpha, 0, "alpha far from the line");
          check.expect_eq(p, int{pixels[p * 4]}, 0, "red far from the line");
          continue;
        }
        if (near_segments > 1) continue;  // a join: which segment's alpha stands is up to the order
        check.expect_near(p, alpha / 255.0f, float(area), 0.2f, "alpha");
        if (area > 0.5) check.expect_eq(p, int{pixels[p * 4]}, 255, "red where mostly covered");
        partial += area > 0.1 && area < 0.9;
      }
    EXPECT_GT(partial, 10u);  // the test sees edges, not only full pixels
  }
}

}  // namespace
}  // namespace kiln::test
