#include "pipeline/graphics/primitive_assembly.h"

#include <initializer_list>

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

// Primitives a run of n vertices (no restart cuts) makes; incomplete trailing ones are dropped.
size_t run_primitive_count(VkPrimitiveTopology topology, size_t n) {
  auto from = [n](size_t first, size_t step) { return n >= first ? (n - first) / step + 1 : 0; };
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return n;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return n / 2;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return from(2, 1);
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: return n / 4;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: return from(4, 1);
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return n / 3;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: return from(3, 1);
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY: return n / 6;
    // 2 (n + 2) + k vertices make n triangles (k is 0 or 1; fewer than 6 vertices make none).
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: return from(6, 2);
    default: return 0;
  }
}

// Primitive i of a run of vertices v (i < run_primitive_count), with its PrimitiveId.
AssembledPrimitive run_primitive(VkPrimitiveTopology topology, bool provoking_last, const int64_t* v, size_t i,
                                 uint32_t primitive_id) {
  AssembledPrimitive p{};
  p.primitive_id = primitive_id;
  p.continues_strip = i > 0 && (topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ||
                                topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY);
  // `first`/`last`: which vertex is provoking in each provoking-vertex mode.
  auto make = [&](std::initializer_list<int64_t> ids, uint8_t first, uint8_t last) {
    uint32_t n = 0;
    for (int64_t id : ids) p.id[n++] = static_cast<int32_t>(id);
    p.vertex_count = static_cast<uint8_t>(n);
    p.provoking = provoking_last ? last : first;
  };
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: make({v[i]}, 0, 0); break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: make({v[2 * i], v[2 * i + 1]}, 0, 1); break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: make({v[i], v[i + 1]}, 0, 1); break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: make({v[4 * i + 1], v[4 * i + 2]}, 0, 1); break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: make({v[i + 1], v[i + 2]}, 0, 1); break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: make({v[3 * i], v[3 * i + 1], v[3 * i + 2]}, 0, 2); break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
      // Triangle i is {v_i, v_(i+1+i%2), v_(i+2-i%2)}: odd triangles swap their last two
      // vertices to keep the winding. Provoking: v_i (first) or v_(i+2) (last).
      if (i % 2 == 0) make({v[i], v[i + 1], v[i + 2]}, 0, 2);
      else make({v[i], v[i + 2], v[i + 1]}, 0, 1);
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
      // Triangle i is {v_(i+1), v_(i+2), v_0}; provoking v_(i+1) (first) or v_(i+2) (last).
      make({v[i + 1], v[i + 2], v[0]}, 0, 1);
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY: make({v[6 * i], v[6 * i + 2], v[6 * i + 4]}, 0, 2); break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: {
      // Main vertices are the even ones; triangle i uses v_2i, v_2i+2, v_2i+4 with the strip's
      // odd/even winding rule.
      const size_t a = 2 * i;
      if (i % 2 == 0) make({v[a], v[a + 2], v[a + 4]}, 0, 2);
      else make({v[a], v[a + 4], v[a + 2]}, 0, 1);
      break;
    }
    default: break;
  }
  return p;
}

// Primitive i of a run of vertices v (i < run_primitive_count(topology, n)) as a geometry shader
// reads it. Triangle strips keep the vertex order their triangles are drawn with (odd ones swap
// their last two vertices); a strip with adjacency lists each triangle's vertices in that order
// with the vertex adjacent to each edge after the edge's first vertex, the strip's first and last
// triangles taking their outer neighbours from the strip's ends (the spec's table for "only",
// "first", "middle" and "last" triangles, odd and even).
GeometryInput run_geometry_input(VkPrimitiveTopology topology, const int64_t* v, size_t n, size_t i,
                                 uint32_t primitive_id) {
  GeometryInput g{};
  g.primitive_id = primitive_id;
  auto take = [&](std::initializer_list<size_t> positions) {
    uint32_t k = 0;
    for (size_t at : positions) g.id[k++] = static_cast<int32_t>(v[at]);
  };
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: take({i}); break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: take({2 * i, 2 * i + 1}); break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: take({i, i + 1}); break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: take({4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3}); break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: take({i, i + 1, i + 2, i + 3}); break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: take({3 * i, 3 * i + 1, 3 * i + 2}); break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
      if (i % 2 == 0) take({i, i + 1, i + 2});
      else take({i, i + 2, i + 1});
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: take({i + 1, i + 2, 0}); break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
      take({6 * i, 6 * i + 1, 6 * i + 2, 6 * i + 3, 6 * i + 4, 6 * i + 5});
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: {
      const size_t a = 2 * i;
      const bool last = i + 1 == run_primitive_count(topology, n);
      const size_t before = i == 0 ? 1 : a - 2;  // across the edge shared with the previous triangle
      const size_t after = last ? a + 5 : a + 6;  // across the edge shared with the next one
      if (i % 2 == 0) take({a, before, a + 2, after, a + 4, a + 3});
      else take({a, a + 3, a + 4, after, a + 2, before});
      break;
    }
    default: break;
  }
  return g;
}

}  // namespace

uint32_t geometry_input_vertex_count(VkPrimitiveTopology topology) {
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: return 4;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: return 6;
    default: return assembled_vertex_count(topology);
  }
}

void assemble_geometry_inputs(VkPrimitiveTopology topology, const int64_t* ids, size_t count, GeometryInputList& out) {
  uint32_t next_id = 0;
  size_t start = 0;
  for (size_t i = 0; i <= count; ++i) {
    if (i == count || ids[i] == kRestartCut) {
      const size_t n = i - start;
      const size_t primitives = run_primitive_count(topology, n);
      for (size_t p = 0; p < primitives; ++p) out.push_back(run_geometry_input(topology, ids + start, n, p, next_id++));
      start = i + 1;
    }
  }
}

void assemble_primitives(VkPrimitiveTopology topology, bool provoking_last, const int64_t* ids, size_t count,
                         PrimitiveList& out) {
  uint32_t next_id = 0;  // PrimitiveId counts every primitive of the draw, across restarts
  size_t start = 0;
  for (size_t i = 0; i <= count; ++i) {
    if (i == count || ids[i] == kRestartCut) {
      const size_t primitives = run_primitive_count(topology, i - start);
      for (size_t p = 0; p < primitives; ++p) out.push_back(run_primitive(topology, provoking_last, ids + start, p, next_id++));
      start = i + 1;
    }
  }
}

size_t uncut_primitive_count(VkPrimitiveTopology topology, size_t count) { return run_primitive_count(topology, count); }

void assemble_uncut_range(VkPrimitiveTopology topology, bool provoking_last, const int64_t* ids, size_t begin,
                          size_t end, AssembledPrimitive* out) {
  for (size_t p = begin; p < end; ++p) out[p - begin] = run_primitive(topology, provoking_last, ids, p, uint32_t(p));
}

bool assembles_in_windows(VkPrimitiveTopology topology) {
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY: return true;
    default: return false;
  }
}

IdWindow uncut_id_window(VkPrimitiveTopology topology, size_t begin, size_t end) {
  if (begin >= end) return {0, 0};
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return {begin, end};
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return {2 * begin, 2 * end};
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return {begin, end + 1};
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: return {4 * begin, 4 * end};
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: return {begin, end + 3};
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return {3 * begin, 3 * end};
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP: return {begin, end + 2};
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY: return {6 * begin, 6 * end};
    default: return {0, 0};  // not assembled in windows
  }
}

void assemble_uncut_window(VkPrimitiveTopology topology, bool provoking_last, const int64_t* window, size_t begin,
                           size_t end, AssembledPrimitive* out) {
  // Primitive begin + j reads the window as primitive j reads a stream starting there (an even
  // begin keeps the strips' odd/even vertex order); only PrimitiveId differs.
  if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST) {  // the common case, without the per-primitive switch
    const uint8_t provoking = provoking_last ? 2 : 0;
    for (size_t j = 0; j < end - begin; ++j) {
      AssembledPrimitive& p = out[j];
      for (int v = 0; v < 3; ++v) p.id[v] = static_cast<int32_t>(window[3 * j + v]);
      p.vertex_count = 3;
      p.provoking = provoking;
      p.primitive_id = uint32_t(begin + j);
      p.continues_strip = false;  // `out` is uninitialized memory (UBSan: a bool load of garbage)
    }
    return;
  }
  for (size_t j = 0; j < end - begin; ++j)
    out[j] = run_primitive(topology, provoking_last, window, j, uint32_t(begin + j));
}

}  // namespace kiln::exec::gfx
