// End-to-end tests of optional graphics features (issue #6): each renders through DrawJob and
// compares every pixel with a CPU expectation from the spec's rules. A feature bit is TRUE on Kiln
// only while its test here passes (icd/physical_device.cpp); on another driver a missing feature
// skips the test.
#include <algorithm>
#include <array>
#include <functional>
#include <cmath>
#include <cstring>
#include <string>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 64;  // every target here is kSize x kSize pixels

// Framebuffer pixel coordinate → clip space for a kSize target with the full-target viewport.
float clip(float pixel) { return pixel / (kSize / 2.0f) - 1.0f; }

float as_float(const std::vector<uint8_t>& bytes, size_t index) {
  float f;
  std::memcpy(&f, &bytes[index * 4], 4);
  return f;
}

class DrawFeaturesTest : public VulkanTest {
 protected:
  void draw_viewport_quadrants(const char* fragment_shader,
                               const std::function<std::array<uint8_t, 4>(uint32_t)>& inside);
};

// VK_EXT_vertex_attribute_divisor: four instances of a quad whose per-instance offset binding has
// divisor 2 (instances 0-1 read offset 0, 2-3 offset 1) or 0 (every instance reads offset 0). The
// colour is per instance (gl_InstanceIndex), so where instances overlap the later one shows.
TEST_F(DrawFeaturesTest, VertexAttributeDivisorRepeatsInstanceData) {
  VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
  VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT limits{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT};
  const bool has = device_has_extension(physical_device(), VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
  if (has) {
    VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &divisor};
    vkGetPhysicalDeviceFeatures2(physical_device(), &query);
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limits};
    vkGetPhysicalDeviceProperties2(physical_device(), &props);
  }
  REQUIRE_ON_KILN(has && divisor.vertexAttributeInstanceRateDivisor && divisor.vertexAttributeInstanceRateZeroDivisor,
                  "VK_EXT_vertex_attribute_divisor with zero divisors");
  EXPECT_GE(limits.maxVertexAttribDivisor, 2u);
  DeviceFeatures enabled;
  divisor.pNext = nullptr;
  enabled.v13.pNext = &divisor;
  TestDevice& device = *create_device(enabled, {VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME});
  const float corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const uint16_t indices[6] = {0, 1, 2, 0, 2, 3};
  const float offsets[2][2] = {{-0.75f, -0.75f}, {0.25f, 0.25f}};  // pixels [8, 24)^2 and [40, 56)^2
  const float colors[8][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}};
  Buffer corner_buffer = device.create_buffer(sizeof corners, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  Buffer offset_buffer = device.create_buffer(sizeof offsets, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  Buffer index_buffer = device.create_buffer(sizeof indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  Buffer uniforms = device.create_buffer(sizeof colors, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  std::memcpy(corner_buffer.mapped, corners, sizeof corners);
  std::memcpy(offset_buffer.mapped, offsets, sizeof offsets);
  std::memcpy(index_buffer.mapped, indices, sizeof indices);
  std::memcpy(uniforms.mapped, colors, sizeof colors);
  for (const uint32_t d : {2u, 0u}) {
    SCOPED_TRACE("divisor " + std::to_string(d));
    DrawJobOptions o;
    o.vertex_shader = "draw_instanced.vert";
    o.fragment_shader = "draw_flat.frag";
    o.vertex_bindings = {{0, 8, VK_VERTEX_INPUT_RATE_VERTEX}, {1, 8, VK_VERTEX_INPUT_RATE_INSTANCE}};
    o.vertex_attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}, {1, 1, VK_FORMAT_R32G32_SFLOAT, 0}};
    o.vertex_divisors = {{1, d}};
    o.bindings = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
    o.push_constant_bytes = 4;
    DrawJob job(device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    job.bind_buffer(0, uniforms);
    const float scale = 0.5f;
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      const VkBuffer buffers[2] = {corner_buffer.buffer, offset_buffer.buffer};
      const VkDeviceSize at[2] = {0, 0};
      vkCmdBindVertexBuffers(cb, 0, 2, buffers, at);
      vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT16);
      vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, 4, &scale);
      vkCmdDrawIndexed(cb, 6, 4, 0, 0, 0);
    });
    check_rgba8(job.read_color(), "instances", [&](uint32_t x, uint32_t y) -> std::array<uint8_t, 4> {
      auto rgba = [](const float* c) {
        return std::array<uint8_t, 4>{uint8_t(c[0] * 255), uint8_t(c[1] * 255), uint8_t(c[2] * 255), uint8_t(c[3] * 255)};
      };
      if (x >= 8 && x < 24 && y >= 8 && y < 24) return rgba(colors[d == 2 ? 1 : 3]);  // the last instance there
      if (d == 2 && x >= 40 && x < 56 && y >= 40 && y < 56) return rgba(colors[3]);
      return {0, 0, 0, 0};
    });
  }
}

// The primitive-restart tests' scene in a 64x64 target: a red rectangle [8, 24) x [8, 56) from
// vertices 0-3 and a green one [40, 56) x [8, 56) from vertices 4-7, each in strip order
// (top-left, top-right, bottom-left, bottom-right), and the image they leave.
std::vector<ColoredVertex> restart_rectangle_vertices() {
  auto corner = [](float x, float y, std::array<float, 4> c) {
    return ColoredVertex{clip(x), clip(y), 0.5f, c[0], c[1], c[2], c[3]};
  };
  const std::array<float, 4> red{1, 0, 0, 1}, green{0, 1, 0, 1};
  return {corner(8, 8, red),    corner(24, 8, red),    corner(8, 56, red),    corner(24, 56, red),
          corner(40, 8, green), corner(56, 8, green), corner(40, 56, green), corner(56, 56, green)};
}

std::array<uint8_t, 4> restart_rectangles_pixel(uint32_t x, uint32_t y) {
  if (y < 8 || y >= 56) return {0, 0, 0, 0};
  if (x >= 8 && x < 24) return {255, 0, 0, 255};
  if (x >= 40 && x < 56) return {0, 255, 0, 255};
  return {0, 0, 0, 0};
}

// Draws `vertices` (draw_colored, primitive restart on) through `indices` and returns the image.
template <typename Index>
std::vector<uint8_t> draw_with_restart(TestDevice& device, const std::vector<ColoredVertex>& vertices,
                                       const std::vector<Index>& indices, VkIndexType type, VkPrimitiveTopology topology) {
  Buffer vb = vertex_buffer(device, vertices);
  Buffer ib = device.create_buffer(sizeof(Index) * indices.size(), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  std::memcpy(ib.mapped, indices.data(), sizeof(Index) * indices.size());
  DrawJobOptions o = colored_options();
  o.topology = topology;
  o.primitive_restart = true;
  DrawJob job(device, o);
  EXPECT_EQ(job.pipeline_result(), VK_SUCCESS);
  if (job.pipeline_result() != VK_SUCCESS) return {};
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdBindIndexBuffer(cb, ib.buffer, 0, type);
    vkCmdDrawIndexed(cb, uint32_t(indices.size()), 1, 0, 0, 0);
  });
  return job.read_color();
}

// VK_EXT_index_type_uint8: a triangle strip with 8-bit indices and primitive restart (0xFF) draws
// two separate rectangles, [8, 24) x [8, 56) in red and [40, 56) x [8, 56) in green; a strip
// without the restart would also fill the gap between them.
TEST_F(DrawFeaturesTest, Uint8IndicesWithPrimitiveRestart) {
  VkPhysicalDeviceIndexTypeUint8FeaturesEXT uint8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT};
  REQUIRE_ON_KILN(query_extension_features(physical_device(), VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME, uint8) &&
                      uint8.indexTypeUint8,
                  "VK_EXT_index_type_uint8");
  TestDevice& device = *create_device_with_extension(uint8, VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME);
  const std::vector<uint8_t> indices = {0, 1, 2, 3, 0xFF, 4, 5, 6, 7};
  check_rgba8(draw_with_restart(device, restart_rectangle_vertices(), indices, VK_INDEX_TYPE_UINT8_EXT,
                                VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP),
              "uint8 strip", restart_rectangles_pixel);
}

// multiDrawIndirect, drawIndirectFirstInstance and drawIndirectCount: four records draw the four
// quadrant rectangles of a 64x64 target — record 1 has no vertices and record 3 no instances, so
// only quadrants 0 and 2 are drawn; record 2 starts at instance 5 (draw_colored ignores it). The
// Count commands read a count of 1 with maxDrawCount 4: quadrant 0 only. Indexed and not.
TEST_F(DrawFeaturesTest, IndirectDrawsEveryRecordAndCount) {
  const DeviceFeatures& f = features();
  REQUIRE_ON_KILN(f.core.features.multiDrawIndirect && f.core.features.drawIndirectFirstInstance && f.v12.drawIndirectCount,
                  "multiDrawIndirect, drawIndirectFirstInstance and drawIndirectCount");
  DeviceFeatures enabled;
  enabled.core.features.multiDrawIndirect = VK_TRUE;
  enabled.core.features.drawIndirectFirstInstance = VK_TRUE;
  enabled.v12.drawIndirectCount = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  const std::array<std::array<float, 4>, 4> colours{{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}}};
  std::vector<ColoredVertex> vertices;
  for (uint32_t q = 0; q < 4; ++q) {
    const float x = (q & 1) ? 0.0f : -1.0f, y = (q & 2) ? 0.0f : -1.0f;
    const std::vector<ColoredVertex> r = rect(x, y, x + 1, y + 1, 0.5f, colours[q]);
    vertices.insert(vertices.end(), r.begin(), r.end());
  }
  Buffer vb = vertex_buffer(device, vertices);
  std::vector<uint32_t> indices(24);
  for (uint32_t i = 0; i < 24; ++i) indices[i] = i;
  Buffer ib = device.create_buffer(sizeof(uint32_t) * 24, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  std::memcpy(ib.mapped, indices.data(), sizeof(uint32_t) * 24);
  // Records 32 bytes apart (stride larger than either record), after a 16-byte offset.
  constexpr uint32_t kStride = 32, kOffset = 16;
  Buffer records = device.create_buffer(kOffset + 4 * kStride, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, 0);
  Buffer count = device.create_buffer(8, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, 0);
  const uint32_t one = 1;
  std::memcpy(static_cast<uint8_t*>(count.mapped) + 4, &one, 4);
  const uint32_t first_instance[4] = {0, 0, 5, 0}, instances[4] = {1, 1, 1, 0}, vertex_counts[4] = {6, 0, 6, 6};
  DrawJob job(device, colored_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  for (bool indexed : {false, true}) {
    for (uint8_t i = 0; i < 4; ++i) {
      uint8_t* at = static_cast<uint8_t*>(records.mapped) + kOffset + i * kStride;
      if (indexed) {
        const VkDrawIndexedIndirectCommand r{vertex_counts[i], instances[i], 6u * i, 0, first_instance[i]};
        std::memcpy(at, &r, sizeof r);
      } else {
        const VkDrawIndirectCommand r{vertex_counts[i], instances[i], 6u * i, first_instance[i]};
        std::memcpy(at, &r, sizeof r);
      }
    }
    for (bool with_count : {false, true}) {
      job.draw(kBlack, [&](VkCommandBuffer cb) {
        bind_vertices(cb, vb);
        vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
        if (indexed && with_count) vkCmdDrawIndexedIndirectCount(cb, records.buffer, kOffset, count.buffer, 4, 4, kStride);
        else if (indexed) vkCmdDrawIndexedIndirect(cb, records.buffer, kOffset, 4, kStride);
        else if (with_count) vkCmdDrawIndirectCount(cb, records.buffer, kOffset, count.buffer, 4, 4, kStride);
        else vkCmdDrawIndirect(cb, records.buffer, kOffset, 4, kStride);
      });
      const std::string what = std::string(indexed ? "indexed" : "non-indexed") + (with_count ? " with count" : "");
      check_rgba8(job.read_color(), what, [&](uint32_t x, uint32_t y) -> std::array<uint8_t, 4> {
        const uint32_t q = (x >= 32 ? 1 : 0) + (y >= 32 ? 2 : 0);
        const bool drawn = with_count ? q == 0 : (q == 0 || q == 2);
        if (!drawn) return {0, 0, 0, 0};
        return {uint8_t(colours[q][0] * 255), uint8_t(colours[q][1] * 255), uint8_t(colours[q][2] * 255), 255};
      });
    }
  }
}

// VK_EXT_vertex_input_dynamic_state: one pipeline (draw_colored shaders), two vertex layouts set
// with vkCmdSetVertexInputEXT in one render pass — the left rectangle from ColoredVertex records
// (float colour, stride 28), the right one from packed records (RGBA8 UNORM colour at offset 12,
// stride 16, bound at binding 1) — then the first layout again for a small square on top.
TEST_F(DrawFeaturesTest, VertexInputDynamicState) {
  VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vi{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT};
  REQUIRE_ON_KILN(query_extension_features(physical_device(), VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME, vi) &&
                      vi.vertexInputDynamicState,
                  "VK_EXT_vertex_input_dynamic_state");
  TestDevice& device = *create_device_with_extension(vi, VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME);
  auto set_vertex_input =
      reinterpret_cast<PFN_vkCmdSetVertexInputEXT>(vkGetDeviceProcAddr(device.handle(), "vkCmdSetVertexInputEXT"));
  ASSERT_NE(set_vertex_input, nullptr);
  Buffer left = vertex_buffer(device, rect(-1, -1, 0, 1, 0.5f, {1, 0, 0, 1}));
  Buffer square = vertex_buffer(device, rect(-0.5f, -0.5f, -0.25f, -0.25f, 0.5f, {0, 0, 1, 1}));
  struct Packed {
    float x, y, z;
    uint8_t rgba[4];
  };
  std::vector<Packed> packed;
  for (const ColoredVertex& v : rect(0, -1, 1, 1, 0.5f, {0, 0, 0, 0})) packed.push_back({v.x, v.y, v.z, {32, 64, 128, 255}});
  Buffer right = vertex_buffer(device, packed);
  DrawJobOptions o = colored_options();
  o.vertex_bindings.clear();
  o.vertex_attributes.clear();
  o.dynamic_states = {VK_DYNAMIC_STATE_VERTEX_INPUT_EXT};
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  auto binding = [](uint32_t b, uint32_t stride) {
    return VkVertexInputBindingDescription2EXT{VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, b, stride,
                                               VK_VERTEX_INPUT_RATE_VERTEX, 1};
  };
  auto attribute = [](uint32_t location, uint32_t b, VkFormat format, uint32_t offset) {
    return VkVertexInputAttributeDescription2EXT{VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr,
                                                 location, b, format, offset};
  };
  const VkVertexInputBindingDescription2EXT float_binding = binding(0, sizeof(ColoredVertex));
  const VkVertexInputAttributeDescription2EXT float_attributes[2] = {
      attribute(0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0),
      attribute(1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(ColoredVertex, r))};
  const VkVertexInputBindingDescription2EXT packed_binding = binding(1, sizeof(Packed));
  const VkVertexInputAttributeDescription2EXT packed_attributes[2] = {
      attribute(0, 1, VK_FORMAT_R32G32B32_SFLOAT, 0), attribute(1, 1, VK_FORMAT_R8G8B8A8_UNORM, offsetof(Packed, rgba))};
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    const VkDeviceSize zero = 0;
    set_vertex_input(cb, 1, &float_binding, 2, float_attributes);
    vkCmdBindVertexBuffers(cb, 0, 1, &left.buffer, &zero);
    vkCmdDraw(cb, 6, 1, 0, 0);
    set_vertex_input(cb, 1, &packed_binding, 2, packed_attributes);
    vkCmdBindVertexBuffers(cb, 1, 1, &right.buffer, &zero);
    vkCmdDraw(cb, 6, 1, 0, 0);
    set_vertex_input(cb, 1, &float_binding, 2, float_attributes);
    vkCmdBindVertexBuffers(cb, 0, 1, &square.buffer, &zero);
    vkCmdDraw(cb, 6, 1, 0, 0);
  });
  check_rgba8(job.read_color(), "two vertex layouts", [](uint32_t x, uint32_t y) -> std::array<uint8_t, 4> {
    if (x >= 16 && x < 24 && y >= 16 && y < 24) return {0, 0, 255, 255};
    return x < 32 ? std::array<uint8_t, 4>{255, 0, 0, 255} : std::array<uint8_t, 4>{32, 64, 128, 255};
  });
}

// VK_EXT_primitive_topology_list_restart: a triangle list with 16-bit indices draws the red and
// green rectangles of the test above; between them, two blue vertices (the gap's top and bottom)
// are cut short by the restart index, so that incomplete triangle is dropped — an assembler that
// skipped the index instead would draw (blue, blue, green corner) into the gap.
TEST_F(DrawFeaturesTest, ListRestartDropsTheIncompletePrimitive) {
  VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT restart{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
  REQUIRE_ON_KILN(query_extension_features(physical_device(), VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME,
                                           restart) &&
                      restart.primitiveTopologyListRestart,
                  "VK_EXT_primitive_topology_list_restart");
  restart.primitiveTopologyPatchListRestart = VK_FALSE;
  TestDevice& device = *create_device_with_extension(restart, VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME);
  std::vector<ColoredVertex> vertices = restart_rectangle_vertices();
  vertices.push_back(ColoredVertex{clip(32), clip(8), 0.5f, 0, 0, 1, 1});   // blue: the gap's top
  vertices.push_back(ColoredVertex{clip(32), clip(56), 0.5f, 0, 0, 1, 1});  // and bottom
  const std::vector<uint16_t> indices = {0, 1, 2, 1, 3, 2, 8, 9, 0xFFFF, 4, 5, 6, 5, 7, 6};
  check_rgba8(draw_with_restart(device, vertices, indices, VK_INDEX_TYPE_UINT16, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST),
              "list with restart", restart_rectangles_pixel);
}

// VK_EXT_provoking_vertex: flat colours of a triangle strip, a triangle fan and a line strip come
// from the first vertex of each primitive by default and from the last in LAST_VERTEX mode
// (strip triangle i: v_i / v_(i+2); fan triangle i: v_(i+1) / v_(i+2); strip line i: v_i / v_(i+1)).
TEST_F(DrawFeaturesTest, ProvokingVertexLastForEveryTopology) {
  VkPhysicalDeviceProvokingVertexFeaturesEXT pv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  REQUIRE_ON_KILN(query_extension_features(physical_device(), VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME, pv) &&
                      pv.provokingVertexLast,
                  "VK_EXT_provoking_vertex");
  pv.transformFeedbackPreservesProvokingVertex = VK_FALSE;
  TestDevice& device = *create_device_with_extension(pv, VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME);
  using Rgba = std::array<float, 4>;
  const std::array<Rgba, 4> colours{Rgba{1, 0, 0, 1}, Rgba{0, 1, 0, 1}, Rgba{0, 0, 1, 1}, Rgba{1, 1, 1, 1}};
  auto vertex = [&](float x, float y, uint32_t c) {
    return ColoredVertex{clip(x), clip(y), 0.5f, colours[c][0], colours[c][1], colours[c][2], colours[c][3]};
  };
  auto rgba8 = [&](uint32_t c) {
    return std::array<uint8_t, 4>{uint8_t(colours[c][0] * 255), uint8_t(colours[c][1] * 255),
                                  uint8_t(colours[c][2] * 255), uint8_t(colours[c][3] * 255)};
  };
  struct Case {
    const char* name;
    VkPrimitiveTopology topology;
    std::vector<ColoredVertex> vertices;
    // A pixel inside each primitive and its provoking vertex in FIRST and LAST mode.
    std::vector<std::array<uint32_t, 4>> probes;  // x, y, first, last
  };
  const Case cases[] = {
      {"triangle strip", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
       {vertex(8, 8, 0), vertex(8, 56, 1), vertex(32, 8, 2), vertex(32, 56, 3)},
       {{12, 14, 0, 2}, {28, 50, 1, 3}}},
      {"triangle fan", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN,
       {vertex(48, 32, 0), vertex(40, 8, 1), vertex(56, 8, 2), vertex(56, 56, 3)},
       {{48, 14, 1, 2}, {53, 32, 2, 3}}},
      {"line strip", VK_PRIMITIVE_TOPOLOGY_LINE_STRIP,
       {vertex(2, 60.5f, 0), vertex(30, 60.5f, 1), vertex(60, 60.5f, 2)},
       {{10, 60, 0, 1}, {45, 60, 1, 2}}},
  };
  for (const Case& c : cases) {
    Buffer vb = vertex_buffer(device, c.vertices);
    for (bool last : {false, true}) {
      SCOPED_TRACE(std::string(c.name) + (last ? ", last" : ", first"));
      DrawJobOptions o = colored_options();
      o.vertex_shader = "draw_flat_colored.vert";
      o.fragment_shader = "draw_flat.frag";
      o.topology = c.topology;
      o.provoking_vertex_last = last;
      DrawJob job(device, o);
      ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
      draw_vertices(job, vb, uint32_t(c.vertices.size()));
      const std::vector<uint8_t> pixels = job.read_color();
      for (const auto& p : c.probes) {
        const uint8_t* texel = &pixels[(size_t(p[1]) * kSize + p[0]) * 4];
        const std::array<uint8_t, 4> got{texel[0], texel[1], texel[2], texel[3]};
        EXPECT_EQ(got, rgba8(last ? p[3] : p[2])) << "pixel " << p[0] << "," << p[1];
      }
    }
  }
}

// FrontFacing of 2-pixel triangles: every 2x2 cell of the target is split into two triangles
// whose edges miss every pixel centre (the upper-right one covers three pixels, the lower-left
// one the fourth), wound so that facing alternates between the two and from cell to cell. A
// fragment shader that reads nothing else of its primitive is the case where Kiln's tile back end
// could shade quads of several triangles in one call; reading FrontFacing must keep them apart.
TEST_F(DrawFeaturesTest, FrontFacingOfSmallTrianglesIsTheirOwn) {
  DeviceFeatures features;
  TestDevice& device = *create_device(features);
  std::vector<ColoredVertex> vertices;
  // Pixel positions a, b, c in this order, or a, c, b when `reversed`.
  auto triangle = [&](std::array<float, 2> a, std::array<float, 2> b, std::array<float, 2> c, bool reversed) {
    if (reversed) std::swap(b, c);
    for (const auto& p : {a, b, c}) vertices.push_back({clip(p[0]), clip(p[1]), 0.5f, 1, 1, 1, 1});
  };
  constexpr uint32_t kCells = kSize / 2;
  for (uint32_t cy = 0; cy < kCells; ++cy)
    for (uint32_t cx = 0; cx < kCells; ++cx) {
      // The square (x0, y0) - (x1, y1) split along that diagonal. Unreversed, the upper-right
      // triangle is clockwise in framebuffer coordinates (back-facing) and the lower-left one
      // counter-clockwise (front-facing); odd cells reverse both.
      const float x0 = 2.0f * float(cx) + 0.1f, y0 = 2.0f * float(cy) + 0.2f, x1 = x0 + 1.8f, y1 = y0 + 1.7f;
      const bool odd = (cx + cy) % 2 == 1;
      triangle({x0, y0}, {x1, y0}, {x1, y1}, odd);  // upper right
      triangle({x0, y0}, {x0, y1}, {x1, y1}, odd);  // lower left
    }
  Buffer vb = vertex_buffer(device, vertices);
  DrawJobOptions o = colored_options();
  o.fragment_shader = "draw_front_facing.frag";
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  draw_vertices(job, vb, uint32_t(vertices.size()));
  check_rgba8(job.read_color(), "FrontFacing", [&](uint32_t x, uint32_t y) -> std::array<uint8_t, 4> {
    const bool lower_left = x % 2 == 0 && y % 2 == 1, odd_cell = (x / 2 + y / 2) % 2 == 1;
    const bool front = lower_left != odd_cell;
    return {uint8_t(front ? 255 : 0), uint8_t(front ? 0 : 255), 0, 255};
  });
}

// Multiview: views 0, 1 and 3 of a 4-layer target. The vertex shader shifts the quad by 8 pixels
// per ViewIndex; the fragment shader writes both stages' ViewIndex into green and blue; the load
// op and a vkCmdClearAttachments apply to every view of the mask; layer 2 (not in the mask) keeps
// the grey it was filled with. Render pass (v1 and v2) and dynamic rendering.
TEST_F(DrawFeaturesTest, MultiviewRendersEachViewIntoItsLayer) {
  REQUIRE_ON_KILN(features().v11.multiview && features().v13.dynamicRendering, "multiview and dynamicRendering");
  DeviceFeatures enabled;
  enabled.v11.multiview = VK_TRUE;
  enabled.v13.dynamicRendering = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  constexpr uint32_t kLayers = 4, kViewMask = 0b1011;
  Buffer vb = vertex_buffer(device, rect(clip(0), clip(0), clip(16), clip(kSize), 0.5f, {200 / 255.0f, 0, 0, 1}));
  const VkClearColorValue grey{.float32 = {128 / 255.0f, 128 / 255.0f, 128 / 255.0f, 128 / 255.0f}};
  const VkRect2D cleared{{40, 40}, {16, 8}};
  for (const char* setup : {"vkCreateRenderPass", "vkCreateRenderPass2", "dynamic rendering"}) {
    SCOPED_TRACE(setup);
    DrawJobOptions o = colored_options();
    o.vertex_shader = "draw_multiview.vert";
    o.fragment_shader = "draw_multiview.frag";
    o.layers = kLayers;
    o.view_mask = kViewMask;
    o.render_pass2 = std::string(setup) == "vkCreateRenderPass2";
    o.dynamic_rendering = std::string(setup) == "dynamic rendering";
    o.color_initial_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    o.push_constant_bytes = 4;
    DrawJob job(device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    device.run_commands([&](VkCommandBuffer cb) {
      const VkImage image = job.color_image().image;
      transition(cb, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
      vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &grey, 1, &all);
    });
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      const float shift = 0.25f;  // 8 pixels per view
      vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, 4, &shift);
      vkCmdDraw(cb, 6, 1, 0, 0);
      // Under multiview, layer 0 of a clear rectangle means every view of the mask.
      const VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {.color = {.float32 = {0, 0, 1, 1}}}};
      const VkClearRect rect_in_views{cleared, 0, 1};
      vkCmdClearAttachments(cb, 1, &clear, 1, &rect_in_views);
    });
    for (uint32_t layer = 0; layer < kLayers; ++layer) {
      check_rgba8(job.read_color(0, layer), "layer " + std::to_string(layer), [&](uint32_t x, uint32_t y) {
        using Px = std::array<uint8_t, 4>;
        if (!(kViewMask & (1u << layer))) return Px{128, 128, 128, 128};
        if (x >= 40 && x < 56 && y >= 40 && y < 48) return Px{0, 0, 255, 255};
        if (x >= 8 * layer && x < 8 * layer + 16) return Px{200, uint8_t(32 * layer), uint8_t(64 * layer), 255};
        return Px{0, 0, 0, 0};
      });
    }
  }
}

// Multiview with every view index up to maxMultiviewViewCount (a view mask has 32 bits): each view
// covers its whole layer, with both stages' ViewIndex in the colour of a float target. (Nothing is
// clipped: with a quad reaching far outside the target, lavapipe drew only into layer 0, with the
// last view's vertex outputs.)
TEST_F(DrawFeaturesTest, MultiviewUsesEveryViewUpToTheLimit) {
  REQUIRE_ON_KILN(features().v11.multiview, "multiview");
  VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p11};
  vkGetPhysicalDeviceProperties2(physical_device(), &properties);
  const uint32_t views = std::min(p11.maxMultiviewViewCount, 32u);
  ASSERT_GE(views, 6u);
  DeviceFeatures enabled;
  enabled.v11.multiview = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  Buffer vb = vertex_buffer(device, rect(-1, -1, 1, 1, 0.5f, {0.75f, 0, 0, 1}));
  DrawJobOptions o = colored_options();
  o.vertex_shader = "draw_multiview.vert";
  o.fragment_shader = "draw_multiview.frag";
  o.width = 16;
  o.height = 4;
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.layers = views;
  o.view_mask = views == 32 ? ~0u : (1u << views) - 1;
  o.push_constant_bytes = 4;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    const float shift = 0.0f;  // every view covers its whole layer
    vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, 4, &shift);
    vkCmdDraw(cb, 6, 1, 0, 0);
  });
  for (uint32_t layer = 0; layer < views; ++layer) {
    SCOPED_TRACE("layer " + std::to_string(layer));
    const std::vector<uint8_t> pixels = job.read_color(0, layer);
    const float want[4] = {0.75f, float(layer) * (32.0f / 255.0f), float(layer) * (64.0f / 255.0f), 1.0f};
    PixelCheck failures(o.width, o.height);
    for (size_t i = 0; i < size_t{o.width} * o.height; ++i)
      for (int c = 0; c < 4; ++c)
        failures.expect_near(i, as_float(pixels, i * 4 + c), want[c], 1e-5f, "channel " + std::to_string(c));
  }
}

// separateDepthStencilLayouts: the depth and stencil aspects of a D32_SFLOAT_S8_UINT image are
// cleared and transitioned by separate barriers, then used in different layouts inside a render
// pass (VkAttachmentReferenceStencilLayout / VkAttachmentDescriptionStencilLayout) or dynamic
// rendering. A near quad on the left half passes depth LESS and stencil EQUAL 3 (stencil
// incremented); a far quad on the top right fails depth (stencil zeroed). Writes happen only to
// aspects in a writable layout.
TEST_F(DrawFeaturesTest, DepthAndStencilAspectsInSeparateLayouts) {
  REQUIRE_ON_KILN(features().v12.separateDepthStencilLayouts && features().v13.dynamicRendering,
                  "separateDepthStencilLayouts and dynamicRendering");
  DeviceFeatures enabled;
  enabled.v12.separateDepthStencilLayouts = VK_TRUE;
  enabled.v13.dynamicRendering = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  std::vector<ColoredVertex> vertices = rect(clip(0), clip(0), clip(32), clip(kSize), 0.25f, {0, 1, 0, 1});
  const std::vector<ColoredVertex> far = rect(clip(32), clip(0), clip(kSize), clip(32), 0.75f, {1, 0, 0, 1});
  vertices.insert(vertices.end(), far.begin(), far.end());
  Buffer vb = vertex_buffer(device, vertices);
  struct Case {
    bool dynamic_rendering;
    VkImageLayout depth, stencil;
  };
  const Case cases[] = {
      {false, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL},
      {false, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL},
      {true, VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL},
      {true, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL},
  };
  for (const Case& c : cases) {
    const bool depth_writes = c.depth == VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    const bool stencil_writes = c.stencil == VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL;
    SCOPED_TRACE(std::string(c.dynamic_rendering ? "dynamic rendering" : "render pass") +
                 (depth_writes ? ", depth written" : ", depth read-only") +
                 (stencil_writes ? ", stencil written" : ", stencil read-only"));
    DrawJobOptions o = colored_options();
    o.depth_format = VK_FORMAT_D32_SFLOAT_S8_UINT;
    o.dynamic_rendering = c.dynamic_rendering;
    o.depth_layout = c.depth;
    o.stencil_layout = c.stencil;
    o.depth_load_op = VK_ATTACHMENT_LOAD_OP_LOAD;
    o.depth_stencil.depthTestEnable = VK_TRUE;
    o.depth_stencil.depthWriteEnable = depth_writes;
    o.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
    o.depth_stencil.stencilTestEnable = VK_TRUE;
    o.depth_stencil.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_STENCIL_OP_ZERO,
                             VK_COMPARE_OP_EQUAL, 0xFF, stencil_writes ? 0xFFu : 0u, 3};
    o.depth_stencil.back = o.depth_stencil.front;
    DrawJob job(device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    // Each aspect on its own: cleared in TRANSFER_DST_OPTIMAL, then moved to its layout for the pass.
    device.run_commands([&](VkCommandBuffer cb) {
      const VkImage image = job.depth_image().image;
      const VkClearDepthStencilValue value{0.5f, 3};
      for (const auto& [aspect, layout] : {std::pair{VK_IMAGE_ASPECT_DEPTH_BIT, c.depth},
                                           std::pair{VK_IMAGE_ASPECT_STENCIL_BIT, c.stencil}}) {
        transition(cb, image, aspect, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        const VkImageSubresourceRange range{VkImageAspectFlags(aspect), 0, 1, 0, 1};
        vkCmdClearDepthStencilImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &range);
        transition(cb, image, aspect, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, layout);
      }
    });
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdDraw(cb, static_cast<uint32_t>(vertices.size()), 1, 0, 0);
    });
    const std::vector<uint8_t> color = job.read_color(), depth = job.read_depth(), stencil = job.read_stencil();
    PixelCheck failures(kSize, kSize);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const size_t i = size_t{y} * kSize + x;
        const bool near = x < 32, far_quad = !near && y < 32;
        failures.expect_eq(i, color[i * 4 + 1], uint8_t(near ? 255 : 0), "green (near quad)");
        failures.expect_eq(i, color[i * 4 + 0], uint8_t{0}, "red (far quad fails the depth test)");
        failures.expect_eq(i, as_float(depth, i), near && depth_writes ? 0.25f : 0.5f, "depth");
        const uint8_t want_stencil = !stencil_writes ? 3 : near ? 4 : far_quad ? 0 : 3;
        failures.expect_eq(i, stencil[i], want_stencil, "stencil");
      }
  }
}

// depthBiasClamp: a flat quad at z = 0.25 in a D32_SFLOAT target gets the constant bias
// factor · r, r = 2^(e − 23) with e the exponent of 0.25 (2^-25); the clamp caps it at ±clamp.
TEST_F(DrawFeaturesTest, DepthBiasClampLimitsTheBias) {
  REQUIRE_ON_KILN(features().core.features.depthBiasClamp, "depthBiasClamp");
  DeviceFeatures enabled;
  enabled.core.features.depthBiasClamp = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  Buffer vb = vertex_buffer(device, rect(-1, -1, 1, 1, 0.25f, {1, 1, 1, 1}));
  struct Case {
    float constant, clamp, depth;
  };
  const Case cases[] = {
      {1 << 20, 0.0f, 0.25f + 0.03125f},        // no clamp: 2^20 · 2^-25
      {1 << 20, 0.5f, 0.25f + 0.03125f},        // clamp above the bias: no effect
      {1 << 20, 0.015625f, 0.25f + 0.015625f},  // clamped
      {-(1 << 20), -0.0078125f, 0.25f - 0.0078125f},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("constant factor " + std::to_string(c.constant) + ", clamp " + std::to_string(c.clamp));
    DrawJobOptions o = colored_options();
    o.depth_format = VK_FORMAT_D32_SFLOAT;
    o.depth_stencil.depthTestEnable = VK_TRUE;
    o.depth_stencil.depthWriteEnable = VK_TRUE;
    o.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
    o.depth_bias_enable = true;
    o.depth_bias_constant = c.constant;
    o.depth_bias_clamp = c.clamp;
    DrawJob job(device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    draw_vertices(job, vb, 6);
    const std::vector<uint8_t> depth = job.read_depth();
    PixelCheck failures(kSize, kSize);
    for (size_t i = 0; i < size_t{kSize} * kSize; ++i) failures.expect_eq(i, as_float(depth, i), c.depth, "depth");
  }
}

// largePoints: points of sizes 1 to 15 (centres on pixel corners and on pixel centres, one with a
// fractional size) cover the pixels whose centres lie in their square and write PointCoord, which
// is (0, 0) at the square's upper-left corner.
TEST_F(DrawFeaturesTest, LargePointsCoverTheirSquareWithPointCoord) {
  REQUIRE_ON_KILN(features().core.features.largePoints, "largePoints");
  DeviceFeatures enabled;
  enabled.core.features.largePoints = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  struct Point {
    float x, y, z, size;
  };
  // Centres and sizes in pixels; no square edge passes through a pixel centre.
  const Point points[] = {{16, 16, 0, 8}, {40.5f, 12.5f, 0, 5}, {12.5f, 44.5f, 0, 1}, {40.5f, 40.5f, 0, 6.5f},
                          {54, 54, 0, 15}};
  std::vector<Point> vertices;
  for (const Point& p : points) vertices.push_back({clip(p.x), clip(p.y), 0.5f, p.size});
  Buffer vb = vertex_buffer(device, vertices);
  DrawJobOptions o;
  o.vertex_shader = "draw_point_size.vert";
  o.fragment_shader = "draw_point_coord.frag";
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  o.vertex_bindings = {{0, sizeof(Point), VK_VERTEX_INPUT_RATE_VERTEX}};
  o.vertex_attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32_SFLOAT, offsetof(Point, size)}};
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, static_cast<uint32_t>(vertices.size()), 1, 0, 0);
  });
  const std::vector<uint8_t> pixels = job.read_color();
  PixelCheck failures(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const size_t i = size_t{y} * kSize + x;
      std::array<float, 4> want{0, 0, 0, 0};
      for (const Point& p : points) {
        const float left = p.x - p.size / 2, top = p.y - p.size / 2, cx = x + 0.5f, cy = y + 0.5f;
        if (cx >= left && cx < left + p.size && cy >= top && cy < top + p.size)
          want = {(cx - left) / p.size, (cy - top) / p.size, 0, 1};
      }
      for (int c = 0; c < 4; ++c)
        failures.expect_near(i, as_float(pixels, i * 4 + c), want[c], 1e-4f, "channel " + std::to_string(c));
    }
}

// wideLines: a horizontal line of width 4 and a vertical one of width 3 (vkCmdSetLineWidth) cover
// the rectangles of their width around the segment, from end to end. (For axis-aligned lines
// Kiln's non-strict parallelogram and a strict rectangle are the same shape.)
TEST_F(DrawFeaturesTest, WideLinesCoverTheirWidth) {
  REQUIRE_ON_KILN(features().core.features.wideLines, "wideLines");
  DeviceFeatures enabled;
  enabled.core.features.wideLines = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  const std::vector<ColoredVertex> lines = {{clip(4), clip(10), 0.5f, 1, 0, 0, 1},
                                            {clip(60), clip(10), 0.5f, 1, 0, 0, 1},
                                            {clip(30.5f), clip(20), 0.5f, 0, 1, 0, 1},
                                            {clip(30.5f), clip(60), 0.5f, 0, 1, 0, 1}};
  Buffer vb = vertex_buffer(device, lines);
  DrawJobOptions o = colored_options();
  o.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  o.dynamic_states = {VK_DYNAMIC_STATE_LINE_WIDTH};
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdSetLineWidth(cb, 4.0f);
    vkCmdDraw(cb, 2, 1, 0, 0);
    vkCmdSetLineWidth(cb, 3.0f);
    vkCmdDraw(cb, 2, 1, 2, 0);
  });
  check_rgba8(job.read_color(), "lines", [](uint32_t x, uint32_t y) {
    using Px = std::array<uint8_t, 4>;
    if (x >= 4 && x < 60 && y >= 8 && y < 12) return Px{255, 0, 0, 255};   // y = 10 ± 2
    if (x >= 29 && x < 32 && y >= 20 && y < 60) return Px{0, 255, 0, 255};  // x = 30.5 ± 1.5
    return Px{0, 0, 0, 0};
  });
}

// VK_EXT_line_rasterization rectangularLines: a diagonal line 7 pixels wide is a rectangle whose
// ends are perpendicular to it. Every pixel whose centre is inside is red, outside black; centres
// within 0.02 pixel of an edge are not checked (either answer is right there).
TEST_F(DrawFeaturesTest, RectangularLinesCoverTheirRectangle) {
  VkPhysicalDeviceLineRasterizationFeaturesEXT lines{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
  REQUIRE_ON_KILN(query_extension_features(physical_device(), VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME, lines) &&
                      lines.rectangularLines && features().core.features.wideLines,
                  "VK_EXT_line_rasterization rectangularLines with wideLines");
  lines.bresenhamLines = lines.smoothLines = VK_FALSE;
  lines.stippledRectangularLines = lines.stippledBresenhamLines = lines.stippledSmoothLines = VK_FALSE;
  DeviceFeatures enabled;
  enabled.core.features.wideLines = VK_TRUE;
  enabled.v13.pNext = &lines;
  TestDevice& device = *create_device(enabled, {VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME});
  const float x0 = 12.3f, y0 = 14.6f, x1 = 50.2f, y1 = 41.1f, width = 7.0f;
  const std::vector<ColoredVertex> line = {{clip(x0), clip(y0), 0.5f, 1, 0, 0, 1}, {clip(x1), clip(y1), 0.5f, 1, 0, 0, 1}};
  Buffer vb = vertex_buffer(device, line);
  DrawJobOptions o = colored_options();
  o.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  o.line_width = width;
  o.line_mode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  draw_vertices(job, vb, 2);
  const std::vector<uint8_t> pixels = job.read_color();
  const double dx = x1 - x0, dy = y1 - y0, length = std::sqrt(dx * dx + dy * dy);
  PixelCheck failures(kSize, kSize);
  uint32_t inside_count = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      // Pixel centre in the line's frame: along from the start, across from the axis.
      const double px = x + 0.5 - x0, py = y + 0.5 - y0;
      const double along = (px * dx + py * dy) / length, across = (px * -dy + py * dx) / length;
      const double margin = std::min({along, length - along, width / 2 - std::fabs(across)});
      if (std::fabs(margin) < 0.02) continue;
      const bool inside = margin > 0;
      inside_count += inside;
      const size_t i = size_t(y) * kSize + x;
      failures.expect_eq(i, int{pixels[i * 4]}, inside ? 255 : 0, "red");
      failures.expect_eq(i, int{pixels[i * 4 + 3]}, inside ? 255 : 0, "alpha");
    }
  EXPECT_GT(inside_count, 250u);  // 7 x 46 pixels
}

// VK_EXT_extended_dynamic_state and _2 (core in 1.3; the extensions name the same commands): the
// EXT entry points exist when the extensions are enabled and act like the core ones. A
// back-facing red and a front-facing green triangle: vkCmdSetCullModeEXT(BACK) keeps only the
// green one; vkCmdSetRasterizerDiscardEnableEXT(TRUE) then draws nothing over a second clear.
TEST_F(DrawFeaturesTest, ExtendedDynamicStateExtensionCommandsActLikeCore) {
  VkPhysicalDeviceExtendedDynamicStateFeaturesEXT eds{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT};
  VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
  REQUIRE_ON_KILN(query_extension_features(physical_device(), VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME, eds) &&
                      query_extension_features(physical_device(), VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME, eds2) &&
                      eds.extendedDynamicState && eds2.extendedDynamicState2,
                  "VK_EXT_extended_dynamic_state and VK_EXT_extended_dynamic_state2");
  eds2.extendedDynamicState2LogicOp = eds2.extendedDynamicState2PatchControlPoints = VK_FALSE;
  eds.pNext = &eds2;
  DeviceFeatures enabled;
  enabled.v13.pNext = &eds;
  TestDevice& device = *create_device(
      enabled, {VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME, VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME});
  auto set_cull_mode =
      reinterpret_cast<PFN_vkCmdSetCullModeEXT>(vkGetDeviceProcAddr(device.handle(), "vkCmdSetCullModeEXT"));
  auto set_discard = reinterpret_cast<PFN_vkCmdSetRasterizerDiscardEnableEXT>(
      vkGetDeviceProcAddr(device.handle(), "vkCmdSetRasterizerDiscardEnableEXT"));
  ASSERT_NE(set_cull_mode, nullptr);
  ASSERT_NE(set_discard, nullptr);
  auto v = [](float x, float y, std::array<float, 4> c) { return ColoredVertex{clip(x), clip(y), 0.5f, c[0], c[1], c[2], c[3]}; };
  const std::array<float, 4> red{1, 0, 0, 1}, green{0, 1, 0, 1};
  // Framebuffer y points down: (8,8) (24,8) (8,24) is clockwise, back-facing with the CCW front face.
  const std::vector<ColoredVertex> vertices = {v(8, 8, red), v(24, 8, red), v(8, 24, red),
                                               v(40, 8, green), v(40, 24, green), v(56, 8, green)};
  Buffer vb = vertex_buffer(device, vertices);
  DrawJobOptions o = colored_options();
  o.dynamic_states = {VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE};
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  for (bool discard : {false, true}) {
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      set_cull_mode(cb, VK_CULL_MODE_BACK_BIT);
      set_discard(cb, discard ? VK_TRUE : VK_FALSE);
      vkCmdDraw(cb, 6, 1, 0, 0);
    });
    check_rgba8(job.read_color(), discard ? "discarded" : "culled", [&](uint32_t x, uint32_t y) -> std::array<uint8_t, 4> {
      const bool in_green = x >= 40 && y >= 8 && float(x - 40) + float(y - 8) + 1.0f < 16.0f;
      return !discard && in_green ? std::array<uint8_t, 4>{0, 255, 0, 255} : std::array<uint8_t, 4>{0, 0, 0, 0};
    });
  }
}

// VK_EXT_color_write_enable: a rectangle over the left half into two attachments; the disabled
// attachment keeps its clear. Static (VkPipelineColorWriteCreateInfoEXT: attachment 1 off) and
// dynamic (vkCmdSetColorWriteEnableEXT: attachment 0 off) in turn.
TEST_F(DrawFeaturesTest, ColorWriteEnableStaticAndDynamic) {
  VkPhysicalDeviceColorWriteEnableFeaturesEXT cwe{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT};
  REQUIRE_ON_KILN(query_extension_features(physical_device(), VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME, cwe) &&
                      cwe.colorWriteEnable,
                  "VK_EXT_color_write_enable");
  TestDevice& device = *create_device_with_extension(cwe, VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME);
  auto set_enables = reinterpret_cast<PFN_vkCmdSetColorWriteEnableEXT>(
      vkGetDeviceProcAddr(device.handle(), "vkCmdSetColorWriteEnableEXT"));
  ASSERT_NE(set_enables, nullptr);
  Buffer vb = vertex_buffer(device, rect(-1, -1, 0, 1, 0.5f, {1, 0, 1, 1}));
  for (bool dynamic : {false, true}) {
    SCOPED_TRACE(dynamic ? "dynamic" : "static");
    DrawJobOptions o = colored_options();
    o.fragment_shader = "draw_two_outputs.frag";
    o.color_attachment_count = 2;
    if (dynamic) o.dynamic_states = {VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT};
    else o.color_write_enables = {VK_TRUE, VK_FALSE};
    DrawJob job(device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    const float q = 64 / 255.0f;
    job.draw({.float32 = {q, q, q, q}}, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      const VkBool32 enables[2] = {VK_FALSE, VK_TRUE};
      if (dynamic) set_enables(cb, 2, enables);
      vkCmdDraw(cb, 6, 1, 0, 0);
    });
    const uint32_t written = dynamic ? 1 : 0;
    using Px = std::array<uint8_t, 4>;
    for (uint32_t a = 0; a < 2; ++a)
      check_rgba8(job.read_color(a), "attachment " + std::to_string(a), [&](uint32_t x, uint32_t) {
        return a == written && x < 32 ? Px{255, 0, 255, 255} : Px{64, 64, 64, 64};
      });
  }
}

// extendedDynamicState2LogicOp: the pipeline says COPY with VK_DYNAMIC_STATE_LOGIC_OP_EXT, the
// command buffer sets XOR for one draw and OR for the next; the left half of the target shows each.
TEST_F(DrawFeaturesTest, DynamicLogicOp) {
  VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
  REQUIRE_ON_KILN(features().core.features.logicOp &&
                      query_extension_features(physical_device(), VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME, eds2) &&
                      eds2.extendedDynamicState2LogicOp,
                  "logicOp and extendedDynamicState2LogicOp");
  eds2.extendedDynamicState2PatchControlPoints = VK_FALSE;
  DeviceFeatures enabled;
  enabled.core.features.logicOp = VK_TRUE;
  enabled.v13.pNext = &eds2;
  TestDevice& device = *create_device(enabled, {VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME});
  auto set_logic_op = reinterpret_cast<PFN_vkCmdSetLogicOpEXT>(vkGetDeviceProcAddr(device.handle(), "vkCmdSetLogicOpEXT"));
  ASSERT_NE(set_logic_op, nullptr);
  Buffer vb = vertex_buffer(device, rect(-1, -1, 0, 1, 0.5f, {1, 0, 1, 1}));
  DrawJobOptions o = colored_options();
  o.logic_op_enable = true;
  o.logic_op = VK_LOGIC_OP_COPY;
  o.dynamic_states = {VK_DYNAMIC_STATE_LOGIC_OP_EXT};
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  using Px = std::array<uint8_t, 4>;
  struct Case { VkLogicOp op; Px left; };
  // Source (255, 0, 255, 255) over the clear (64, 64, 64, 64).
  for (const Case& c : {Case{VK_LOGIC_OP_XOR, {191, 64, 191, 191}}, Case{VK_LOGIC_OP_OR, {255, 64, 255, 255}}}) {
    const float q = 64 / 255.0f;
    job.draw({.float32 = {q, q, q, q}}, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      set_logic_op(cb, c.op);
      vkCmdDraw(cb, 6, 1, 0, 0);
    });
    check_rgba8(job.read_color(), "logic op " + std::to_string(c.op),
                [&](uint32_t x, uint32_t) { return x < 32 ? c.left : Px{64, 64, 64, 64}; });
  }
}

// independentBlend: one fragment colour into two attachments, additive blending on the first,
// MAX on the second (alpha masked there), over a clear of 64 in every channel.
TEST_F(DrawFeaturesTest, IndependentBlendPerAttachment) {
  REQUIRE_ON_KILN(features().core.features.independentBlend, "independentBlend");
  DeviceFeatures enabled;
  enabled.core.features.independentBlend = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  Buffer vb = vertex_buffer(device, rect(-1, -1, 0, 1, 0.5f, {128 / 255.0f, 32 / 255.0f, 100 / 255.0f, 128 / 255.0f}));
  DrawJobOptions o = colored_options();
  o.fragment_shader = "draw_two_outputs.frag";
  o.color_attachment_count = 2;
  o.blends = {{VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
               VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, 0xF},
              {VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_MAX, VK_BLEND_FACTOR_ONE,
               VK_BLEND_FACTOR_ONE, VK_BLEND_OP_MAX,
               VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT}};
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const float q = 64 / 255.0f;
  job.draw({.float32 = {q, q, q, q}}, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, 6, 1, 0, 0);
  });
  using Px = std::array<uint8_t, 4>;
  check_rgba8(job.read_color(0), "attachment 0 (ADD)",
              [](uint32_t x, uint32_t) { return x < 32 ? Px{192, 96, 164, 192} : Px{64, 64, 64, 64}; });
  check_rgba8(job.read_color(1), "attachment 1 (MAX, alpha masked)",
              [](uint32_t x, uint32_t) { return x < 32 ? Px{128, 64, 100, 64} : Px{64, 64, 64, 64}; });
}

// multiViewport + shaderOutputViewportIndex: instance i writes ViewportIndex = i; viewport i is
// quadrant i of the target and scissor i cuts 4·i rows off its top. The quad [-0.5, 0.5]² lands
// in pixels [8, 24)² of each quadrant, coloured `inside(q)` for quadrant q.
void DrawFeaturesTest::draw_viewport_quadrants(const char* fragment_shader,
                                               const std::function<std::array<uint8_t, 4>(uint32_t)>& inside) {
  DeviceFeatures enabled;
  enabled.core.features.multiViewport = VK_TRUE;
  enabled.v12.shaderOutputViewportIndex = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  Buffer vb = vertex_buffer(device, rect(-0.5f, -0.5f, 0.5f, 0.5f, 0.5f, {1, 1, 1, 1}));
  DrawJobOptions o = colored_options();
  o.vertex_shader = "draw_viewport_index.vert";
  if (fragment_shader) o.fragment_shader = fragment_shader;
  for (int32_t i = 0; i < 4; ++i) {
    const int32_t x0 = 32 * (i & 1), y0 = 32 * (i >> 1);
    o.viewports.push_back({float(x0), float(y0), 32, 32, 0, 1});
    o.scissors.push_back({{x0, y0 + 4 * i}, {32, uint32_t(32 - 4 * i)}});
  }
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, 6, 4, 0, 0);
  });
  check_rgba8(job.read_color(), "quadrants", [&](uint32_t x, uint32_t y) {
    const uint32_t q = (x >= 32 ? 1 : 0) + (y >= 32 ? 2 : 0), lx = x % 32, ly = y % 32;
    if (lx >= 8 && lx < 24 && ly >= 8 && ly < 24 && ly >= 4 * q) return inside(q);
    return std::array<uint8_t, 4>{0, 0, 0, 0};
  });
}

TEST_F(DrawFeaturesTest, ViewportIndexSelectsViewportAndScissor) {
  REQUIRE_ON_KILN(features().core.features.multiViewport && features().v12.shaderOutputViewportIndex,
                  "multiViewport and shaderOutputViewportIndex");
  draw_viewport_quadrants(nullptr, [](uint32_t q) {
    return std::array<uint8_t, 4>{255, 255, 255, uint8_t(50 * (q + 1))};
  });
}

// The fragment shader reads the primitive's ViewportIndex (red = 60 × index).
TEST_F(DrawFeaturesTest, FragmentShaderReadsViewportIndex) {
  REQUIRE_ON_KILN(features().core.features.multiViewport && features().v12.shaderOutputViewportIndex,
                  "multiViewport and shaderOutputViewportIndex");
  draw_viewport_quadrants("draw_viewport_index.frag", [](uint32_t q) {
    return std::array<uint8_t, 4>{uint8_t(60 * q), 255, 255, 255};
  });
}

// shaderOutputLayer: instance i writes Layer = i into a 3-layer framebuffer and is shifted right
// by 8 pixels per instance; each layer holds only its instance's quad.
TEST_F(DrawFeaturesTest, LayerSelectsTheFramebufferLayer) {
  REQUIRE_ON_KILN(features().v12.shaderOutputLayer, "shaderOutputLayer");
  DeviceFeatures enabled;
  enabled.v12.shaderOutputLayer = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  constexpr uint32_t kLayers = 3;
  Buffer vb = vertex_buffer(device, rect(clip(0), clip(0), clip(16), clip(kSize), 0.5f, {1, 0, 1, 1}));
  DrawJobOptions o = colored_options();
  o.vertex_shader = "draw_layer.vert";
  o.layers = kLayers;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, 6, kLayers, 0, 0);
  });
  for (uint32_t layer = 0; layer < kLayers; ++layer)
    check_rgba8(job.read_color(0, layer), "layer " + std::to_string(layer), [&](uint32_t x, uint32_t) {
      using Px = std::array<uint8_t, 4>;
      return x >= 8 * layer && x < 8 * layer + 16 ? Px{255, 0, 255, uint8_t(50 * (layer + 1))} : Px{0, 0, 0, 0};
    });
}

// Queries inside a multiview subpass use one query per view (the spec's "N consecutive query
// indices"): a timestamp and an occlusion query in a 3-view pass make all three of their queries
// available (waiting on them returns), and the occlusion series adds up to every view's pixels.
TEST_F(DrawFeaturesTest, QueriesInAMultiviewPassUseOneQueryPerView) {
  REQUIRE_ON_KILN(features().v11.multiview && features().core.features.occlusionQueryPrecise,
                  "multiview and occlusionQueryPrecise");
  DeviceFeatures enabled;
  enabled.v11.multiview = VK_TRUE;
  enabled.core.features.occlusionQueryPrecise = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  VkDevice d = device.handle();
  constexpr uint32_t kViews = 3;
  VkQueryPool pools[2] = {};
  for (VkQueryType type : {VK_QUERY_TYPE_TIMESTAMP, VK_QUERY_TYPE_OCCLUSION}) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = type;
    info.queryCount = kViews;
    VkQueryPool& pool = pools[type == VK_QUERY_TYPE_OCCLUSION];
    ASSERT_EQ(vkCreateQueryPool(d, &info, nullptr, &pool), VK_SUCCESS);
    device.defer_destroy([d, pool] { vkDestroyQueryPool(d, pool, nullptr); });
  }
  Buffer vb = vertex_buffer(device, rect(-1, -1, 1, 1, 0.5f, {0.75f, 0, 0, 1}));
  DrawJobOptions o = colored_options();
  o.vertex_shader = "draw_multiview.vert";
  o.fragment_shader = "draw_multiview.frag";
  o.width = 16;
  o.height = 4;
  o.layers = kViews;
  o.view_mask = (1u << kViews) - 1;
  o.push_constant_bytes = 4;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  device.run_commands([&](VkCommandBuffer cb) {
    for (VkQueryPool pool : pools) vkCmdResetQueryPool(cb, pool, 0, kViews);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      const float shift = 0.0f;
      vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, 4, &shift);
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pools[0], 0);
      vkCmdBeginQuery(cb, pools[1], 0, VK_QUERY_CONTROL_PRECISE_BIT);
      vkCmdDraw(cb, 6, 1, 0, 0);
      vkCmdEndQuery(cb, pools[1], 0);
    });
  });
  uint64_t timestamps[kViews] = {}, samples[kViews] = {};
  const VkQueryResultFlags wait = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT;
  // lavapipe 22.3 makes only the first query of each series available (WAIT returns VK_NOT_READY).
  if (!is_kiln()) GTEST_SKIP() << "lavapipe leaves multiview queries 1.. of a series unavailable";
  ASSERT_EQ(vkGetQueryPoolResults(d, pools[1], 0, kViews, sizeof(samples), samples, 8, wait), VK_SUCCESS);
  EXPECT_EQ(samples[0] + samples[1] + samples[2], uint64_t{kViews} * o.width * o.height) << "every view's pixels";
  ASSERT_EQ(vkGetQueryPoolResults(d, pools[0], 0, kViews, sizeof(timestamps), timestamps, 8, wait), VK_SUCCESS);
  EXPECT_NE(timestamps[0], 0u);
}

}  // namespace
}  // namespace kiln::test
