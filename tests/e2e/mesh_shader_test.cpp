// Mesh shaders (VK_EXT_mesh_shader) end to end, through the loader with the validation layer: what
// a mesh shader outputs (triangles, lines, points, per-primitive values, culling, layers,
// viewports, views) and how it is rasterized. Triangles and lines are compared with the same scene
// drawn by a vertex shader on the same device; everything else with images computed from the
// spec's rules (primitives whose edges miss every pixel centre, exact colours in an RGBA32F
// target). Task shaders, workgroup memory, indirect draws and primitive order are in
// mesh_shader_task_test.cpp, queries in mesh_shader_query_test.cpp. Every test skips on a device
// without VK_EXT_mesh_shader.
#include <array>
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

// mesh_triangles.mesh's scene as vertex and index buffers: workgroup w's five vertices
// (kCorners moved right by 8 w pixels, colour (w / 4, k / 8, (k + w) / 16, 1)) and its three
// triangles, for workgroups 0 .. 3.
constexpr float kCorners[5][2] = {{1.25f, 2.5f}, {6.75f, 3.25f}, {7.5f, 13.75f}, {0.5f, 12.25f}, {4.25f, 29.5f}};
constexpr uint32_t kTriangles[3][3] = {{0, 1, 2}, {0, 2, 3}, {3, 2, 4}};

// Four workgroups of one grid, each writing five vertices at gl_WorkGroupID-dependent places with
// smooth per-vertex colours and three triangles sharing them: the image equals the indexed draw of
// the same triangles through draw_colored.vert, pixel for pixel (same rasterizer, same
// interpolation).
TEST_F(MeshShaderTest, TrianglesMatchIndexedDraw) {
  TestDevice& device = mesh_device();
  DrawJob job(device, mesh_options("mesh_triangles.mesh", "draw_colored.frag"));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 4, 1, 1); });

  std::vector<ColoredVertex> vertices;
  std::vector<uint32_t> indices;
  for (uint32_t w = 0; w < 4; ++w) {
    for (uint32_t k = 0; k < 5; ++k)
      vertices.push_back({mesh_clip(kCorners[k][0] + float(8 * w)), mesh_clip(kCorners[k][1]), 0.5f, float(w) * 0.25f,
                          float(k) * 0.125f, float(k + w) * 0.0625f, 1.0f});
    for (const auto& triangle : kTriangles)
      for (uint32_t corner : triangle) indices.push_back(5 * w + corner);
  }
  const std::vector<float> want =
      draw_indexed(device, classic_options("draw_colored.vert", "draw_colored.frag"), vertices, indices);
  ASSERT_GT(covered_pixels(want), 300u) << "the reference draw covers about 480 pixels";
  expect_same_pixels(read_rgba32f(job), want, "mesh triangles vs indexed draw");
}

// Per-primitive outputs: two workgroups fill the 16 cells, two triangles each. The fragment shader
// reads a perprimitiveEXT vec4 and a perprimitiveEXT uint (flat, as Vulkan wants integer inputs),
// PrimitiveId as the mesh shader wrote it per primitive, and a flat per-vertex value, which comes
// from the provoking vertex: the first index of the triangle (OutputTrianglesEXT is a triangle
// list, FIRST_VERTEX mode) — corner 0 for t = 0, corner 2 for t = 1, whose indices are (2, 3, 1).
TEST_F(MeshShaderTest, PerPrimitiveOutputsAndPrimitiveId) {
  const MeshFeatures needs{.fragment_primitive_builtins = true};
  REQUIRE_MESH_FEATURES(needs);
  TestDevice& device = mesh_device(needs);
  DrawJob job(device, mesh_options("mesh_per_primitive.mesh", "mesh_per_primitive.frag"));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 2, 1, 1); });
  ReferenceImage want(kSize, kSize, kClear);
  for (uint32_t w = 0; w < 2; ++w)
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t t = 0; t < 2; ++t) {
        const uint32_t c = 8 * w + i, p = 2 * i + t;
        const float tag = float(1000 + 2 * c + t), provoking = float(4 * c + kCellTriangleCorners[t][0]);
        fill_cell_triangle(want, c, t, {tag + 0.5f * float(t), provoking, float(100 * (w + 1) + p), 1.0f - float(c) / 16});
      }
  expect_image_eq(read_rgba32f(job), want, "(p_tag + p_color.r, provoking vertex, PrimitiveId, p_color.g)");
}

// CullPrimitiveEXT, written for every primitive: with cull_every n, primitive p (triangle t of
// cell p / 2) is absent when p % n == 0. n = 0 culls nothing, n = 1 everything.
TEST_F(MeshShaderTest, CullPrimitiveRemovesPrimitives) {
  TestDevice& device = mesh_device();
  DrawJobOptions o = mesh_options("mesh_cull.mesh", "mesh_primitive_color.frag");
  o.push_constant_bytes = sizeof(uint32_t);
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  for (uint32_t cull_every : {0u, 3u, 1u}) {
    SCOPED_TRACE("cull_every " + std::to_string(cull_every));
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      vkCmdPushConstants(cb, job.layout(), job.stages(), 0, sizeof cull_every, &cull_every);
      mesh_commands().draw(cb, 1, 1, 1);
    });
    ReferenceImage want(kSize, kSize, kClear);
    for (uint32_t p = 0; p < 32; ++p)
      if (cull_every == 0 || p % cull_every != 0) fill_cell_triangle(want, p / 2, p % 2, {float(p / 2) / 16, float(p % 2), 1, 1});
    expect_image_eq(read_rgba32f(job), want, "the triangles not culled");
  }
}

// Point output with PointSize: vertex v at a pixel centre with size 1 + 2 (v % 3) covers exactly
// the (1 + 2 (v % 3))² pixels around it; six points use vertices 3 p % 8, so vertices 2 and 5,
// written but in no primitive, draw nothing.
TEST_F(MeshShaderTest, PointsWithPointSize) {
  const MeshFeatures needs{.large_points = true};
  REQUIRE_MESH_FEATURES(needs);
  TestDevice& device = mesh_device(needs);
  DrawJob job(device, mesh_options("mesh_points.mesh", "draw_flat.frag"));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 1, 1, 1); });
  ReferenceImage want(kSize, kSize, kClear);
  for (uint32_t p = 0; p < 6; ++p) {
    const uint32_t v = 3 * p % 8;
    const int x = int(4 + 8 * (v % 4)), y = int(8 + 16 * (v / 4)), half = int(v % 3);
    want.fill_rect(x - half, y - half, x + half + 1, y + half + 1, {float(v + 1) / 8, 1, 0.5f, 1});
  }
  expect_image_eq(read_rgba32f(job), want, "point of size 1 + 2 (v % 3) per referenced vertex");
}

// Line output (PrimitiveLineIndicesEXT), vertices and index pairs read from the buffers a line
// list indexed draw of them uses: the images are equal. Lines run along pixel centres; each takes
// its flat colour from its first index (the provoking vertex of a line list), checked away from
// the ends: (0, 1) and (0, 3) show vertex 0's colour, (2, 1) and (2, 3) vertex 2's, (4, 5)
// vertex 4's.
TEST_F(MeshShaderTest, LinesMatchIndexedLineList) {
  TestDevice& device = mesh_device();
  const float corners[6][2] = {{4.5f, 4.5f}, {27.5f, 4.5f}, {27.5f, 20.5f}, {4.5f, 20.5f}, {4.5f, 27.5f}, {27.5f, 27.5f}};
  const Rgba colors[6] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}};
  std::vector<ColoredVertex> vertices;
  for (int v = 0; v < 6; ++v)
    vertices.push_back({mesh_clip(corners[v][0]), mesh_clip(corners[v][1]), 0.5f, colors[v][0], colors[v][1],
                        colors[v][2], colors[v][3]});
  const std::vector<uint32_t> indices = {0, 1, 2, 1, 2, 3, 0, 3, 4, 5};
  const Buffer vb = buffer_with(device, vertices, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  const Buffer ib = buffer_with(device, indices, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  DrawJobOptions o = mesh_options("mesh_lines.mesh", "draw_flat.frag");
  o.bindings = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, vb);
  job.bind_buffer(1, ib);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 1, 1, 1); });
  const std::vector<float> got = read_rgba32f(job);

  DrawJobOptions reference = classic_options("draw_flat_colored.vert", "draw_flat.frag");
  reference.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  expect_same_pixels(got, draw_indexed(device, reference, vertices, indices), "mesh lines vs indexed line list");
  PixelCheck failures(kSize, kSize);
  auto expect = [&](uint32_t x, uint32_t y, const Rgba& want, const std::string& what) {
    const size_t i = size_t{y} * kSize + x;
    for (int c = 0; c < 4; ++c) failures.expect_eq(i, got[i * 4 + c], want[c], what);
  };
  for (uint32_t t = 8; t < 24; ++t) {
    expect(t, 4, colors[0], "line (0, 1)");
    expect(t, 20, colors[2], "line (2, 3)");
    expect(t, 27, colors[4], "line (4, 5)");
    expect(t, 12, kClear, "inside the rectangle");
  }
  for (uint32_t y = 8; y < 17; ++y) {
    expect(27, y, colors[2], "line (2, 1)");
    expect(4, y, colors[0], "line (0, 3)");
  }
}

// Layer and ViewportIndex per primitive (multiViewport): two 16 x 32 viewports side by side on a
// two-layer target; rectangle r goes to layer r / 2 and viewport r % 2, which the fragment shader
// reads back into green and blue. Rectangle r covers pixels [2, 14) x [8, 17 + 2 r) of its
// viewport.
TEST_F(MeshShaderTest, LayerAndViewportIndexPerPrimitive) {
  const MeshFeatures needs{.multi_viewport = true, .fragment_primitive_builtins = true};
  REQUIRE_MESH_FEATURES(needs);
  TestDevice& device = mesh_device(needs);
  DrawJobOptions o = mesh_options("mesh_layer_viewport.mesh", "mesh_layer_viewport.frag");
  o.layers = 2;
  for (int32_t v = 0; v < 2; ++v) {
    o.viewports.push_back({float(16 * v), 0, 16, float(kSize), 0, 1});
    o.scissors.push_back({{16 * v, 0}, {16, kSize}});
  }
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 1, 1, 1); });
  for (uint32_t layer = 0; layer < 2; ++layer) {
    ReferenceImage want(kSize, kSize, kClear);
    for (uint32_t r = 2 * layer; r < 2 * layer + 2; ++r) {
      const int x = int(16 * (r % 2));
      want.fill_rect(x + 2, 8, x + 14, int(17 + 2 * r), {float(r + 1), float(layer), float(r % 2), 1});
    }
    expect_image_eq(read_rgba32f(job, layer), want, "layer " + std::to_string(layer));
  }
}

// multiviewMeshShader: view mask 0b11 over two layers; in view v the mesh shader reads ViewIndex
// v and draws the quad of cell 5 v in colour (v + 1, 0.5, 0, 1). Each layer shows its view's quad
// only.
TEST_F(MeshShaderTest, MultiviewViewIndex) {
  const MeshFeatures needs{.multiview = true};
  REQUIRE_MESH_FEATURES(needs);
  TestDevice& device = mesh_device(needs);
  DrawJobOptions o = mesh_options("mesh_multiview.mesh", "mesh_primitive_color.frag");
  o.layers = 2;
  o.view_mask = 0b11;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) { mesh_commands().draw(cb, 1, 1, 1); });
  for (uint32_t view = 0; view < 2; ++view) {
    ReferenceImage want(kSize, kSize, kClear);
    for (uint32_t t = 0; t < 2; ++t) fill_cell_triangle(want, 5 * view, t, {float(view + 1), 0.5f, 0, 1});
    expect_image_eq(read_rgba32f(job, view), want, "view " + std::to_string(view));
  }
}

}  // namespace
}  // namespace kiln::test
