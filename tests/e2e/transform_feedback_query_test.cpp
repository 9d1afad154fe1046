// Transform feedback overflow and the queries that count primitives.
//
// Overflow (spec, "Transform Feedback"): "If there is less space remaining in any of the
// transform feedback buffers than the size of all of the vertex data for that primitive based on
// the XfbStride for that XfbBuffer then no vertex data of that primitive is recorded in any
// transform feedback buffer, and the value for the number of primitives written in the
// corresponding VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT query for all transform feedback
// buffers is no longer incremented." That query (transformFeedbackQueries) returns primitives
// written, then primitives needed ("the number that would have been written if all the transform
// feedback buffers associated with that vertex stream were large enough"), per vertex stream.
//
// VK_EXT_primitives_generated_query: "the primitives-generated count is incremented every time a
// primitive emitted to that stream reaches the transform feedback stage, whether or not transform
// feedback is active" — complete primitives only, with or without rasterizer discard
// (primitivesGeneratedQueryWithRasterizerDiscard), for any stream
// (primitivesGeneratedQueryWithNonZeroStreams, vkCmdBeginQueryIndexedEXT).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/primitive_assembly.h"
#include "e2e/transform_feedback.h"
#include "e2e/transform_feedback_fixture.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

// xfb_values.vert's points through xfb_streams_position0.geom: one point each on stream 0, two on
// stream 1.
DrawJobOptions two_stream_options() {
  DrawJobOptions o = xfb_options("xfb_values.vert", VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  o.geometry_shader = "xfb_streams_position0.geom";
  return o;
}

constexpr uint32_t kRestart = kRestartIndex;

// Five triangles of xfb_capture.vert (96 bytes each) into a binding at offset 32 of 2 x 96 + 40
// bytes: two are written, nothing of the third (which would fit in part) or later; the query
// counts 2 written, 5 needed; the counter says 192.
TEST_F(TransformFeedbackTest, OverflowStopsWritingAndCountsNeeded) {
  const XfbFeatures needs{.queries = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJob job(device, xfb_options("xfb_capture.vert", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kTriangles = 5, kFit = 2, kTriangleBytes = 3 * kCaptureStride;
  constexpr VkDeviceSize kOffset = 32;
  Buffer buffer = create_capture_buffer(device, 1024);
  Buffer counters = create_counter_buffer(device, 4);
  VkQueryPool pool = create_query_pool(device, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1);
  device.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 1);
    record_capture_pass(
        cb, xfb(), job, {{&buffer, kOffset, kFit * kTriangleBytes + 40}},
        [&](VkCommandBuffer cb) {
          vkCmdBeginQuery(cb, pool, 0, 0);
          vkCmdDraw(cb, 3 * kTriangles, 1, 0, 0);
          vkCmdEndQuery(cb, pool, 0);
        },
        {}, {{&counters, 0}});
    xfb_to_host_barrier(cb);
  });
  ExpectedBytes want(buffer.size);
  put_primitives(want, kOffset, kCaptureStride, assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 3 * kFit),
                 put_capture_vertex, exact_vertex_order(), &buffer);
  expect_bytes_eq(buffer, want, "two whole triangles, nothing of the third");
  const std::vector<uint64_t> counts = query_results(device, pool, 0, 1, 2);
  EXPECT_EQ(counts[0], kFit) << "primitives written";
  EXPECT_EQ(counts[1], kTriangles) << "primitives needed";
  EXPECT_EQ(read_counter(counters, 0), kFit * kTriangleBytes) << "the counter: the bytes written";
}

// xfb_four_buffers.vert, eight points, buffer 2 bound with room for three of its 12-byte records
// (and 8 bytes more): the fourth point fits buffers 0, 1 and 3 but not buffer 2, so no buffer
// gets it or any later point.
TEST_F(TransformFeedbackTest, OverflowOfOneBufferStopsEveryBuffer) {
  const XfbFeatures needs{.queries = true, .buffers = 4};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJob job(device, xfb_options("xfb_four_buffers.vert", VK_PRIMITIVE_TOPOLOGY_POINT_LIST));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kPoints = 8, kFit = 3;
  Buffer buffers[4] = {create_capture_buffer(device, 256), create_capture_buffer(device, 256),
                       create_capture_buffer(device, 256), create_capture_buffer(device, 256)};
  VkQueryPool pool = create_query_pool(device, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1);
  device.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 1);
    record_capture_pass(cb, xfb(), job,
                        {{&buffers[0]}, {&buffers[1]}, {&buffers[2], 0, kFit * kFourBufferStrides[2] + 8}, {&buffers[3]}},
                        [&](VkCommandBuffer cb) {
                          vkCmdBeginQuery(cb, pool, 0, 0);
                          vkCmdDraw(cb, kPoints, 1, 0, 0);
                          vkCmdEndQuery(cb, pool, 0);
                        });
    xfb_to_host_barrier(cb);
  });
  std::vector<ExpectedBytes> want(4, ExpectedBytes(256));
  for (uint32_t i = 0; i < kFit; ++i) put_four_buffers_point(want, {0, 0, 0, 0}, i);
  for (int b = 0; b < 4; ++b)
    expect_bytes_eq(buffers[b], want[b], "buffer " + std::to_string(b) + ": the first three points only");
  const std::vector<uint64_t> counts = query_results(device, pool, 0, 1, 2);
  EXPECT_EQ(counts[0], kFit) << "primitives written";
  EXPECT_EQ(counts[1], kPoints) << "primitives needed";
}

// Per-stream queries (vkCmdBeginQueryIndexedEXT, streams 0 and 1 at once) around six points
// through xfb_streams_position0.geom: stream 0 writes one point each into buffer 0 (room for all),
// stream 1 two each into buffer 1, bound with room for five of them. Stream 0: 6 written, 6
// needed; stream 1: 5 written, 12 needed; buffer 1 holds stream 1's first five points.
TEST_F(TransformFeedbackTest, StreamQueriesCountPerStream) {
  const XfbFeatures needs{.geometry_streams = true, .queries = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJob job(device, two_stream_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kPoints = 6, kFit = 5;
  Buffer buffer0 = create_capture_buffer(device, kPoints * kStream0Stride + 32);
  Buffer buffer1 = create_capture_buffer(device, 2 * kPoints * kStream1Stride);
  VkQueryPool pool = create_query_pool(device, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2);
  device.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 2);
    record_capture_pass(cb, xfb(), job, {{&buffer0}, {&buffer1, 0, kFit * kStream1Stride + 16}}, [&](VkCommandBuffer cb) {
      xfb().begin_query(cb, pool, 0, 0);
      xfb().begin_query(cb, pool, 1, 1);
      vkCmdDraw(cb, kPoints, 1, 0, 0);
      xfb().end_query(cb, pool, 1, 1);
      xfb().end_query(cb, pool, 0, 0);
    });
    xfb_to_host_barrier(cb);
  });
  ExpectedBytes want0(buffer0.size), want1(buffer1.size);
  put_stream_records(want0, want1, kPoints, kFit);
  expect_bytes_eq(buffer0, want0, "stream 0: every point");
  expect_bytes_eq(buffer1, want1, "stream 1: the five points that fit");
  const std::vector<uint64_t> counts = query_results(device, pool, 0, 2, 2);
  EXPECT_EQ(counts[0], kPoints) << "stream 0 primitives written";
  EXPECT_EQ(counts[1], kPoints) << "stream 0 primitives needed";
  EXPECT_EQ(counts[2], kFit) << "stream 1 primitives written";
  EXPECT_EQ(counts[3], 2 * kPoints) << "stream 1 primitives needed";
}

// --- VK_EXT_primitives_generated_query ---------------------------------------------------------

// One draw of `job` (`indices` indexed when not empty, else `vertices` vertices) inside a
// primitives generated query of `stream`, transform feedback inactive; returns the count.
uint64_t primitives_generated(TestDevice& device, const XfbCommands& xfb, DrawJob& job, uint32_t vertices,
                              const std::vector<uint32_t>& indices = {}, uint32_t stream = 0) {
  VkQueryPool pool = create_query_pool(device, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1);
  Buffer ib{};
  if (!indices.empty()) ib = create_index_buffer(device, indices);
  device.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 1);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      xfb.begin_query(cb, pool, 0, stream);
      if (indices.empty()) {
        vkCmdDraw(cb, vertices, 1, 0, 0);
      } else {
        vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
        vkCmdDrawIndexed(cb, uint32_t(indices.size()), 1, 0, 0, 0);
      }
      xfb.end_query(cb, pool, 0, stream);
    });
  });
  return query_results(device, pool, 0, 1)[0];
}

// Complete primitives of every kind, counted without transform feedback: 17 triangle list
// vertices make 5 triangles; triangle strips 0..5 | 6 7 8 | 9 10 make 4 + 1 + 0; a line strip of
// 5 vertices 4 lines; 7 points 7. With transform feedback active and the buffer full after two
// triangles, all five are still generated.
TEST_F(TransformFeedbackTest, PrimitivesGeneratedQuery) {
  const XfbFeatures needs{.primitives_generated = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  auto job_for = [&](VkPrimitiveTopology topology, bool restart = false) {
    DrawJobOptions o = xfb_options("xfb_values.vert", topology);
    o.primitive_restart = restart;
    auto job = std::make_unique<DrawJob>(device, o);
    require(job->pipeline_result(), "vkCreateGraphicsPipelines");
    return job;
  };
  auto list = job_for(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  EXPECT_EQ(primitives_generated(device, xfb(), *list, 17), 5u) << "triangle list of 17 vertices";
  auto strip = job_for(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, true);
  EXPECT_EQ(primitives_generated(device, xfb(), *strip, 0, {0, 1, 2, 3, 4, 5, kRestart, 6, 7, 8, kRestart, 9, 10}), 5u)
      << "triangle strips with restart";
  auto lines = job_for(VK_PRIMITIVE_TOPOLOGY_LINE_STRIP);
  EXPECT_EQ(primitives_generated(device, xfb(), *lines, 5), 4u) << "line strip of 5 vertices";
  auto points = job_for(VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  EXPECT_EQ(primitives_generated(device, xfb(), *points, 7), 7u) << "7 points";

  // Transform feedback active and overflowing.
  DrawJob capture(device, xfb_options("xfb_capture.vert", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST));
  ASSERT_EQ(capture.pipeline_result(), VK_SUCCESS);
  Buffer buffer = create_capture_buffer(device, 2 * 3 * kCaptureStride);
  VkQueryPool pool = create_query_pool(device, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1);
  device.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 1);
    record_capture_pass(cb, xfb(), capture, {{&buffer}}, [&](VkCommandBuffer cb) {
      vkCmdBeginQuery(cb, pool, 0, 0);
      vkCmdDraw(cb, 15, 1, 0, 0);
      vkCmdEndQuery(cb, pool, 0);
    });
  });
  EXPECT_EQ(query_results(device, pool, 0, 1)[0], 5u) << "five triangles generated, two of them captured";
}

// The same count with rasterizerDiscardEnable (and no fragment shader): 17 vertices, 5 triangles.
TEST_F(TransformFeedbackTest, PrimitivesGeneratedQueryWithRasterizerDiscard) {
  const XfbFeatures needs{.primitives_generated_with_discard = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJobOptions o = xfb_options("xfb_values.vert", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  o.rasterizer_discard = true;
  o.fragment_shader.clear();
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  EXPECT_EQ(primitives_generated(device, xfb(), job, 17), 5u) << "triangle list of 17 vertices, rasterizer discard";
}

// Per stream (vkCmdBeginQueryIndexedEXT): six points through xfb_streams_position0.geom generate
// six points on stream 0 and twelve on stream 1.
TEST_F(TransformFeedbackTest, PrimitivesGeneratedQueryWithNonZeroStreams) {
  const XfbFeatures needs{.geometry_streams = true, .primitives_generated_non_zero_streams = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJob job(device, two_stream_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  EXPECT_EQ(primitives_generated(device, xfb(), job, 6, {}, 0), 6u) << "stream 0";
  EXPECT_EQ(primitives_generated(device, xfb(), job, 6, {}, 1), 12u) << "stream 1";
}

}  // namespace
}  // namespace kiln::test
