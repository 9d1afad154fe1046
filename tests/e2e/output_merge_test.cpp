// The output merger end to end, against per-sample CPU references: every depth compare op on a
// D32 attachment (the merger's vectorised depth test) at 1 and 4 samples, on a target whose odd
// size leaves partial 2x2 quads at the right and bottom edges.
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kWidth = 37, kHeight = 29;  // odd: the last column and row are half quads

// Vulkan's standard sample locations ("Multisampling") for 1 and 4 samples, in 1/16 pixel.
std::vector<std::array<int, 2>> sample_locations(uint32_t samples) {
  if (samples == 4) return {{{6, 2}}, {{14, 6}}, {{2, 10}}, {{10, 14}}};
  return {{{8, 8}}};
}

// An axis-aligned rectangle in clip space at depth z, in one colour. Its edges are chosen away
// from pixel centres and sample locations, so coverage does not depend on the fill rule.
struct DepthRect {
  float x0, y0, x1, y1, z;
  std::array<float, 4> color;
  bool covers(double px, double py) const {  // framebuffer coordinates
    const double left = (x0 + 1.0) / 2 * kWidth, right = (x1 + 1.0) / 2 * kWidth;
    const double top = (y0 + 1.0) / 2 * kHeight, bottom = (y1 + 1.0) / 2 * kHeight;
    return px > left && px < right && py > top && py < bottom;
  }
};

bool compare(VkCompareOp op, float a, float b) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return a < b;
    case VK_COMPARE_OP_EQUAL: return a == b;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return a <= b;
    case VK_COMPARE_OP_GREATER: return a > b;
    case VK_COMPARE_OP_NOT_EQUAL: return a != b;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return a >= b;
    default: return true;
  }
}

class OutputMergeTest : public VulkanTest, public ::testing::WithParamInterface<VkSampleCountFlagBits> {};

// Depth cleared to 0.5, then four rectangles at depths below, equal to, above and below the clear
// value, overlapping in different ways (one covers everything). Each sample keeps the colour of
// the last rectangle that passed against the depth stored before it; the resolved colour is the
// average over the samples (±1 for rounding). Also with depth writes off (every test is against
// the clear value).
TEST_P(OutputMergeTest, EveryDepthCompareOpMatchesThePerSampleReference) {
  const VkSampleCountFlagBits samples = GetParam();
  const std::vector<DepthRect> rects = {
      {-1.0f, -1.0f, 0.3013f, 1.0f, 0.25f, {1, 0, 0, 1}},
      {-1.0f, -1.0f, 1.0f, 1.0f, 0.5f, {0, 1, 0, 1}},
      {-0.6231f, -0.4513f, 1.0f, 1.0f, 0.75f, {0, 0, 1, 1}},
      {-0.2913f, -0.8117f, 0.5587f, 0.1379f, 0.125f, {1, 1, 1, 1}},
  };
  std::vector<ColoredVertex> vertices;
  for (const DepthRect& r : rects) {
    const std::vector<ColoredVertex> v = rect(r.x0, r.y0, r.x1, r.y1, r.z, r.color);
    vertices.insert(vertices.end(), v.begin(), v.end());
  }
  Buffer vb = vertex_buffer(device(), vertices);
  const auto locations = sample_locations(samples);
  for (const bool write : {true, false}) {
    for (int op = VK_COMPARE_OP_NEVER; op <= VK_COMPARE_OP_ALWAYS; ++op) {
      const auto compare_op = static_cast<VkCompareOp>(op);
      SCOPED_TRACE("compare op " + std::to_string(op) + (write ? ", depth writes" : ", no depth writes"));
      DrawJobOptions o = colored_options();
      o.width = kWidth, o.height = kHeight;
      o.samples = samples;
      o.depth_format = VK_FORMAT_D32_SFLOAT;
      o.depth_stencil.depthTestEnable = VK_TRUE;
      o.depth_stencil.depthWriteEnable = write;
      o.depth_stencil.depthCompareOp = compare_op;
      DrawJob job(device(), o);
      ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
      job.draw(kBlack, [&](VkCommandBuffer cb) {
        bind_vertices(cb, vb);
        vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
      }, 0.5f);
      const std::vector<uint8_t> pixels = job.read_color();
      check_rgba8(pixels, "resolved colour", [&](uint32_t x, uint32_t y) {
        std::array<float, 4> sum{};
        for (const auto& location : locations) {
          float stored = 0.5f;
          std::array<float, 4> color{};
          for (const DepthRect& r : rects) {
            if (!r.covers(x + location[0] / 16.0, y + location[1] / 16.0) || !compare(compare_op, r.z, stored)) continue;
            color = r.color;
            if (write) stored = r.z;
          }
          for (int c = 0; c < 4; ++c) sum[c] += color[c];
        }
        std::array<int, 4> want{};
        for (int c = 0; c < 4; ++c) want[c] = int(std::lround(255.0 * sum[c] / locations.size()));
        return want;
      }, samples == 1 ? 0 : 1, kWidth, kHeight);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, OutputMergeTest, ::testing::Values(VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT),
                         [](const ::testing::TestParamInfo<VkSampleCountFlagBits>& info) {
                           return "x" + std::to_string(int(info.param));
                         });

}  // namespace
}  // namespace kiln::test
