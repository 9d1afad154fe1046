// Mesh shader workgroups end to end: task shaders and their payload (empty mesh grids included),
// indirect draws and DrawIndex, workgroup memory and barriers across SIMD batches, subgroup
// arithmetic in task shaders, and the primitive order the spec guarantees across workgroups and
// tasks ("Mesh Shader Primitive Ordering"). Every test skips on a device without
// VK_EXT_mesh_shader; see mesh_shader_fixture.h.
#include <array>
#include <cstring>
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

void fill_cell_quad(ReferenceImage& image, uint32_t cell, const Rgba& color) {
  for (uint32_t t = 0; t < 2; ++t) fill_cell_triangle(image, cell, t, color);
}

uint32_t group_count(const VkDrawMeshTasksIndirectCommandEXT& grid) {
  return grid.groupCountX * grid.groupCountY * grid.groupCountZ;
}

// A 2 x 2 grid of task workgroups; task t = x + 2 y fills its payload (every invocation a part)
// and launches mesh grid (2, 1, 1), (1, 0, 1), (1, 3, 1) or (1, 1, 1): task 1's is empty. Mesh
// workgroup m of task t draws the quad of cell 4 t + m coloured (payload task, m, payload value
// 10 t + m, 10 NumWorkGroups.x + NumWorkGroups.y): exactly those six quads appear.
TEST_F(MeshShaderTest, TaskPayloadAndEmptyMeshGrids) {
  const MeshFeatures needs{.task = true};
  REQUIRE_MESH_FEATURES(needs);
  TestDevice& device = mesh_device(needs);
  DrawJob job(device, mesh_options("mesh_payload.mesh", "mesh_primitive_color.frag", "mesh_payload.task"));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 2, 2, 1); });
  const VkDrawMeshTasksIndirectCommandEXT grids[4] = {{2, 1, 1}, {1, 0, 1}, {1, 3, 1}, {1, 1, 1}};
  ReferenceImage want(kSize, kSize, kClear);
  for (uint32_t t = 0; t < 4; ++t)
    for (uint32_t m = 0; m < group_count(grids[t]); ++m)
      fill_cell_quad(want, 4 * t + m,
                     {float(t), float(m), float(10 * t + m), float(10 * grids[t].groupCountX + grids[t].groupCountY)});
  expect_image_eq(read_rgba32f(job), want, "one quad per launched mesh workgroup");
}

// The indirect draws' records: VkDrawMeshTasksIndirectCommandEXT (12 bytes) every kStride bytes
// from kOffset, the words around them 1 (a driver reading the wrong words draws other grids).
constexpr VkDeviceSize kOffset = 8, kStride = 20;
const std::vector<VkDrawMeshTasksIndirectCommandEXT> kRecords = {{3, 1, 1}, {1, 1, 2}, {2, 1, 1}};

Buffer indirect_records(TestDevice& device) {
  std::vector<uint32_t> words((kOffset + kStride * kRecords.size()) / 4, 1);
  for (size_t d = 0; d < kRecords.size(); ++d)
    std::memcpy(&words[(kOffset + kStride * d) / 4], &kRecords[d], sizeof(VkDrawMeshTasksIndirectCommandEXT));
  return buffer_with(device, words, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
}

// What mesh_draw_index.mesh draws for the first `draws` records: workgroup m of draw d fills the
// quad of cell 4 d + m, coloured (d + 1, m, 100 Nx + 10 Ny + Nz, 1).
ReferenceImage draw_index_reference(uint32_t draws) {
  ReferenceImage want(kSize, kSize, kClear);
  for (uint32_t d = 0; d < draws; ++d) {
    const VkDrawMeshTasksIndirectCommandEXT& n = kRecords[d];
    for (uint32_t m = 0; m < group_count(n); ++m)
      fill_cell_quad(want, 4 * d + m,
                     {float(d + 1), float(m), float(100 * n.groupCountX + 10 * n.groupCountY + n.groupCountZ), 1});
  }
  return want;
}

class MeshShaderIndirectTest : public MeshShaderTest {
 protected:
  void SetUp() override {
    MeshShaderTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    const MeshFeatures needs{.indirect = true, .draw_index = true};
    REQUIRE_MESH_FEATURES(needs);
    mesh_device(needs);
  }
  DrawJobOptions options() { return mesh_options("mesh_draw_index.mesh", "mesh_primitive_color.frag"); }
};

// vkCmdDrawMeshTasksIndirectEXT with two records 20 bytes apart from offset 8: draw 0 launches
// 3 x 1 x 1 workgroups, draw 1 1 x 1 x 2, and the mesh shader sees DrawIndex 0 and 1.
TEST_F(MeshShaderIndirectTest, DrawMeshTasksIndirect) {
  TestDevice& device = mesh_device();
  DrawJob job(device, options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const Buffer records = indirect_records(device);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw_indirect(cb, records.buffer, kOffset, 2, kStride); });
  expect_image_eq(read_rgba32f(job), draw_index_reference(2), "draws 0 and 1");
}

// vkCmdDrawMeshTasksIndirectCountEXT: the draw count is min(count buffer value, maxDrawCount);
// a count of 0 draws nothing. The count sits at offset 4 of its buffer.
TEST_F(MeshShaderIndirectTest, DrawMeshTasksIndirectCount) {
  TestDevice& device = mesh_device();
  DrawJob job(device, options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const Buffer records = indirect_records(device);
  struct Case {
    uint32_t count, max_draws, draws;
  };
  for (const Case& c : {Case{1, 3, 1}, Case{0, 3, 0}, Case{5, 2, 2}, Case{3, 3, 3}}) {
    SCOPED_TRACE("count " + std::to_string(c.count) + ", maxDrawCount " + std::to_string(c.max_draws));
    const Buffer count = buffer_with(device, std::vector<uint32_t>{7, c.count}, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      mesh_commands().draw_indirect_count(cb, records.buffer, kOffset, count.buffer, 4, c.max_draws, kStride);
    });
    expect_image_eq(read_rgba32f(job), draw_index_reference(c.draws), std::to_string(c.draws) + " draws");
  }
}

// Workgroup memory and barrier() with 64 invocations (several SIMD batches on every driver here):
// invocation i stores the colour of cell (37 i + 11) % 64 and counts itself in shared memory;
// after the barrier invocation i draws triangle 0 of cell i (8 x 8 cells on a 64 x 64 target) in
// the colour stored by invocation j with (37 j + 11) % 64 = i, (i / 64, j / 64, count 64, 1).
TEST_F(MeshShaderTest, WorkgroupMemoryAcrossSubgroups) {
  TestDevice& device = mesh_device();
  constexpr uint32_t kCells = 64, kColumns = 8, kTarget = 64;
  DrawJobOptions o = mesh_options("mesh_shared.mesh", "mesh_primitive_color.frag");
  o.width = o.height = kTarget;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 1, 1, 1); });
  ReferenceImage want(kTarget, kTarget, kClear);
  for (uint32_t j = 0; j < kCells; ++j) {
    const uint32_t cell = (37 * j + 11) % kCells;
    fill_cell_triangle(want, cell, 0, {float(cell) / 64, float(j) / 64, float(kCells), 1}, kColumns);
  }
  expect_image_eq(read_rgba32f(job), want, "colours passed through shared memory");
}

// Subgroup arithmetic in task shaders: two task workgroups of 42 invocations (a part-filled last
// subgroup at widths 4, 8, 16 and 32) sum i + 1 + 1000 t with subgroupAdd, one elected invocation
// per subgroup adding its subgroup's sum to a shared total; the total (903 + 42000 t) and whether
// as many subgroups added as gl_NumSubgroups says reach the mesh shader in the payload.
TEST_F(MeshShaderTest, SubgroupAddInTaskShaders) {
  const MeshFeatures needs{.task = true, .task_subgroups = true};
  REQUIRE_MESH_FEATURES(needs);
  TestDevice& device = mesh_device(needs);
  DrawJob job(device, mesh_options("mesh_subgroup.mesh", "mesh_primitive_color.frag", "mesh_subgroup.task"));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 2, 1, 1); });
  ReferenceImage want(kSize, kSize, kClear);
  for (uint32_t t = 0; t < 2; ++t) fill_cell_quad(want, 5 * t, {float(903 + 42000 * t), 1, float(t), 1});
  expect_image_eq(read_rgba32f(job), want, "(subgroup-summed total, subgroup count matches, task, 1)");
}

// Primitive order: 16 overlapping rectangles (32 triangles, 8 groups of 4) blended "over" with
// alpha 0.5, which depends on the order of every layer. Mesh workgroup g draws group g (one grid
// of 8), or task t launches mesh workgroups for groups 2 t and 2 t + 1 (4 tasks); either way the
// spec orders the primitives as the indexed draw of all 96 indices does, and the images are equal.
// The same draw with the groups reversed differs from it, so the comparison sees order.
struct OrderScene {
  std::vector<ColoredVertex> vertices;
  std::vector<uint32_t> indices;  // 8 groups of 12: rectangles 2 g and 2 g + 1
};

OrderScene order_scene() {
  OrderScene scene;
  for (uint32_t r = 0; r < 16; ++r) {
    const float x0 = float((5 * r) % 18 + 1), y0 = float((7 * r) % 17 + 1);
    const Rgba color{float(r % 4 + 1) / 4, float(r / 4 + 1) / 4, float(r % 3) / 2, 0.5f};
    const uint32_t base = uint32_t(scene.vertices.size());
    for (const auto& [x, y] : {std::pair{x0, y0}, {x0 + 12, y0}, {x0 + 12, y0 + 11}, {x0, y0 + 11}})
      scene.vertices.push_back({mesh_clip(x), mesh_clip(y), 0.5f, color[0], color[1], color[2], color[3]});
    for (uint32_t corner : {0u, 1u, 3u, 2u, 3u, 1u}) scene.indices.push_back(base + corner);
  }
  return scene;
}

void check_primitive_order(TestDevice& device, const MeshCommands& commands, bool with_task) {
  constexpr VkPipelineColorBlendAttachmentState kOver{
      VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
      VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD, 0xF};
  const OrderScene scene = order_scene();
  const Buffer vb = buffer_with(device, scene.vertices, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  const Buffer ib = buffer_with(device, scene.indices, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  DrawJobOptions o = with_task ? mesh_options("mesh_order_task.mesh", "draw_flat.frag", "mesh_order.task")
                               : mesh_options("mesh_order.mesh", "draw_flat.frag");
  o.bindings = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  o.blend = kOver;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, vb);
  job.bind_buffer(1, ib);
  job.draw(kBlack, [&](VkCommandBuffer cb) { commands.draw(cb, with_task ? 4 : 8, 1, 1); });

  DrawJobOptions reference = classic_options("draw_flat_colored.vert", "draw_flat.frag");
  reference.blend = kOver;
  const std::vector<float> in_order = draw_indexed(device, reference, scene.vertices, scene.indices);
  std::vector<uint32_t> reversed;
  for (uint32_t g = 8; g-- > 0;) reversed.insert(reversed.end(), &scene.indices[12 * g], &scene.indices[12 * g + 12]);
  const std::vector<float> out_of_order = draw_indexed(device, reference, scene.vertices, reversed);
  ASSERT_TRUE(in_order != out_of_order) << "the scene does not depend on the order of its groups";
  expect_same_pixels(read_rgba32f(job), in_order, "mesh groups vs the indexed draw in the same order");
}

TEST_F(MeshShaderTest, PrimitiveOrderAcrossWorkgroups) {
  TestDevice& device = mesh_device();
  check_primitive_order(device, mesh_commands(), false);
}

TEST_F(MeshShaderTest, PrimitiveOrderAcrossTasks) {
  const MeshFeatures needs{.task = true};
  REQUIRE_MESH_FEATURES(needs);
  TestDevice& device = mesh_device(needs);  // before mesh_commands(), which would make a device without taskShader
  check_primitive_order(device, mesh_commands(), true);
}

}  // namespace
}  // namespace kiln::test
