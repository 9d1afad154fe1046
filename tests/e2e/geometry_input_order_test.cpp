// The vertices a geometry shader receives for each input primitive, in gl_in order, against the
// Vulkan spec's definition of every topology (primitive_assembly.h): the geometry shader
// (geom_inputs_*.geom) stores the VertexIndex of gl_in[0 .. n-1] at its PrimitiveIdIn's slots
// of a storage buffer (vertexPipelineStoresAndAtomics) and emits nothing. Vertex counts include
// leftovers that make no primitive, and for triangle strips with adjacency every row of the
// spec's table: only primitive, first, middle and last with i odd and even.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/geometry_fixture.h"
#include "e2e/grouped_failures.h"
#include "e2e/primitive_assembly.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

struct OrderCase {
  const char* name;
  VkPrimitiveTopology topology;
  const char* geometry_shader;   // its input primitive matches the topology's class
  uint32_t vertices_per_primitive;
  std::vector<uint32_t> vertex_counts;  // one draw each
};

// Primitives a draw may leave in its region of the buffer beyond the spec's count: room for
// two, which must stay unwritten.
constexpr uint32_t kSparePrimitives = 2;

// One pipeline for `c`, one draw per vertex count, each writing its own region of the buffer
// (first_slot, a push constant); then every slot is compared with the spec's order, -1 beyond
// the draw's primitives.
void check_input_order(TestDevice& device, const OrderCase& c) {
  SCOPED_TRACE(c.name);
  DrawJobOptions o = vertex_index_geometry_options(c.geometry_shader);
  o.topology = c.topology;
  o.bindings = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  o.push_constant_bytes = sizeof(int32_t);
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<int32_t> want;
  std::vector<std::string> slot_names;
  std::vector<int32_t> first_slots;
  for (uint32_t count : c.vertex_counts) {
    first_slots.push_back(int32_t(want.size()));
    const std::vector<std::vector<uint32_t>> primitives = assembled_primitives(c.topology, count);
    for (uint32_t p = 0; p < primitives.size() + kSparePrimitives; ++p)
      for (uint32_t k = 0; k < c.vertices_per_primitive; ++k) {
        want.push_back(p < primitives.size() ? int32_t(primitives[p].at(k)) : -1);
        slot_names.push_back(std::to_string(count) + " vertices, primitive " + std::to_string(p) + ", gl_in[" +
                             std::to_string(k) + "]" + (p < primitives.size() ? "" : " (no such primitive)"));
      }
  }
  Buffer order = device.create_buffer(want.size() * sizeof(int32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  job.bind_buffer(0, order);
  device.run_commands([&](VkCommandBuffer cb) {
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      for (size_t d = 0; d < c.vertex_counts.size(); ++d) {
        vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, sizeof(int32_t), &first_slots[d]);
        vkCmdDraw(cb, c.vertex_counts[d], 1, 0, 0);
      }
    });
    full_barrier(cb);  // the geometry shader's stores → the host
  });
  std::vector<int32_t> got(want.size());
  std::memcpy(got.data(), order.mapped, got.size() * sizeof(int32_t));
  GroupedFailures failures([&](size_t i) { return slot_names[i]; });
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) failures.add("vertex index in gl_in", i, std::to_string(got[i]), std::to_string(want[i]));
  failures.report(want.size());
}

// The four adjacency topologies, each with its section of "Primitive Topologies".
TEST_F(GeometryTest, AdjacencyVertexOrder) {
  const GeometryFeatures needs{.vertex_stores = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  TestDevice& device = geometry_device(needs);
  const OrderCase cases[] = {
      {"line list with adjacency", VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY, "geom_inputs_lines_adjacency.geom", 4,
       {4, 8, 11}},
      {"line strip with adjacency", VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY,
       "geom_inputs_lines_adjacency.geom", 4, {4, 5, 7}},
      {"triangle list with adjacency", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY,
       "geom_inputs_triangles_adjacency.geom", 6, {6, 12, 17}},
      // 1, 1, 2, 3, 4 and 4 primitives: only; first + last (odd); first, middle (odd), last
      // (even); first, middle (odd and even), last (odd); odd vertex counts leave one unused.
      {"triangle strip with adjacency", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY,
       "geom_inputs_triangles_adjacency.geom", 6, {6, 7, 8, 10, 12, 13}},
  };
  for (const OrderCase& c : cases) check_input_order(device, c);
}

// The topologies without adjacency: strips alternate their vertex order to keep the winding
// ("Triangle Strips": p_i = {v_i, v_i+(1+i%2), v_i+(2-i%2)}), fans put the shared vertex last.
TEST_F(GeometryTest, InputVertexOrderWithoutAdjacency) {
  const GeometryFeatures needs{.vertex_stores = true};
  REQUIRE_GEOMETRY_FEATURES(needs);
  TestDevice& device = geometry_device(needs);
  const OrderCase cases[] = {
      {"line list", VK_PRIMITIVE_TOPOLOGY_LINE_LIST, "geom_inputs_lines.geom", 2, {2, 5}},
      {"line strip", VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, "geom_inputs_lines.geom", 2, {2, 5}},
      {"triangle list", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "geom_inputs_triangles.geom", 3, {3, 8}},
      {"triangle strip", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, "geom_inputs_triangles.geom", 3, {3, 4, 7}},
      {"triangle fan", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, "geom_inputs_triangles.geom", 3, {3, 6}},
  };
  for (const OrderCase& c : cases) check_input_order(device, c);
}

}  // namespace
}  // namespace kiln::test
