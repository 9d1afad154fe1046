// Transform feedback layouts the CTS's fuzz and clip/cull cases exercise (spec, "Transform
// Feedback"; GLSL's xfb rules for arrayed blocks): block members whose Offsets decrease, in a
// block kept in memory (its size is its furthest member's end, not its last member's); an array
// of blocks, each element into the next buffer; a struct with a double, aligned to 8.
#include <array>
#include <cstdint>

#include "e2e/draw_job.h"
#include "e2e/primitive_assembly.h"
#include "e2e/transform_feedback.h"
#include "e2e/transform_feedback_fixture.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

TEST_F(TransformFeedbackTest, BlockOffsetsArraysOfBlocksAndAlignedStructs) {
  const XfbFeatures needs{.buffers = 4, .float64 = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJobOptions o = xfb_options("xfb_layouts.vert", VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  o.fragment_shader = "xfb_constant.frag";
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kPoints = 5;
  constexpr std::array<uint32_t, 4> kStrides{24, 8, 8, 32};
  std::array<Buffer, 4> buffers;
  for (uint32_t b = 0; b < 4; ++b) buffers[b] = create_capture_buffer(device, kPoints * kStrides[b] + 16);
  capture_pass(device, xfb(), job, {{&buffers[0]}, {&buffers[1]}, {&buffers[2]}, {&buffers[3]}},
               [](VkCommandBuffer cb) { vkCmdDraw(cb, kPoints, 1, 0, 0); });
  std::array<ExpectedBytes, 4> want{ExpectedBytes(buffers[0].size), ExpectedBytes(buffers[1].size),
                                    ExpectedBytes(buffers[2].size), ExpectedBytes(buffers[3].size)};
  for (uint32_t i = 0; i < kPoints; ++i) {
    const float f = float(i);
    want[0].put(i * kStrides[0], std::array<float, 6>{f, f + 1, f + 2, f + 3, float(-int32_t(i)), 0.5f});
    for (uint32_t k = 0; k < 2; ++k) want[1 + k].put(i * kStrides[1 + k], std::array<float, 2>{float(k), f});
    want[3].put(i * kStrides[3], std::array<uint32_t, 3>{i, 7, 9});
    want[3].put(i * kStrides[3] + 16, double(i) + 1.0 / 3.0);
  }
  expect_bytes_eq(buffers[0], want[0], "decreasing block Offsets: early at 0, late at 16");
  expect_bytes_eq(buffers[1], want[1], "instances[0] in buffer 1");
  expect_bytes_eq(buffers[2], want[2], "instances[1] in buffer 2");
  expect_bytes_eq(buffers[3], want[3], "uvec3 at 0, the double at 16; 12..15 and 24..31 untouched");
}

}  // namespace
}  // namespace kiln::test
