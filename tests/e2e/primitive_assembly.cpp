#include "e2e/primitive_assembly.h"

#include <stdexcept>

namespace kiln::test {
namespace {

using Primitives = std::vector<std::vector<uint32_t>>;

// Consecutive groups of `size` vertices (point, line and triangle lists, and their adjacency
// forms: "Line Lists With Adjacency" p_i = {v_4i, ..., v_4i+3}, "Triangle Lists With Adjacency"
// p_i = {v_6i, ..., v_6i+5}).
Primitives lists(uint32_t vertex_count, uint32_t size) {
  Primitives out;
  for (uint32_t first = 0; first + size <= vertex_count; first += size) {
    std::vector<uint32_t> p;
    for (uint32_t k = 0; k < size; ++k) p.push_back(first + k);
    out.push_back(p);
  }
  return out;
}

// "Triangle Strips With Adjacency": n = floor(max(0, vertexCount - 4) / 2) primitives, whose
// vertex order depends on where the primitive is in the strip (only, first, middle or last) and,
// past the first, on the parity of i, so that the winding stays consistent along the strip.
Primitives triangle_strip_with_adjacency(uint32_t vertex_count) {
  const uint32_t n = vertex_count < 4 ? 0 : (vertex_count - 4) / 2;
  if (n == 1) return {{0, 1, 2, 5, 4, 3}};
  Primitives out;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t v = 2 * i;  // v_2i
    const bool last = i == n - 1, odd = i % 2 == 1;
    // The fourth vertex (across the edge v_2i+2 v_2i+4) is v_2i+6, or v_2i+5 in the last primitive.
    const uint32_t across = last ? v + 5 : v + 6;
    if (i == 0) out.push_back({v, v + 1, v + 2, across, v + 4, v + 3});
    else if (odd) out.push_back({v, v + 3, v + 4, across, v + 2, v - 2});
    else out.push_back({v, v - 2, v + 2, across, v + 4, v + 3});
  }
  return out;
}

}  // namespace

std::vector<std::vector<uint32_t>> assembled_primitives(VkPrimitiveTopology topology, uint32_t vertex_count) {
  const uint32_t n = vertex_count;
  Primitives out;
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return lists(n, 1);
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return lists(n, 2);
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return lists(n, 3);
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: return lists(n, 4);
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY: return lists(n, 6);
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:  // "Line Strips": p_i = {v_i, v_i+1}
      for (uint32_t i = 0; i + 2 <= n; ++i) out.push_back({i, i + 1});
      return out;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:  // "Triangle Strips": p_i = {v_i, v_i+(1+i%2), v_i+(2-i%2)}
      for (uint32_t i = 0; i + 3 <= n; ++i) out.push_back({i, i + 1 + i % 2, i + 2 - i % 2});
      return out;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:  // "Triangle Fans": p_i = {v_i+1, v_i+2, v_0}
      for (uint32_t i = 0; i + 3 <= n; ++i) out.push_back({i + 1, i + 2, 0});
      return out;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:  // p_i = {v_i, v_i+1, v_i+2, v_i+3}
      for (uint32_t i = 0; i + 4 <= n; ++i) out.push_back({i, i + 1, i + 2, i + 3});
      return out;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: return triangle_strip_with_adjacency(n);
    default: throw std::invalid_argument("assembled_primitives: no vertex order for this topology");
  }
}

}  // namespace kiln::test
