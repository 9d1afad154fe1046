// Geometry shaders end to end, through the loader with the validation layer: what a geometry
// shader emits (tests/shaders/geom_*.geom) and how it is rasterized. Every expected image is
// computed from the spec's rules: primitives are placed so that their edges miss every pixel
// centre (rectangles on pixel boundaries, points at pixel centres, triangle edges checked by
// ReferenceImage), colours are exact in the RGBA32F target. Where primitives go (layers,
// viewports, views) is in geometry_targets_test.cpp, the input vertex order in
// geometry_input_order_test.cpp. Run on lavapipe too (KILN_TEST_DRIVER=lavapipe) to check the
// tests themselves.
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/geometry_fixture.h"
#include "e2e/primitive_assembly.h"
#include "e2e/reference_image.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = kGeometryTargetSize;
constexpr Rgba kClear{0, 0, 0, 0};  // kBlack

float clip(float pixel) { return clip_coordinate(pixel, kSize); }

ColoredVertex colored_vertex(float pixel_x, float pixel_y, const Rgba& c) {
  return {clip(pixel_x), clip(pixel_y), 0.5f, c[0], c[1], c[2], c[3]};
}

// rect() of the pixel rectangle [x0, x1) x [y0, y1): triangles (x0,y0) (x1,y0) (x1,y1) and
// (x0,y0) (x1,y1) (x0,y1).
std::vector<ColoredVertex> pixel_rect(int x0, int y0, int x1, int y1, const Rgba& c) {
  return rect(clip(float(x0)), clip(float(y0)), clip(float(x1)), clip(float(y1)), 0.5f, c);
}

void append(std::vector<ColoredVertex>& to, const std::vector<ColoredVertex>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

// Point sprites: twelve points at pixel corners, each made a 6 x 6 square by the geometry shader
// (half-size 3 pixels = 3/32 clip units). The square's edges lie on pixel boundaries, so it
// covers exactly the 36 pixels around its point, in the point's colour; nothing else is drawn.
TEST_F(GeometryTest, PointSpritesFromPoints) {
  TestDevice& device = geometry_device();
  DrawJobOptions o = colored_geometry_options("geom_point_sprite.geom");
  o.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  o.push_constant_bytes = 2 * sizeof(float);
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr int kHalf = 3;
  std::vector<ColoredVertex> points;
  ReferenceImage want(kSize, kSize, kClear);
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 4; ++col) {
      const int x = 6 + 14 * col, y = 8 + 20 * row;
      const Rgba color{float(col + 1) / 4, float(row + 1) / 4, float(4 * row + col) / 16, 1};
      points.push_back(colored_vertex(float(x), float(y), color));
      want.fill_rect(x - kHalf, y - kHalf, x + kHalf, y + kHalf, color);
    }
  Buffer vb = vertex_buffer(device, points);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    const float half_size[2] = {kHalf / 32.0f, kHalf / 32.0f};
    vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, sizeof half_size, half_size);
    vkCmdDraw(cb, uint32_t(points.size()), 1, 0, 0);
  });
  expect_image_eq(read_rgba32f(job), want, "point sprites");
}

// Per-vertex built-ins declared as variables of their own (`in float gl_ClipDistance[3][2]`, as
// zink writes gl_in[].gl_ClipDistance) rather than gl_in block members: the geometry shader reads
// each vertex's clip distances from the vertex stage (draw_clip_read.vert: 1 + x and 2). A
// full-screen triangle with x = -1, 3, -1 at its vertices: red = ClipDistance[0] of vertex 1 (4),
// green = ClipDistance[1] of vertex 0 (2), blue = ClipDistance[0] of vertex 2 (0) + 0.5.
TEST_F(GeometryTest, PerVertexBuiltinsOutsideABlock) {
  const GeometryFeatures features{.clip_distance = true};
  REQUIRE_GEOMETRY_FEATURES(features);
  TestDevice& device = geometry_device(features);
  DrawJobOptions o = colored_geometry_options("geom_loose_clip_distance.spvasm");
  o.vertex_shader = "draw_clip_read.vert";
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const Rgba white{1, 1, 1, 1};
  const std::vector<ColoredVertex> triangle = {colored_vertex(0, 0, white), colored_vertex(2 * kSize, 0, white),
                                               colored_vertex(0, 2 * kSize, white)};
  Buffer vb = vertex_buffer(device, triangle);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, 3, 1, 0, 0);
  });
  ReferenceImage want(kSize, kSize, kClear);
  want.fill_rect(0, 0, kSize, kSize, Rgba{4, 2, 0.5f, 1});
  expect_image_eq(read_rgba32f(job), want, "clip distances read by the geometry shader");
}

// layout(invocations = 4): every input triangle is drawn four times, invocation k moved into
// quadrant k (by 32 pixels right if k & 1, down if k & 2) with red (k + 1) / 4 and the vertex
// colour's green, blue and alpha. The input: two rectangles of two triangles each in the
// top-left quadrant, so every quadrant shows both with its invocation's red.
TEST_F(GeometryTest, InstancedInvocations) {
  TestDevice& device = geometry_device();
  DrawJob job(device, colored_geometry_options("geom_quadrant_invocations.geom"));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  struct PixelRect {
    int x0, y0, x1, y1;
    Rgba color;
  };
  const PixelRect rects[] = {{4, 6, 20, 14, {0, 0.25f, 0.5f, 1}}, {10, 18, 28, 30, {0, 0.75f, 0.125f, 1}}};
  std::vector<ColoredVertex> vertices;
  for (const PixelRect& r : rects) append(vertices, pixel_rect(r.x0, r.y0, r.x1, r.y1, r.color));
  Buffer vb = vertex_buffer(device, vertices);
  draw_vertices(job, vb, uint32_t(vertices.size()));
  ReferenceImage want(kSize, kSize, kClear);
  for (int k = 0; k < 4; ++k) {
    const int dx = 32 * (k & 1), dy = 32 * (k >> 1);
    for (const PixelRect& r : rects)
      want.fill_rect(r.x0 + dx, r.y0 + dy, r.x1 + dx, r.y1 + dy, {float(k + 1) / 4, r.color[1], r.color[2], r.color[3]});
  }
  expect_image_eq(read_rgba32f(job), want, "invocation k in quadrant k");
}

// Subgroups in the geometry stage (subgroupSupportedStages has GEOMETRY): two triangles of three
// invocations each over the whole target, whose shader checks that ballots, counts, elections,
// shuffles and votes agree with each other; every pixel is white (all checks held).
TEST_F(GeometryTest, SubgroupOperationsInGeometryShaders) {
  REQUIRE_ON_KILN(has_subgroup_checks(physical_device(), VK_SHADER_STAGE_GEOMETRY_BIT),
                  "basic, ballot, arithmetic, vote and shuffle subgroup operations in geometry shaders");
  TestDevice& device = geometry_device();
  DrawJob job(device, colored_geometry_options("geom_subgroup.geom"));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const std::vector<ColoredVertex> vertices = pixel_rect(0, 0, kSize, kSize, {0, 0, 0, 1});
  Buffer vb = vertex_buffer(device, vertices);
  draw_vertices(job, vb, uint32_t(vertices.size()));
  ReferenceImage want(kSize, kSize, kClear);
  want.fill_rect(0, 0, kSize, kSize, {1, 1, 1, 1});
  expect_image_eq(read_rgba32f(job), want, "subgroup checks");
}

// The per-invocation tests' draw: 64 points (VertexIndex 0 .. 63, more than one SIMD batch on
// every driver here) through `geometry_shader` into a 64 x 8 target; returns its pixels.
constexpr uint32_t kLanePoints = 64, kLaneRows = 8;
std::vector<float> draw_lane_points(TestDevice& device, const std::string& geometry_shader) {
  DrawJobOptions o = vertex_index_geometry_options(geometry_shader);
  o.width = kLanePoints;
  o.height = kLaneRows;
  DrawJob job(device, o);
  require(job.pipeline_result(), "vkCreateGraphicsPipelines");
  job.draw(kBlack, [&](VkCommandBuffer cb) { vkCmdDraw(cb, kLanePoints, 1, 0, 0); });
  return read_rgba32f(job);
}

// Emit counts that differ from invocation to invocation (and so between the lanes of any SIMD
// batch of invocations): point i emits i % 5 points, point j at pixel (i, j) with colour
// (i, j, PrimitiveIdIn = i, 1). Exactly the pixels (i, j < i % 5) are set.
TEST_F(GeometryTest, LaneDivergentEmitCounts) {
  const std::vector<float> got = draw_lane_points(geometry_device(), "geom_divergent_emits.geom");
  ReferenceImage want(kLanePoints, kLaneRows, kClear);
  for (uint32_t i = 0; i < kLanePoints; ++i)
    for (uint32_t j = 0; j < i % 5; ++j) want.set(i, j, {float(i), float(j), float(i), 1});
  expect_image_eq(got, want, "one pixel per emitted vertex");
}

// Strip lengths that differ from invocation to invocation: point i emits a triangle strip of
// n = i % 6 vertices zigzagging down pixel column i (vertex m at (i + (m & 1), 2 (m >> 1))), in
// colour (i, n, 0, 1). Its triangles are the spec's "Triangle Strips" of n vertices; their
// diagonals (1 x 2 pixels) miss every pixel centre.
TEST_F(GeometryTest, LaneDivergentStripLengths) {
  const std::vector<float> got = draw_lane_points(geometry_device(), "geom_divergent_strips.geom");
  ReferenceImage want(kLanePoints, kLaneRows, kClear);
  for (uint32_t i = 0; i < kLanePoints; ++i) {
    const uint32_t n = i % 6;
    auto corner = [i](uint32_t m) { return PixelPoint{float(i + (m & 1)), float(2 * (m >> 1))}; };
    for (const std::vector<uint32_t>& t : assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, n))
      want.fill_triangle({corner(t[0]), corner(t[1]), corner(t[2])}, {float(i), float(n), 0, 1});
  }
  expect_image_eq(got, want, "strip of i % 6 vertices in column i");
}

// EndPrimitive cuts a triangle strip: the geometry shader emits rectangle A (red), a 2-vertex
// strip (blue, no triangle) and rectangle B (green), separated by EndPrimitive. Only A and B are
// drawn; as one strip, the triangles joining them would cover the gap between them.
TEST_F(GeometryTest, EndPrimitiveSplitsStrips) {
  TestDevice& device = geometry_device();
  DrawJobOptions o = vertex_index_geometry_options("geom_split_strips.geom");
  o.push_constant_bytes = 8 * sizeof(float);
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const int a[4] = {8, 8, 24, 56}, b[4] = {40, 8, 56, 56};  // pixel rectangles (x0, y0, x1, y1)
  float push[8];
  for (int k = 0; k < 4; ++k) {
    push[k] = clip(float(a[k]));
    push[4 + k] = clip(float(b[k]));
  }
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, sizeof push, push);
    vkCmdDraw(cb, 1, 1, 0, 0);
  });
  ReferenceImage want(kSize, kSize, kClear);
  want.fill_rect(a[0], a[1], a[2], a[3], {1, 0, 0, 1});
  want.fill_rect(b[0], b[1], b[2], b[3], {0, 1, 0, 1});
  expect_image_eq(read_rgba32f(job), want, "two separate rectangles");
}

// Draws `vertices` with `topology` (and `indices` when not empty, 16-bit, primitive restart on)
// through geom_primitive_id.geom/.frag and checks that triangle t (as the spec assembles them,
// restart not counting) has red = PrimitiveId = t + 100, written by the geometry shader.
void draw_and_check_primitive_ids(TestDevice& device, VkPrimitiveTopology topology,
                                  const std::vector<ColoredVertex>& vertices, const std::vector<uint16_t>& indices,
                                  const std::vector<std::array<uint32_t, 3>>& triangles) {
  DrawJobOptions o = colored_geometry_options("geom_primitive_id.geom");
  o.fragment_shader = "geom_primitive_id.frag";
  o.topology = topology;
  o.primitive_restart = !indices.empty();
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer vb = vertex_buffer(device, vertices);
  Buffer ib{};
  if (!indices.empty()) {
    ib = device.create_buffer(indices.size() * sizeof(uint16_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    std::memcpy(ib.mapped, indices.data(), indices.size() * sizeof(uint16_t));
  }
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    if (indices.empty()) {
      vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
    } else {
      vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
      vkCmdDrawIndexed(cb, uint32_t(indices.size()), 1, 0, 0, 0);
    }
  });
  ReferenceImage want(kSize, kSize, kClear);
  for (uint32_t t = 0; t < triangles.size(); ++t) {
    std::array<PixelPoint, 3> corners;
    for (int k = 0; k < 3; ++k) {
      const ColoredVertex& v = vertices.at(triangles[t][k]);
      corners[k] = {(v.x + 1) * kSize / 2, (v.y + 1) * kSize / 2};
    }
    const ColoredVertex& first = vertices.at(triangles[t][0]);
    want.fill_triangle(corners, {float(t + 100), first.g, first.b, first.a});
  }
  expect_image_eq(read_rgba32f(job), want, "PrimitiveId + 100 per triangle");
}

// PrimitiveIdIn counts input primitives from 0 per draw, and the PrimitiveId the geometry shader
// writes is what the fragment shader reads. Rectangles are w x h pixels with w even and h odd,
// so their diagonals miss every pixel centre and each pixel belongs to one triangle: a triangle
// list of three rectangles, then an indexed strip of two rectangles split by primitive restart,
// which (spec: BuiltIn PrimitiveId) does not reset the count.
TEST_F(GeometryTest, PrimitiveIdInAndOut) {
  TestDevice& device = geometry_device();
  const int rects[3][4] = {{4, 4, 20, 13}, {24, 20, 40, 27}, {30, 40, 60, 61}};
  {
    SCOPED_TRACE("triangle list");
    std::vector<ColoredVertex> vertices;
    for (int r = 0; r < 3; ++r)
      append(vertices, pixel_rect(rects[r][0], rects[r][1], rects[r][2], rects[r][3], {0, float(r + 1) / 4, 0.5f, 1}));
    std::vector<std::array<uint32_t, 3>> triangles;
    for (uint32_t t = 0; t < 6; ++t) triangles.push_back({3 * t, 3 * t + 1, 3 * t + 2});
    draw_and_check_primitive_ids(device, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, vertices, {}, triangles);
  }
  {
    SCOPED_TRACE("indexed triangle strip with primitive restart");
    std::vector<ColoredVertex> vertices;
    for (int r = 0; r < 2; ++r) {
      const auto& [x0, y0, x1, y1] = rects[r];
      const Rgba color{0, float(r + 1) / 4, 0.25f, 1};
      for (const auto& [x, y] : {std::pair{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}})
        vertices.push_back(colored_vertex(float(x), float(y), color));
    }
    // Each strip of four assembles as the spec's "Triangle Strips" say; the second's vertices
    // are 4 .. 7.
    std::vector<std::array<uint32_t, 3>> triangles;
    for (uint32_t first : {0u, 4u})
      for (const std::vector<uint32_t>& p : assembled_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 4))
        triangles.push_back({first + p[0], first + p[1], first + p[2]});
    draw_and_check_primitive_ids(device, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, vertices, {0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7},
                                 triangles);
  }
}

// shaderTessellationAndGeometryPointSize: the geometry shader gives point p size 1 + 2 (p % 4).
// Points sit at pixel centres and their sizes are odd, so a point of size s covers exactly the
// s x s pixels around its centre.
TEST_F(GeometryTest, PointSizeFromGeometry) {
  const GeometryFeatures needs{.point_size = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  TestDevice& device = geometry_device(needs);
  DrawJobOptions o = colored_geometry_options("geom_point_size.geom");
  o.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> points;
  ReferenceImage want(kSize, kSize, kClear);
  for (int p = 0; p < 8; ++p) {
    const int x = 8 + 14 * (p % 4), y = 16 + 28 * (p / 4), half = p % 4;  // size 2 half + 1
    const Rgba color{float(p + 1) / 8, 1, 0.5f, 1};
    points.push_back(colored_vertex(float(x) + 0.5f, float(y) + 0.5f, color));
    want.fill_rect(x - half, y - half, x + half + 1, y + half + 1, color);
  }
  Buffer vb = vertex_buffer(device, points);
  draw_vertices(job, vb, uint32_t(points.size()));
  expect_image_eq(read_rgba32f(job), want, "point of size 1 + 2 (p % 4)");
}

// A line strip from the geometry shader along pixel centres, (8.5, 8.5) → (56.5, 8.5) →
// (56.5, 40.5) → (8.5, 40.5), with flat colours red, green, blue, white: segment k takes the
// colour of its provoking vertex, v_k in the default FIRST_VERTEX mode and v_(k+1) in
// LAST_VERTEX mode ("Line Strips" in the spec). Checks the pixels along each segment away from
// its ends (where the segments' rasterization is unambiguous) and a row between them.
void check_line_strip_colors(TestDevice& device, bool provoking_vertex_last) {
  DrawJobOptions o = vertex_index_geometry_options("geom_line_strip.geom");
  o.bindings = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
  o.provoking_vertex_last = provoking_vertex_last;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const float corners[4][2] = {{8.5f, 8.5f}, {56.5f, 8.5f}, {56.5f, 40.5f}, {8.5f, 40.5f}};
  const Rgba colors[4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
  struct Strip {
    float position[4][4];
    Rgba color[4];
  } strip;
  for (int k = 0; k < 4; ++k) {
    const float p[4] = {clip(corners[k][0]), clip(corners[k][1]), 0.5f, 1};
    std::memcpy(strip.position[k], p, sizeof p);
    strip.color[k] = colors[k];
  }
  Buffer uniforms = device.create_buffer(sizeof strip, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  std::memcpy(uniforms.mapped, &strip, sizeof strip);
  job.bind_buffer(0, uniforms);
  job.draw(kBlack, [&](VkCommandBuffer cb) { vkCmdDraw(cb, 1, 1, 0, 0); });
  const std::vector<float> got = read_rgba32f(job);
  const int provoking = provoking_vertex_last ? 1 : 0;
  PixelCheck failures(kSize, kSize);
  auto expect = [&](uint32_t x, uint32_t y, const Rgba& want, const std::string& what) {
    const size_t i = size_t{y} * kSize + x;
    for (int c = 0; c < 4; ++c) failures.expect_eq(i, got[i * 4 + c], want[c], what);
  };
  for (uint32_t t = 16; t <= 48; ++t) {
    expect(t, 8, colors[0 + provoking], "segment 0");
    expect(t, 40, colors[2 + provoking], "segment 2");
    expect(t, 24, kClear, "between the segments");
  }
  for (uint32_t y = 16; y <= 32; ++y) expect(56, y, colors[1 + provoking], "segment 1");
}

TEST_F(GeometryTest, LinesFromGeometryProvokingVertex) { check_line_strip_colors(geometry_device(), false); }

TEST_F(GeometryTest, LinesFromGeometryProvokingVertexLast) {
  const GeometryFeatures needs{.provoking_vertex_last = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  check_line_strip_colors(geometry_device(needs), true);
}

}  // namespace
}  // namespace kiln::test
