// Mesh shader queries (meshShaderQueries): the pipeline statistics TASK_SHADER_INVOCATIONS and
// MESH_SHADER_INVOCATIONS, which count shader invocations (workgroups times workgroup size, as
// the CTS expects exactly), and VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT. Every test skips on
// a device without VK_EXT_mesh_shader; see mesh_shader_fixture.h.
#include <functional>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/mesh_shader_fixture.h"
#include "e2e/reference_image.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = kMeshTargetSize;
constexpr Rgba kClear{0, 0, 0, 0};  // kBlack
// Results of a statistics query come in bit order: task invocations, then mesh invocations.
constexpr VkQueryPipelineStatisticFlags kMeshStatistics =
    VK_QUERY_PIPELINE_STATISTIC_TASK_SHADER_INVOCATIONS_BIT_EXT | VK_QUERY_PIPELINE_STATISTIC_MESH_SHADER_INVOCATIONS_BIT_EXT;

// Draws what `draw` records in `job`'s render pass with query `query` of every pool of `pools`
// active around it (reset before the pass).
void draw_counted(TestDevice& device, DrawJob& job, const std::vector<VkQueryPool>& pools, uint32_t query,
                  const std::function<void(VkCommandBuffer)>& draw) {
  device.run_commands([&](VkCommandBuffer cb) {
    for (VkQueryPool pool : pools) vkCmdResetQueryPool(cb, pool, query, 1);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      for (VkQueryPool pool : pools) vkCmdBeginQuery(cb, pool, query, 0);
      draw(cb);
      for (VkQueryPool pool : pools) vkCmdEndQuery(cb, pool, query);
    });
  });
}

// mesh_cull.mesh (16 invocations a workgroup, 32 triangles) with `cull_every` (0: none culled).
void draw_cull_grid(const MeshCommands& commands, DrawJob& job, VkCommandBuffer cb, uint32_t groups, uint32_t cull_every) {
  vkCmdPushConstants(cb, job.layout(), job.stages(), 0, sizeof cull_every, &cull_every);
  commands.draw(cb, groups, 1, 1);
}

DrawJobOptions cull_options() {
  DrawJobOptions o = mesh_options("mesh_cull.mesh", "mesh_primitive_color.frag");
  o.push_constant_bytes = sizeof(uint32_t);
  return o;
}

// Query 0: four task workgroups of 6 invocations launching 0, 1, 2 and 0 mesh workgroups of
// 5 x 3 invocations: 24 task and 45 mesh invocations, 6 primitives (two per mesh workgroup), and
// the three quads drawn. Query 1: three mesh workgroups of 16 invocations without a task shader:
// no task invocations, 48 mesh invocations, 96 primitives.
TEST_F(MeshShaderTest, StatisticsCountTaskAndMeshInvocations) {
  const MeshFeatures needs{.task = true, .queries = true};
  REQUIRE_MESH_FEATURES(needs);
  TestDevice& device = mesh_device(needs);
  const VkQueryPool statistics = create_query_pool(VK_QUERY_TYPE_PIPELINE_STATISTICS, 2, kMeshStatistics);
  const VkQueryPool primitives = create_query_pool(VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT, 2);

  DrawJob task_job(device, mesh_options("mesh_statistics.mesh", "mesh_primitive_color.frag", "mesh_statistics.task"));
  ASSERT_EQ(task_job.pipeline_result(), VK_SUCCESS);
  draw_counted(device, task_job, {statistics, primitives}, 0, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 4, 1, 1); });
  ReferenceImage want(kSize, kSize, kClear);
  for (const auto& [task, group] : {std::pair{1u, 0u}, {2u, 0u}, {2u, 1u}})
    for (uint32_t t = 0; t < 2; ++t) fill_cell_triangle(want, 4 * task + group, t, {float(task), float(group), 0, 1});
  expect_image_eq(read_rgba32f(task_job), want, "one quad per mesh workgroup");

  DrawJob mesh_job(device, cull_options());
  ASSERT_EQ(mesh_job.pipeline_result(), VK_SUCCESS);
  draw_counted(device, mesh_job, {statistics, primitives}, 1,
               [&](VkCommandBuffer cb) { draw_cull_grid(mesh_commands(), mesh_job, cb, 3, 0); });

  const std::vector<uint64_t> s = query_results(statistics, 2, 2);
  EXPECT_EQ(24u, s[0]) << "task invocations: 4 workgroups x 6";
  EXPECT_EQ(45u, s[1]) << "mesh invocations: 3 workgroups x 15";
  EXPECT_EQ(0u, s[2]) << "task invocations without a task shader";
  EXPECT_EQ(48u, s[3]) << "mesh invocations: 3 workgroups x 16";
  const std::vector<uint64_t> p = query_results(primitives, 2);
  EXPECT_EQ(6u, p[0]) << "primitives of the task draw";
  EXPECT_EQ(96u, p[1]) << "primitives of the mesh-only draw";
}

// MESH_PRIMITIVES_GENERATED counts the primitives mesh workgroups emit (SetMeshOutputsEXT's
// primitive count, all inside the viewport): two workgroups of 32 triangles give 64, an empty grid
// 0. With CullPrimitiveEXT on 11 of 32 the spec's words ("every time a primitive emitted from the
// mesh shader stage reaches the fragment shader stage") and the extension proposal's ("not culled
// by fixed function culling") leave open whether culled primitives count, so only the bounds
// 21 .. 32 are checked.
TEST_F(MeshShaderTest, MeshPrimitivesGeneratedQuery) {
  const MeshFeatures needs{.queries = true};
  REQUIRE_MESH_FEATURES(needs);
  TestDevice& device = mesh_device(needs);
  const VkQueryPool primitives = create_query_pool(VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT, 3);
  DrawJob job(device, cull_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const MeshCommands& commands = mesh_commands();
  draw_counted(device, job, {primitives}, 0, [&](VkCommandBuffer cb) { draw_cull_grid(commands, job, cb, 2, 0); });
  draw_counted(device, job, {primitives}, 1, [&](VkCommandBuffer cb) { draw_cull_grid(commands, job, cb, 0, 0); });
  draw_counted(device, job, {primitives}, 2, [&](VkCommandBuffer cb) { draw_cull_grid(commands, job, cb, 1, 3); });
  const std::vector<uint64_t> p = query_results(primitives, 3);
  EXPECT_EQ(64u, p[0]) << "two workgroups of 32 triangles";
  EXPECT_EQ(0u, p[1]) << "no workgroup";
  EXPECT_GE(p[2], 21u) << "32 triangles of which 11 culled";
  EXPECT_LE(p[2], 32u) << "32 triangles of which 11 culled";
  // The image of the culled draw: 21 triangles, the last draw into the target.
  ReferenceImage want(kSize, kSize, kClear);
  for (uint32_t q = 0; q < 32; ++q)
    if (q % 3 != 0) fill_cell_triangle(want, q / 2, q % 2, {float(q / 2) / 16, float(q % 2), 1, 1});
  expect_image_eq(read_rgba32f(job), want, "the triangles not culled");
}

}  // namespace
}  // namespace kiln::test
