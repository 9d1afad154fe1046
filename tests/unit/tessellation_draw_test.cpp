// Tessellated draws through the draw engine with fake control and evaluation kernels (the same
// abi signatures the JIT's kernels have): watertightness across patches, PrimitiveId, discarded
// patches, control-shader barriers across calls, pipeline statistics and draw validation.
// The fixed-function tessellator's own points are tested in tessellator_test.cpp.
#include <cmath>
#include <limits>
#include <vector>

#include "draw_test_util.h"
#include "pipeline/graphics/tessellation_producer.h"
#include "pipeline/graphics/vertex_stage.h"

namespace kiln::exec::test {
namespace {

// The fake control kernel's outputs: per vertex, slot 0 = position, slot 1 = colour (as the fake
// vertex kernel's first two slots).
constexpr uint32_t kRecordSlots = 2;

// The levels the fake control kernel writes for patch PrimitiveId (the last entry for the rest).
std::vector<gfx::TessLevels> patch_levels;

float level_of(const abi::TessControlInvocation* inv, uint32_t kind, uint32_t c) {
  const gfx::TessLevels& l = patch_levels[std::min<size_t>(inv->primitive_id, patch_levels.size() - 1)];
  return kind == 0 ? l.outer[c] : l.inner[c];
}

// Control kernel: output control point i = input control point i (slots 0 and 1); invocation 0
// writes the patch's levels.
template <uint32_t W>
void fake_control_kernel(const abi::TessControlInvocation* inv) {
  for (uint32_t lane = 0; lane < inv->lane_count; ++lane) {
    const uint32_t id = inv->invocation_base + lane;
    if (id < inv->patch_vertices)
      for (uint32_t v = 0; v < kRecordSlots * 4; ++v)
        inv->outputs[id * kRecordSlots * 4 + v] = inv->inputs[id * inv->input_slots * 4 + v];
    if (id != 0) continue;
    for (uint32_t c = 0; c < 4; ++c) inv->patch_outputs[abi::kTessLevelOuterOffset / 4 + c] = bits(level_of(inv, 0, c));
    for (uint32_t c = 0; c < 2; ++c) inv->patch_outputs[abi::kTessLevelInnerOffset / 4 + c] = bits(level_of(inv, 1, c));
  }
}

// Control kernel with a barrier: every invocation writes 0.125 into its output record's slot 1.x,
// waits at the barrier, and invocation 0 then makes every level the sum of all of them. Without
// the barrier invocation 0 would sum only its own call's records.
template <uint32_t W>
void fake_summing_control_kernel(const abi::TessControlInvocation* inv) {
  for (uint32_t lane = 0; lane < inv->lane_count; ++lane) {
    const uint32_t id = inv->invocation_base + lane;
    if (id < inv->patch_vertices)
      for (uint32_t v = 0; v < 4; ++v) inv->outputs[id * kRecordSlots * 4 + v] = inv->inputs[id * inv->input_slots * 4 + v];
    inv->outputs[(id * kRecordSlots + 1) * 4] = bits(0.125f);
  }
  inv->barrier(inv->barrier_context);
  if (inv->invocation_base != 0) return;
  float sum = 0;
  for (uint32_t id = 0; id < 20; ++id) sum += flt(inv->outputs[(id * kRecordSlots + 1) * 4]);
  for (uint32_t c = 0; c < 4; ++c) inv->patch_outputs[abi::kTessLevelOuterOffset / 4 + c] = bits(sum);
  for (uint32_t c = 0; c < 2; ++c) inv->patch_outputs[abi::kTessLevelInnerOffset / 4 + c] = bits(sum);
}

float mix(float a, float b, float t) { return a * (1 - t) + b * t; }
float control_value(const abi::TessEvalInvocation* inv, uint32_t point, uint32_t slot, uint32_t c) {
  return flt(inv->inputs[(point * kRecordSlots + slot) * 4 + c]);
}

// Evaluation kernel, quad domain: position = bilinear blend of control points 0 (u=0, v=0),
// 1 (u=1), 2 (v=1), 3 (u=1, v=1); colour = (1, PrimitiveId + 1, 0, 1).
template <uint32_t W>
void fake_quad_evaluation_kernel(const abi::TessEvalInvocation* inv) {
  for (uint32_t lane = 0; lane < inv->lane_count; ++lane) {
    const float u = inv->tess_coord[lane], v = inv->tess_coord[W + lane];
    for (uint32_t c = 0; c < 4; ++c) {
      const float bottom = mix(control_value(inv, 0, 0, c), control_value(inv, 1, 0, c), u);
      const float top = mix(control_value(inv, 2, 0, c), control_value(inv, 3, 0, c), u);
      inv->outputs[c * W + lane] = bits(mix(bottom, top, v));
    }
    const float color[4] = {1, float(inv->primitive_id + 1), 0, 1};
    for (uint32_t c = 0; c < 4; ++c) inv->outputs[(4 + c) * W + lane] = bits(color[c]);
  }
}

// Evaluation kernel, triangle domain: position = u p0 + v p1 + w p2; colour as above.
template <uint32_t W>
void fake_triangle_evaluation_kernel(const abi::TessEvalInvocation* inv) {
  for (uint32_t lane = 0; lane < inv->lane_count; ++lane) {
    const float* uvw = inv->tess_coord;
    for (uint32_t c = 0; c < 4; ++c) {
      const float p = uvw[lane] * control_value(inv, 0, 0, c) + uvw[W + lane] * control_value(inv, 1, 0, c) +
                      uvw[2 * W + lane] * control_value(inv, 2, 0, c);
      inv->outputs[c * W + lane] = bits(p);
    }
    const float color[4] = {1, float(inv->primitive_id + 1), 0, 1};
    for (uint32_t c = 0; c < 4; ++c) inv->outputs[(4 + c) * W + lane] = bits(color[c]);
  }
}

// A tessellating DrawSetup: the fake vertex kernel, then the fake control kernel passing
// `control_points` points through, then `evaluation`; additive blending so a pixel's red counts
// the triangles that covered it.
struct TessellatedDraw : DrawSetup {
  TessellatedDraw(const mem::ImageView* color, uint32_t size, abi::TessEvalKernelFn evaluation, gfx::TessDomain domain,
                  gfx::TessSpacing spacing, uint32_t control_points)
      : DrawSetup(color, size, size) {
    TessellationKernels& t = kernels.tessellation.emplace();
    t.control = &fake_control_kernel<8>;
    t.output_vertices = control_points;
    t.control_vertex_bytes = control_points * kRecordSlots * 16;
    t.evaluation = evaluation;
    t.evaluation_outputs.slot_count = kRecordSlots;
    t.evaluation_outputs.location_slot[0] = 1;
    t.tessellator.domain = domain;
    t.tessellator.spacing = spacing;
    state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    state.input_assembly.patch_control_points = control_points;
    blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE);
  }
  // A control point at clip-space (x, y).
  void point(float x, float y) {
    Vertex v{};
    v.pos[0] = x; v.pos[1] = y; v.pos[2] = 0.5f; v.pos[3] = 1;
    vertices.push_back(v);
  }
};

// Clip-space corners of a grid of n x n quad patches over the viewport: multiples of 2/n, so the
// evaluation kernel's blends are exact (no rounding, fused or not, can move a shared edge).
void add_quad_grid(TessellatedDraw& d, uint32_t n) {
  const float step = 2.0f / float(n);
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t i = 0; i < n; ++i) {
      const float x0 = -1 + step * float(i), y0 = -1 + step * float(j);
      d.point(x0, y0); d.point(x0 + step, y0); d.point(x0, y0 + step); d.point(x0 + step, y0 + step);
    }
}

TEST(TessellatedDraw, QuadPatchesOfDifferentInnerLevelsCoverEveryPixelOnce) {
  constexpr uint32_t kSize = 32, kGrid = 4, kPatchPixels = kSize / kGrid;
  for (const gfx::TessSpacing spacing :
       {gfx::TessSpacing::Equal, gfx::TessSpacing::FractionalOdd, gfx::TessSpacing::FractionalEven}) {
    for (const unsigned threads : {1u, 2u}) {
      TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, kSize, kSize);
      TessellatedDraw d(&target.view, kSize, &fake_quad_evaluation_kernel<8>, gfx::TessDomain::Quads, spacing, 4);
      patch_levels.clear();
      for (uint32_t p = 0; p < kGrid * kGrid; ++p)  // shared edges: equal outer levels; inner levels all differ
        patch_levels.push_back({{3.7f, 3.7f, 3.7f, 3.7f}, {1.0f + 0.9f * float(p), 9.5f - 0.5f * float(p)}});
      add_quad_grid(d, kGrid);
      d.draw(uint32_t(d.vertices.size()), threads);
      for (uint32_t y = 0; y < kSize; ++y)
        for (uint32_t x = 0; x < kSize; ++x) {
          const VkClearColorValue v = target.color(x, y);
          ASSERT_EQ(v.float32[0], 1.0f) << "pixel " << x << "," << y << " spacing " << int(spacing) << " threads " << threads;
          const uint32_t patch = (y / kPatchPixels) * kGrid + x / kPatchPixels;
          ASSERT_EQ(v.float32[1], float(patch + 1)) << "PrimitiveId at " << x << "," << y;
        }
    }
  }
}

TEST(TessellatedDraw, TrianglePatchesSharingAnEdgeInOppositeDirectionsCoverEveryPixelOnce) {
  constexpr uint32_t kSize = 32;
  for (const gfx::TessSpacing spacing :
       {gfx::TessSpacing::Equal, gfx::TessSpacing::FractionalOdd, gfx::TessSpacing::FractionalEven}) {
    TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, kSize, kSize);
    TessellatedDraw d(&target.view, kSize, &fake_triangle_evaluation_kernel<8>, gfx::TessDomain::Triangles, spacing, 3);
    patch_levels = {{{5.3f, 4.1f, 2.6f, 0}, {2.2f, 0}}, {{5.3f, 6.6f, 1.4f, 0}, {7.9f, 0}}};
    // The diagonal from (1, -1) to (-1, 1) is the u = 0 edge of both patches (outer level 0),
    // run from v = 1 to w = 1 in the first and the other way in the second.
    d.point(-1, -1); d.point(1, -1); d.point(-1, 1);
    d.point(1, 1); d.point(-1, 1); d.point(1, -1);
    d.draw(6);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const VkClearColorValue v = target.color(x, y);
        ASSERT_EQ(v.float32[0], 1.0f) << "pixel " << x << "," << y << " spacing " << int(spacing);
        ASSERT_EQ(v.float32[1], x + y < kSize - 1 ? 1.0f : x + y > kSize - 1 ? 2.0f : v.float32[1]) << x << "," << y;
      }
  }
}

TEST(TessellatedDraw, PatchesWithAZeroOrNaNOuterLevelAreDiscardedAndCounted) {
  constexpr uint32_t kSize = 16;
  TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, kSize, kSize);
  TessellatedDraw d(&target.view, kSize, &fake_quad_evaluation_kernel<8>, gfx::TessDomain::Quads,
                    gfx::TessSpacing::Equal, 4);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  patch_levels = {{{1, 0, 1, 1}, {1, 1}}, {{1, 1, nan, 1}, {1, 1}}, {{1, 1, 1, -2}, {1, 1}}, {{2, 2, 2, 2}, {2, 2}}};
  add_quad_grid(d, 2);
  DrawCounters counters;
  d.prepare(uint32_t(d.vertices.size()));
  ThreadPool pool(1);
  run_draw(pool, d.cmd, &counters);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      EXPECT_EQ(target.color(x, y).float32[0], x >= 8 && y >= 8 ? 1.0f : 0.0f) << x << "," << y;
  EXPECT_EQ(counters.vertex_shader_invocations.load(), 16u);
  EXPECT_EQ(counters.tessellation_control_patches.load(), 4u);
  EXPECT_EQ(counters.tessellation_evaluation_invocations.load(), 9u);  // a 2 x 2 grid of quads: 3 x 3 points
}

// The producer reuses a patch's tessellation for the next patch with the same levels: a draw with
// other spacing (on the same worker, so the same scratch) must not get the previous draw's points.
TEST(TessellatedDraw, ReusedTessellationsFollowTheSpacingOfTheDraw) {
  constexpr uint32_t kSize = 16;
  ThreadPool pool(1);
  // Level 3.7: equal spacing makes 4 segments a side (5 x 5 points), fractional odd 5 (6 x 6).
  for (const auto& [spacing, points] : {std::pair{gfx::TessSpacing::Equal, 25u}, std::pair{gfx::TessSpacing::FractionalOdd, 36u},
                                        std::pair{gfx::TessSpacing::Equal, 25u}}) {
    TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, kSize, kSize);
    TessellatedDraw d(&target.view, kSize, &fake_quad_evaluation_kernel<8>, gfx::TessDomain::Quads, spacing, 4);
    patch_levels.assign(4, {{3.7f, 3.7f, 3.7f, 3.7f}, {3.7f, 3.7f}});
    add_quad_grid(d, 2);
    DrawCounters counters;
    d.prepare(uint32_t(d.vertices.size()));
    run_draw(pool, d.cmd, &counters);
    EXPECT_EQ(counters.tessellation_evaluation_invocations.load(), 4 * points) << "spacing " << int(spacing);
    EXPECT_EQ(target.color(3, 3).float32[0], 1.0f);
  }
}

TEST(TessellatedDraw, ControlBarrierWaitsForTheInvocationsOfOtherCalls) {
  constexpr uint32_t kSize = 16;
  for (const bool barrier : {true, false}) {
    TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, kSize, kSize);
    TessellatedDraw d(&target.view, kSize, &fake_quad_evaluation_kernel<8>, gfx::TessDomain::Quads,
                      gfx::TessSpacing::Equal, 4);
    d.kernels.tessellation->control = &fake_summing_control_kernel<8>;
    d.kernels.tessellation->output_vertices = 20;  // three calls of 8 lanes
    d.kernels.tessellation->control_vertex_bytes = 20 * kRecordSlots * 16;
    d.kernels.tessellation->control_uses_barrier = barrier;
    add_quad_grid(d, 1);
    DrawCounters counters;
    d.prepare(4);
    ThreadPool pool(1);
    run_draw(pool, d.cmd, &counters);
    // With the barrier every level is 20 x 0.125 = 2.5 (3 segments: 4 x 4 points); without it 8 x 0.125 = 1.
    EXPECT_EQ(counters.tessellation_evaluation_invocations.load(), barrier ? 16u : 4u);
    EXPECT_EQ(target.color(5, 5).float32[0], 1.0f);
  }
}

TEST(TessellatedDraw, MismatchedTopologyOrControlPointCountDrawsNothing) {
  constexpr uint32_t kSize = 16;
  TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, kSize, kSize);
  patch_levels = {{{1, 1, 1, 1}, {1, 1}}};
  for (const uint32_t control_points : {0u, 33u}) {
    TessellatedDraw d(&target.view, kSize, &fake_quad_evaluation_kernel<8>, gfx::TessDomain::Quads,
                      gfx::TessSpacing::Equal, 4);
    d.state.input_assembly.patch_control_points = control_points;
    add_quad_grid(d, 1);
    d.draw(4);
  }
  {  // tessellation kernels with a triangle list
    TessellatedDraw d(&target.view, kSize, &fake_quad_evaluation_kernel<8>, gfx::TessDomain::Quads,
                      gfx::TessSpacing::Equal, 4);
    d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    add_quad_grid(d, 1);
    d.draw(3);
  }
  {  // a patch list without tessellation kernels
    DrawSetup d(&target.view);
    d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    d.state.input_assembly.patch_control_points = 3;
    d.add(0, 0, kWhite); d.add(16, 0, kWhite); d.add(0, 16, kWhite);
    d.draw(3);
  }
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) ASSERT_EQ(target.color(x, y).float32[0], 0.0f) << x << "," << y;
}

// Primitive restart in patch lists: runs between cuts make patches, a run's incomplete last patch
// is dropped, and cuts in a row or at either end change nothing else.
TEST(TessellatedDraw, RestartCutsDropIncompletePatches) {
  constexpr int64_t kCut = gfx::kRestartCut;
  const std::vector<int64_t> ids = {kCut, 0, 1, 2, 3, 4, kCut, kCut, 5, 6, 7, 8, 9, 10, kCut, 11, 12, 13, 14};
  std::vector<int32_t> patches;
  gfx::assemble_patch_vertices(ids.data(), ids.size(), 3, patches);
  EXPECT_EQ(patches, (std::vector<int32_t>{0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13}));
  gfx::assemble_patch_vertices(ids.data(), ids.size(), 1, patches);
  EXPECT_EQ(patches.size(), 15u);
  gfx::assemble_patch_vertices(ids.data(), ids.size(), 32, patches);
  EXPECT_TRUE(patches.empty());
  gfx::assemble_patch_vertices(ids.data(), ids.size(), 0, patches);
  EXPECT_TRUE(patches.empty());
}

}  // namespace
}  // namespace kiln::exec::test
