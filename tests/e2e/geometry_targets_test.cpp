// Geometry shaders choosing where their primitives go: Layer (layered rendering), ViewportIndex
// (multiViewport) and, under multiview, one geometry shader run per view with its ViewIndex.
// Each test draws a rectangle on pixel boundaries (two triangles), which the geometry shader moves
// and colours per layer, viewport or view, and checks every pixel of every layer.
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/geometry_fixture.h"
#include "e2e/reference_image.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = kGeometryTargetSize;
constexpr Rgba kClear{0, 0, 0, 0};  // kBlack

// The rectangle the layer and view tests draw: pixels [8, 24) x [16, 48), vertex red 0.5.
constexpr int kRect[4] = {8, 16, 24, 48};
std::vector<ColoredVertex> base_rect() {
  auto clip = [](int pixel) { return clip_coordinate(float(pixel), kSize); };
  return rect(clip(kRect[0]), clip(kRect[1]), clip(kRect[2]), clip(kRect[3]), 0.5f, {0.5f, 0, 0, 1});
}

// Checks layer `layer` of `job`'s target: only the base rectangle moved right by `shift` pixels,
// in `color`.
void expect_layer(DrawJob& job, uint32_t layer, int shift, const Rgba& color) {
  ReferenceImage want(kSize, kSize, kClear);
  want.fill_rect(kRect[0] + shift, kRect[1], kRect[2] + shift, kRect[3], color);
  expect_image_eq(read_rgba32f(job, layer), want, "layer " + std::to_string(layer));
}

// A 2D array target of six layers (a cube map's faces would be the same six layers of a
// CUBE_COMPATIBLE image; DrawJob makes plain arrays). Six invocations per triangle: invocation k
// writes Layer k, moves the rectangle right by 4k pixels and colours it (0.5, (k + 1) / 8, k, 1),
// blue being the Layer the fragment shader reads.
TEST_F(GeometryTest, LayeredRenderingSixLayers) {
  TestDevice& device = geometry_device();
  constexpr uint32_t kLayers = 6;
  DrawJobOptions o = colored_geometry_options("geom_layers.geom");
  o.fragment_shader = "geom_layer.frag";
  o.layers = kLayers;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer vb = vertex_buffer(device, base_rect());
  draw_vertices(job, vb, 6);
  for (uint32_t k = 0; k < kLayers; ++k) expect_layer(job, k, 4 * int(k), {0.5f, float(k + 1) / 8, float(k), 1});
}

// multiViewport: four 32 x 32 viewports (and scissors) on the target's quadrants; input
// primitive p goes to viewport p / 2. Rectangle r (two triangles) spans clip x [-1 + r/4, 0.5],
// y [-0.5, 0.5], i.e. pixels [4r, 24) x [8, 24) of its viewport; the fragment shader writes the
// ViewportIndex it reads into blue.
TEST_F(GeometryTest, ViewportIndexFromGeometry) {
  const GeometryFeatures needs{.multi_viewport = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  TestDevice& device = geometry_device(needs);
  DrawJobOptions o = colored_geometry_options("geom_viewports.geom");
  o.fragment_shader = "geom_viewport_index.frag";
  for (int32_t v = 0; v < 4; ++v) {
    const int32_t x = 32 * (v & 1), y = 32 * (v >> 1);
    o.viewports.push_back({float(x), float(y), 32, 32, 0, 1});
    o.scissors.push_back({{x, y}, {32, 32}});
  }
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> vertices;
  ReferenceImage want(kSize, kSize, kClear);
  for (int r = 0; r < 4; ++r) {
    const Rgba color{float(r + 1) / 4, 0.5f, 0, 1};
    const std::vector<ColoredVertex> triangles = rect(-1 + 0.25f * float(r), -0.5f, 0.5f, 0.5f, 0.5f, color);
    vertices.insert(vertices.end(), triangles.begin(), triangles.end());
    const int x = 32 * (r & 1), y = 32 * (r >> 1);
    want.fill_rect(x + 4 * r, y + 8, x + 24, y + 24, {color[0], color[1], float(r), 1});
  }
  Buffer vb = vertex_buffer(device, vertices);
  draw_vertices(job, vb, uint32_t(vertices.size()));
  expect_image_eq(read_rgba32f(job), want, "rectangle r in viewport r");
}

// multiviewGeometryShader: view mask 0b11 over two layers; the geometry shader runs for each view
// and moves the rectangle right by 8 pixels per ViewIndex, colouring it (0.5, ViewIndex + 1, 0, 1).
TEST_F(GeometryTest, MultiviewGeometry) {
  const GeometryFeatures needs{.multiview = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  TestDevice& device = geometry_device(needs);
  DrawJobOptions o = colored_geometry_options("geom_multiview.geom");
  o.layers = 2;
  o.view_mask = 0b11;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer vb = vertex_buffer(device, base_rect());
  draw_vertices(job, vb, 6);
  for (uint32_t view = 0; view < 2; ++view) expect_layer(job, view, 8 * int(view), {0.5f, float(view + 1), 0, 1});
}

}  // namespace
}  // namespace kiln::test
