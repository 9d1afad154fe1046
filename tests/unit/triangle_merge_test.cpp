// Merged triangles (pipeline/graphics/tile_backend.cpp, DrawRasterState::merge_triangles): a
// fragment shader that reads nothing of its triangle shades quads of consecutive triangles in one
// kernel call. Overlapping small triangles with additive blending must give the same samples as
// one call per triangle (the same kernel declaring it reads PrimitiveId), bit for bit — a pixel
// twice in one batch would lose a blend — and the calls must really be fewer.
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
