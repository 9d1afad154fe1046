// Pipeline statistics of geometry shading (pipelineStatisticsQuery), with the counts the spec
// defines ("Pipeline Statistics Queries"): GEOMETRY_SHADER_INVOCATIONS counts each instanced
// invocation; GEOMETRY_SHADER_PRIMITIVES counts the primitives the geometry shader emits (a
// strip of n triangle-strip vertices is n - 2 triangles; EndPrimitive itself counts nothing, so
// a strip too short for a triangle adds none); CLIPPING_INVOCATIONS counts each primitive that
// reaches primitive clipping, i.e. each emitted one (the draws keep rasterization on);
// INPUT_ASSEMBLY_PRIMITIVES counts the draw's own triangles (all complete).
#include <cstdint>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/geometry_fixture.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

// In the order the query writes them (increasing VkQueryPipelineStatisticFlagBits).
constexpr VkQueryPipelineStatisticFlags kStatistics = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
                                                      VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT |
                                                      VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT |
                                                      VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT;
struct GeometryStatistics {
  uint64_t input_primitives, invocations, primitives, clipping_invocations;
};

constexpr uint32_t kTriangles = 5;

// Statistics of one draw of kTriangles small triangles (all inside the target) through
// `geometry_shader`.
GeometryStatistics draw_statistics(TestDevice& device, const std::string& geometry_shader) {
  DrawJob job(device, colored_geometry_options(geometry_shader));
  require(job.pipeline_result(), "vkCreateGraphicsPipelines");
  std::vector<ColoredVertex> vertices;
  for (uint32_t t = 0; t < kTriangles; ++t) {
    const float x = -0.9f + 0.3f * float(t);
    for (const auto& [dx, dy] : {std::pair{0.0f, 0.0f}, {0.2f, 0.0f}, {0.0f, 0.2f}})
      vertices.push_back({x + dx, dy, 0.5f, 1, 1, 1, 1});
  }
  Buffer vb = vertex_buffer(device, vertices);
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
  info.queryCount = 1;
  info.pipelineStatistics = kStatistics;
  VkQueryPool pool = VK_NULL_HANDLE;
  require(vkCreateQueryPool(device.handle(), &info, nullptr, &pool), "vkCreateQueryPool");
  VkDevice handle = device.handle();
  device.defer_destroy([handle, pool] { vkDestroyQueryPool(handle, pool, nullptr); });
  device.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 1);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdBeginQuery(cb, pool, 0, 0);
      vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
      vkCmdEndQuery(cb, pool, 0);
    });
  });
  GeometryStatistics s{~0ull, ~0ull, ~0ull, ~0ull};
  EXPECT_EQ(VK_SUCCESS, vkGetQueryPoolResults(device.handle(), pool, 0, 1, sizeof s, &s, sizeof s,
                                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  return s;
}

TEST_F(GeometryTest, PipelineStatistics) {
  const GeometryFeatures needs{.statistics = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  TestDevice& device = geometry_device(needs);
  // Three invocations per triangle, invocation k emitting k + 1 points: 6 points a triangle.
  const GeometryStatistics points = draw_statistics(device, "geom_statistics_points.geom");
  EXPECT_EQ(points.input_primitives, kTriangles) << "points: input assembly primitives";
  EXPECT_EQ(points.primitives, 6 * kTriangles) << "points: geometry shader primitives (1 + 2 + 3 a triangle)";
  EXPECT_EQ(points.clipping_invocations, 6 * kTriangles) << "points: clipping invocations (every emitted point)";
  // Two invocations per triangle, each emitting strips of 4, 2 and 3 vertices: 2 + 0 + 1
  // triangles an invocation.
  const GeometryStatistics strips = draw_statistics(device, "geom_statistics_strips.geom");
  EXPECT_EQ(strips.input_primitives, kTriangles) << "strips: input assembly primitives";
  EXPECT_EQ(strips.primitives, 6 * kTriangles) << "strips: geometry shader primitives (2 x (2 + 0 + 1) a triangle)";
  EXPECT_EQ(strips.clipping_invocations, 6 * kTriangles) << "strips: clipping invocations (every emitted triangle)";
  SKIP_ON_LAVAPIPE("it counts one geometry shader invocation per input primitive whatever `invocations` says");
  EXPECT_EQ(points.invocations, 3 * kTriangles) << "points: geometry shader invocations (3 a triangle)";
  EXPECT_EQ(strips.invocations, 2 * kTriangles) << "strips: geometry shader invocations (2 a triangle)";
}

}  // namespace
}  // namespace kiln::test
