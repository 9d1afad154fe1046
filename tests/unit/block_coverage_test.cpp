// The tile back end's 32-bit block coverage (pipeline/graphics/block_coverage.h) against the
// per-sample int64 edge test it replaces: random triangles from degenerate to thousands of pixels,
// 1/2/4/8 samples at the standard and at random positions, partial sample masks, blocks and
// regions anywhere around the triangle; then whole draws with and without it, bit for bit.
#include <algorithm>
#include <random>
#include <vector>

#include "draw_test_util.h"
#include "pipeline/graphics/block_coverage.h"
#include "pipeline/graphics/edge.h"

namespace kiln::exec::test {
namespace {

using gfx::kSubpixelBits;

// Standard sample locations (Vulkan "Multisampling") in 1/256 pixel.
const std::vector<int32_t>& standard_locations(uint32_t samples) {
  static const std::vector<int32_t> k1{128, 128}, k2{192, 192, 64, 64}, k4{96, 32, 224, 96, 32, 160, 160, 224},
      k8{144, 80, 112, 176, 208, 144, 80, 48, 48, 208, 16, 112, 176, 240, 240, 16};
  return samples == 1 ? k1 : samples == 2 ? k2 : samples == 4 ? k4 : k8;
}

int32_t pixel_of(int64_t v) { return int32_t(v >> kSubpixelBits); }  // floor

// What the per-pixel path computes for pixel (x, y): the kept samples inside all three edges.
uint32_t reference_coverage(const gfx::TriangleEdges& edges, const gfx::DrawContext& ctx, uint32_t sample_mask,
                            int32_t x, int32_t y) {
  uint32_t mask = 0;
  for (uint32_t s = 0; s < ctx.samples; ++s) {
    const int64_t px = (int64_t{x} << kSubpixelBits) + ctx.sample_x[s];
    const int64_t py = (int64_t{y} << kSubpixelBits) + ctx.sample_y[s];
    if (edges.e[0].at(px, py) >= 0 && edges.e[1].at(px, py) >= 0 && edges.e[2].at(px, py) >= 0) mask |= 1u << s;
  }
  return mask & sample_mask;
}

struct Case {
  gfx::RasterTriangle t{};
  int64_t min_x, max_x, min_y, max_y;  // fixed-point bounding box
};

// A random triangle, oriented like setup orients them (edge functions >= 0 inside). `scale`
// bounds its size in pixels; some are degenerate (a line or a point).
Case random_triangle(std::mt19937& rng, int32_t scale) {
  std::uniform_int_distribution<int32_t> centre(0, 2048 << kSubpixelBits), offset(-scale << kSubpixelBits,
                                                                                    scale << kSubpixelBits);
  Case c;
  const int32_t cx = centre(rng), cy = centre(rng);
  for (int i = 0; i < 3; ++i) {
    c.t.x[i] = cx + offset(rng);
    c.t.y[i] = cy + offset(rng);
  }
  switch (rng() % 16) {
    case 0:  // collinear
      c.t.x[2] = c.t.x[0] + 2 * (c.t.x[1] - c.t.x[0]);
      c.t.y[2] = c.t.y[0] + 2 * (c.t.y[1] - c.t.y[0]);
      break;
    case 1:  // two vertices on one point
      c.t.x[2] = c.t.x[1];
      c.t.y[2] = c.t.y[1];
      break;
    case 2:  // on pixel centres: edges through sample positions, the top-left rule decides
      for (int i = 0; i < 3; ++i) {
        c.t.x[i] = (c.t.x[i] & ~0xFF) | 0x80;
        c.t.y[i] = (c.t.y[i] & ~0xFF) | 0x80;
      }
      break;
    default: break;
  }
  const int64_t area = int64_t(c.t.x[1] - c.t.x[0]) * (c.t.y[2] - c.t.y[0]) -
                       int64_t(c.t.y[1] - c.t.y[0]) * (c.t.x[2] - c.t.x[0]);
  if (area < 0) {
    std::swap(c.t.x[1], c.t.x[2]);
    std::swap(c.t.y[1], c.t.y[2]);
  }
  c.min_x = std::min({c.t.x[0], c.t.x[1], c.t.x[2]});
  c.max_x = std::max({c.t.x[0], c.t.x[1], c.t.x[2]});
  c.min_y = std::min({c.t.y[0], c.t.y[1], c.t.y[2]});
  c.max_y = std::max({c.t.y[0], c.t.y[1], c.t.y[2]});
  return c;
}

// Checks block_coverage (and the scalar version) over `rect` of the 8x8 pixels at (bx, by).
void expect_block_matches(const gfx::TriangleEdges& edges, const gfx::DrawContext& ctx, uint32_t sample_mask,
                          const gfx::BlockEdges& block, const gfx::Rect& rect, int32_t bx, int32_t by,
                          const char* path) {
  const gfx::BlockSamples samples(ctx, sample_mask);
  const uint64_t region = gfx::block_lanes(rect, bx, by);
  alignas(64) uint32_t fast[64], scalar[64];
  const uint64_t fast_lanes = gfx::block_coverage(block, samples, region, fast);
  const uint64_t scalar_lanes = gfx::block_coverage_scalar(block, samples, region, scalar);
  uint64_t want_lanes = 0;
  for (uint32_t lane = 0; lane < 64; ++lane) {
    const uint32_t l = lane % 16;
    const int32_t x = bx + int32_t(2 * (l / 4) + (l & 1)), y = by + int32_t(2 * (lane / 16) + ((l >> 1) & 1));
    const bool in_rect = x >= rect.x0 && x < rect.x1 && y >= rect.y0 && y < rect.y1;
    ASSERT_EQ((region >> lane & 1) != 0, in_rect) << "block_lanes, lane " << lane;
    if (!in_rect) continue;
    const uint32_t want = reference_coverage(edges, ctx, sample_mask, x, y);
    want_lanes |= uint64_t(want != 0) << lane;
    if (samples.count == 0) continue;  // no sample kept: nothing is written (and nothing covered)
    ASSERT_EQ(fast[lane], want) << path << ": pixel " << x << "," << y << " samples " << ctx.samples;
    ASSERT_EQ(scalar[lane], want) << path << " (scalar): pixel " << x << "," << y << " samples " << ctx.samples;
  }
  ASSERT_EQ(fast_lanes, want_lanes) << path;
  ASSERT_EQ(scalar_lanes, want_lanes) << path;
}

TEST(BlockCoverage, MatchesThePerSampleEdgeTest) {
  if (!gfx::block_coverage_supported()) GTEST_SKIP() << "no AVX-512: the back end tests pixel by pixel here";
  std::mt19937 rng(5);
  uint64_t small_blocks = 0, classified_blocks = 0, too_long = 0;
  for (int round = 0; round < 20000; ++round) {
    gfx::DrawContext ctx;
    ctx.samples = 1u << (round % 4);
    const bool random_positions = round % 5 == 4;
    for (uint32_t s = 0; s < ctx.samples; ++s) {
      ctx.sample_x[s] = random_positions ? int32_t(rng() % 256) : standard_locations(ctx.samples)[2 * s];
      ctx.sample_y[s] = random_positions ? int32_t(rng() % 256) : standard_locations(ctx.samples)[2 * s + 1];
    }
    const uint32_t all = (1u << ctx.samples) - 1;
    const uint32_t sample_mask = round % 3 == 2 ? uint32_t(rng()) & all : all;
    static constexpr int32_t kScales[] = {1, 3, 8, 40, 64, 300, 5000};
    const Case c = random_triangle(rng, kScales[rng() % 7]);
    const gfx::TriangleEdges edges(c.t);
    const gfx::Rect bounds{pixel_of(c.min_x), pixel_of(c.min_y), pixel_of(c.max_x) + 1, pixel_of(c.max_y) + 1};
    // A region around the bounds (a tile or scissor cuts them anywhere).
    std::uniform_int_distribution<int32_t> jitter(-9, 9);
    const gfx::Rect cut{bounds.x0 + jitter(rng), bounds.y0 + jitter(rng), bounds.x1 + jitter(rng), bounds.y1 + jitter(rng)};
    const gfx::Rect region = bounds.intersect(cut);
    if (region.empty()) continue;

    // The small-triangle path: 8x8 pixels from a quad near the region, all edges crossing.
    if (gfx::small_triangle(edges)) {
      const int32_t bx = (region.x0 + jitter(rng) / 3) & ~1, by = (region.y0 + jitter(rng) / 3) & ~1;
      gfx::BlockEdges block;
      ASSERT_TRUE(gfx::make_block_edges(edges, 7, bx, by, &block));
      expect_block_matches(edges, ctx, sample_mask, block, region.intersect({bx, by, bx + 8, by + 8}), bx, by,
                           "small triangle");
      ++small_blocks;
    }
    // The classified path: an aligned 8x8 block of the region, the crossing edges only.
    const int32_t bx = (region.x0 + int32_t(rng() % uint32_t(region.x1 - region.x0))) & ~7;
    const int32_t by = (region.y0 + int32_t(rng() % uint32_t(region.y1 - region.y0))) & ~7;
    const gfx::Rect rect = region.intersect({bx, by, bx + 8, by + 8});
    if (rect.empty()) continue;
    uint32_t crossing = 0;
    if (gfx::classify_rect(edges, gfx::SampleExtent(ctx), rect, &crossing) != gfx::RectCoverage::Partial) continue;
    gfx::BlockEdges block;
    if (!gfx::make_block_edges(edges, crossing, bx, by, &block)) {
      ++too_long;
      continue;
    }
    expect_block_matches(edges, ctx, sample_mask, block, rect, bx, by, "classified block");
    ++classified_blocks;
  }
  // Every path was taken often.
  EXPECT_GT(small_blocks, 4000u);
  EXPECT_GT(classified_blocks, 4000u);
  EXPECT_GT(too_long, 10u);
}

// Edges as long as 32 bits allow, crossing a block at its far corner: still exact.
TEST(BlockCoverage, LongestEdgesThatFitAreExact) {
  if (!gfx::block_coverage_supported()) GTEST_SKIP() << "no AVX-512: the back end tests pixel by pixel here";
  gfx::DrawContext ctx;
  ctx.samples = 1;
  ctx.sample_x[0] = ctx.sample_y[0] = 255;
  // A nearly diagonal edge with |a| + |b| just below kBlockEdgeLimit (each about a quarter of
  // it, doubled), through the blocks around (64, 64); both halves of the square it splits.
  const int32_t d = int32_t(gfx::kBlockEdgeLimit / 4) - 1;
  for (int flip = 0; flip < 2; ++flip) {
    gfx::RasterTriangle t{};
    const int32_t ox = 64 << kSubpixelBits, oy = 64 << kSubpixelBits;
    t.x[0] = ox - d + 7 * 256 + 3, t.y[0] = oy - d + 1;
    t.x[1] = ox + d, t.y[1] = oy + d - 5;
    t.x[2] = flip ? ox + d : ox - d, t.y[2] = flip ? oy - d : oy + d;
    const int64_t area = int64_t(t.x[1] - t.x[0]) * (t.y[2] - t.y[0]) - int64_t(t.y[1] - t.y[0]) * (t.x[2] - t.x[0]);
    if (area < 0) std::swap(t.x[1], t.x[2]), std::swap(t.y[1], t.y[2]);
    const gfx::TriangleEdges edges(t);
    uint32_t tested = 0;
    for (int32_t by = 32; by < 96; by += 8)
      for (int32_t bx = 32; bx < 96; bx += 8) {
        const gfx::Rect rect{bx, by, bx + 8, by + 8};
        uint32_t crossing = 0;
        if (gfx::classify_rect(edges, gfx::SampleExtent(ctx), rect, &crossing) != gfx::RectCoverage::Partial) continue;
        gfx::BlockEdges block;
        ASSERT_TRUE(gfx::make_block_edges(edges, crossing, bx, by, &block));
        expect_block_matches(edges, ctx, 1, block, rect, bx, by, "long edge");
        ++tested;
      }
    EXPECT_GT(tested, 0u);
  }
}

// Random triangles from a fraction of a pixel to ~100 pixels over a target two tiles wide, with
// a scissor, through the whole back end with block coverage on and off: identical samples.
void draw_triangles(bool block_coverage, VkSampleCountFlagBits samples, uint32_t sample_mask, uint32_t width,
                    TestTarget& target) {
  constexpr uint32_t kW = 77, kH = 70;
  DrawSetup d(&target.view, kW, kH);
  if (width == 16) {
    d.kernels.fragment = &fake_color_kernel<16>;
    d.kernels.fragment_width = 16;
  }
  d.state.multisample.samples = samples;
  d.state.multisample.sample_mask = sample_mask;
  d.state.viewport.scissors[0] = {{3, 1}, {kW - 5, kH - 2}};
  d.blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE);  // every covered sample adds up
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> centre(-4.0f, 80.0f), channel(0.0f, 1.0f);
  constexpr uint32_t kTriangles = 400;
  for (uint32_t t = 0; t < kTriangles; ++t) {
    const float size = t % 10 == 0 ? 60.0f : t % 3 == 0 ? 9.0f : 2.5f;
    std::uniform_real_distribution<float> offset(-size, size);
    const float colour[4] = {channel(rng), channel(rng), channel(rng), 1.0f};
    const float x = centre(rng), y = centre(rng);
    // Some vertices on pixel centres and quad/block/tile corners so edges run through samples.
    const bool snapped = t % 4 == 1;
    for (int v = 0; v < 3; ++v) {
      float vx = x + offset(rng), vy = y + offset(rng);
      if (snapped) vx = std::round(vx) + (v == 1 ? 0.0f : 0.5f), vy = std::round(vy) + (v == 2 ? 0.0f : 0.5f);
      d.add(vx, vy, colour, 0.5f, 1.0f, float(kW), float(kH));
    }
  }
  gfx::enable_block_coverage(block_coverage);
  d.draw(3 * kTriangles);
  gfx::enable_block_coverage(true);
}

TEST(BlockCoverage, DrawsMatchThePerPixelPath) {
  if (!gfx::block_coverage_supported()) GTEST_SKIP() << "no AVX-512: the back end tests pixel by pixel here";
  for (VkSampleCountFlagBits samples :
       {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_2_BIT, VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_8_BIT}) {
    for (uint32_t sample_mask : {~0u, 0xA5u}) {
      for (uint32_t width : {8u, 16u}) {
        TestTarget targets[2] = {{VK_FORMAT_R32G32B32A32_SFLOAT, 77, 70, VK_IMAGE_ASPECT_COLOR_BIT, samples},
                                 {VK_FORMAT_R32G32B32A32_SFLOAT, 77, 70, VK_IMAGE_ASPECT_COLOR_BIT, samples}};
        draw_triangles(true, samples, sample_mask, width, targets[0]);
        draw_triangles(false, samples, sample_mask, width, targets[1]);
        EXPECT_EQ(targets[0].storage, targets[1].storage)
            << "samples " << samples << " mask " << sample_mask << " W " << width;
        // Something was drawn, inside the scissor only.
        bool drawn = false;
        for (uint32_t y = 0; y < 70; ++y)
          for (uint32_t x = 0; x < 77; ++x) {
            const bool inside = x >= 3 && x < 75 && y >= 1 && y < 69;
            const float r = targets[0].color(x, y).float32[0];
            drawn |= r != 0.0f;
            if (!inside) ASSERT_EQ(r, 0.0f) << x << "," << y;
          }
        EXPECT_TRUE(drawn);
      }
    }
  }
}

}  // namespace
}  // namespace kiln::exec::test
