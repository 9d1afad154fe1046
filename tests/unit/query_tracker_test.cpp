// Queries over running counters (pipeline/query_tracker.h): overlapping queries of two pools each
// see only the work between their own begin and end, statistics come out in bit order, a
// multiview query writes its total into the first query and zeros into the others, and results
// follow vkGetQueryPoolResults' layout (pipeline/query_pool.h).
#include "pipeline/query_tracker.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace kiln::exec {
namespace {

std::vector<uint64_t> read(QueryPool& pool, uint32_t first, uint32_t count, VkQueryResultFlags extra = 0) {
  const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | extra;
  const size_t stride = pool.result_size(flags);
  std::vector<uint64_t> out(count * stride / 8, 0xEEEE);
  EXPECT_EQ(VK_SUCCESS, pool.get_results(first, count, reinterpret_cast<uint8_t*>(out.data()), stride, flags));
  return out;
}

TEST(QueryTracker, OverlappingQueriesSeeOnlyTheirOwnWork) {
  SyncHub hub;
  QueryPool occlusion(hub, VK_QUERY_TYPE_OCCLUSION, 2);
  QueryPool stats(hub, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1,
                  VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
                      VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT |
                      VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT);
  EXPECT_EQ(3u, stats.values_per_query());
  QueryTracker t;
  EXPECT_EQ(nullptr, t.draw_counters()) << "nothing counts while no query is active";
  t.begin(&occlusion, 0);
  t.draw_counters()->samples_passed += 10;
  t.begin(&stats, 0);
  t.draw_counters()->samples_passed += 5;
  t.draw_counters()->input_assembly_vertices += 6;
  t.draw_counters()->fragment_shader_invocations += 7;
  *t.compute_invocation_counter() += 64;
  t.begin(&occlusion, 1);
  t.draw_counters()->samples_passed += 1;
  t.end(&occlusion, 0, 1);
  t.end(&stats, 0, 1);
  t.draw_counters()->samples_passed += 100;
  t.end(&occlusion, 1, 1);
  EXPECT_EQ(nullptr, t.draw_counters());
  EXPECT_EQ((std::vector<uint64_t>{16, 101}), read(occlusion, 0, 2));
  EXPECT_EQ((std::vector<uint64_t>{6, 7, 64, 1}), read(stats, 0, 1, VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
}

TEST(QueryTracker, MultiviewQueryWritesTheTotalIntoItsFirstQuery) {
  SyncHub hub;
  QueryPool pool(hub, VK_QUERY_TYPE_OCCLUSION, 4);
  QueryTracker t;
  t.begin(&pool, 1);
  t.draw_counters()->samples_passed += 42;
  t.end(&pool, 1, 3);
  EXPECT_EQ((std::vector<uint64_t>{0xEEEE, 0, 42, 1, 0, 1, 0, 1}),
            [&] {
              std::vector<uint64_t> out(8, 0xEEEE);
              pool.get_results(0, 4, reinterpret_cast<uint8_t*>(out.data()), 16,
                               VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
              return out;
            }())
      << "query 0 untouched and unavailable; 1 holds the total; 2 and 3 hold 0";
}

TEST(QueryTracker, EndWithoutBeginWritesZero) {
  SyncHub hub;
  QueryPool pool(hub, VK_QUERY_TYPE_OCCLUSION, 1);
  QueryTracker t;
  t.end(&pool, 0, 1);
  EXPECT_EQ((std::vector<uint64_t>{0, 1}), read(pool, 0, 1, VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
}

}  // namespace
}  // namespace kiln::exec
