// Merged triangles (pipeline/graphics/tile_backend.cpp, DrawRasterState::merge_triangles): quads
// of consecutive triangles share a fragment kernel call, each quad with its own triangle's
// interpolated inputs, FragCoord and depth. Overlapping small triangles with additive blending
// (and depth tests) must give the same samples as one call per triangle (the same kernel
// declaring it reads PrimitiveId), bit for bit — a pixel twice in one batch would lose a blend,
// a quad filled from another triangle's planes would change its colour or depth — and the calls
// must really be fewer.
#include <algorithm>
#include <random>

#include "draw_test_util.h"

namespace kiln::exec::test {
namespace {

// Kernel calls of the kernel below.
uint32_t g_calls = 0;

// Fragment kernel: a constant colour (nothing per triangle or per lane is read).
template <uint32_t W>
uint32_t constant_colour_kernel(const abi::FragmentInvocation* inv) {
  ++g_calls;
  constexpr float kColour[4] = {4.0f / 255.0f, 1.0f / 255.0f, 2.0f / 255.0f, 1.0f / 255.0f};
  for (uint32_t lane = 0; lane < W; ++lane)
    for (uint32_t c = 0; c < 4; ++c) inv->outputs[c * W + lane] = bits(kColour[c]);
  return inv->covered_mask;
}

// Small triangles piled on each other (and a few big ones), drawn with additive blending.
void draw_pile(bool merge, VkSampleCountFlagBits samples, uint32_t width, TestTarget& target) {
  constexpr uint32_t kW = 70, kH = 40;
  DrawSetup d(&target.view, kW, kH);
  d.kernels.fragment = width == 16 ? &constant_colour_kernel<16> : &constant_colour_kernel<8>;
  d.kernels.fragment_width = width;
  abi::FragmentInterface& fi = d.kernels.fragment_interface;
  fi.input_location_mask = 0;
  fi.reads_frag_coord = false;
  fi.reads_primitive_builtins = !merge;  // reading PrimitiveId keeps one call per triangle
  d.state.multisample.samples = samples;
  d.blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE);
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> centre(0.0f, 70.0f), unit(0.0f, 1.0f);
  constexpr uint32_t kTriangles = 600;
  for (uint32_t t = 0; t < kTriangles; ++t) {
    // Mostly within a few quads of (20, 20) so that neighbours share quads and pixels.
    const bool big = t % 50 == 7;
    const float size = big ? 40.0f : 3.0f;
    const float x = big ? centre(rng) : 16.0f + 8.0f * unit(rng), y = big ? centre(rng) * 0.5f : 16.0f + 8.0f * unit(rng);
    for (int v = 0; v < 3; ++v) {
      // Drawn one statement each: the order in which a call's arguments are evaluated differs
      // between compilers (GCC and clang made different piles).
      const float dx = size * (unit(rng) - 0.5f);
      const float dy = size * (unit(rng) - 0.5f);
      d.add(x + dx, y + dy, kOne, 0.5f, 1.0f, float(kW), float(kH));
    }
  }
  g_calls = 0;
  d.draw(3 * kTriangles);
}

// Fragment kernel: the interpolated colour, alpha replaced by FragCoord.z (per lane, per triangle).
template <uint32_t W>
uint32_t interpolated_colour_kernel(const abi::FragmentInvocation* inv) {
  ++g_calls;
  for (uint32_t lane = 0; lane < W; ++lane) {
    for (uint32_t c = 0; c < 3; ++c) inv->outputs[c * W + lane] = inv->inputs[c * W + lane];
    inv->outputs[3 * W + lane] = bits(inv->frag_coord[2 * W + lane]);
  }
  return inv->covered_mask;
}

// Small triangles with random colours and depths piled on each other, drawn with a depth test
// (LESS, writing) into `depth` and additive blending.
void draw_depth_tested_pile(bool merge, uint32_t width, TestTarget& color, TestTarget& depth) {
  constexpr uint32_t kW = 70, kH = 40;
  DrawSetup d(&color.view, kW, kH);
  d.kernels.fragment = width == 16 ? &interpolated_colour_kernel<16> : &interpolated_colour_kernel<8>;
  d.kernels.fragment_width = width;
  d.kernels.fragment_interface.reads_primitive_builtins = !merge;
  d.targets.depth = &depth.view;
  d.state.depth_stencil.depth_test = d.state.depth_stencil.depth_write = true;
  d.state.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
  d.state.multisample.samples = VkSampleCountFlagBits(color.image.desc.samples);
  d.blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  constexpr uint32_t kTriangles = 4000;
  for (uint32_t t = 0; t < kTriangles; ++t) {
    // Mostly about a pixel big, as a dense mesh's (a quad or two each); a few big ones, whose
    // whole 8x8 blocks take the block depth test.
    const bool big = t % 60 == 11;
    const float size = big ? 30.0f : 1.5f;
    const float x = 6.0f + 58.0f * unit(rng), y = 6.0f + 28.0f * unit(rng);
    for (int v = 0; v < 3; ++v) {
      const float dx = size * (unit(rng) - 0.5f);
      const float dy = size * (unit(rng) - 0.5f);
      const float z = 0.05f + 0.9f * unit(rng);
      const float colour[4] = {unit(rng) / 64, unit(rng) / 64, unit(rng) / 64, 1.0f};
      d.add(x + dx, y + dy, colour, z, 1.0f, float(kW), float(kH));
    }
  }
  g_calls = 0;
  d.draw(3 * kTriangles);
}

TEST(TriangleMerge, MergedInterpolationAndDepthMatchOneCallPerTriangle) {
  for (VkFormat depth_format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT}) {
    for (VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT}) {
      for (uint32_t width : {8u, 16u}) {
        SCOPED_TRACE(testing::Message() << "depth " << depth_format << " samples " << samples << " W " << width);
        TestTarget merged(VK_FORMAT_R32G32B32A32_SFLOAT, 70, 40, VK_IMAGE_ASPECT_COLOR_BIT, samples);
        TestTarget alone(VK_FORMAT_R32G32B32A32_SFLOAT, 70, 40, VK_IMAGE_ASPECT_COLOR_BIT, samples);
        TestTarget merged_depth(depth_format, 70, 40, VK_IMAGE_ASPECT_DEPTH_BIT, samples);
        TestTarget alone_depth(depth_format, 70, 40, VK_IMAGE_ASPECT_DEPTH_BIT, samples);
        merged_depth.fill_depth(1.0f);
        alone_depth.fill_depth(1.0f);
        draw_depth_tested_pile(true, width, merged, merged_depth);
        const uint32_t merged_calls = g_calls;
        draw_depth_tested_pile(false, width, alone, alone_depth);
        const uint32_t alone_calls = g_calls;
        EXPECT_EQ(merged.storage, alone.storage);
        EXPECT_EQ(merged_depth.storage, alone_depth.storage);
        // Depth tests kept some of the pile and blending added up what passed: the image is not
        // one flat colour, and merging saved calls (these triangles straddle two or three quads
        // on average, so a 16-lane call holds quads of about two of them).
        uint32_t drawn = 0;
        for (uint32_t y = 0; y < 40; ++y)
          for (uint32_t x = 0; x < 70; ++x) drawn += alone.color(x, y).float32[3] > 0.0f;
        EXPECT_GT(drawn, 1500u);
        EXPECT_LT(merged_calls, alone_calls);
        if (width == 16 && samples == VK_SAMPLE_COUNT_1_BIT) EXPECT_LT(merged_calls * 4, alone_calls * 3);
      }
    }
  }
}

// A whole 8x8 block takes the block depth test (and writes its depth) as it is rasterized, while
// quads of an earlier merged triangle may still wait in the batch for theirs: those must be tested
// first. A small near triangle, then a big far one over the same pixels: the near one's pixels
// stay its colour only.
TEST(TriangleMerge, BlockDepthTestsComeAfterEarlierMergedQuads) {
  for (uint32_t width : {8u, 16u}) {
    TestTarget color(VK_FORMAT_R32G32B32A32_SFLOAT, 32, 32);
    TestTarget depth(VK_FORMAT_D32_SFLOAT, 32, 32, VK_IMAGE_ASPECT_DEPTH_BIT);
    depth.fill_depth(1.0f);
    DrawSetup d(&color.view, 32, 32);
    d.kernels.fragment = width == 16 ? &interpolated_colour_kernel<16> : &interpolated_colour_kernel<8>;
    d.kernels.fragment_width = width;
    d.targets.depth = &depth.view;
    d.state.depth_stencil.depth_test = d.state.depth_stencil.depth_write = true;
    d.state.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
    d.blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE);
    const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1};
    d.add(1.0f, 1.0f, red, 0.2f, 1, 32, 32);  // pixels (1, 1), (2, 1), (1, 2), in the first block below
    d.add(3.5f, 1.0f, red, 0.2f, 1, 32, 32);
    d.add(1.0f, 3.5f, red, 0.2f, 1, 32, 32);
    d.add(0.0f, 0.0f, green, 0.5f, 1, 32, 32);  // the upper left half: whole blocks at (0, 0), (8, 0), ...
    d.add(32.0f, 0.0f, green, 0.5f, 1, 32, 32);
    d.add(0.0f, 32.0f, green, 0.5f, 1, 32, 32);
    d.draw(6);
    EXPECT_EQ(color.color(1, 1).float32[0], 1.0f) << "W " << width;
    EXPECT_EQ(color.color(1, 1).float32[1], 0.0f) << "W " << width << ": the far triangle passed over the near one";
    EXPECT_EQ(color.color(20, 4).float32[1], 1.0f) << "W " << width;
  }
}

TEST(TriangleMerge, MergedBatchesMatchOneCallPerTriangle) {
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT}) {
    for (VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT}) {
      for (uint32_t width : {8u, 16u}) {
        TestTarget merged(format, 70, 40, VK_IMAGE_ASPECT_COLOR_BIT, samples);
        TestTarget alone(format, 70, 40, VK_IMAGE_ASPECT_COLOR_BIT, samples);
        draw_pile(true, samples, width, merged);
        const uint32_t merged_calls = g_calls;
        draw_pile(false, samples, width, alone);
        const uint32_t alone_calls = g_calls;
        EXPECT_EQ(merged.storage, alone.storage) << "format " << format << " samples " << samples << " W " << width;
        // The pile overlaps itself many times over (blending adds up: 4/255 a triangle), and
        // merging saved calls.
        float most_red = 0.0f;
        for (uint32_t y = 0; y < 40; ++y)
          for (uint32_t x = 0; x < 70; ++x) most_red = std::max(most_red, alone.color(x, y).float32[0]);
        EXPECT_GT(most_red, 32.0f / 255.0f) << "format " << format;  // more than 8 triangles
        if (width == 16) EXPECT_LT(merged_calls * 3, alone_calls * 2) << "format " << format;
        EXPECT_LT(merged_calls, alone_calls) << "format " << format << " W " << width;
      }
    }
  }
}

}  // namespace
}  // namespace kiln::exec::test
