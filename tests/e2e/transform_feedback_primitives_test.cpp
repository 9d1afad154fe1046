// Transform feedback of primitives (spec, "Transform Feedback"): "Individual lines or triangles
// of a strip or fan primitive will be extracted and recorded separately. Incomplete primitives
// are not recorded." Each primitive's vertices are written in the winding order of the topology
// that made it (the draw's, the geometry shader's output strips, or the tessellator's), starting
// at any of them unless transformFeedbackPreservesProvokingVertex is enabled, which puts the
// provoking vertex first (FIRST_VERTEX mode) or last (LAST_VERTEX mode). Only the last
// pre-rasterization stage is captured.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/primitive_assembly.h"
#include "e2e/transform_feedback.h"
#include "e2e/transform_feedback_fixture.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using Primitives = std::vector<std::vector<uint32_t>>;
constexpr uint32_t kRestart = kRestartIndex;

// `primitives` with `first` added to every vertex id (a draw's firstVertex).
Primitives shifted(Primitives primitives, uint32_t first) {
  for (auto& p : primitives)
    for (uint32_t& v : p) v += first;
  return primitives;
}

// One strip topology captured by xfb_capture.vert: a non-indexed draw of `strip_vertices` from
// firstVertex `first`, then an indexed draw of `indices` with primitive restart, both in one
// capture. Returns the capture buffer and the primitives in capture order (vertex ids).
struct StripCapture {
  Buffer buffer;
  Primitives primitives;
};
StripCapture capture_strips(TestDevice& device, const XfbCommands& xfb, VkPrimitiveTopology topology,
                            uint32_t strip_vertices, uint32_t first, const std::vector<uint32_t>& indices,
                            bool provoking_vertex_last = false) {
  DrawJobOptions o = xfb_options("xfb_capture.vert", topology);
  o.primitive_restart = true;
  o.provoking_vertex_last = provoking_vertex_last;
  DrawJob job(device, o);
  require(job.pipeline_result(), "vkCreateGraphicsPipelines");
  StripCapture result;
  result.primitives = shifted(assembled_primitives(topology, strip_vertices), first);
  for (auto& p : assembled_primitives_with_restart(topology, indices)) result.primitives.push_back(p);
  size_t vertices = 0;
  for (const auto& p : result.primitives) vertices += p.size();
  result.buffer = create_capture_buffer(device, vertices * kCaptureStride + 64);
  Buffer ib = create_index_buffer(device, indices);
  capture_pass(device, xfb, job, {{&result.buffer}}, [&](VkCommandBuffer cb) {
    vkCmdDraw(cb, strip_vertices, 1, first, 0);
    vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cb, uint32_t(indices.size()), 1, 0, 0, 0);
  });
  return result;
}

// The strips' vertex ids grow along every strip below, so the provoking vertex of a primitive in
// LAST_VERTEX mode (v_(i+2) of triangle i, v_(i+1) of line i) is its largest id: with
// transformFeedbackPreservesProvokingVertex it is written last, the others before it in the
// topology's winding order (a rotation of the spec's order).
Primitives provoking_vertex_last_order(Primitives primitives) {
  for (auto& p : primitives) std::rotate(p.begin(), std::max_element(p.begin(), p.end()) + 1, p.end());
  return primitives;
}

// Triangle strip: 6 vertices (4 triangles), then indices 10..15 | 16 17 18 | 19 20 (4 + 1
// triangles; the last two vertices make none). Line strip: 5 vertices from firstVertex 30 (4
// lines), then 40 41 42 | 43 | 44 45 (2 + 0 + 1 lines). Every primitive is captured on its own,
// in the order the spec's table gives its vertices (triangle i of a strip: v_i, v_(i+1+i%2),
// v_(i+2-i%2)), nothing of the incomplete ones.
TEST_F(TransformFeedbackTest, StripsAreCapturedAsIndependentPrimitives) {
  TestDevice& device = xfb_device();
  const std::vector<uint32_t> triangle_indices{10, 11, 12, 13, 14, 15, kRestart, 16, 17, 18, kRestart, 19, 20};
  StripCapture triangles = capture_strips(device, xfb(), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 6, 0, triangle_indices);
  ASSERT_EQ(triangles.primitives.size(), 9u);
  ExpectedBytes want_triangles(triangles.buffer.size);
  put_primitives(want_triangles, 0, kCaptureStride, triangles.primitives, put_capture_vertex, exact_vertex_order(),
                 &triangles.buffer);
  expect_bytes_eq(triangles.buffer, want_triangles, "triangle strips: 9 triangles of 3 vertices, then untouched");

  const std::vector<uint32_t> line_indices{40, 41, 42, kRestart, 43, kRestart, 44, 45};
  StripCapture lines = capture_strips(device, xfb(), VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 5, 30, line_indices);
  ASSERT_EQ(lines.primitives.size(), 7u);
  ExpectedBytes want_lines(lines.buffer.size);
  put_primitives(want_lines, 0, kCaptureStride, lines.primitives, put_capture_vertex, exact_vertex_order(), &lines.buffer);
  expect_bytes_eq(lines.buffer, want_lines, "line strips: 7 lines of 2 vertices, then untouched");
}

// The same strips in LAST_VERTEX provoking mode with transformFeedbackPreservesProvokingVertex:
// every primitive ends with its provoking vertex (odd triangles of a strip rotate to
// v_(i+1), v_i, v_(i+2)); fans too where the device preserves their provoking vertex (v_0,
// v_(i+1), v_(i+2)).
TEST_F(TransformFeedbackTest, ProvokingVertexLastIsWrittenLast) {
  const XfbFeatures needs{.preserves_provoking_vertex = true, .provoking_vertex_last = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  ASSERT_TRUE(exact_vertex_order());
  const std::vector<uint32_t> triangle_indices{10, 11, 12, 13, 14, 15, kRestart, 16, 17, 18};
  StripCapture triangles =
      capture_strips(device, xfb(), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 6, 0, triangle_indices, true);
  ExpectedBytes want_triangles(triangles.buffer.size);
  put_primitives(want_triangles, 0, kCaptureStride, provoking_vertex_last_order(triangles.primitives),
                 put_capture_vertex);
  expect_bytes_eq(triangles.buffer, want_triangles, "triangle strips, provoking vertex last");

  const std::vector<uint32_t> line_indices{40, 41, 42, kRestart, 44, 45};
  StripCapture lines = capture_strips(device, xfb(), VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 5, 30, line_indices, true);
  ExpectedBytes want_lines(lines.buffer.size);
  put_primitives(want_lines, 0, kCaptureStride, provoking_vertex_last_order(lines.primitives), put_capture_vertex);
  expect_bytes_eq(lines.buffer, want_lines, "line strips, provoking vertex last");

  // Fans (v_(i+1), v_(i+2), v_0; provoking v_(i+2)) only with transformFeedbackPreservesTriangleFanProvokingVertex.
  VkPhysicalDeviceProvokingVertexPropertiesEXT provoking{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &provoking};
  vkGetPhysicalDeviceProperties2(physical_device(), &properties2);
  REQUIRE_ON_KILN(provoking.transformFeedbackPreservesTriangleFanProvokingVertex,
                  "transformFeedbackPreservesTriangleFanProvokingVertex");
  const std::vector<uint32_t> fan_indices{60, 61, 62, 63, kRestart, 64, 65, 66};
  StripCapture fans = capture_strips(device, xfb(), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, 5, 50, fan_indices, true);
  ExpectedBytes want_fans(fans.buffer.size);
  put_primitives(want_fans, 0, kCaptureStride, provoking_vertex_last_order(fans.primitives), put_capture_vertex);
  expect_bytes_eq(fans.buffer, want_fans, "triangle fans, provoking vertex last");
}

// xfb_values.vert (no Xfb: it cannot be captured) → xfb_tess.tesc (levels 1) → xfb_tess.tese:
// four triangle patches, each tessellated into exactly one triangle whose corners are its control
// points, captured by the evaluation shader (value + 10000, then TessCoord and PrimitiveId).
// "The order in which the vertices are generated for each triangle" is the implementation's, so
// a triangle may start at any corner; counter-clockwise in (u, v) with the default upper-left
// domain origin (a = u0 v1 - u1 v0 + u1 v2 - u2 v1 + u2 v0 - u0 v2 negative) makes the order
// u-corner (1,0,0), w-corner (0,0,1), v-corner (0,1,0).
TEST_F(TransformFeedbackTest, CaptureFromTessellationEvaluation) {
  const XfbFeatures needs{.tessellation = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJobOptions o = xfb_options("xfb_values.vert", VK_PRIMITIVE_TOPOLOGY_PATCH_LIST);
  o.tess_control_shader = "xfb_tess.tesc";
  o.tess_eval_shader = "xfb_tess.tese";
  o.patch_control_points = 3;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kPatches = 4;
  Buffer buffer = create_capture_buffer(device, kPatches * 3 * kCaptureStride + 64);
  capture_pass(device, xfb(), job, {{&buffer}}, [](VkCommandBuffer cb) { vkCmdDraw(cb, 3 * kPatches, 1, 0, 0); });
  Primitives triangles;
  for (uint32_t p = 0; p < kPatches; ++p) triangles.push_back({3 * p, 3 * p + 2, 3 * p + 1});
  ExpectedBytes want(buffer.size);
  // Vertex id 3p + k: corner k of patch p (control point k, TessCoord the k-th unit vector).
  put_primitives(
      want, 0, kCaptureStride, triangles,
      [](ExpectedBytes& bytes, size_t offset, uint32_t vertex) {
        Vec4 value = xfb_value(vertex, 0);
        for (float& c : value) c += 10000.0f;
        const uint32_t k = vertex % 3;
        bytes.put(offset, value);
        bytes.put(offset + 16, Vec4{k == 0 ? 1.0f : 0.0f, k == 1 ? 1.0f : 0.0f, k == 2 ? 1.0f : 0.0f, float(vertex / 3)});
      },
      false, &buffer);
  expect_bytes_eq(buffer, want, "one counter-clockwise triangle per patch, from the evaluation shader");
}

// xfb_values.vert (no Xfb) → xfb_geometry.geom: per input triangle p a strip of four emitted
// vertices (triangles e0 e1 e2 and e1 e3 e2 by the triangle strip table), then a strip of two (no
// triangle, nothing captured). Three input triangles: six captured triangles.
TEST_F(TransformFeedbackTest, CaptureFromGeometryShader) {
  const XfbFeatures needs{.geometry_shader = true};
  REQUIRE_XFB_FEATURES(needs);
  TestDevice& device = xfb_device(needs);
  DrawJobOptions o = xfb_options("xfb_values.vert", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  o.geometry_shader = "xfb_geometry.geom";
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t kInputTriangles = 3;
  Buffer buffer = create_capture_buffer(device, kInputTriangles * 6 * kCaptureStride + 64);
  capture_pass(device, xfb(), job, {{&buffer}}, [](VkCommandBuffer cb) { vkCmdDraw(cb, 3 * kInputTriangles, 1, 0, 0); });
  // Vertex id 8p + e: emitted vertex e of input triangle p.
  Primitives triangles;
  for (uint32_t p = 0; p < kInputTriangles; ++p)
    for (const auto& strip_triangle : assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 4)) {
      std::vector<uint32_t> ids;
      for (uint32_t e : strip_triangle) ids.push_back(8 * p + e);
      triangles.push_back(ids);
    }
  ExpectedBytes want(buffer.size);
  put_primitives(
      want, 0, kCaptureStride, triangles,
      [](ExpectedBytes& bytes, size_t offset, uint32_t vertex) {
        const uint32_t p = vertex / 8, e = vertex % 8, k = e % 3;
        Vec4 value = xfb_value(3 * p + k, 0);
        for (float& c : value) c += 20000.0f;
        bytes.put(offset, value);
        bytes.put(offset + 16, Vec4{float(p), float(k), float(e), 0.0f});
      },
      exact_vertex_order(), &buffer);
  expect_bytes_eq(buffer, want, "two triangles per input triangle, from the geometry shader");
}

}  // namespace
}  // namespace kiln::test
