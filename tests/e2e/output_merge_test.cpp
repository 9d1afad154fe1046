// The output merger end to end, against per-sample CPU references: every depth compare op on D32
// (the merger's vectorised depth test), D16 and D24 attachments at 1 and 4 samples, on a target whose odd
// size leaves partial 2x2 quads at the right and bottom edges; dual-source blending with every
// SRC1 factor.
#include <algorithm>
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
// the clear value), and for D16/D24 attachments (these depths stay ordered and equal after
// quantisation), where supported.
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
  for (const VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32,
                                VK_FORMAT_D24_UNORM_S8_UINT}) {
  VkFormatProperties properties{};
  vkGetPhysicalDeviceFormatProperties(physical_device(), format, &properties);
  if (!(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) continue;
  for (const bool write : {true, false}) {
    for (int op = VK_COMPARE_OP_NEVER; op <= VK_COMPARE_OP_ALWAYS; ++op) {
      const auto compare_op = static_cast<VkCompareOp>(op);
      SCOPED_TRACE("format " + std::to_string(format) + ", compare op " + std::to_string(op) +
                   (write ? ", depth writes" : ", no depth writes"));
      DrawJobOptions o = colored_options();
      o.width = kWidth, o.height = kHeight;
      o.samples = samples;
      o.depth_format = format;
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
}

INSTANTIATE_TEST_SUITE_P(Samples, OutputMergeTest, ::testing::Values(VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT),
                         [](const ::testing::TestParamInfo<VkSampleCountFlagBits>& info) {
                           return "x" + std::to_string(int(info.param));
                         });

class DualSourceBlendTest : public VulkanTest {};

// draw_dual_source.frag's second source at pixel (x, y).
std::array<float, 4> source1(uint32_t x, uint32_t y) {
  return {x / 64.0f, y / 64.0f, (x + y) / 128.0f, 1.0f - x / 64.0f};
}

float blend_factor(VkBlendFactor f, int channel, const std::array<float, 4>& s, const std::array<float, 4>& s1,
                   const std::array<float, 4>& d) {
  switch (f) {
    case VK_BLEND_FACTOR_ZERO: return 0;
    case VK_BLEND_FACTOR_ONE: return 1;
    case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1 - s[3];
    case VK_BLEND_FACTOR_DST_COLOR: return d[channel];
    case VK_BLEND_FACTOR_SRC1_COLOR: return s1[channel];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1 - s1[channel];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return 1 - s1[3];
    default: ADD_FAILURE() << "factor " << f << " has no reference"; return 0;
  }
}

// Every SRC1 factor as the source and as the destination factor of colour and alpha (and the
// classic SRC1_ALPHA / ONE_MINUS_SRC1_ALPHA pair): a rectangle of one colour blended over a clear
// colour with the shader's per-pixel second source, each pixel against the blend equation in
// float (±1 for rounding). Ops ADD and REVERSE_SUBTRACT.
TEST_F(DualSourceBlendTest, EverySrc1FactorMatchesTheReference) {
  REQUIRE_ON_KILN(features().core.features.dualSrcBlend, "dualSrcBlend");
  EXPECT_GE(properties().limits.maxFragmentDualSrcAttachments, 1u);
  DeviceFeatures enabled;
  enabled.core.features.dualSrcBlend = VK_TRUE;
  TestDevice& dev = *create_device(enabled);
  const std::array<float, 4> color = {0.9f, 0.3f, 0.55f, 0.25f};
  const VkClearColorValue clear{.float32 = {0.2f, 0.6f, 0.4f, 0.8f}};  // exact in 8 bits
  const std::array<float, 4> dst = {0.2f, 0.6f, 0.4f, 0.8f};
  struct Case {
    VkBlendFactor src, dst;
    VkBlendOp op;
  };
  std::vector<Case> cases;
  for (VkBlendFactor f : {VK_BLEND_FACTOR_SRC1_COLOR, VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR, VK_BLEND_FACTOR_SRC1_ALPHA,
                          VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA}) {
    cases.push_back({f, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD});
    cases.push_back({VK_BLEND_FACTOR_ONE, f, VK_BLEND_OP_ADD});
    cases.push_back({f, VK_BLEND_FACTOR_DST_COLOR, VK_BLEND_OP_REVERSE_SUBTRACT});
  }
  cases.push_back({VK_BLEND_FACTOR_SRC1_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA, VK_BLEND_OP_ADD});
  const std::vector<ColoredVertex> vertices = rect(-1, -1, 1, 1, 0.5f, color);
  Buffer vb = vertex_buffer(dev, vertices);
  for (const Case& c : cases) {
    SCOPED_TRACE("factors " + std::to_string(c.src) + " / " + std::to_string(c.dst) + " op " + std::to_string(c.op));
    for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_A8B8G8R8_UNORM_PACK32}) {  // fast and generic paths
      SCOPED_TRACE(format == VK_FORMAT_R8G8B8A8_UNORM ? "R8G8B8A8_UNORM" : "A8B8G8R8_UNORM_PACK32");
      DrawJobOptions o = colored_options();
      o.fragment_shader = "draw_dual_source.frag";
      o.color_format = format;
      o.blend = {VK_TRUE, c.src, c.dst, c.op, c.src, c.dst, c.op, 0xF};
      DrawJob job(dev, o);
      ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
      job.draw(clear, [&](VkCommandBuffer cb) {
        bind_vertices(cb, vb);
        vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
      });
      check_rgba8(job.read_color(), "blended", [&](uint32_t x, uint32_t y) {
        const std::array<float, 4> s1 = source1(x, y);
        std::array<int, 4> want{};
        for (int i = 0; i < 4; ++i) {
          const float s = color[i] * blend_factor(c.src, i, color, s1, dst);
          const float d = dst[i] * blend_factor(c.dst, i, color, s1, dst);
          const float v = std::clamp(c.op == VK_BLEND_OP_ADD ? s + d : d - s, 0.0f, 1.0f);
          want[i] = int(std::lround(v * 255.0f));
        }
        return want;
      }, 1);
    }
  }
}

}  // namespace
}  // namespace kiln::test
