// Geometry shader vertex streams (geometryStreams) with transform feedback: EmitStreamVertex(s)
// assembles primitives per stream, and each stream's outputs go to its own buffers (spec: "a
// primitive will be assembled and output for each stream when there are enough vertices emitted
// for the output primitive type"). Only the rasterization stream (0, or
// VkPipelineRasterizationStateStreamCreateInfoEXT::rasterizationStream) is rasterized.
// xfb_streams.glsl emits, per input point i, one point to stream 0 (buffer 0) and two to stream 1
// (buffer 1), each stream's points in a row of pixels of its own.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/reference_image.h"
#include "e2e/transform_feedback.h"
#include "e2e/transform_feedback_fixture.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kPoints = 6;

// Draws kPoints points through xfb_streams_position<stream>.geom, rasterizing `stream`, capturing
// both streams; checks both buffers and that the image shows exactly `stream`'s points. `dynamic`:
// the stream is set by vkCmdSetRasterizationStreamEXT, the pipeline's static one being the other.
void check_streams(TestDevice& device, const XfbCommands& xfb, uint32_t stream, bool dynamic = false) {
  DrawJobOptions o = xfb_options("xfb_values.vert", VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  o.geometry_shader = "xfb_streams_position" + std::to_string(stream) + ".geom";
  if (stream != 0 || dynamic) o.rasterization_stream = dynamic ? 1 - stream : stream;
  if (dynamic) o.dynamic_states.push_back(VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT);
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer buffer0 = create_capture_buffer(device, kPoints * kStream0Stride + 32);
  Buffer buffer1 = create_capture_buffer(device, 2 * kPoints * kStream1Stride + 32);
  auto set_stream = reinterpret_cast<PFN_vkCmdSetRasterizationStreamEXT>(
      vkGetDeviceProcAddr(device.handle(), "vkCmdSetRasterizationStreamEXT"));
  if (dynamic) ASSERT_NE(set_stream, nullptr);
  capture_pass(device, xfb, job, {{&buffer0}, {&buffer1}}, [&](VkCommandBuffer cb) {
    if (dynamic) set_stream(cb, stream);
    vkCmdDraw(cb, kPoints, 1, 0, 0);
  });

  ExpectedBytes want0(buffer0.size), want1(buffer1.size);
  put_stream_records(want0, want1, kPoints, 2 * kPoints);
  ReferenceImage image(kXfbTargetSize, kXfbTargetSize, {0, 0, 0, 0});
  for (uint32_t i = 0; i < kPoints; ++i) {
    if (stream == 0) image.set(4 + 8 * i, 8, {1.0f, float(i) / 8, 0.0f, 1.0f});
    for (uint32_t j = 0; j < 2 && stream == 1; ++j)
      image.set(4 + 8 * i + 2 * j, 40, {0.0f, float(i) / 8, float(j + 1) / 2, 1.0f});
  }
  expect_bytes_eq(buffer0, want0, "stream 0 into buffer 0: one point per input point");
  expect_bytes_eq(buffer1, want1, "stream 1 into buffer 1: two points per input point");
  expect_image_eq(read_rgba32f(job), image, "the points of rasterization stream " + std::to_string(stream) + " only");
}

TEST_F(TransformFeedbackTest, GeometryStreams) {
  const XfbFeatures needs{.geometry_streams = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  check_streams(device, xfb(), 0);
}

// rasterizationStream = 1 (transformFeedbackRasterizationStreamSelect): both streams are still
// captured, and the image shows stream 1's points and none of stream 0's.
TEST_F(TransformFeedbackTest, GeometryStreamsRasterizeStreamOne) {
  const XfbFeatures needs{.geometry_streams = true, .rasterization_stream_select = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  check_streams(device, xfb(), 1);
}

// The rasterization stream as dynamic state (VK_EXT_extended_dynamic_state3): the pipeline says
// stream 0 and the command buffer 1, then the other way round; each image shows the command
// buffer's stream.
TEST_F(TransformFeedbackTest, DynamicRasterizationStream) {
  const XfbFeatures needs{.geometry_streams = true, .dynamic_rasterization_stream = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  check_streams(device, xfb(), 1, true);
  check_streams(device, xfb(), 0, true);
}

// Without a geometry shader every primitive is on stream 0 (spec "Rasterization Stream
// Selection"): with stream 1 selected, statically or dynamically, nothing is drawn while stream 0
// is still captured; with stream 0 the same draw shows its points.
TEST_F(TransformFeedbackTest, RasterizationStreamOneDrawsNothingWithoutAGeometryShader) {
  const XfbFeatures needs{.geometry_streams = true, .dynamic_rasterization_stream = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  auto set_stream = reinterpret_cast<PFN_vkCmdSetRasterizationStreamEXT>(
      vkGetDeviceProcAddr(device.handle(), "vkCmdSetRasterizationStreamEXT"));
  ASSERT_NE(set_stream, nullptr);
  auto covered = [&](uint32_t stream, bool dynamic) {
    DrawJobOptions o = xfb_options("xfb_points.vert", VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
    o.fragment_shader = "draw_colored.frag";
    o.rasterization_stream = dynamic ? 1 - stream : stream;
    if (dynamic) o.dynamic_states.push_back(VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT);
    DrawJob job(device, o);
    EXPECT_EQ(job.pipeline_result(), VK_SUCCESS);
    Buffer buffer = create_capture_buffer(device, kPoints * 32 + 32);
    capture_pass(device, xfb(), job, {{&buffer}}, [&](VkCommandBuffer cb) {
      if (dynamic) set_stream(cb, stream);
      vkCmdDraw(cb, kPoints, 1, 0, 0);
    });
    const std::vector<float> pixels = read_rgba32f(job);
    size_t n = 0;
    for (size_t i = 3; i < pixels.size(); i += 4) n += pixels[i] != 0.0f;
    float x;
    std::memcpy(&x, buffer.mapped, sizeof x);
    EXPECT_EQ(x, 3.5f / 32 - 1) << "stream 0 is captured whatever is rasterized (xfb_points.vert's first Position.x)";
    return n;
  };
  EXPECT_EQ(covered(1, false), 0u) << "static stream 1";
  EXPECT_EQ(covered(1, true), 0u) << "dynamic stream 1";
  EXPECT_GT(covered(0, true), 0u) << "dynamic stream 0";
}

}  // namespace
}  // namespace kiln::test
