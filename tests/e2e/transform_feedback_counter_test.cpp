// Transform feedback counter buffers (spec, vkCmdEndTransformFeedbackEXT: the 4 bytes stored are
// "the byte offset from the start of the transform feedback buffer binding where the next vertex
// data would be written"; vkCmdBeginTransformFeedbackEXT with that counter resumes there) and
// vkCmdDrawIndirectByteCountEXT, which draws
//   vertexCount = floor(max(0, counter - counterOffset) / vertexStride)
// vertices from firstVertex 0.
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

// Draw 1 (vertices 0..5, two triangles) captured into a binding that starts 64 bytes into the
// buffer, ended saving counter A; draw 2 (vertices 6..11) in a new render pass, or in a new
// command buffer submitted after the first, begun from counter A and ended saving counter B.
// The binding holds draw 1's records then draw 2's; A is 192 (draw 1's bytes, relative to the
// binding), B 384; the counter buffer's other bytes are untouched.
void pause_and_resume(TestDevice& device, const XfbCommands& xfb, bool separate_submissions, bool exact_order) {
  DrawJob job(device, xfb_options("xfb_capture.vert", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr VkDeviceSize kBindingOffset = 64;
  constexpr uint32_t kDrawVertices = 6;
  Buffer buffer = create_capture_buffer(device, kBindingOffset + 2 * kDrawVertices * kCaptureStride + 64);
  Buffer counters = create_counter_buffer(device, 16);
  const CounterSlot a{&counters, 0}, b{&counters, 8};
  const std::vector<XfbBinding> binding{{&buffer, kBindingOffset}};
  auto draw1 = [&](VkCommandBuffer cb) {
    record_capture_pass(cb, xfb, job, binding, [](VkCommandBuffer cb) { vkCmdDraw(cb, kDrawVertices, 1, 0, 0); }, {}, {a});
  };
  auto draw2 = [&](VkCommandBuffer cb) {
    xfb_barrier(cb);  // draw 1's counter (and data) before the resumed capture
    record_capture_pass(cb, xfb, job, binding, [](VkCommandBuffer cb) { vkCmdDraw(cb, kDrawVertices, 1, kDrawVertices, 0); },
                        {a}, {b});
    xfb_to_host_barrier(cb);
  };
  if (separate_submissions) {
    device.run_commands([&](VkCommandBuffer cb) {
      draw1(cb);
      xfb_to_host_barrier(cb);
    });
    EXPECT_EQ(read_counter(counters, a.offset), kDrawVertices * kCaptureStride) << "counter A after the first submission";
    device.run_commands(draw2);
  } else {
    device.run_commands([&](VkCommandBuffer cb) {
      draw1(cb);
      draw2(cb);
    });
  }
  ExpectedBytes want(buffer.size);
  const size_t end1 = put_primitives(want, kBindingOffset, kCaptureStride,
                                     assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, kDrawVertices),
                                     put_capture_vertex, exact_order, &buffer);
  auto second = assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, kDrawVertices);
  for (auto& p : second)
    for (uint32_t& v : p) v += kDrawVertices;
  put_primitives(want, end1, kCaptureStride, second, put_capture_vertex, exact_order, &buffer);
  expect_bytes_eq(buffer, want, "64 untouched bytes, draw 1's vertices, draw 2's vertices, untouched bytes");
  ExpectedBytes want_counters(counters.size);
  want_counters.put(a.offset, uint32_t{kDrawVertices * kCaptureStride});
  want_counters.put(b.offset, uint32_t{2 * kDrawVertices * kCaptureStride});
  expect_bytes_eq(counters, want_counters, "counters A = 192 and B = 384 (bytes from the binding's start), 4 bytes each");
}

TEST_F(TransformFeedbackTest, PauseAndResumeWithCounterBuffers) {
  TestDevice& device = xfb_device();
  pause_and_resume(device, xfb(), false, exact_vertex_order());
}

TEST_F(TransformFeedbackTest, PauseAndResumeAcrossSubmissions) {
  TestDevice& device = xfb_device();
  pause_and_resume(device, xfb(), true, exact_vertex_order());
}

// xfb_points.vert captures ten points (Position and colour, stride 32) ending with a counter;
// xfb_replay.vert draws them back from the capture buffer as vertex attributes with
// vkCmdDrawIndirectByteCountEXT:
//   counterOffset 0, vertexStride 32: 320 / 32 = 10 vertices
//   counterOffset 96, vertexStride 32: (320 - 96) / 32 = 7 vertices (the first seven)
//   counterOffset 0, vertexStride 48: floor(320 / 48) = 6 vertices
// each counted by a pipeline statistics query (input assembly vertices). The image shows the ten
// points and nothing else: an eleventh vertex would come from the fill bytes, a point near the
// centre.
TEST_F(TransformFeedbackTest, DrawIndirectByteCount) {
  const XfbFeatures needs{.draw = true, .statistics = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJob capture(device, xfb_options("xfb_points.vert", VK_PRIMITIVE_TOPOLOGY_POINT_LIST));
  ASSERT_EQ(capture.pipeline_result(), VK_SUCCESS);
  DrawJobOptions o = xfb_options("xfb_replay.vert", VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  o.vertex_bindings = {{0, 32, VK_VERTEX_INPUT_RATE_VERTEX}};
  o.vertex_attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
  DrawJob replay(device, o);
  ASSERT_EQ(replay.pipeline_result(), VK_SUCCESS);

  constexpr uint32_t kPoints = 10, kStride = 32;
  Buffer buffer = create_capture_buffer(device, kPoints * kStride + 64);
  Buffer counters = create_counter_buffer(device, 8);
  const CounterSlot counter{&counters, 4};
  VkQueryPool pool = create_query_pool(device, VK_QUERY_TYPE_PIPELINE_STATISTICS, 3,
                                       VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT);
  struct ByteCountDraw {
    uint32_t counter_offset, vertex_stride, vertices;
  };
  const ByteCountDraw draws[3] = {{0, 32, kPoints}, {96, 32, kPoints - 3}, {0, 48, kPoints * kStride / 48}};
  device.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 3);
    record_capture_pass(cb, xfb(), capture, {{&buffer}}, [](VkCommandBuffer cb) { vkCmdDraw(cb, kPoints, 1, 0, 0); }, {},
                        {counter});
    xfb_barrier(cb);
    replay.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      const VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
      for (uint32_t q = 0; q < 3; ++q) {
        vkCmdBeginQuery(cb, pool, q, 0);
        xfb().draw_indirect_byte_count(cb, 1, 0, counter, draws[q].counter_offset, draws[q].vertex_stride);
        vkCmdEndQuery(cb, pool, q);
      }
    });
    xfb_to_host_barrier(cb);
  });
  EXPECT_EQ(read_counter(counters, counter.offset), kPoints * kStride) << "the counter: ten 32-byte records";
  ReferenceImage want(kXfbTargetSize, kXfbTargetSize, {0, 0, 0, 0});
  for (uint32_t i = 0; i < kPoints; ++i) want.set(3 + 6 * i, 20, {float(i + 1) / 16, 0.5f, 0.25f, 1.0f});
  expect_image_eq(read_rgba32f(replay), want, "the ten captured points drawn back, nothing else");
  const std::vector<uint64_t> vertices = query_results(device, pool, 0, 3);
  auto expect_vertices = [&](uint32_t q) {
    EXPECT_EQ(vertices[q], draws[q].vertices) << "input assembly vertices with counterOffset " << draws[q].counter_offset
                                              << ", vertexStride " << draws[q].vertex_stride;
  };
  expect_vertices(0);
  expect_vertices(2);
  SKIP_ON_LAVAPIPE("vkCmdDrawIndirectByteCountEXT ignores counterOffset (counter / vertexStride vertices)");
  expect_vertices(1);
}

}  // namespace
}  // namespace kiln::test
