// Whole draws through the front end with its AVX-512 paths (batched setup, screen_vertices_x16)
// on and off must give the same image byte for byte: blended, overlapping triangles (order
// matters) of all sizes, some clipped by the near/far planes between unclipped ones (the batched
// setup must hand its queued triangles over before a clipped one is set up: the image must also
// be the one of drawing each triangle by itself), some off-screen, some back-facing, with and
// without culling.
#include <random>

#include "draw_test_util.h"
#include "pipeline/graphics/setup_batch.h"

namespace kiln::exec::test {
namespace {

// `one_at_a_time`: every triangle in its own draw (nothing to batch: the API order reference).
std::vector<uint8_t> render(bool avx512, VkCullModeFlags cull, bool indexed, bool one_at_a_time = false) {
  const bool had = gfx::front_end_avx512;
  gfx::front_end_avx512 = avx512;
  TestTarget t(VK_FORMAT_R8G8B8A8_UNORM, 200, 150);
  DrawSetup d(&t.view, 200, 150);
  d.blend(VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA);
  d.state.rasterization.cull_mode = cull;
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> px(-30, 230), unit(0, 1);
  for (int i = 0; i < 1500; ++i) {
    const float color[4] = {unit(rng), unit(rng), unit(rng), unit(rng)};
    const float x = px(rng), y = px(rng) * 0.75f;
    const float size = i % 50 == 0 ? 150.0f : i % 7 == 0 ? 20.0f : 3.0f;
    // Every ninth triangle crosses the near or far plane: clipped between unclipped ones.
    const bool clipped = i % 9 == 4;
    for (int k = 0; k < 3; ++k) {
      const float z = clipped ? (k == 0 ? (i % 2 ? -0.5f : 1.5f) : 0.5f) : unit(rng);
      d.add(x + (unit(rng) - 0.5f) * size, y + (unit(rng) - 0.5f) * size, color, z, 0.5f + unit(rng), 200, 150);
    }
  }
  if (indexed) {  // the same triangles through an index buffer, each vertex used twice
    std::vector<uint32_t> indices;
    for (uint32_t v = 0; v + 2 < d.vertices.size(); v += 3)
      for (uint32_t rep = 0; rep < 2; ++rep) indices.insert(indices.end(), {v, v + 1 + rep, v + 2 - rep});
    d.set_indices(indices, VK_INDEX_TYPE_UINT32);
    d.draw(uint32_t(indices.size()), 1, true);
  } else if (one_at_a_time) {
    for (uint32_t first = 0; first < d.vertices.size(); first += 3) {
      d.cmd.first = first;
      d.draw(3);
    }
  } else {
    d.draw(uint32_t(d.vertices.size()));
  }
  gfx::front_end_avx512 = had;
  return t.storage;
}

TEST(FrontEndAvx512, DrawsMatchTheScalarPathByteForByte) {
  if (!gfx::front_end_avx512) GTEST_SKIP() << "no AVX-512: the front end always takes the scalar path here";
  for (VkCullModeFlags cull : {VkCullModeFlags(VK_CULL_MODE_NONE), VkCullModeFlags(VK_CULL_MODE_BACK_BIT)})
    for (bool indexed : {false, true}) {
      const std::vector<uint8_t> scalar = render(false, cull, indexed), x16 = render(true, cull, indexed);
      size_t covered = 0;
      for (size_t i = 3; i < scalar.size(); i += 4) covered += scalar[i] != 0;
      EXPECT_GT(covered, scalar.size() / 4 / 4) << "the scene covers a quarter of the pixels at least";
      EXPECT_EQ(x16, scalar) << "cull " << cull << ", indexed " << indexed;
      if (!indexed) EXPECT_EQ(x16, render(true, cull, false, true)) << "cull " << cull << ": not in API order";
    }
}

}  // namespace
}  // namespace kiln::exec::test
