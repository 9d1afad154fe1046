// 64-bit values between graphics stages (shaderFloat64): a dvec3 over two Locations and a double,
// flat, from the vertex shader to the fragment shader directly and through a geometry shader's
// gl_in[]. The fragment shader compares them with the same constants (none exact in float, halves
// that differ), so every pixel is (1, 1, 1, 1) only when both 32-bit halves of every value arrive.
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/geometry_fixture.h"
#include "e2e/reference_image.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

void draw_and_expect_exact_values(TestDevice& device, const std::string& geometry_shader) {
  DrawJobOptions o;
  o.vertex_shader = "wide_varyings.vert";
  o.geometry_shader = geometry_shader;
  o.fragment_shader = "wide_varyings.frag";
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.width = o.height = kGeometryTargetSize;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [](VkCommandBuffer cb) { vkCmdDraw(cb, 3, 1, 0, 0); });
  const std::vector<float> pixels = read_rgba32f(job);
  uint32_t wrong = 0;
  for (float v : pixels) wrong += v != 1.0f;
  EXPECT_EQ(wrong, 0u) << "components whose 64-bit value did not arrive exactly";
}

TEST_F(GeometryTest, WideValuesFromVertexToFragment) {
  const GeometryFeatures needs{.float64 = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  draw_and_expect_exact_values(geometry_device(needs), "");
}

TEST_F(GeometryTest, WideValuesThroughGeometryInputs) {
  const GeometryFeatures needs{.float64 = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  draw_and_expect_exact_values(geometry_device(needs), "wide_varyings.geom");
}

}  // namespace
}  // namespace kiln::test
