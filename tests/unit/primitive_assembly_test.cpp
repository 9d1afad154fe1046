// Primitive assembly in parallel pieces (pipeline/graphics/primitive_assembly.*): for id streams
// without restart cuts, any split into ranges (and, for the topologies that allow it, into windows
// of just the ids each range reads) must give exactly the primitives, vertex order, provoking
// vertex and PrimitiveId of the serial assembler, for every topology and length.
#include <gtest/gtest.h>

#include <vector>

#include "pipeline/graphics/primitive_assembly.h"

namespace kiln::exec::gfx {
namespace {

TEST(PrimitiveAssembly, PiecesMatchTheSerialAssemblerForEveryTopology) {
  const VkPrimitiveTopology topologies[] = {
      VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
      VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
      VK_PRIMITIVE_TOPOLOGY_LINE_STRIP,
      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN,
      VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY,
      VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY,
      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY,
      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY,
  };
  for (VkPrimitiveTopology topology : topologies)
    for (bool provoking_last : {false, true})
      for (size_t n : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 12u, 13u, 31u, 100u}) {
        VertexIds ids(n);
        for (size_t i = 0; i < n; ++i) ids[i] = int64_t(1000 + 7 * i);  // distinct, order-revealing
        PrimitiveList serial;
        assemble_primitives(topology, provoking_last, ids.data(), n, serial);
        const size_t count = uncut_primitive_count(topology, n);
        ASSERT_EQ(count, serial.size()) << "topology " << topology << ", " << n << " ids";
        auto expect_serial = [&](const PrimitiveList& got, const char* how, size_t piece) {
          for (size_t p = 0; p < count; ++p) {
            const AssembledPrimitive& a = serial[p];
            const AssembledPrimitive& b = got[p];
            ASSERT_EQ(a.vertex_count, b.vertex_count) << how << piece << " topology " << topology << " primitive " << p;
            ASSERT_EQ(a.provoking, b.provoking) << how << piece << " topology " << topology << " primitive " << p;
            ASSERT_EQ(a.primitive_id, b.primitive_id);
            ASSERT_EQ(b.primitive_id, p);
            for (uint32_t v = 0; v < a.vertex_count; ++v) ASSERT_EQ(a.id[v], b.id[v]) << how << piece << " primitive " << p;
          }
        };
        for (size_t piece : {size_t{1}, size_t{3}, size_t{64}}) {
          PrimitiveList pieces(count);
          for (size_t begin = 0; begin < count; begin += piece)
            assemble_uncut_range(topology, provoking_last, ids.data(), begin, std::min(count, begin + piece),
                                 pieces.data() + begin);
          expect_serial(pieces, "pieces of ", piece);
        }
        // Windows: each even-sized piece from a copy of only the ids it reads.
        if (!assembles_in_windows(topology)) continue;
        for (size_t piece : {size_t{2}, size_t{4}, size_t{64}}) {
          PrimitiveList windows(count);
          for (size_t begin = 0; begin < count; begin += piece) {
            const size_t end = std::min(count, begin + piece);
            const IdWindow w = uncut_id_window(topology, begin, end);
            ASSERT_LE(w.last, n) << "topology " << topology;
            const std::vector<int64_t> window(ids.begin() + w.first, ids.begin() + w.last);
            assemble_uncut_window(topology, provoking_last, window.data(), begin, end, windows.data() + begin);
          }
          expect_serial(windows, "windows of ", piece);
        }
      }
}

// Restart cuts start a new strip; PrimitiveId keeps counting across them.
TEST(PrimitiveAssembly, RestartCutsSplitStripsAndPrimitiveIdsKeepCounting) {
  const int64_t ids[] = {0, 1, 2, 3, INT64_MIN, 10, 11, 12};
  PrimitiveList out;
  assemble_primitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, false, ids, 8, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].id[0], 0);
  EXPECT_EQ(out[1].id[0], 1);
  EXPECT_EQ(out[1].id[1], 3);  // odd triangle: last two swapped
  EXPECT_EQ(out[1].id[2], 2);
  EXPECT_EQ(out[2].id[0], 10);
  EXPECT_EQ(out[2].id[2], 12);
  EXPECT_EQ(out[2].primitive_id, 2u);
}

}  // namespace
}  // namespace kiln::exec::gfx
