// Bresenham, smooth and stippled lines through the whole draw engine (pipeline/graphics/
// line_raster.*) with a counting target (additive blending into R32G32B32A32_SFLOAT): the two
// triangles of a line must produce each of its fragments exactly once, and must bound every pixel
// the per-pixel rule can produce. The e2e tests (LineRasterizationTest.*) check the rule itself
// against an independent reference; these check the plumbing around it.
#include <cmath>
#include <random>

#include "draw_test_util.h"
#include "pipeline/graphics/line_raster.h"

namespace kiln::exec::test {
namespace {

constexpr uint32_t kSize = 64;

struct LineCount {
  TestTarget target{VK_FORMAT_R32G32B32A32_SFLOAT, kSize, kSize};
  DrawSetup d{&target.view, kSize, kSize};
  explicit LineCount(VkLineRasterizationModeEXT mode, float width) {
    d.blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE);
    d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    d.state.rasterization.line_mode = mode;
    d.state.rasterization.line_width = width;
  }
  void line(float x0, float y0, float x1, float y1) {
    d.add(x0, y0, kOne, 0.5f, 1.0f, kSize, kSize);
    d.add(x1, y1, kOne, 0.5f, 1.0f, kSize, kSize);
  }
  float count(uint32_t x, uint32_t y) { return target.color(x, y).float32[0]; }
};

// The fragments line_raster.cpp's rule gives a line (its own functions: this test is about the
// triangles around it). Ends are on the 1/256 grid, so fixed point holds them exactly.
bool rule_produces(float x0, float y0, float x1, float y1, float width, int32_t x, int32_t y) {
  gfx::LineRaster l;
  l.bresenham = true;
  const int64_t ax = std::llround(x0 * 256), ay = std::llround(y0 * 256);
  const int64_t bx = std::llround(x1 * 256), by = std::llround(y1 * 256);
  l.x_major = std::llabs(bx - ax) >= std::llabs(by - ay);
  l.width = std::max(1, int32_t(std::floor(width + 0.5f)));
  const int64_t offset = -int64_t(l.width - 1) * 256 / 2;
  l.ax = ax + (l.x_major ? 0 : offset), l.ay = ay + (l.x_major ? offset : 0);
  l.bx = bx + (l.x_major ? 0 : offset), l.by = by + (l.x_major ? offset : 0);
  gfx::finish_bresenham_line(l);
  const int32_t major = l.x_major ? x : y, minor = l.x_major ? y : x;
  const int32_t along = (major - l.first_major) * l.major_step;
  if (along < 0 || along > (l.last_major - l.first_major) * l.major_step) return false;
  int32_t thin = 0;
  return gfx::bresenham_thin_minor(l, major, &thin) && minor >= thin && minor < thin + l.width;
}

TEST(LineRaster, BresenhamTrianglesProduceEveryFragmentOnce) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> coord(8 * 16, 56 * 16);  // 1/16-pixel grid inside the target
  for (int i = 0; i < 40; ++i) {
    const float width = float(1 + i % 4);
    const float x0 = coord(rng) / 16.0f, y0 = coord(rng) / 16.0f, x1 = coord(rng) / 16.0f, y1 = coord(rng) / 16.0f;
    SCOPED_TRACE(testing::Message() << "line (" << x0 << ", " << y0 << ") -> (" << x1 << ", " << y1 << ") width "
                                    << width);
    LineCount c(VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, width);
    c.line(x0, y0, x1, y1);
    c.d.draw(2);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x)
        ASSERT_EQ(c.count(x, y), rule_produces(x0, y0, x1, y1, width, int32_t(x), int32_t(y)) ? 1.0f : 0.0f)
            << "pixel " << x << ", " << y;
  }
}

// Smooth lines: every pixel the rectangle touches is one fragment (alpha carries the coverage,
// the additive red channel counts fragments), none twice, none far away.
TEST(LineRaster, SmoothLineTrianglesProduceEachPixelOnce) {
  LineCount c(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT, 2.5f);
  const float x0 = 10.3f, y0 = 50.2f, x1 = 52.7f, y1 = 12.9f;
  c.line(x0, y0, x1, y1);
  c.d.draw(2);
  const double dx = x1 - x0, dy = y1 - y0, length = std::sqrt(dx * dx + dy * dy);
  uint32_t fragments = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const double px = x + 0.5 - x0, py = y + 0.5 - y0;
      const double along = (px * dx + py * dy) / length, across = (py * dx - px * dy) / length;
      const double outside = std::max({-along, along - length, std::fabs(across) - 1.25});
      const float n = c.count(x, y);
      EXPECT_LE(n, 1.0f) << x << "," << y;
      if (outside < 0.0) EXPECT_EQ(n, 1.0f) << "centre inside: " << x << "," << y;
      if (outside > 1.0) EXPECT_EQ(n, 0.0f) << "far outside: " << x << "," << y;
      fragments += n == 1.0f;
    }
  EXPECT_GT(fragments, 150u);
}

// The stipple counter: a list restarts it per segment, a strip carries it on; segments that
// draw nothing still count.
TEST(LineRaster, StippleCounterCarriesAlongStripsOnly) {
  std::vector<gfx::LineRaster> lines(4);
  for (auto& l : lines) l.stipple = true;
  lines[0].stipple_length = 5.5f;
  lines[1].stipple_length = 3.0f, lines[1].continues_strip = true;
  lines[2].stipple_length = 2.0f;  // a new strip or list segment
  lines[3].stipple_length = 1.0f, lines[3].continues_strip = true;
  float carry = 17.0f;  // from an earlier batch; the first segment starts a strip
  gfx::resolve_line_stipple(lines, carry);
  EXPECT_EQ(lines[0].stipple_start, 0.0f);
  EXPECT_EQ(lines[1].stipple_start, 5.5f);
  EXPECT_EQ(lines[2].stipple_start, 0.0f);
  EXPECT_EQ(lines[3].stipple_start, 2.0f);
  EXPECT_EQ(carry, 3.0f);
}

}  // namespace
}  // namespace kiln::exec::test
