// Tessellation end to end, through the loader with the validation layer: control and evaluation
// shaders (tests/shaders/tess_*), the fixed-function tessellator and the pipeline statistics it
// drives. Expected images are computed from the spec's rules: patches that share edges cover
// every pixel exactly once, TessCoord is affine over a flat patch, isolines put outer[0] lines of
// outer[1] segments at v = k / outer[0], and a quad at equal spacing n has (n + 1)^2 points.
// Run on lavapipe too (KILN_TEST_DRIVER=lavapipe) to check the tests themselves.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/reference_image.h"
#include "e2e/tess_patches.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 64;

// draw_colored.vert/.frag with control shader `tesc` and evaluation shader `tese`, patches of
// four points, into a float target (exact colours and counts).
DrawJobOptions options(const std::string& tesc, const std::string& tese) {
  DrawJobOptions o = colored_options();
  o.tess_control_shader = tesc;
  o.tess_eval_shader = tese;
  o.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  o.patch_control_points = 4;
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.width = o.height = kSize;
  o.push_constant_bytes = sizeof(TessLevels);
  return o;
}

// Features beyond tessellationShader a test's device enables (the test checks support first).
struct TessExtras {
  bool point_size = false;          // shaderTessellationAndGeometryPointSize
  bool multiview = false;           // multiview + multiviewTessellationShader
  bool dynamic_patch_size = false;  // VK_EXT_extended_dynamic_state2's patch control points
  bool patch_list_restart = false;  // VK_EXT_primitive_topology_list_restart's primitiveTopologyPatchListRestart
  bool dynamic_domain_origin = false;  // VK_EXT_extended_dynamic_state3's extendedDynamicState3TessellationDomainOrigin
};

class TessellationTest : public VulkanTest {
 protected:
  // A device with tessellationShader, pipelineStatisticsQuery when supported, and `extras`.
  TestDevice& tess_device(TessExtras extras = {}) {
    if (device_) return *device_;
    if (!features().core.features.tessellationShader) throw std::runtime_error("no tessellationShader");
    enabled_.core.features.tessellationShader = VK_TRUE;
    enabled_.core.features.pipelineStatisticsQuery = features().core.features.pipelineStatisticsQuery;
    enabled_.core.features.shaderTessellationAndGeometryPointSize = extras.point_size;
    enabled_.v11.multiview = enabled_.v11.multiviewTessellationShader = extras.multiview;
    std::vector<const char*> extensions;
    if (extras.dynamic_patch_size) {
      eds2_.extendedDynamicState2PatchControlPoints = VK_TRUE;
      enabled_.v13.pNext = &eds2_;
      extensions.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME);
    }
    if (extras.patch_list_restart) {
      list_restart_.primitiveTopologyPatchListRestart = VK_TRUE;
      list_restart_.pNext = enabled_.v13.pNext;
      enabled_.v13.pNext = &list_restart_;
      extensions.push_back(VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME);
    }
    if (extras.dynamic_domain_origin) {
      eds3_.extendedDynamicState3TessellationDomainOrigin = VK_TRUE;
      eds3_.pNext = enabled_.v13.pNext;
      enabled_.v13.pNext = &eds3_;
      extensions.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME);
    }
    device_ = create_device(enabled_, extensions);
    if (!device_) throw std::runtime_error("device with tessellationShader");
    return *device_;
  }
  bool has_dynamic_patch_size() {
    VkPhysicalDeviceExtendedDynamicState2FeaturesEXT f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
    return query_extension_features(physical_device(), VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME, f) &&
           f.extendedDynamicState2PatchControlPoints;
  }
  bool has_dynamic_domain_origin() {
    VkPhysicalDeviceExtendedDynamicState3FeaturesEXT f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
    return query_extension_features(physical_device(), VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, f) &&
           f.extendedDynamicState3TessellationDomainOrigin;
  }
  bool has_patch_list_restart() {
    VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT f{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
    return query_extension_features(physical_device(), VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME, f) &&
           f.primitiveTopologyPatchListRestart;
  }
  void SetUp() override {
    VulkanTest::SetUp();
    if (!features().core.features.tessellationShader) {
      if (is_kiln()) FAIL() << "Kiln must support tessellationShader";
      GTEST_SKIP() << "no tessellationShader";
    }
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
  VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
  VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT list_restart_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
  TestDevice* device_ = nullptr;
};


// A 4 x 4 grid of quad patches over the target, one draw per row, every row with other inner
// levels and the same outer ones (fractional odd spacing), after `before_draws`. With additive
// blending each pixel must be covered exactly once (red 1), by the patch PrimitiveId says (green:
// index in its row + 1), at the place its position says (blue, alpha: the pixel centre mapped to
// [0, 1]).
// `draw_grid` draws the grid's rows (draw_quad_patch_grid, or another way to the same patches).
void draw_and_check_patch_grid(TestDevice& device, DrawJobOptions o,
                               const std::function<void(VkCommandBuffer)>& before_draws = {},
                               const std::function<void(DrawJob&, VkCommandBuffer)>& draw_grid = draw_quad_patch_grid,
                               bool check_primitive_ids = true) {
  o.blend = kAdditiveBlend;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer vb = vertex_buffer(device, quad_patch_grid());
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    if (before_draws) before_draws(cb);
    draw_grid(job, cb);
  });
  const std::vector<float> pixels = read_rgba32f(job);
  PixelCheck failures(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const size_t i = size_t{y} * kSize + x;
      failures.expect_near(i, pixels[i * 4 + 0], 1.0f, 1e-4f, "coverage (1 = exactly once)");
      if (check_primitive_ids) failures.expect_near(i, pixels[i * 4 + 1], float(x / 16 + 1), 1e-3f, "PrimitiveId + 1");
      failures.expect_near(i, pixels[i * 4 + 2], (x + 0.5f) / kSize, 1e-4f, "position x");
      failures.expect_near(i, pixels[i * 4 + 3], (y + 0.5f) / kSize, 1e-4f, "position y");
    }
}

TEST_F(TessellationTest, QuadPatchesWithDifferentInnerLevelsCoverEveryPixelOnce) {
  draw_and_check_patch_grid(tess_device(), options("tess_passthrough.tesc", "tess_quad.tese"));
}

// The same grid with the per-patch data in a `patch` block spanning several locations.
// Tessellation levels and a patch output from Output variable initializers: the shader never
// writes the levels, and its own store to the initialized patch output wins.
TEST_F(TessellationTest, OutputInitializersSetLevelsAndPatchOutputs) {
  draw_and_check_patch_grid(tess_device(), options("tess_initialized_levels.tesc.spvasm", "tess_quad.tese"));
}

TEST_F(TessellationTest, PatchBlockCarriesEveryMemberToTheEvaluationShader) {
  draw_and_check_patch_grid(tess_device(), options("tess_patch_block.tesc", "tess_patch_block.tese"));
}

// The same grid with the patch size dynamic: the pipeline says 2 points a patch, the command
// buffer sets 4 before the draws (with 2, the 16 vertices of a row would be 8 other patches).
TEST_F(TessellationTest, DynamicPatchControlPoints) {
  REQUIRE_ON_KILN(has_dynamic_patch_size(), "extendedDynamicState2PatchControlPoints");
  TestDevice& device = tess_device({.dynamic_patch_size = true});
  auto set_patch_size = reinterpret_cast<PFN_vkCmdSetPatchControlPointsEXT>(
      vkGetDeviceProcAddr(device.handle(), "vkCmdSetPatchControlPointsEXT"));
  ASSERT_NE(set_patch_size, nullptr);
  DrawJobOptions o = options("tess_passthrough.tesc", "tess_quad.tese");
  o.patch_control_points = 2;
  o.dynamic_states = {VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT};
  draw_and_check_patch_grid(device, o, [&](VkCommandBuffer cb) { set_patch_size(cb, 4); });
}

// The domain origin decides the winding of the tessellator's triangles: with back faces culled, the
// grid drawn with the origin set dynamically to LOWER_LEFT (over the pipeline's UPPER_LEFT) is the
// grid drawn with LOWER_LEFT static, and one of the two origins shows nothing of it.
TEST_F(TessellationTest, DynamicDomainOriginSetsTheWinding) {
  REQUIRE_ON_KILN(has_dynamic_domain_origin(), "extendedDynamicState3TessellationDomainOrigin");
  TestDevice& device = tess_device({.dynamic_domain_origin = true});
  auto set_origin = reinterpret_cast<PFN_vkCmdSetTessellationDomainOriginEXT>(
      vkGetDeviceProcAddr(device.handle(), "vkCmdSetTessellationDomainOriginEXT"));
  ASSERT_NE(set_origin, nullptr);
  auto grid = [&](VkTessellationDomainOrigin origin, bool dynamic) {
    DrawJobOptions o = options("tess_passthrough.tesc", "tess_quad.tese");
    o.cull_mode = VK_CULL_MODE_BACK_BIT;
    o.tess_domain_origin = dynamic ? VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT : origin;
    if (dynamic) o.dynamic_states = {VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT};
    DrawJob job(device, o);
    EXPECT_EQ(job.pipeline_result(), VK_SUCCESS);
    Buffer vb = vertex_buffer(device, quad_patch_grid());
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      if (dynamic) set_origin(cb, origin);
      draw_quad_patch_grid(job, cb);
    });
    return read_rgba32f(job);
  };
  const std::vector<float> lower = grid(VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT, false);
  const std::vector<float> upper = grid(VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT, false);
  EXPECT_TRUE(grid(VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT, true) == lower) << "dynamic LOWER_LEFT differs from static";
  EXPECT_TRUE(grid(VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT, true) == upper) << "dynamic UPPER_LEFT differs from static";
  auto covered = [](const std::vector<float>& pixels) {
    size_t n = 0;
    for (size_t i = 0; i < pixels.size(); i += 4) n += pixels[i] != 0.0f;
    return n;
  };
  EXPECT_EQ(std::min(covered(lower), covered(upper)), 0u) << "one winding must be culled entirely";
  EXPECT_EQ(std::max(covered(lower), covered(upper)), size_t{kSize} * kSize) << "the other must cover the target";
}

// The same grid through an index buffer with primitive restart, every row's four patches among
// incomplete ones that restart cuts must drop: a patch's first two points then a cut, a cut after
// a cut, three points then a cut, and one point at the end of the draw. Any dropped patch that
// survived, or a cut that did not restart the patch count, breaks the exactly-once coverage, and
// PrimitiveId must count only the kept patches (0..3 in each row).
TEST_F(TessellationTest, PatchListRestartDropsIncompletePatches) {
  REQUIRE_ON_KILN(has_patch_list_restart(), "primitiveTopologyPatchListRestart");
  TestDevice& device = tess_device({.patch_list_restart = true});
  constexpr uint32_t kCut = 0xFFFFFFFFu;
  std::vector<uint32_t> indices;
  std::vector<uint32_t> row_first;
  auto patch = [&](uint32_t first, uint32_t points) {
    for (uint32_t i = 0; i < points; ++i) indices.push_back(first + i);
  };
  for (uint32_t row = 0; row < 4; ++row) {
    const uint32_t base = 16 * row;
    row_first.push_back(uint32_t(indices.size()));
    patch(base, 4);
    patch(base + 4, 2), indices.push_back(kCut);
    patch(base + 4, 4), indices.push_back(kCut), indices.push_back(kCut);
    patch(base + 8, 4);
    patch(base + 12, 3), indices.push_back(kCut);
    patch(base + 12, 4);
    patch(base, 1);
  }
  row_first.push_back(uint32_t(indices.size()));
  Buffer ib = device.create_buffer(sizeof(uint32_t) * indices.size(), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  std::memcpy(ib.mapped, indices.data(), sizeof(uint32_t) * indices.size());
  DrawJobOptions o = options("tess_passthrough.tesc", "tess_quad.tese");
  o.primitive_restart = true;
  // Mesa 22.3 starts PrimitiveId again at 0 after each cut; the spec: "Restarting a primitive
  // topology using primitive restart has no effect on the value of variables decorated with PrimitiveId".
  const bool spec_primitive_ids = !is_lavapipe_device(physical_device());
  draw_and_check_patch_grid(device, o, {}, [&](DrawJob& job, VkCommandBuffer cb) {
    vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
    for (uint32_t row = 0; row < 4; ++row) {
      push_tess_levels(job, cb, quad_patch_grid_levels(row));
      vkCmdDrawIndexed(cb, row_first[row + 1] - row_first[row], 1, row_first[row], 0, 0);
    }
  }, spec_primitive_ids);
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
    push_tess_levels(job, cb, {{5, 5, 5, 5}, {5, 5}});
    vkCmdDraw(cb, 4, 1, 0, 0);
  });
  const std::vector<float> pixels = read_rgba32f(job);
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

// Isolines in point mode at outer levels (3, 4) from `job`'s shaders: three lines at v = 0, 1/3,
// 2/3 (none at v = 1), each of four segments: 15 points, each centred on its own pixel. Checks
// that red is 1 within `radius` pixels of each point (square points) and 0 elsewhere.
void draw_and_check_isoline_points(TestDevice& device, DrawJob& job, uint32_t radius) {
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  // u spans pixel centres 4.5 .. 36.5 (8 pixels a segment), v spans 4.5 .. 52.5 (16 a line).
  auto clip = [](float p) { return p / 32 - 1; };
  std::vector<ColoredVertex> vertices;
  add_quad_patch(vertices, clip(4.5f), clip(4.5f), clip(36.5f), clip(52.5f));
  Buffer vb = vertex_buffer(device, vertices);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    push_tess_levels(job, cb, {{3, 4, 0, 0}, {0, 0}});
    vkCmdDraw(cb, 4, 1, 0, 0);
  });
  const std::vector<float> pixels = read_rgba32f(job);
  auto near = [radius](uint32_t p, uint32_t centre) { return p + radius >= centre && p <= centre + radius; };
  PixelCheck failures(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      bool point = false;
      for (uint32_t px = 4; px <= 36; px += 8)
        for (uint32_t py : {4u, 20u, 36u}) point = point || (near(x, px) && near(y, py));
      const size_t i = size_t{y} * kSize + x;
      failures.expect_eq(i, pixels[i * 4 + 0], point ? 1.0f : 0.0f, "a point exactly where the spec puts one");
    }
}

TEST_F(TessellationTest, IsolinePointsLieOnOuterZeroLinesOfOuterOneSegments) {
  DrawJob job(tess_device(), options("tess_passthrough.tesc", "tess_isolines.tese"));
  draw_and_check_isoline_points(tess_device(), job, 0);
}

// shaderTessellationAndGeometryPointSize: the control shader gives its points PointSize 2, 3, 4,
// 5 and the evaluation shader takes control point 1's, so each isoline point is a 3 x 3 square.
TEST_F(TessellationTest, PointSizeFromControlPointsSizesEvaluationPoints) {
  REQUIRE_ON_KILN(features().core.features.shaderTessellationAndGeometryPointSize,
                  "shaderTessellationAndGeometryPointSize");
  TestDevice& device = tess_device({.point_size = true});
  DrawJob job(device, options("tess_point_size.tesc", "tess_isolines_sized.tese"));
  draw_and_check_isoline_points(device, job, 1);
}

// multiviewTessellationShader: views 0, 1 and 3 of four layers; each view's patch is shifted by 8
// pixels per view and coloured from the ViewIndex its control and evaluation invocations saw.
TEST_F(TessellationTest, MultiviewRunsBothStagesPerViewWithItsViewIndex) {
  REQUIRE_ON_KILN(features().v11.multiview && features().v11.multiviewTessellationShader,
                  "multiview and multiviewTessellationShader");
  TestDevice& device = tess_device({.multiview = true});
  constexpr uint32_t kLayers = 4, kViewMask = 0b1011;
  DrawJobOptions o = options("tess_multiview.tesc", "tess_multiview.tese");
  o.layers = kLayers;
  o.view_mask = kViewMask;
  o.push_constant_bytes = 4;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> vertices;
  add_quad_patch(vertices, -1, -1, -0.5f, 1);  // pixels x 0..15 in view 0
  Buffer vb = vertex_buffer(device, vertices);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    const float shift = 0.25f;
    vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, 4, &shift);
    vkCmdDraw(cb, 4, 1, 0, 0);
  });
  for (uint32_t layer = 0; layer < kLayers; ++layer) {
    if (!(kViewMask & (1u << layer))) continue;
    SCOPED_TRACE("layer " + std::to_string(layer));
    const std::vector<float> pixels = read_rgba32f(job, layer);
    const float expected[4] = {float(layer + 1) / 8, float(layer + 2) / 8, float(layer) / 8, 1};
    PixelCheck failures(kSize, kSize);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const bool covered = x >= 8 * layer && x < 8 * layer + 16;
        const size_t i = size_t{y} * kSize + x;
        for (int c = 0; c < 4; ++c) failures.expect_eq(i, pixels[i * 4 + c], covered ? expected[c] : 0.0f, "view colour");
      }
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
  const std::vector<float> pixels = read_rgba32f(job);
  EXPECT_EQ(pixels[(32 * kSize + 32) * 4], 1.0f) << "the quad is drawn";
  EXPECT_EQ(pixels[(4 * kSize + 4) * 4], 0.0f) << "only the quad";
  KILN_ONLY();  // the spec lets a driver run the evaluation shader more than once per point
  EXPECT_EQ(25u, r[2]) << "evaluation shader invocations (level 4: 5 x 5 points)";
  EXPECT_EQ(4u, r[0]) << "vertex shader invocations";
}

}  // namespace
}  // namespace kiln::test
