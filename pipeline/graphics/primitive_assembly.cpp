#include "pipeline/graphics/primitive_assembly.h"

#include "pipeline/graphics/vertex_stage.h"

namespace kiln::exec::gfx {

uint32_t assembled_vertex_count(VkPrimitiveTopology topology) {
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return 1;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: return 2;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: return 3;
    default: return 0;
  }
}

namespace {

struct Assembler {
  bool provoking_last;
  std::vector<AssembledPrimitive>& out;
  uint32_t next_id = 0;  // PrimitiveId counts every primitive of the draw, across restarts

  // `first_provoking`/`last_provoking`: which vertex is provoking in each mode.
  void emit(const int64_t* v, uint32_t n, uint8_t first_provoking, uint8_t last_provoking) {
    AssembledPrimitive p{};
    for (uint32_t i = 0; i < n; ++i) p.id[i] = static_cast<int32_t>(v[i]);
    p.vertex_count = static_cast<uint8_t>(n);
    p.provoking = provoking_last ? last_provoking : first_provoking;
    p.primitive_id = next_id++;
    out.push_back(p);
  }
  void point(int64_t a) { emit(&a, 1, 0, 0); }
  void line(int64_t a, int64_t b) { const int64_t v[2] = {a, b}; emit(v, 2, 0, 1); }
  void triangle(int64_t a, int64_t b, int64_t c, uint8_t first_provoking, uint8_t last_provoking) {
    const int64_t v[3] = {a, b, c};
    emit(v, 3, first_provoking, last_provoking);
  }

  // One run of vertices between restart cuts.
  void run(VkPrimitiveTopology topology, const int64_t* v, size_t n) {
    switch (topology) {
      case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
        for (size_t i = 0; i < n; ++i) point(v[i]);
        break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
        for (size_t i = 0; i + 1 < n; i += 2) line(v[i], v[i + 1]);
        break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
        for (size_t i = 0; i + 1 < n; ++i) line(v[i], v[i + 1]);
        break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
        for (size_t i = 0; i + 3 < n; i += 4) line(v[i + 1], v[i + 2]);
        break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
        for (size_t i = 0; i + 3 < n; ++i) line(v[i + 1], v[i + 2]);
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
        for (size_t i = 0; i + 2 < n; i += 3) triangle(v[i], v[i + 1], v[i + 2], 0, 2);
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
        // Triangle i is {v_i, v_(i+1+i%2), v_(i+2-i%2)}: odd triangles swap their last two
        // vertices to keep the winding. Provoking: v_i (first) or v_(i+2) (last).
        for (size_t i = 0; i + 2 < n; ++i) {
          if (i % 2 == 0) triangle(v[i], v[i + 1], v[i + 2], 0, 2);
          else triangle(v[i], v[i + 2], v[i + 1], 0, 1);
        }
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
        // Triangle i is {v_(i+1), v_(i+2), v_0}; provoking v_(i+1) (first) or v_(i+2) (last).
        for (size_t i = 0; i + 2 < n; ++i) triangle(v[i + 1], v[i + 2], v[0], 0, 1);
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
        for (size_t i = 0; i + 5 < n; i += 6) triangle(v[i], v[i + 2], v[i + 4], 0, 2);
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
        // Main vertices are the even ones; triangle i uses v_2i, v_2i+2, v_2i+4 with the strip's
        // odd/even winding rule.
        for (size_t i = 0; 2 * i + 4 < n; ++i) {
          const size_t a = 2 * i;
          if (i % 2 == 0) triangle(v[a], v[a + 2], v[a + 4], 0, 2);
          else triangle(v[a], v[a + 4], v[a + 2], 0, 1);
        }
        break;
      default:
        break;
    }
  }
};

}  // namespace

void assemble_primitives(VkPrimitiveTopology topology, bool provoking_last, const int64_t* ids, size_t count,
                         std::vector<AssembledPrimitive>& out) {
  Assembler a{provoking_last, out};
  size_t start = 0;
  for (size_t i = 0; i <= count; ++i) {
    if (i == count || ids[i] == kRestartCut) {
      a.run(topology, ids + start, i - start);
      start = i + 1;
    }
  }
}

}  // namespace kiln::exec::gfx
