// The draw engine's geometry and rasterization (pipeline/draw.cpp, pipeline/graphics/*) with fake
// kernels: fill rule, clipping, culling, viewports/scissors, topologies, indices, points, lines,
// indirect draws and thread-count independence. Targets count coverage with additive blending
// into R32G32B32A32_SFLOAT, so every pixel says exactly how often it was drawn.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>

#include "draw_test_util.h"

namespace kiln::exec::test {
namespace {

constexpr VkFormat kCountFormat = VK_FORMAT_R32G32B32A32_SFLOAT;

// A colour target plus a draw that adds (1,1,1,1) per covered pixel.
struct CountingDraw {
  TestTarget target;
  DrawSetup d;
  explicit CountingDraw(uint32_t w = 16, uint32_t h = 16) : target(kCountFormat, w, h), d(&target.view, w, h) {
    d.blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE);
  }
  void tri(float x0, float y0, float x1, float y1, float x2, float y2) {
    const float w = float(target.image.desc.extent.width), h = float(target.image.desc.extent.height);
    d.add(x0, y0, kOne, 0.5f, 1.0f, w, h);
    d.add(x1, y1, kOne, 0.5f, 1.0f, w, h);
    d.add(x2, y2, kOne, 0.5f, 1.0f, w, h);
  }
  float count(uint32_t x, uint32_t y) { return target.color(x, y).float32[0]; }
};

TEST(DrawRaster, SharedEdgeCoversEachPixelOnce) {
  CountingDraw c;
  // A square with corners on pixel centres, split along its diagonal: every edge passes through
  // pixel centres, so only the top-left rule decides.
  c.tri(2.5f, 2.5f, 12.5f, 2.5f, 12.5f, 12.5f);
  c.tri(2.5f, 2.5f, 12.5f, 12.5f, 2.5f, 12.5f);
  c.d.draw(6);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) {
      const bool inside = x >= 2 && x < 12 && y >= 2 && y < 12;
      EXPECT_EQ(c.count(x, y), inside ? 1.0f : 0.0f) << x << "," << y;
    }
}

// Pixel centres strictly inside a convex polygon (given counter-clockwise or clockwise).
bool strictly_inside(const std::vector<std::pair<double, double>>& poly, double px, double py) {
  int sign = 0;
  for (size_t i = 0; i < poly.size(); ++i) {
    const auto& a = poly[i];
    const auto& b = poly[(i + 1) % poly.size()];
    const double e = (b.first - a.first) * (py - a.second) - (b.second - a.second) * (px - a.first);
    if (e == 0) return false;
    const int s = e > 0 ? 1 : -1;
    if (sign && s != sign) return false;
    sign = s;
  }
  return true;
}

TEST(DrawRaster, FanAroundAPointCoversEachPixelOnce) {
  CountingDraw c(32, 32);
  // Eight triangles around the pixel centre (16.5, 16.5), rims at sub-pixel positions that miss
  // pixel centres; the inner edges run through many pixel centres.
  const double cx = 16.5, cy = 16.5;
  std::vector<std::pair<double, double>> rim;
  for (int i = 0; i < 8; ++i) {
    const double a = i * M_PI / 4;
    rim.push_back({cx + 12.3 * std::cos(a) + 0.01, cy + 12.3 * std::sin(a) + 0.03});
  }
  // Inner edges through pixel centres exactly: replace even rim points by lattice-aligned ones.
  rim[0] = {cx + 12.0 + 0.1, cy + 0.2};  // inner edge nearly horizontal
  rim[2] = {cx, cy + 12.1};                // vertical inner edge through pixel centres
  rim[4] = {cx - 12.1, cy};                // horizontal inner edge through pixel centres
  rim[6] = {cx + 0.25, cy - 12.1};
  for (int i = 0; i < 8; ++i) {
    const auto& a = rim[i];
    const auto& b = rim[(i + 1) % 8];
    c.tri(float(cx), float(cy), float(a.first), float(a.second), float(b.first), float(b.second));
  }
  c.d.draw(24);
  int covered = 0;
  for (uint32_t y = 0; y < 32; ++y)
    for (uint32_t x = 0; x < 32; ++x) {
      const float n = c.count(x, y);
      ASSERT_TRUE(n == 0.0f || n == 1.0f) << x << "," << y << " drawn " << n << " times";
      if (strictly_inside(rim, x + 0.5, y + 0.5)) {
        EXPECT_EQ(n, 1.0f) << x << "," << y;
      }
      covered += int(n);
    }
  EXPECT_EQ(c.count(16, 16), 1.0f);  // the shared vertex's pixel
  EXPECT_GT(covered, 300);
}

TEST(DrawRaster, SingleTriangleMatchesReferenceCoverage) {
  // Random triangles against an exact reference on the snapped (1/256) vertex positions.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(-4.0f, 36.0f);
  for (int iter = 0; iter < 20; ++iter) {
    CountingDraw c(32, 32);
    float v[6];
    for (float& p : v) p = std::round(pos(rng) * 256) / 256;
    c.tri(v[0], v[1], v[2], v[3], v[4], v[5]);
    c.d.draw(3);
    // Reference: top-left rule with y down on the fixed-point positions.
    int64_t X[3], Y[3];
    for (int i = 0; i < 3; ++i) {
      X[i] = std::llround(double(v[2 * i]) * 256);
      Y[i] = std::llround(double(v[2 * i + 1]) * 256);
    }
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
    if (area < 0) { std::swap(X[1], X[2]); std::swap(Y[1], Y[2]); area = -area; }
    for (uint32_t y = 0; y < 32; ++y)
      for (uint32_t x = 0; x < 32; ++x) {
        bool in = area != 0;
        for (int e = 0; e < 3 && in; ++e) {
          const int64_t dx = X[(e + 1) % 3] - X[e], dy = Y[(e + 1) % 3] - Y[e];
          const int64_t E = dx * (int64_t(y) * 256 + 128 - Y[e]) - dy * (int64_t(x) * 256 + 128 - X[e]);
          const bool top_left = dy < 0 || (dy == 0 && dx > 0);
          in = E > 0 || (E == 0 && top_left);
        }
        ASSERT_EQ(c.count(x, y), in ? 1.0f : 0.0f) << "triangle " << iter << " pixel " << x << "," << y;
      }
  }
}

// A draw big enough to be fetched and assembled in parallel pieces (>= 2 * 65536 ids) gives every
// primitive exactly once: 50000 copies of two triangles, counted per pixel, on 1 and 2 threads.
TEST(DrawRaster, BigDrawsAssembledInPiecesDrawEveryPrimitiveOnce) {
  constexpr uint32_t kCopies = 50000;
  for (unsigned threads : {1u, 2u}) {
    CountingDraw c(8, 8);
    for (uint32_t i = 0; i < kCopies; ++i) {
      c.tri(1, 1, 5, 1, 1, 5);
      c.tri(4, 4, 7, 4, 4, 7);
    }
    c.d.draw(6 * kCopies, threads);
    CountingDraw one(8, 8);
    one.tri(1, 1, 5, 1, 1, 5);
    one.tri(4, 4, 7, 4, 4, 7);
    one.d.draw(6, threads);
    uint32_t covered = 0;
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < 8; ++x) {
        ASSERT_EQ(c.count(x, y), one.count(x, y) * float(kCopies)) << "pixel " << x << "," << y << ", " << threads << " threads";
        covered += one.count(x, y) != 0.0f;
      }
    EXPECT_GT(covered, 8u);
  }
}

// Two triangles covering the viewport with depth z = x_ndc (w = 1).
void depth_ramp_quad(DrawSetup& d) {
  Vertex quad[4] = {{{-1, -1, -1, 1}, {1, 1, 1, 1}}, {{1, -1, 1, 1}, {1, 1, 1, 1}}, {{1, 1, 1, 1}, {1, 1, 1, 1}},
                    {{-1, 1, -1, 1}, {1, 1, 1, 1}}};
  for (int i : {0, 1, 2, 0, 2, 3}) d.vertices.push_back(quad[i]);
}

TEST(DrawRaster, NearPlaneClipsAndDepthClampKeeps) {
  for (bool clamp : {false, true}) {
    CountingDraw c;
    c.d.state.rasterization.depth_clamp = clamp;
    c.d.state.rasterization.depth_clip = !clamp;
    depth_ramp_quad(c.d);
    c.d.draw(6);
    for (uint32_t y = 0; y < 16; ++y)
      for (uint32_t x = 0; x < 16; ++x) {
        // z = x_ndc: the near plane z = 0 is the framebuffer's x = 8.
        const bool drawn = clamp || x >= 8;
        EXPECT_EQ(c.count(x, y), drawn ? 1.0f : 0.0f) << "clamp " << clamp << " " << x << "," << y;
      }
  }
}

TEST(DrawRaster, HugeTriangleCoversTheViewportOnce) {
  CountingDraw c;
  c.tri(-1e6f, -1e6f, 3e6f, -1e6f, -1e6f, 3e6f);
  c.d.draw(3);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) EXPECT_EQ(c.count(x, y), 1.0f) << x << "," << y;
}

TEST(DrawRaster, TriangleWithVertexBehindTheEyeIsClippedCorrectly) {
  CountingDraw c(32, 32);
  // One vertex has w < 0: the visible part is an unbounded region ("external triangle").
  const Vertex v[3] = {{{-0.5f, -0.5f, 0.1f, 1}, {1, 1, 1, 1}},
                       {{0.5f, -0.3f, 0.1f, 1}, {1, 1, 1, 1}},
                       {{0.1f, 0.2f, -0.1f, -0.5f}, {1, 1, 1, 1}}};
  for (const Vertex& x : v) c.d.vertices.push_back(x);
  c.d.draw(3);
  int checked = 0;
  for (uint32_t y = 0; y < 32; ++y)
    for (uint32_t x = 0; x < 32; ++x) {
      // Reference: solve a*v0 + b*v1 + c*v2 (homogeneous xy) = (X, Y) * w with a + b + c = 1;
      // the pixel is drawn iff a, b, c >= 0 and w > 0 and 0 <= z <= w.
      const double X = (x + 0.5) / 16 - 1, Y = (y + 0.5) / 16 - 1;
      double m[3][4];
      for (int i = 0; i < 3; ++i) {
        m[0][i] = v[i].pos[0] - X * v[i].pos[3];
        m[1][i] = v[i].pos[1] - Y * v[i].pos[3];
        m[2][i] = 1;
      }
      m[0][3] = 0; m[1][3] = 0; m[2][3] = 1;
      // Cramer's rule.
      auto det3 = [&](int skip) {
        double c3[3][3];
        for (int r = 0; r < 3; ++r)
          for (int k = 0; k < 3; ++k) c3[r][k] = m[r][k == skip ? 3 : k];
        return c3[0][0] * (c3[1][1] * c3[2][2] - c3[1][2] * c3[2][1]) -
               c3[0][1] * (c3[1][0] * c3[2][2] - c3[1][2] * c3[2][0]) +
               c3[0][2] * (c3[1][0] * c3[2][1] - c3[1][1] * c3[2][0]);
      };
      const double D = det3(-1);
      const double a = det3(0) / D, b = det3(1) / D, cc = det3(2) / D;
      const double w = a * v[0].pos[3] + b * v[1].pos[3] + cc * v[2].pos[3];
      const double z = a * v[0].pos[2] + b * v[1].pos[2] + cc * v[2].pos[2];
      const double margin = std::min({a, b, cc, z, w - z});
      if (std::fabs(margin) < 2e-2) continue;  // too close to an edge to call
      const bool drawn = a >= 0 && b >= 0 && cc >= 0 && w > 0 && z >= 0 && z <= w;
      EXPECT_EQ(c.count(x, y), drawn ? 1.0f : 0.0f) << x << "," << y;
      ++checked;
    }
  EXPECT_GT(checked, 500);
}

TEST(DrawRaster, CullingAndFrontFace) {
  for (VkFrontFace front : {VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_FRONT_FACE_CLOCKWISE}) {
    for (VkCullModeFlags cull : {VK_CULL_MODE_NONE, VK_CULL_MODE_BACK_BIT, VK_CULL_MODE_FRONT_BIT,
                                 VK_CULL_MODE_FRONT_AND_BACK}) {
      TestTarget target(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
      DrawSetup d(&target.view);
      d.kernels.fragment = &fake_facing_kernel<8>;
      d.state.rasterization.front_face = front;
      d.state.rasterization.cull_mode = cull;
      // Left: clockwise on screen (y down); right: counter-clockwise on screen.
      d.add(1, 1, kWhite); d.add(7, 1, kWhite); d.add(1, 7, kWhite);
      d.add(9, 1, kWhite); d.add(9, 7, kWhite); d.add(15, 1, kWhite);
      d.draw(6);
      // Vulkan: a counter-clockwise triangle (positive area with y down) is front-facing for
      // VK_FRONT_FACE_COUNTER_CLOCKWISE; on screen with y down it looks clockwise.
      const bool left_front = front == VK_FRONT_FACE_CLOCKWISE;
      for (int side = 0; side < 2; ++side) {
        const bool is_front = side == 0 ? left_front : !left_front;
        const bool culled = (is_front && (cull & VK_CULL_MODE_FRONT_BIT)) || (!is_front && (cull & VK_CULL_MODE_BACK_BIT));
        const VkClearColorValue px = target.color(side == 0 ? 2 : 10, 2);
        if (culled) {
          EXPECT_EQ(px.float32[3], 0.0f) << "front " << front << " cull " << cull << " side " << side;
        } else {
          EXPECT_EQ(px.float32[0], is_front ? 1.0f : 0.0f) << "front " << front << " cull " << cull << " side " << side;
          EXPECT_EQ(px.float32[1], is_front ? 0.0f : 1.0f);
        }
      }
    }
  }
}

TEST(DrawRaster, ScissorAndRenderAreaLimitDrawing) {
  CountingDraw c;
  c.d.state.viewport.scissors[0] = {{4, 3}, {8, 20}};
  c.d.targets.render_area = {{0, 0}, {16, 12}};
  c.tri(-100, -100, 300, -100, -100, 300);
  c.d.draw(3);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x)
      EXPECT_EQ(c.count(x, y), (x >= 4 && x < 12 && y >= 3 && y < 12) ? 1.0f : 0.0f) << x << "," << y;
}

// Triangles are clipped to the view volume, whose x/y planes are the viewport's edges: a scissor
// larger than the viewport shows nothing of them outside it (clipping itself stops at a guard band).
TEST(DrawRaster, TrianglesStayInsideTheViewportUnderALargerScissor) {
  CountingDraw c;
  c.d.state.viewport.viewports[0] = {4, 2, 8, 8, 0, 1};
  c.tri(-100, -100, 300, -100, -100, 300);
  c.d.draw(3);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x)
      EXPECT_EQ(c.count(x, y), (x >= 4 && x < 12 && y >= 2 && y < 10) ? 1.0f : 0.0f) << x << "," << y;
}

TEST(DrawRaster, NegativeViewportHeightFlipsY) {
  for (bool flip : {false, true}) {
    CountingDraw c;
    if (flip) c.d.state.viewport.viewports[0] = {0, 16, 16, -16, 0, 1};
    // In NDC: the top-left quarter (y_ndc < 0).
    c.tri(0, 0, 8, 0, 0, 8);
    c.tri(8, 0, 8, 8, 0, 8);
    c.d.draw(6);
    for (uint32_t y = 0; y < 16; ++y)
      for (uint32_t x = 0; x < 16; ++x) {
        const bool in = x < 8 && (flip ? y >= 8 : y < 8);
        EXPECT_EQ(c.count(x, y), in ? 1.0f : 0.0f) << "flip " << flip << " " << x << "," << y;
      }
  }
}

TEST(DrawRaster, ViewportOffsetAndSize) {
  CountingDraw c;
  c.d.state.viewport.viewports[0] = {4, 2, 8, 8, 0, 1};
  c.tri(0, 0, 16, 0, 0, 16);  // NDC (-1,-1), (1,-1), (-1,1): half of the viewport
  c.tri(16, 0, 16, 16, 0, 16);
  c.d.draw(6);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x)
      EXPECT_EQ(c.count(x, y), (x >= 4 && x < 12 && y >= 2 && y < 10) ? 1.0f : 0.0f) << x << "," << y;
}

// A square from (2,2) to (12,12) as a strip, a fan, and indexed lists.
void square_vertices(DrawSetup& d) {
  d.add(2, 2, kOne); d.add(12, 2, kOne); d.add(2, 12, kOne); d.add(12, 12, kOne);
}
void expect_square(CountingDraw& c, float value = 1.0f) {
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x)
      EXPECT_EQ(c.count(x, y), (x >= 2 && x < 12 && y >= 2 && y < 12) ? value : 0.0f) << x << "," << y;
}

TEST(DrawRaster, TriangleStripKeepsWinding) {
  CountingDraw c;
  c.d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  c.d.state.rasterization.cull_mode = VK_CULL_MODE_FRONT_BIT;  // (2,2),(12,2),(2,12) is back-facing (CCW front)
  square_vertices(c.d);
  c.d.draw(4);
  expect_square(c);
}

TEST(DrawRaster, TriangleFan) {
  CountingDraw c;
  c.d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
  c.d.state.rasterization.cull_mode = VK_CULL_MODE_FRONT_BIT;
  c.d.add(2, 2, kOne); c.d.add(12, 2, kOne); c.d.add(12, 12, kOne); c.d.add(2, 12, kOne);
  c.d.draw(4);
  expect_square(c);
}

TEST(DrawRaster, IndexedDrawsWith8And16And32BitIndicesAndVertexOffset) {
  for (VkIndexType type : {VK_INDEX_TYPE_UINT8_EXT, VK_INDEX_TYPE_UINT16, VK_INDEX_TYPE_UINT32}) {
    CountingDraw c;
    c.d.add(0, 0, kOne);  // unused: vertexOffset 1 skips it
    square_vertices(c.d);
    const std::vector<uint32_t> list = {0, 1, 2, 2, 1, 3};
    if (type == VK_INDEX_TYPE_UINT8_EXT) c.d.set_indices(std::vector<uint8_t>(list.begin(), list.end()), type);
    if (type == VK_INDEX_TYPE_UINT16) c.d.set_indices(std::vector<uint16_t>(list.begin(), list.end()), type);
    if (type == VK_INDEX_TYPE_UINT32) c.d.set_indices(list, type);
    c.d.cmd.vertex_offset = 1;
    c.d.draw(6, 1, true);
    expect_square(c);
  }
}

TEST(DrawRaster, PrimitiveRestartSplitsStrips) {
  for (VkIndexType type : {VK_INDEX_TYPE_UINT16, VK_INDEX_TYPE_UINT32}) {
    CountingDraw c;
    c.d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    c.d.state.input_assembly.primitive_restart = true;
    // Left half and right half as two strips; without the restart the strip would bridge them.
    c.d.add(2, 2, kOne); c.d.add(7, 2, kOne); c.d.add(2, 12, kOne); c.d.add(7, 12, kOne);
    c.d.add(7, 2, kOne); c.d.add(12, 2, kOne); c.d.add(7, 12, kOne); c.d.add(12, 12, kOne);
    if (type == VK_INDEX_TYPE_UINT16) c.d.set_indices(std::vector<uint16_t>{0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7}, type);
    else c.d.set_indices(std::vector<uint32_t>{0, 1, 2, 3, 0xFFFFFFFF, 4, 5, 6, 7}, type);
    c.d.draw(9, 1, true);
    expect_square(c);
  }
}

TEST(DrawRaster, IndicesPastTheBufferReadZero) {
  CountingDraw c;
  square_vertices(c.d);
  c.d.set_indices(std::vector<uint16_t>{1, 2, 3}, VK_INDEX_TYPE_UINT16);
  // Six indices requested, three present: the second triangle is (0, 0, 0) and draws nothing.
  c.d.draw(6, 1, true);
  EXPECT_EQ(c.count(11, 11), 1.0f);  // first triangle (12,2),(2,12),(12,12)
  EXPECT_EQ(c.count(2, 2), 0.0f);
}

TEST(DrawRaster, InstancesAndFirstInstance) {
  CountingDraw c(32, 16);
  instance_shift = 1.0f;  // each instance moves 1 NDC unit = 16 pixels right
  c.tri(0, 0, 8, 0, 0, 8);
  c.d.cmd.instance_count = 2;
  c.d.draw(3);
  instance_shift = 0.0f;
  EXPECT_EQ(c.count(1, 1), 1.0f);
  EXPECT_EQ(c.count(17, 1), 1.0f);
}

TEST(DrawRaster, PointsHaveSizeAndPointCoord) {
  TestTarget target(kCountFormat, 16, 16);
  DrawSetup d(&target.view);
  d.kernels.fragment = &fake_point_coord_kernel<8>;
  d.kernels.vertex_outputs.point_size_slot = 2;
  d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  d.add(5.5f, 5.5f, kOne, 0.25f);
  d.vertices.back().point_size = 3.0f;
  d.add(12.5f, 12.5f, kOne, 0.75f);  // size 1
  d.draw(2);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) {
      const bool big = x >= 4 && x < 7 && y >= 4 && y < 7;
      const bool small = x == 12 && y == 12;
      const VkClearColorValue v = target.color(x, y);
      EXPECT_EQ(v.float32[3], big || small ? 1.0f : 0.0f) << x << "," << y;
      if (big) {
        EXPECT_FLOAT_EQ(v.float32[0], (x + 0.5f - 4.0f) / 3.0f);  // PointCoord origin: upper left
        EXPECT_FLOAT_EQ(v.float32[1], (y + 0.5f - 4.0f) / 3.0f);
        EXPECT_FLOAT_EQ(v.float32[2], 0.25f);
      }
      if (small) {
        EXPECT_FLOAT_EQ(v.float32[0], 0.5f);
      }
    }
}

TEST(DrawRaster, LinesCoverTheirPixels) {
  CountingDraw c;
  c.d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  // x-major: a parallelogram y in [5, 6] from x = 2 to 10; y-major: x in [12, 13], y from 3 to 11.
  c.d.add(2.0f, 5.5f, kOne); c.d.add(10.0f, 5.5f, kOne);
  c.d.add(12.5f, 3.0f, kOne); c.d.add(12.5f, 11.0f, kOne);
  c.d.draw(4);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) {
      const bool h = y == 5 && x >= 2 && x < 10;
      const bool v = x == 12 && y >= 3 && y < 11;
      EXPECT_EQ(c.count(x, y), h || v ? 1.0f : 0.0f) << x << "," << y;
    }
}

TEST(DrawRaster, WideLinesExtendAlongTheMinorAxis) {
  CountingDraw c;
  c.d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  c.d.state.rasterization.line_width = 3.0f;
  c.d.add(2.0f, 5.5f, kOne); c.d.add(10.0f, 6.5f, kOne);  // x-major: y extends by 1.5 each side
  c.d.draw(2);
  EXPECT_EQ(c.count(2, 4), 1.0f);
  EXPECT_EQ(c.count(2, 6), 1.0f);
  EXPECT_EQ(c.count(2, 7), 0.0f);
  EXPECT_EQ(c.count(9, 7), 1.0f);
  EXPECT_EQ(c.count(9, 4), 0.0f);
  EXPECT_EQ(c.count(10, 6), 0.0f);  // ends are minor-axis segments at x = 2 and x = 10
}

TEST(DrawRaster, PolygonModeLineDrawsEdges) {
  CountingDraw c;
  c.d.state.rasterization.polygon_mode = VK_POLYGON_MODE_LINE;
  c.tri(2.5f, 2.5f, 12.5f, 2.5f, 2.5f, 12.5f);
  c.d.draw(3);
  EXPECT_EQ(c.count(6, 2), 1.0f);   // top edge
  EXPECT_EQ(c.count(2, 6), 1.0f);   // left edge
  EXPECT_EQ(c.count(5, 5), 0.0f);   // interior
}

TEST(DrawRaster, IndirectDrawsWithCountBuffer) {
  for (bool indexed : {false, true}) {
    CountingDraw c;
    square_vertices(c.d);
    c.d.set_indices(std::vector<uint32_t>{0, 1, 2, 2, 1, 3}, VK_INDEX_TYPE_UINT32);
    // Record 0 draws the first triangle, record 1 the second, record 2 everything again.
    std::vector<uint8_t> records(3 * 32, 0);
    if (indexed) {
      const VkDrawIndexedIndirectCommand r[3] = {{3, 1, 0, 0, 0}, {3, 1, 3, 0, 0}, {6, 1, 0, 0, 0}};
      for (int i = 0; i < 3; ++i) memcpy(records.data() + 32 * i, &r[i], sizeof r[i]);
    } else {
      c.d.vertices = {c.d.vertices[0], c.d.vertices[1], c.d.vertices[2], c.d.vertices[2], c.d.vertices[1],
                      c.d.vertices[3]};
      const VkDrawIndirectCommand r[3] = {{3, 1, 0, 0}, {3, 1, 3, 0}, {6, 1, 0, 0}};
      for (int i = 0; i < 3; ++i) memcpy(records.data() + 32 * i, &r[i], sizeof r[i]);
    }
    mem::Buffer indirect{records.size(), 0, 0, records.data()};
    uint32_t count_value = 2;
    mem::Buffer count{4, 0, 0, reinterpret_cast<uint8_t*>(&count_value)};
    c.d.cmd.indirect_buffer = &indirect;
    c.d.cmd.stride = 32;
    c.d.cmd.draw_count = 3;
    c.d.cmd.count_buffer = &count;  // min(2, 3) records
    c.d.draw(0, 1, indexed);
    expect_square(c);
  }
}

TEST(DrawRaster, ImagesAreIdenticalForAnyThreadCount) {
  // Many overlapping blended triangles: order-dependent results that must not depend on threads.
  auto render = [](unsigned threads) {
    auto t = std::make_unique<TestTarget>(VK_FORMAT_R8G8B8A8_UNORM, 200, 150);
    DrawSetup d(&t->view, 200, 150);
    d.blend(VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> px(-20, 220), col(0, 1);
    for (int i = 0; i < 3000; ++i) {
      const float color[4] = {col(rng), col(rng), col(rng), col(rng)};
      const float x = px(rng), y = px(rng) * 0.75f;
      for (int k = 0; k < 3; ++k) d.add(x + px(rng) * 0.2f, y + px(rng) * 0.15f, color, 0.5f, 1.0f, 200, 150);
    }
    d.draw(uint32_t(d.vertices.size()), threads);
    return t;
  };
  auto a = render(1), b = render(2);
  EXPECT_EQ(a->storage, b->storage);
  // Something was drawn: the triangles cover most of the target.
  EXPECT_LT(std::count(a->storage.begin(), a->storage.end(), uint8_t{0}), std::ptrdiff_t(a->storage.size() / 2));
}

}  // namespace
}  // namespace kiln::exec::test
