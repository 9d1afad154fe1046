// Scenes of several draws (pipeline/draw.h DrawScene): tiles run through every draw in API
// order, and a triangle that replaces every colour sample of a tile drops earlier work there
// only when that work's sole effect was colour writes of the same targets, view and layer.
#include <algorithm>
#include <atomic>
#include <vector>

#include "draw_test_util.h"

namespace kiln::exec::test {
namespace {

constexpr uint32_t kWidth = 160, kHeight = 96;  // 3 x 2 tiles, the last column and row partial
constexpr float kRed[4] = {1, 0, 0, 1}, kGreen[4] = {0, 1, 0, 1}, kBlue[4] = {0, 0, 1, 1};

// Lanes shaded by fake_counting_kernel (real fragments only).
std::atomic<uint64_t> shaded_fragments{0};
template <uint32_t W>
uint32_t fake_counting_kernel(const abi::FragmentInvocation* inv) {
  shaded_fragments += uint32_t(__builtin_popcount(inv->covered_mask));
  return fake_color_kernel<W>(inv);
}

// A rectangle [x0, x1) x [y0, y1) of framebuffer pixels as two triangles.
void rect(DrawSetup& d, float x0, float y0, float x1, float y1, const float color[4], float z = 0.5f,
          int32_t layer = 0) {
  for (auto [x, y] : {std::pair{x0, y0}, {x1, y0}, {x1, y1}, {x0, y0}, {x1, y1}, {x0, y1}}) {
    d.add(x, y, color, z, 1, kWidth, kHeight);
    d.vertices.back().layer = layer;
  }
}

// One triangle whose right edge is x = x1 and whose other edges lie far outside the target, so it
// covers [0, x1) x [0, kHeight) exactly (a rectangle's two triangles each cover few whole tiles).
void left_part(DrawSetup& d, float x1, const float color[4]) {
  for (auto [x, y] : {std::pair{x1, -1000.f}, {x1, 1000.f}, {-1000.f, 48.f}}) d.add(x, y, color, 0.5f, 1, kWidth, kHeight);
}

// Draws of one render pass instance: all share the first draw's render targets.
struct Scene {
  std::vector<std::unique_ptr<DrawSetup>> draws;
  DrawSetup& add(const mem::ImageView* color) {
    draws.push_back(std::make_unique<DrawSetup>(color, kWidth, kHeight));
    return *draws.back();
  }
  std::vector<ClearViewCmd> clears;  // load-op clears, queued before the draws
  void clear(const mem::ImageView& view, VkImageAspectFlags aspects, VkClearValue value) {
    ClearViewCmd c{};
    c.type = CommandType::ClearView;
    c.view = &view;
    c.aspects = aspects;
    c.value = value;
    c.rect = {{0, 0}, {kWidth, kHeight}};
    clears.push_back(c);
  }
  void run(unsigned threads = 2) {
    ThreadPool pool(threads);
    DrawScene scene;
    for (const ClearViewCmd& c : clears) scene.add_clear(pool, c);
    for (auto& d : draws) {
      d->prepare(uint32_t(d->vertices.size()));
      d->cmd.targets = &draws.front()->targets;
      scene.add(pool, d->cmd, nullptr);
    }
    scene.flush(pool);
  }
};

// A full-target red draw whose fragments fake_counting_kernel counts.
void add_counted_red_fill(Scene& s, TestTarget& color) {
  DrawSetup& under = s.add(&color.view);
  under.kernels.fragment = &fake_counting_kernel<8>;
  rect(under, 0, 0, kWidth, kHeight, kRed);
}

void expect_colour(TestTarget& t, uint32_t x, uint32_t y, const float rgba[4], uint32_t layer = 0) {
  const VkClearColorValue c = t.color(x, y, 0, layer);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(c.float32[i], rgba[i]) << "pixel " << x << "," << y << " channel " << i;
}

TEST(DrawScene, OpaqueCoverDropsEarlierColourWorkOnlyInTilesItFillsWhole) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight);
  Scene s;
  add_counted_red_fill(s, color);
  DrawSetup& cover = s.add(&color.view);
  left_part(cover, 100, kGreen);  // tiles x 0..63 whole, 64..99 of the second column
  shaded_fragments = 0;
  s.run();
  expect_colour(color, 10, 10, kGreen);
  expect_colour(color, 99, 95, kGreen);
  expect_colour(color, 100, 0, kRed);
  expect_colour(color, 159, 95, kRed);
  // The first column of tiles (64 x 96 pixels) is covered whole: the red draw never shades it.
  EXPECT_EQ(shaded_fragments.load(), uint64_t(kWidth - 64) * kHeight);
}

TEST(DrawScene, CoverThatReadsInputAttachmentsDropsNothing) {
  // Its shader may read (subpassLoad) what the earlier draw wrote under it.
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight);
  Scene s;
  add_counted_red_fill(s, color);
  DrawSetup& cover = s.add(&color.view);
  cover.kernels.fragment_interface.reads_input_attachments = true;
  left_part(cover, kWidth, kGreen);
  shaded_fragments = 0;
  s.run();
  EXPECT_EQ(shaded_fragments.load(), uint64_t(kWidth) * kHeight);
  expect_colour(color, 70, 70, kGreen);
}

TEST(DrawScene, BlendedDrawAfterAnOpaqueCoverBlendsWithIt) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight);
  Scene s;
  rect(s.add(&color.view), 0, 0, kWidth, kHeight, kRed);
  rect(s.add(&color.view), 0, 0, kWidth, kHeight, kGreen);
  DrawSetup& add = s.add(&color.view);
  add.blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE);
  rect(add, 0, 0, kWidth, kHeight, kBlue);
  s.run();
  const float cyan[4] = {0, 1, 1, 1};
  for (uint32_t y : {0u, 70u}) for (uint32_t x : {0u, 70u, 150u}) expect_colour(color, x, y, cyan);
}

TEST(DrawScene, WorkWithOtherEffectsIsNeverDropped) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight);
  TestTarget depth(VK_FORMAT_D32_SFLOAT, kWidth, kHeight, VK_IMAGE_ASPECT_DEPTH_BIT);
  depth.fill_depth(1.0f);
  Scene s;
  // Depth writes must survive a colour-only cover.
  DrawSetup& depth_writer = s.add(&color.view);
  depth_writer.targets.depth = &depth.view;
  depth_writer.state.depth_stencil.depth_test = depth_writer.state.depth_stencil.depth_write = true;
  depth_writer.state.depth_stencil.depth_compare = VK_COMPARE_OP_ALWAYS;
  rect(depth_writer, 0, 0, kWidth, kHeight, kRed, 0.25f);
  // So must a shader's memory writes (counted here).
  DrawSetup& side_effects = s.add(&color.view);
  side_effects.kernels.fragment = &fake_counting_kernel<8>;
  side_effects.kernels.fragment_interface.has_side_effects = true;
  rect(side_effects, 0, 0, kWidth, kHeight, kBlue);
  // A cover that discards (here: fragments whose red > 0.5) replaces nothing for sure.
  DrawSetup& discarding = s.add(&color.view);
  discarding.kernels.fragment = &fake_discard_kernel<8>;
  discarding.kernels.fragment_interface.can_discard = true;
  rect(discarding, 0, 0, kWidth, kHeight, kRed);
  shaded_fragments = 0;
  s.run();
  EXPECT_EQ(shaded_fragments.load(), uint64_t(kWidth) * kHeight);
  for (uint32_t y : {0u, 95u}) for (uint32_t x : {0u, 64u, 159u}) {
    EXPECT_EQ(depth.depth(x, y), 0.25f);
    expect_colour(color, x, y, kBlue);  // the discarding draw kept none of its fragments
  }
}

TEST(DrawScene, CoverOfOneLayerKeepsTheOthers) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight, VK_IMAGE_ASPECT_COLOR_BIT, VK_SAMPLE_COUNT_1_BIT, 2);
  Scene s;
  for (int32_t layer : {1, 0}) {
    DrawSetup& d = s.add(&color.view);
    d.targets.layer_count = 2;
    d.kernels.vertex_outputs.layer_slot = 4;
    if (layer)
      rect(d, 0, 0, kWidth, kHeight, kRed, 0.5f, layer);
    else
      left_part(d, kWidth, kGreen);  // covers every tile of layer 0 whole
  }
  s.run();
  expect_colour(color, 5, 5, kGreen, 0);
  expect_colour(color, 5, 5, kRed, 1);
}

TEST(DrawScene, LoadClearsRunInOrderAndOnlyColourClearsOfWrittenAttachmentsAreReplaced) {
  // The colour clear comes last, right before the draw (so it may be dropped); the clear of
  // another image and the depth clear before it, in both orders, must stay.
  for (bool depth_first : {true, false}) {
    TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight), other(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight);
    TestTarget depth(VK_FORMAT_D32_SFLOAT, kWidth, kHeight, VK_IMAGE_ASPECT_DEPTH_BIT);
    Scene s;
    VkClearValue blue{}, half{};
    blue.color.float32[2] = blue.color.float32[3] = 1.0f;
    half.depthStencil.depth = 0.5f;
    if (depth_first) s.clear(depth.view, VK_IMAGE_ASPECT_DEPTH_BIT, half);
    s.clear(other.view, VK_IMAGE_ASPECT_COLOR_BIT, blue);  // not an attachment of the draw
    if (!depth_first) s.clear(depth.view, VK_IMAGE_ASPECT_DEPTH_BIT, half);
    s.clear(color.view, VK_IMAGE_ASPECT_COLOR_BIT, blue);
    DrawSetup& d = s.add(&color.view);
    d.targets.depth = &depth.view;
    left_part(d, 100, kGreen);  // no depth test: colour only; replaces the colour clear left of x = 64
    s.run();
    expect_colour(color, 0, 0, kGreen);
    expect_colour(color, 99, 95, kGreen);
    expect_colour(color, 100, 0, kBlue);
    for (uint32_t x : {0u, 159u}) {
      expect_colour(other, x, 50, kBlue);
      EXPECT_EQ(depth.depth(x, 50), 0.5f) << depth_first;
    }
  }
}

TEST(DrawScene, OverdrawRemovalKeepsTheImageAndShadesOnlyWhatShows) {
  // A load clear, a full red draw, a draw whose one batch holds small triangles before its cover
  // (dropping within a batch), a full green cover, then work after the last cover that must all
  // run: an opaque partial rectangle and an additive one. Every thread count gives the image of
  // the commands run in order, pixel by pixel, while shading only the cover and what follows it.
  constexpr uint32_t kPx0 = 20, kPx1 = 140, kPy0 = 16, kPy1 = 72;  // opaque red, after the cover
  constexpr uint32_t kAx0 = 100, kAx1 = kWidth, kAy0 = 50, kAy1 = kHeight;  // + blue
  for (unsigned threads : {1u, 2u, 4u}) {
    TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight);
    Scene s;
    VkClearValue white{};
    for (float& c : white.color.float32) c = 1.0f;
    s.clear(color.view, VK_IMAGE_ASPECT_COLOR_BIT, white);
    auto counted = [&]() -> DrawSetup& {
      DrawSetup& d = s.add(&color.view);
      d.kernels.fragment = &fake_counting_kernel<8>;
      return d;
    };
    rect(counted(), 0, 0, kWidth, kHeight, kRed);
    DrawSetup& small_then_cover = counted();
    for (float x = 0; x < 150; x += 10) rect(small_then_cover, x, 5, x + 8, 30, kWhite);
    left_part(small_then_cover, kWidth, kBlue);
    left_part(counted(), kWidth, kGreen);
    rect(counted(), kPx0, kPy0, kPx1, kPy1, kRed);
    DrawSetup& add = counted();
    add.blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE);
    rect(add, kAx0, kAy0, kAx1, kAy1, kBlue);
    shaded_fragments = 0;
    s.run(threads);
    for (uint32_t y = 0; y < kHeight; ++y)
      for (uint32_t x = 0; x < kWidth; ++x) {
        const bool red = x >= kPx0 && x < kPx1 && y >= kPy0 && y < kPy1;
        const bool blue = x >= kAx0 && x < kAx1 && y >= kAy0 && y < kAy1;
        const float want[4] = {red ? 1.0f : 0.0f, red ? 0.0f : 1.0f, blue ? 1.0f : 0.0f, 1.0f};
        const VkClearColorValue c = color.color(x, y);
        ASSERT_TRUE(std::equal(want, want + 4, c.float32))
            << "pixel " << x << "," << y << " with " << threads << " threads: " << c.float32[0] << " "
            << c.float32[1] << " " << c.float32[2] << " " << c.float32[3];
      }
    // Every tile is covered whole by each cover: the red draw, the small triangles and the blue
    // cover are never shaded; the green cover and everything after it are.
    EXPECT_EQ(shaded_fragments.load(),
              uint64_t(kWidth) * kHeight + (kPx1 - kPx0) * (kPy1 - kPy0) + (kAx1 - kAx0) * (kAy1 - kAy0))
        << threads << " threads";
  }
}

TEST(DrawScene, ScatteredTrianglesOfOneBatchKeepTheirOrder) {
  // One batch of a few small triangles spread over a 32 x 32 tile target, overlapping in pairs
  // and blended, so any change of order within a tile or a lost tile shows.
  constexpr uint32_t kSize = 2048, kTriangles = 40;
  auto draw_all = [&](bool one_at_a_time, unsigned threads) {
    TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize);
    std::vector<std::unique_ptr<DrawSetup>> draws;
    auto new_draw = [&]() -> DrawSetup& {
      draws.push_back(std::make_unique<DrawSetup>(&color.view, kSize, kSize));
      draws.back()->blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA);
      return *draws.back();
    };
    DrawSetup* all = one_at_a_time ? nullptr : &new_draw();
    for (uint32_t i = 0; i < kTriangles; ++i) {
      DrawSetup& d = all ? *all : new_draw();
      const float x = float(i / 2 * 997 % (kSize - 40)), y = float(i / 2 * 1409 % (kSize - 40)) + float(i % 2 * 7);
      const float c[4] = {float(i % 3) / 2, float(i % 5) / 4, float(i % 7) / 6, 0.5f};
      for (auto [vx, vy] : {std::pair{x, y}, {x + 30, y + 4}, {x + 6, y + 33}}) d.add(vx, vy, c, 0.5f, 1, kSize, kSize);
      if (!all) d.draw(3, threads);
    }
    if (all) all->draw(3 * kTriangles, threads);
    return color.storage;
  };
  const std::vector<uint8_t> reference = draw_all(true, 1);
  EXPECT_NE(std::count(reference.begin(), reference.end(), 0), ptrdiff_t(reference.size()));
  for (unsigned threads : {1u, 2u}) EXPECT_TRUE(draw_all(false, threads) == reference) << threads << " threads";
}

TEST(DrawScene, ManyDrawsEqualDrawingOneAtATime) {
  // More batches than one scene keeps, so the scene renders in parts; the draws overlap, a third
  // of them blended, so any change of order shows.
  auto draw_all = [](bool one_at_a_time, unsigned threads) {
    TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight);
    Scene s;
    for (uint32_t i = 0; i < 1500; ++i) {
      DrawSetup& d = s.add(&color.view);
      if (i % 3 == 0) d.blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA);
      const float c[4] = {float(i % 7) / 7, float(i % 11) / 11, float(i % 13) / 13, 0.5f};
      const float x = float(i * 37 % kWidth), y = float(i * 53 % kHeight);
      rect(d, x - 40, y - 30, x + 40, y + 30, c);
      if (one_at_a_time) d.draw(uint32_t(d.vertices.size()));
    }
    if (!one_at_a_time) s.run(threads);
    return color.storage;
  };
  const std::vector<uint8_t> reference = draw_all(true, 1);
  EXPECT_NE(std::count(reference.begin(), reference.end(), 0), ptrdiff_t(reference.size()));
  EXPECT_TRUE(draw_all(false, 1) == reference);
  EXPECT_TRUE(draw_all(false, 2) == reference);
}

}  // namespace
}  // namespace kiln::exec::test
