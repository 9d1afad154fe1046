// The front end's per-vertex work over whole batches (clip_outcodes in clipping.*,
// to_screen_vertices in setup.*) runs four vertices at a time in SIMD; it must give exactly
// the per-vertex functions' results (clip_outcode, to_screen) for every vertex, also for NaN,
// infinities, huge, tiny and rounding-halfway positions, with and without depth clipping and
// user clip distances, and for batch sizes that leave a scalar tail.
#include <bit>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "pipeline/graphics/clipping.h"
#include "pipeline/graphics/screen_vertices_x16.h"
#include "pipeline/graphics/setup.h"
#include "pipeline/graphics_state.h"

namespace kiln::exec::gfx {
namespace {


// A position component: mostly ordinary values, often special ones.
float component(std::mt19937& rng) {
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-30f, -1e-30f, 1e30f, -1e30f,
                            std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(), 0.5f / 256.0f, -1.5f / 256.0f,
                            std::numeric_limits<float>::denorm_min()};
  std::uniform_int_distribution<int> pick(0, 3 * int(std::size(specials)));
  const int i = pick(rng);
  if (i < int(std::size(specials))) return specials[i];
  return std::uniform_real_distribution<float>(-2.5f, 2.5f)(rng);
}

struct Batch {
  uint32_t stride;
  std::vector<uint32_t> values;
  Batch(std::mt19937& rng, size_t count, uint32_t stride_values) : stride(stride_values), values(count * stride_values) {
    for (size_t v = 0; v < count; ++v)
      for (uint32_t c = 0; c < stride; ++c) values[v * stride + c] = std::bit_cast<uint32_t>(component(rng));
    // Some w exactly 1 so that fixed-point rounding meets exact halves of 1/256.
    for (size_t v = 0; v < count; v += 3) values[v * stride + 3] = std::bit_cast<uint32_t>(1.0f);
  }
};

ViewportTransform viewport() {
  ViewportTransform vp{};
  vp.scale[0] = 512.0f, vp.scale[1] = -384.0f, vp.scale[2] = 0.75f;
  vp.offset[0] = 512.5f, vp.offset[1] = 384.0f, vp.offset[2] = 0.25f;
  vp.guard_lo[0] = -64.0f, vp.guard_hi[0] = 64.0f, vp.guard_lo[1] = -85.0f, vp.guard_hi[1] = 85.0f;
  return vp;
}

// A draw context over `state` whose vertices are a position and `clip_count` clip distances.
DrawContext clip_context(const GraphicsState& state, uint32_t clip_count) {
  DrawContext ctx;
  ctx.state = &state;
  ctx.vertex_format.stride = 4 + clip_count;
  ctx.vertex_format.clip_offset = 4;
  ctx.vertex_format.clip_count = clip_count;
  return ctx;
}

TEST(VertexTransform, ClipOutcodesMatchClipOutcode) {
  std::mt19937 rng(11);
  for (bool depth_clip : {true, false})
    for (uint32_t clip_count : {0u, 3u}) {
      GraphicsState state;
      state.rasterization.depth_clip = depth_clip;
      const DrawContext ctx = clip_context(state, clip_count);
      ViewportTransform vp = viewport();
      vp.near_at_minus_w = clip_count != 0;  // the [-1, 1] depth convention's near plane too
      for (size_t count : {0u, 1u, 3u, 4u, 7u, 64u, 259u}) {
        const Batch batch(rng, count, ctx.vertex_format.stride);
        std::vector<uint32_t> codes(count, 0xdeadbeefu);
        clip_outcodes(ctx, vp, batch.values.data(), batch.stride, count, codes.data());
        for (size_t v = 0; v < count; ++v)
          ASSERT_EQ(codes[v], clip_outcode(ctx, vp, batch.values.data() + v * batch.stride))
              << "vertex " << v << " of " << count << ", depth clip " << depth_clip << ", " << clip_count
              << " clip distances";
      }
    }
}

TEST(VertexTransform, ToScreenVerticesMatchesToScreenForInsideVertices) {
  std::mt19937 rng(5);
  const ViewportTransform vp = viewport();
  for (uint32_t stride : {4u, 9u})
    for (size_t count : {1u, 2u, 4u, 5u, 256u, 771u}) {
      const Batch batch(rng, count, stride);
      // Every vertex counts as inside here, so every one is compared (the real outcodes would
      // leave out exactly the special values this test wants to see rounded).
      const std::vector<uint32_t> inside(count, 0);
      std::vector<ScreenVertex> out(count);
      std::vector<PackedScreenVertex> packed(count);
      to_screen_vertices(vp, batch.values.data(), stride, inside.data(), count, out.data(), packed.data());
      // Without ScreenVertex records (out null) the packed ones are the same.
      std::vector<PackedScreenVertex> packed_only(count);
      to_screen_vertices(vp, batch.values.data(), stride, inside.data(), count, nullptr, packed_only.data());
      ASSERT_EQ(memcmp(packed_only.data(), packed.data(), count * sizeof(PackedScreenVertex)), 0);
      for (size_t v = 0; v < count; ++v) {
        const ScreenVertex want = to_screen(vp, batch.values.data() + v * stride);
        const ScreenVertex& got = out[v];
        const std::string where = "vertex " + std::to_string(v) + " of " + std::to_string(count);
        ASSERT_EQ(std::bit_cast<uint32_t>(got.x), std::bit_cast<uint32_t>(want.x)) << where;
        ASSERT_EQ(std::bit_cast<uint32_t>(got.y), std::bit_cast<uint32_t>(want.y)) << where;
        ASSERT_EQ(std::bit_cast<uint32_t>(got.z), std::bit_cast<uint32_t>(want.z)) << where;
        ASSERT_EQ(std::bit_cast<uint32_t>(got.inv_w), std::bit_cast<uint32_t>(want.inv_w)) << where;
        ASSERT_EQ(got.fx, want.fx) << where << " x " << want.x;
        ASSERT_EQ(got.fy, want.fy) << where << " y " << want.y;
        ASSERT_EQ(got.values, want.values) << where;
        const PackedScreenVertex want_packed = pack(want);
        ASSERT_EQ(packed[v].fx, want_packed.fx) << where;
        ASSERT_EQ(packed[v].fy, want_packed.fy) << where;
        ASSERT_EQ(std::bit_cast<uint32_t>(packed[v].z), std::bit_cast<uint32_t>(want_packed.z)) << where;
        ASSERT_EQ(std::bit_cast<uint32_t>(packed[v].inv_w), std::bit_cast<uint32_t>(want_packed.inv_w)) << where;
      }
    }
}

// Fixed-point rounding over every kind of float: random bit patterns (all magnitudes, NaN,
// infinities, denormals), exact halves of 1/256 up to the clamp limit, and values just beside
// them, through a viewport that leaves x and y unchanged.
TEST(VertexTransform, FixedPointRoundingMatchesToScreen) {
  std::mt19937 rng(9);
  ViewportTransform vp{};
  vp.scale[0] = vp.scale[1] = vp.scale[2] = 1.0f;
  const size_t count = 1 << 16;
  std::vector<uint32_t> values(count * 4);
  std::uniform_int_distribution<int32_t> half_steps(-(1 << 26) - 100, (1 << 26) + 100);
  for (size_t v = 0; v < count; ++v) {
    float xy[2];
    for (float& c : xy) {
      switch (rng() % 3) {
        case 0: {
          const uint32_t pattern = rng();
          memcpy(&c, &pattern, 4);
          break;
        }
        case 1: c = float(half_steps(rng)) / 512.0f; break;  // k/512: halfway between 1/256 steps when k is odd
        default: c = std::nextafter(float(half_steps(rng)) / 512.0f, rng() % 2 ? 1e30f : -1e30f); break;
      }
    }
    const float position[4] = {xy[0], xy[1], 0.5f, 1.0f};
    memcpy(&values[v * 4], position, 16);
  }
  const std::vector<uint32_t> inside(count, 0);
  std::vector<ScreenVertex> out(count);
  std::vector<PackedScreenVertex> packed(count);
  to_screen_vertices(vp, values.data(), 4, inside.data(), count, out.data(), packed.data());
  for (size_t v = 0; v < count; ++v) {
    const ScreenVertex want = to_screen(vp, values.data() + v * 4);
    ASSERT_EQ(out[v].fx, want.fx) << "x " << want.x;
    ASSERT_EQ(out[v].fy, want.fy) << "y " << want.y;
    ASSERT_EQ(packed[v].fx, pack(want).fx) << "x " << want.x << ", y " << want.y;
    ASSERT_EQ(packed[v].fy, want.fy) << "y " << want.y;
  }
}

// The AVX-512 pass over positions in component arrays: clip_outcode (with the user planes added
// by add_user_outcodes) and pack(to_screen) of every vertex, inside or not, for batch sizes with
// partial 16-lane tails, with and without depth clipping, a -w near plane and clip distances.
TEST(VertexTransform, ScreenVerticesX16MatchPerVertexFunctions) {
  if (!screen_vertices_x16_supported()) GTEST_SKIP() << "no AVX-512: the front end uses the SSE functions here";
  std::mt19937 rng(13);
  for (bool depth_clip : {true, false})
    for (bool near_at_minus_w : {false, true})
      for (uint32_t clip_count : {0u, 2u}) {
        GraphicsState state;
        state.rasterization.depth_clip = depth_clip;
        const DrawContext ctx = clip_context(state, clip_count);
        ViewportTransform vp = viewport();
        vp.near_at_minus_w = near_at_minus_w;
        for (size_t count : {0u, 1u, 15u, 16u, 17u, 64u, 259u}) {
          const Batch batch(rng, count, ctx.vertex_format.stride);
          std::vector<float> components(4 * count);
          for (size_t v = 0; v < count; ++v)
            for (size_t c = 0; c < 4; ++c) memcpy(&components[c * count + v], &batch.values[v * batch.stride + c], 4);
          std::vector<uint32_t> codes(count, 0xdeadbeefu);
          std::vector<PackedScreenVertex> packed(count + 1);
          packed[count].fx = 0x7777;  // must stay: nothing is written past `count`
          screen_vertices_x16(ctx, vp, components.data(), count, codes.data(), packed.data());
          add_user_outcodes(ctx, vp, batch.values.data(), batch.stride, count, codes.data());
          ASSERT_EQ(packed[count].fx, 0x7777);
          for (size_t v = 0; v < count; ++v) {
            const uint32_t* vertex = batch.values.data() + v * batch.stride;
            const std::string where = "vertex " + std::to_string(v) + " of " + std::to_string(count) + ", depth clip " +
                                      std::to_string(depth_clip) + ", near -w " + std::to_string(near_at_minus_w) +
                                      ", " + std::to_string(clip_count) + " clip distances";
            ASSERT_EQ(codes[v], clip_outcode(ctx, vp, vertex)) << where;
            const PackedScreenVertex want = pack(to_screen(vp, vertex));
            ASSERT_EQ(packed[v].fx, want.fx) << where;
            ASSERT_EQ(packed[v].fy, want.fy) << where;
            ASSERT_EQ(std::bit_cast<uint32_t>(packed[v].z), std::bit_cast<uint32_t>(want.z)) << where;
            ASSERT_EQ(std::bit_cast<uint32_t>(packed[v].inv_w), std::bit_cast<uint32_t>(want.inv_w)) << where;
          }
        }
      }
}

}  // namespace
}  // namespace kiln::exec::gfx
