// The batched setup of unclipped triangles (pipeline/graphics/setup_batch.*) must append exactly
// what setup_screen_triangle appends for each triangle in order — every byte of every
// RasterTriangle and the value pool — for random triangles that are small, huge, degenerate,
// off-screen, back-facing, between sample positions or not finite, with and without culling,
// depth bias, varyings (flat ones too) and MSAA, and for runs that leave a partial 16-lane tail.
#include <bit>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "pipeline/graphics/setup_batch.h"
#include "pipeline/graphics_state.h"

namespace kiln::exec::gfx {
namespace {


constexpr uint32_t kVaryings = 2;
constexpr uint32_t kStride = VertexFormat::kVaryingOffset + 4 * kVaryings + 3;

// Shaded vertices whose clip positions are framebuffer positions (w = 1, an identity viewport):
// clustered into small triangles mostly, sometimes far apart, huge, on sub-pixel grid points,
// at shared positions, or not finite.
struct Vertices {
  std::vector<uint32_t> shaded;
  std::vector<ScreenVertex> screen;
  std::vector<PackedScreenVertex> packed;
  Vertices(std::mt19937& rng, uint32_t count) : shaded(size_t(count) * kStride), screen(count), packed(count) {
    ViewportTransform vp{};
    vp.scale[0] = vp.scale[1] = vp.scale[2] = 1.0f;
    std::uniform_real_distribution<float> unit(0.0f, 1.0f), value(-4.0f, 4.0f);
    std::uniform_int_distribution<int> kind(0, 19);
    float cx = 30.0f, cy = 30.0f;
    for (uint32_t i = 0; i < count; ++i) {
      float x, y;
      const int k = kind(rng);
      if (k < 12) {  // near the last cluster centre: small triangles, ~1-3 pixels
        if (k == 0) cx = unit(rng) * 80.0f - 8.0f, cy = unit(rng) * 70.0f - 8.0f;
        x = cx + unit(rng) * 3.0f, y = cy + unit(rng) * 3.0f;
      } else if (k < 15) {  // on the 1/256 grid or on pixel centres: edges through samples
        x = std::round(cx + unit(rng) * 4.0f) + (k == 13 ? 0.5f : 0.0f);
        y = std::round(cy + unit(rng) * 4.0f) + (k == 14 ? 0.5f : std::round(unit(rng) * 256.0f) / 256.0f);
      } else if (k < 17) {  // anywhere in the guard band: huge triangles
        x = (unit(rng) - 0.5f) * 70000.0f, y = (unit(rng) - 0.5f) * 70000.0f;
      } else if (k == 17) {  // off-screen
        x = -500.0f - unit(rng) * 100.0f, y = unit(rng) * 64.0f;
      } else if (k == 18) {  // the same position as the cluster centre: degenerate triangles
        x = cx, y = cy;
      } else {  // not finite somewhere
        const float special[] = {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
        x = cx, y = cy;
        (unit(rng) < 0.5f ? x : y) = special[unit(rng) < 0.5f];
      }
      float z = unit(rng);
      if (k == 19 && unit(rng) < 0.3f) z = std::numeric_limits<float>::quiet_NaN(), x = cx, y = cy;
      uint32_t* v = &shaded[size_t(i) * kStride];
      const float position[4] = {x, y, z, 1.0f};
      memcpy(v, position, 16);
      for (uint32_t c = VertexFormat::kVaryingOffset; c < kStride; ++c) v[c] = std::bit_cast<uint32_t>(value(rng));
      screen[i] = to_screen(vp, v);
      packed[i] = pack(screen[i]);
    }
  }
};

struct Config {
  uint32_t samples;
  VkCullModeFlags cull;
  VkFrontFace front_face;
  bool depth_bias;
  bool varyings;
};

DrawContext context(const Config& c, GraphicsState& state) {
  state.rasterization.cull_mode = c.cull;
  state.rasterization.front_face = c.front_face;
  state.rasterization.depth_bias_enable = c.depth_bias;
  state.rasterization.depth_bias_constant = 3.0f;
  state.rasterization.depth_bias_slope = 0.75f;
  state.rasterization.depth_bias_clamp = 0.001f;
  DrawContext ctx;
  ctx.state = &state;
  ctx.viewports[0].scissor = ctx.viewports[0].triangle_scissor = Rect{2, 3, 61, 50};
  ctx.depth.format = VK_FORMAT_D32_SFLOAT;
  ctx.samples = c.samples;
  if (c.samples == 1) {
    ctx.sample_x[0] = ctx.sample_y[0] = 128;
  } else {  // the standard 4x positions
    const int32_t xs[4] = {96, 224, 32, 160}, ys[4] = {32, 96, 160, 224};
    for (int s = 0; s < 4; ++s) ctx.sample_x[s] = xs[s], ctx.sample_y[s] = ys[s];
  }
  VertexFormat& f = ctx.vertex_format;
  f.stride = kStride;
  if (c.varyings) {
    f.varying_count = kVaryings;
    f.varying_location[0] = 0, f.varying_location[1] = 1;
    f.varying_interpolation[0] = abi::Interpolation::Smooth;
    f.varying_interpolation[1] = abi::Interpolation::Flat;
  }
  return ctx;
}

PendingTriangles triangles(std::mt19937& rng, uint32_t vertex_count, size_t count) {
  std::uniform_int_distribution<uint32_t> slot(0, vertex_count - 1), corner(0, 2), layer(0, 2047);
  PendingTriangles tris;
  tris.reset(count);
  for (size_t i = 0; i < count; ++i) {
    // Mostly neighbouring slots (the clusters), sometimes any, sometimes a repeated one.
    const uint32_t first = slot(rng);
    uint32_t slots[3];
    for (uint32_t k = 0; k < 3; ++k)
      slots[k] = corner(rng) == 0 ? slot(rng) : std::min(first + k + corner(rng), vertex_count - 1);
    if (i % 13 == 5) slots[2] = slots[0];
    tris.add(slots[0], slots[1], slots[2], slots[corner(rng)], uint32_t(i * 7 + 3), layer(rng));
  }
  return tris;
}

// A BatchOutput that already holds a triangle and values, as when clipped triangles came first.
BatchOutput started_output() {
  BatchOutput out;
  RasterTriangle& t = out.triangles.emplace_back();
  memset(static_cast<void*>(&t), 0x5a, sizeof(t));
  out.values.assign(5, 0x12345678u);
  return out;
}

TEST(SetupBatch, X16MatchesOneTriangleAtATime) {
  if (!setup_x16_supported()) GTEST_SKIP() << "no AVX-512: setup_screen_triangles is the one-at-a-time loop here";
  std::mt19937 rng(7);
  const uint32_t vertex_count = 600;
  const Vertices v(rng, vertex_count);
  const BatchVertices batch{v.shaded.data(), kStride, v.screen.data(), v.packed.data()};
  size_t compared = 0, kept_any = 0;
  for (uint32_t samples : {1u, 4u})
    for (VkCullModeFlags cull : {VkCullModeFlags(VK_CULL_MODE_NONE), VkCullModeFlags(VK_CULL_MODE_FRONT_BIT),
                                 VkCullModeFlags(VK_CULL_MODE_BACK_BIT), VkCullModeFlags(VK_CULL_MODE_FRONT_AND_BACK)})
      for (VkFrontFace face : {VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_FRONT_FACE_CLOCKWISE})
        for (bool bias : {false, true})
          for (bool varyings : {false, true})
            for (size_t count : {0u, 1u, 15u, 16u, 17u, 1000u}) {
              const Config config{samples, cull, face, bias, varyings};
              GraphicsState state;
              const DrawContext ctx = context(config, state);
              const PendingTriangles tris = triangles(rng, vertex_count, count);
              BatchOutput want = started_output(), got = started_output();
              setup_screen_triangles_scalar(ctx, batch, tris, want);
              // Without depth bias the AVX-512 path reads only the packed records.
              const BatchVertices packed_only{v.shaded.data(), kStride, nullptr, v.packed.data()};
              ASSERT_EQ(setup_reads_screen_vertices(ctx), bias) << "setup_x16_supported()";
              setup_screen_triangles_x16(ctx, bias ? batch : packed_only, tris, got);
              const std::string where = std::to_string(samples) + " samples, cull " + std::to_string(cull) +
                                        ", front face " + std::to_string(face) + ", bias " + std::to_string(bias) +
                                        ", varyings " + std::to_string(varyings) + ", " + std::to_string(count) +
                                        " triangles";
              ASSERT_EQ(got.triangles.size(), want.triangles.size()) << where;
              for (size_t i = 0; i < want.triangles.size(); ++i)
                ASSERT_EQ(memcmp(&got.triangles[i], &want.triangles[i], sizeof(RasterTriangle)), 0)
                    << where << ": triangle " << i << " (primitive " << want.triangles[i].primitive_id << ")";
              ASSERT_EQ(got.values.size(), want.values.size()) << where;
              ASSERT_EQ(memcmp(got.values.data(), want.values.data(), want.values.size() * 4), 0) << where;
              compared += want.triangles.size() - 1;
              kept_any += want.triangles.size() > 1;
            }
  // The random triangles exercise both outcomes: most are kept, many are dropped.
  EXPECT_GT(compared, 10000u);
  EXPECT_GT(kept_any, 100u);
}

// Polygon modes other than FILL are left to the one-triangle setup (edges and points).
TEST(SetupBatch, PolygonModeLineGivesTheOneAtATimeResult) {
  std::mt19937 rng(3);
  const Vertices v(rng, 100);
  const BatchVertices batch{v.shaded.data(), kStride, v.screen.data(), v.packed.data()};
  GraphicsState state;
  DrawContext ctx = context({1, VK_CULL_MODE_NONE, VK_FRONT_FACE_COUNTER_CLOCKWISE, false, true}, state);
  state.rasterization.polygon_mode = VK_POLYGON_MODE_LINE;
  const PendingTriangles tris = triangles(rng, 100, 50);
  BatchOutput want, got;
  setup_screen_triangles_scalar(ctx, batch, tris, want);
  setup_screen_triangles(ctx, batch, tris, got);
  ASSERT_GT(want.triangles.size(), 50u);  // lines are two triangles each
  ASSERT_EQ(got.triangles.size(), want.triangles.size());
  for (size_t i = 0; i < want.triangles.size(); ++i)
    ASSERT_EQ(memcmp(&got.triangles[i], &want.triangles[i], sizeof(RasterTriangle)), 0) << i;
  EXPECT_EQ(got.values, want.values);
}

}  // namespace
}  // namespace kiln::exec::gfx
