// Tessellation end to end, through the loader with the validation layer: control and evaluation
// shaders (tests/shaders/tess_*), the fixed-function tessellator and the pipeline statistics it
// drives. Expected images are computed from the spec's rules: patches that share edges cover
// every pixel exactly once, TessCoord is affine over a flat patch, isolines put outer[0] lines of
// outer[1] segments at v = k / outer[0], and a quad at equal spacing n has (n + 1)^2 points.
// Run on lavapipe too (KILN_TEST_DRIVER=lavapipe) to check the tests themselves.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 64;

struct Levels {
  float outer[4];
  float inner[2];
};

class TessellationTest : public VulkanTest {
 protected:
  // A device with tessellationShader and pipelineStatisticsQuery.
  TestDevice& tess_device() {
    if (device_) return *device_;
    if (!features().core.features.tessellationShader) throw std::runtime_error("no tessellationShader");
    enabled_.core.features.tessellationShader = VK_TRUE;
    enabled_.core.features.pipelineStatisticsQuery = features().core.features.pipelineStatisticsQuery;
    device_ = create_device(enabled_);
    if (!device_) throw std::runtime_error("device with tessellationShader");
    return *device_;
  }
  void SetUp() override {
    VulkanTest::SetUp();
    if (!features().core.features.tessellationShader) {
      if (is_kiln()) FAIL() << "Kiln must support tessellationShader";
      GTEST_SKIP() << "no tessellationShader";
    }
  }
  // draw_colored.vert/.frag with control shader `tesc` and evaluation shader `tese`, patches of
  // four points, into a float target (exact colours and counts).
  static DrawJobOptions options(const std::string& tesc, const std::string& tese) {
    DrawJobOptions o = colored_options();
    o.tess_control_shader = tesc;
    o.tess_eval_shader = tese;
    o.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    o.patch_control_points = 4;
    o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
    o.width = o.height = kSize;
    o.push_constant_bytes = sizeof(Levels);
    return o;
  }
  static void push_levels(DrawJob& job, VkCommandBuffer cb, const Levels& levels) {
    vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, sizeof levels, &levels);
  }
  static std::vector<float> read_floats(DrawJob& job) {
    const std::vector<uint8_t> bytes = job.read_color();
    std::vector<float> out(bytes.size() / 4);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
  VkQueryPool statistics_pool() {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
    info.queryCount = 1;
    info.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |
                              VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT |
                              VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT;
    VkQueryPool pool = VK_NULL_HANDLE;
    require(vkCreateQueryPool(tess_device().handle(), &info, nullptr, &pool), "vkCreateQueryPool");
    VkDevice handle = tess_device().handle();
    tess_device().defer_destroy([handle, pool] { vkDestroyQueryPool(handle, pool, nullptr); });
    return pool;
  }
  // (vertex invocations, control patches, evaluation invocations)
  std::vector<uint64_t> statistics(VkQueryPool pool) {
    std::vector<uint64_t> r(3, 0xDEADBEEFull);
    EXPECT_EQ(VK_SUCCESS, vkGetQueryPoolResults(tess_device().handle(), pool, 0, 1, r.size() * 8, r.data(), 24,
                                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return r;
  }

 private:
  DeviceFeatures enabled_;
  TestDevice* device_ = nullptr;
};

// A quad patch with corners (x0, y0)-(x1, y1) in clip space, in the evaluation shaders' order.
void add_quad_patch(std::vector<ColoredVertex>& v, float x0, float y0, float x1, float y1) {
  for (const auto& [x, y] : {std::pair{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}}) v.push_back({x, y, 0.5f, 1, 1, 1, 1});
}

// A 4 x 4 grid of quad patches over the target, one draw per row, every row with other inner
// levels and the same outer ones (fractional odd spacing). With additive blending each pixel must
// be covered exactly once (red 1), by the patch PrimitiveId says (green: index in its row + 1),
// at the place its position says (blue, alpha: the pixel centre mapped to [0, 1]).
TEST_F(TessellationTest, QuadPatchesWithDifferentInnerLevelsCoverEveryPixelOnce) {
  DrawJobOptions o = options("tess_passthrough.tesc", "tess_quad.tese");
  o.blend = {VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD,
             VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, 0xF};
  DrawJob job(tess_device(), o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> vertices;
  for (int row = 0; row < 4; ++row)
    for (int col = 0; col < 4; ++col)
      add_quad_patch(vertices, -1 + 0.5f * col, -1 + 0.5f * row, -0.5f + 0.5f * col, -0.5f + 0.5f * row);
  Buffer vb = vertex_buffer(tess_device(), vertices);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    for (uint32_t row = 0; row < 4; ++row) {
      push_levels(job, cb, {{3.7f, 3.7f, 3.7f, 3.7f}, {1.5f + 2.2f * float(row), 7.9f - 1.7f * float(row)}});
      vkCmdDraw(cb, 16, 1, 16 * row, 0);
    }
  });
  const std::vector<float> pixels = read_floats(job);
  PixelCheck failures(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const size_t i = size_t{y} * kSize + x;
      failures.expect_near(i, pixels[i * 4 + 0], 1.0f, 1e-4f, "coverage (1 = exactly once)");
      failures.expect_near(i, pixels[i * 4 + 1], float(x / 16 + 1), 1e-3f, "PrimitiveId + 1");
      failures.expect_near(i, pixels[i * 4 + 2], (x + 0.5f) / kSize, 1e-4f, "position x");
      failures.expect_near(i, pixels[i * 4 + 3], (y + 0.5f) / kSize, 1e-4f, "position y");
    }
}

// One triangle patch (equal spacing, level 5): TessCoord is affine over the flat patch, so each
// pixel's colour is its centre's barycentric coordinates (u, v, w) in the patch's corners, and
// alpha is PatchVerticesIn / 4 = 1 (four points out of the control shader).
TEST_F(TessellationTest, TriangleDomainTessCoordIsBarycentric) {
  DrawJob job(tess_device(), options("tess_passthrough.tesc", "tess_triangle.tese"));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const float px[3] = {4, 60, 8}, py[3] = {6, 16, 58};  // corners in pixels
  std::vector<ColoredVertex> vertices;
  for (int k = 0; k < 4; ++k)
    vertices.push_back({px[k % 3] / 32 - 1, py[k % 3] / 32 - 1, 0.5f, 1, 1, 1, 1});
  Buffer vb = vertex_buffer(tess_device(), vertices);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    push_levels(job, cb, {{5, 5, 5, 5}, {5, 5}});
    vkCmdDraw(cb, 4, 1, 0, 0);
  });
  const std::vector<float> pixels = read_floats(job);
  const float area = (px[1] - px[0]) * (py[2] - py[0]) - (px[2] - px[0]) * (py[1] - py[0]);
  PixelCheck failures(kSize, kSize);
  uint32_t inside = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const float cx = x + 0.5f, cy = y + 0.5f;
      float b[3];
      for (int k = 0; k < 3; ++k) {
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        b[k] = ((px[k2] - px[k1]) * (cy - py[k1]) - (cx - px[k1]) * (py[k2] - py[k1])) / area;
      }
      const size_t i = size_t{y} * kSize + x;
      const float margin = std::min({b[0], b[1], b[2]});
      if (margin < -0.02f) {
        failures.expect_eq(i, pixels[i * 4 + 3], 0.0f, "outside the patch");
      } else if (margin > 0.02f) {
        ++inside;
        for (int k = 0; k < 3; ++k) failures.expect_near(i, pixels[i * 4 + k], b[k], 2e-4f, "TessCoord");
        failures.expect_near(i, pixels[i * 4 + 3], 1.0f, 1e-5f, "PatchVerticesIn / 4");
      }
    }
  EXPECT_GT(inside, 1000u);
}

// Isolines in point mode, outer levels (3, 4): three lines at v = 0, 1/3, 2/3 (none at v = 1),
// each of four segments: 15 points, each on its own pixel centre and nothing else.
TEST_F(TessellationTest, IsolinePointsLieOnOuterZeroLinesOfOuterOneSegments) {
  DrawJobOptions o = options("tess_passthrough.tesc", "tess_isolines.tese");
  DrawJob job(tess_device(), o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  // u spans pixel centres 4.5 .. 36.5 (8 pixels a segment), v spans 4.5 .. 52.5 (16 a line).
  auto clip = [](float p) { return p / 32 - 1; };
  std::vector<ColoredVertex> vertices;
  add_quad_patch(vertices, clip(4.5f), clip(4.5f), clip(36.5f), clip(52.5f));
  Buffer vb = vertex_buffer(tess_device(), vertices);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    push_levels(job, cb, {{3, 4, 0, 0}, {0, 0}});
    vkCmdDraw(cb, 4, 1, 0, 0);
  });
  const std::vector<float> pixels = read_floats(job);
  PixelCheck failures(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const bool point = x >= 4 && x <= 36 && (x - 4) % 8 == 0 && (y == 4 || y == 20 || y == 36);
      const size_t i = size_t{y} * kSize + x;
      failures.expect_eq(i, pixels[i * 4 + 0], point ? 1.0f : 0.0f, "a point exactly where the spec puts one");
    }
}

// A control shader of 32 invocations (more than one SIMD call on every driver here) with a
// barrier: its levels are the sum of every invocation's output, so they are 4 only if the
// barrier made all 32 writes visible. At equal spacing 4 a quad has 5 x 5 points; the statistics
// also count one patch and its four control points' vertex invocations.
TEST_F(TessellationTest, ControlBarrierMakesEveryInvocationsOutputVisible) {
  if (!features().core.features.pipelineStatisticsQuery) GTEST_SKIP() << "pipelineStatisticsQuery not supported";
  DrawJob job(tess_device(), options("tess_barrier.tesc", "tess_equal_quad.tese"));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> vertices;
  add_quad_patch(vertices, -0.5f, -0.5f, 0.5f, 0.5f);
  Buffer vb = vertex_buffer(tess_device(), vertices);
  VkQueryPool pool = statistics_pool();
  tess_device().run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 1);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdBeginQuery(cb, pool, 0, 0);
      vkCmdDraw(cb, 4, 1, 0, 0);
      vkCmdEndQuery(cb, pool, 0);
    });
  });
  const std::vector<uint64_t> r = statistics(pool);
  EXPECT_EQ(1u, r[1]) << "control shader patches";
  EXPECT_GE(r[0], 4u) << "vertex shader invocations";
  const std::vector<float> pixels = read_floats(job);
  EXPECT_EQ(pixels[(32 * kSize + 32) * 4], 1.0f) << "the quad is drawn";
  EXPECT_EQ(pixels[(4 * kSize + 4) * 4], 0.0f) << "only the quad";
  KILN_ONLY();  // the spec lets a driver run the evaluation shader more than once per point
  EXPECT_EQ(25u, r[2]) << "evaluation shader invocations (level 4: 5 x 5 points)";
  EXPECT_EQ(4u, r[0]) << "vertex shader invocations";
}

}  // namespace
}  // namespace kiln::test
