// A geometry shader after tessellation (tessellationShader): the tessellation tests' grid of
// 4 x 4 quad patches (tess_patches.h, tess_passthrough.tesc + tess_quad.tese), whose tessellated
// triangles cover every pixel exactly once, through geom_mirror_tessellated.geom, which mirrors
// every triangle across x = 0 and writes red = PrimitiveIdIn + 1. So mirrored pixel x shows patch
// column (63 - x) / 16: in green (the evaluation shader's PrimitiveId + 1) and in red, because the
// spec (BuiltIn PrimitiveId: "If the previous stage is a tessellation evaluation shader, it will
// contain the same value as the tessellation shaders would read", a clarification of Vulkan
// 1.4.358; before it the text only said "the number of primitives presented as input") makes
// PrimitiveIdIn after tessellation the patch's index.
#include <cstdint>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/geometry_fixture.h"
#include "e2e/reference_image.h"
#include "e2e/tess_patches.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = kGeometryTargetSize;

TEST_F(GeometryTest, TessellationThenGeometry) {
  const GeometryFeatures needs{.tessellation = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  TestDevice& device = geometry_device(needs);
  DrawJobOptions o = colored_geometry_options("geom_mirror_tessellated.geom");
  o.tess_control_shader = "tess_passthrough.tesc";
  o.tess_eval_shader = "tess_quad.tese";
  o.fragment_shader = "draw_colored.frag";  // smooth: blue and alpha are positions
  o.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  o.patch_control_points = 4;
  o.push_constant_bytes = sizeof(TessLevels);
  // Additive: a pixel covered twice would show twice its red and green.
  o.blend = kAdditiveBlend;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer vb = vertex_buffer(device, quad_patch_grid());
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    draw_quad_patch_grid(job, cb);
  });
  const std::vector<float> pixels = read_rgba32f(job);
  // Column of the patch that covered pixel x before the mirror.
  auto patch = [](uint32_t x) { return float((kSize - 1 - x) / 16); };
  // Interpolated (smooth) values: exact up to rounding.
  {
    PixelCheck failures(kSize, kSize);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const size_t i = size_t{y} * kSize + x;
        failures.expect_near(i, pixels[i * 4 + 1], patch(x) + 1, 1e-3f, "evaluation shader PrimitiveId + 1, covered once");
        failures.expect_near(i, pixels[i * 4 + 2], 1 - (x + 0.5f) / kSize, 1e-4f, "unmirrored position x");
        failures.expect_near(i, pixels[i * 4 + 3], (y + 0.5f) / kSize, 1e-4f, "position y");
      }
  }
  SKIP_ON_LAVAPIPE("its PrimitiveIdIn after tessellation counts the tessellated triangles, not the patches");
  PixelCheck failures(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const size_t i = size_t{y} * kSize + x;
      failures.expect_near(i, pixels[i * 4 + 0], patch(x) + 1, 1e-3f, "geometry shader PrimitiveIdIn + 1 (the patch's)");
    }
}

}  // namespace
}  // namespace kiln::test
