// Transform feedback of 64-bit outputs (shaderFloat64): "All components of an output variable
// must be written at an offset aligned to the size of the component", so doubles sit at
// multiples of 8 and are written whole, components in order. 16-bit outputs cannot be captured
// at all: "The size of each component of an output variable must be at least 32-bits"
// (VUID-StandaloneSpirv-Offset-04692), so there is no 16-bit case.
#include <array>
#include <cstdint>

#include "e2e/draw_job.h"
#include "e2e/primitive_assembly.h"
#include "e2e/transform_feedback.h"
#include "e2e/transform_feedback_fixture.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

// xfb_double.vert, two triangles: per vertex i (stride 48) i + 0.5 as a float at 0, i + 1/3 as a
// double at 8, (i * 2^40 + 1, -1/7, 1e300 * (i + 1)) as a dvec3 at 24; bytes 4..7 and 16..23
// untouched.
TEST_F(TransformFeedbackTest, Capture64Bit) {
  const XfbFeatures needs{.float64 = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJobOptions o = xfb_options("xfb_double.vert", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  o.fragment_shader = "xfb_constant.frag";
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kVertices = 6, kStride = 48;
  Buffer buffer = create_capture_buffer(device, kVertices * kStride + 48);
  capture_pass(device, xfb(), job, {{&buffer}}, [](VkCommandBuffer cb) { vkCmdDraw(cb, kVertices, 1, 0, 0); });
  ExpectedBytes want(buffer.size);
  put_primitives(
      want, 0, kStride, assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, kVertices),
      [](ExpectedBytes& bytes, size_t offset, uint32_t vertex) {
        const double i = double(vertex);
        bytes.put(offset, float(vertex) + 0.5f);
        bytes.put(offset + 8, i + 1.0 / 3.0);
        bytes.put(offset + 24, std::array<double, 3>{i * 1099511627776.0 + 1.0, -1.0 / 7.0, 1.0e300 * (i + 1.0)});
      },
      exact_vertex_order(), &buffer);
  expect_bytes_eq(buffer, want, "float at 0, double at 8, dvec3 at 24, stride 48");
}

}  // namespace
}  // namespace kiln::test
