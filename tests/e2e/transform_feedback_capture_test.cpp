// Transform feedback: what a capture writes, byte by byte (spec, "Transform Feedback"): every
// output with an XfbBuffer Offset at that offset of its vertex's XfbStride-sized record,
// components in order and packed; "any portion of the reserved storage not associated with an
// output variable with an assigned transform feedback offset will be unmodified", and nothing
// past the captured vertices is written either. Buffers start filled with kXfbFill, so every
// unwritten byte is checked too. Primitive order, strips and later stages are in
// transform_feedback_primitives_test.cpp.
#include <array>
#include <cstdint>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/primitive_assembly.h"
#include "e2e/reference_image.h"
#include "e2e/transform_feedback.h"
#include "e2e/transform_feedback_fixture.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

// Four triangles of xfb_capture.vert (a at 0, b at 16, stride 32): their 12 vertices are the
// first 384 bytes, the 64 after them stay as they were.
TEST_F(TransformFeedbackTest, CaptureFromVertexShader) {
  TestDevice& device = xfb_device();
  DrawJob job(device, xfb_options("xfb_capture.vert", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kVertices = 12;
  Buffer buffer = create_capture_buffer(device, kVertices * kCaptureStride + 64);
  capture_pass(device, xfb(), job, {{&buffer}}, [](VkCommandBuffer cb) { vkCmdDraw(cb, kVertices, 1, 0, 0); });
  ExpectedBytes want(buffer.size);
  put_primitives(want, 0, kCaptureStride, assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, kVertices),
                 put_capture_vertex, exact_vertex_order(), &buffer);
  expect_bytes_eq(buffer, want, "four triangles' vertices, then untouched bytes");
}

// xfb_gaps.vert: buffer 0 (stride 32) has a float at 0, a vec2 at 12 and a float at 28; buffer 1
// (stride 24, an output block) a float at 4 and a vec2 at 16. The holes between them keep the
// fill pattern in every record.
TEST_F(TransformFeedbackTest, GapsInTheStrideAreUntouched) {
  TestDevice& device = xfb_device();
  DrawJobOptions o = xfb_options("xfb_gaps.vert", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  o.fragment_shader = "xfb_constant.frag";  // Location 0 is a float here
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kVertices = 6, kStride0 = 32, kStride1 = 24;
  Buffer buffer0 = create_capture_buffer(device, kVertices * kStride0 + 32);
  Buffer buffer1 = create_capture_buffer(device, kVertices * kStride1 + 32);
  capture_pass(device, xfb(), job, {{&buffer0}, {&buffer1}}, [](VkCommandBuffer cb) { vkCmdDraw(cb, kVertices, 1, 0, 0); });
  const auto triangles = assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, kVertices);
  ExpectedBytes want0(buffer0.size), want1(buffer1.size);
  put_primitives(
      want0, 0, kStride0, triangles,
      [](ExpectedBytes& bytes, size_t offset, uint32_t vertex) {
        const Vec4 v = xfb_value(vertex, 0);
        bytes.put(offset, v[0]);
        bytes.put(offset + 12, std::array<float, 2>{v[1], v[2]});
        bytes.put(offset + 28, v[3]);
      },
      exact_vertex_order(), &buffer0);
  put_primitives(
      want1, 0, kStride1, triangles,
      [](ExpectedBytes& bytes, size_t offset, uint32_t vertex) {
        const Vec4 w = xfb_value(vertex, 1);
        bytes.put(offset + 4, w[0]);
        bytes.put(offset + 16, std::array<float, 2>{w[2], w[3]});
      },
      exact_vertex_order(), &buffer1);
  expect_bytes_eq(buffer0, want0, "buffer 0: floats at 0, 12..19, 28; holes 4..11 and 20..27 untouched");
  expect_bytes_eq(buffer1, want1, "buffer 1 (block members): float at 4, vec2 at 16; holes 0..3 and 8..15 untouched");
}

// xfb_four_buffers.vert, eight points into four buffers with strides 16, 20, 12 and 28, the last
// one capturing gl_Position and gl_PointSize from a redeclared gl_PerVertex; buffer 2 is bound 16
// bytes into its VkBuffer.
TEST_F(TransformFeedbackTest, FourBuffers) {
  const XfbFeatures needs{.buffers = 4};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJob job(device, xfb_options("xfb_four_buffers.vert", VK_PRIMITIVE_TOPOLOGY_POINT_LIST));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kPoints = 8;
  const auto& kStrides = kFourBufferStrides;
  constexpr VkDeviceSize kBufferTwoOffset = 16;
  Buffer buffers[4] = {create_capture_buffer(device, kPoints * kStrides[0] + 32),
                       create_capture_buffer(device, kPoints * kStrides[1] + 32),
                       create_capture_buffer(device, kBufferTwoOffset + kPoints * kStrides[2] + 32),
                       create_capture_buffer(device, kPoints * kStrides[3] + 32)};
  capture_pass(device, xfb(), job, {{&buffers[0]}, {&buffers[1]}, {&buffers[2], kBufferTwoOffset}, {&buffers[3]}},
               [](VkCommandBuffer cb) { vkCmdDraw(cb, kPoints, 1, 0, 0); });
  std::vector<ExpectedBytes> want;
  for (const Buffer& b : buffers) want.emplace_back(b.size);
  for (uint32_t i = 0; i < kPoints; ++i) put_four_buffers_point(want, {0, 0, kBufferTwoOffset, 0}, i);
  expect_bytes_eq(buffers[0], want[0], "buffer 0: vec4 at 0, stride 16");
  expect_bytes_eq(buffers[1], want[1], "buffer 1: float at 0, vec3 at 4, stride 20");
  expect_bytes_eq(buffers[2], want[2], "buffer 2 (bound at 16): ivec2 at 4, stride 12");
  expect_bytes_eq(buffers[3], want[3], "buffer 3: gl_Position at 4, gl_PointSize at 20, stride 28");
}

// Transform feedback comes before rasterization: with rasterizerDiscardEnable (and no fragment
// shader) the vertices are captured all the same, and the colour target keeps its clear colour.
TEST_F(TransformFeedbackTest, CaptureWithRasterizerDiscard) {
  TestDevice& device = xfb_device();
  DrawJobOptions o = xfb_options("xfb_capture.vert", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  o.rasterizer_discard = true;
  o.fragment_shader.clear();
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kVertices = 9;
  Buffer buffer = create_capture_buffer(device, kVertices * kCaptureStride + 32);
  const VkClearColorValue clear{.float32 = {0.25f, 0.5f, 0.75f, 1.0f}};
  capture_pass(
      device, xfb(), job, {{&buffer}}, [](VkCommandBuffer cb) { vkCmdDraw(cb, kVertices, 1, 0, 0); }, {}, clear);
  ExpectedBytes want(buffer.size);
  put_primitives(want, 0, kCaptureStride, assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, kVertices),
                 put_capture_vertex, exact_vertex_order(), &buffer);
  expect_bytes_eq(buffer, want, "three triangles captured with rasterization discarded");
  expect_image_eq(read_rgba32f(job), ReferenceImage(kXfbTargetSize, kXfbTargetSize, {0.25f, 0.5f, 0.75f, 1.0f}),
                  "nothing rasterized");
}

}  // namespace
}  // namespace kiln::test
