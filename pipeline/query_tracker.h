#pragma once
// Occlusion and pipeline-statistics queries during one execution of a primary command list
// (secondaries are inlined and share it: a query active across vkCmdExecuteCommands counts their
// work too, which is what inheritedQueries asks). Work adds to running counters; a query keeps the
// counters' values at its begin and writes the differences at its end, so several queries (of
// different pools, or nested ones) can be active at once without resetting anything.
#include <atomic>
#include <cstdint>
#include <vector>

#include "pipeline/draw.h"
#include "pipeline/query_pool.h"

namespace kiln::exec {

class QueryTracker {
 public:
  // Counters for a draw / a dispatch; null while no query is active (nothing needs counting).
  DrawCounters* draw_counters() { return active_.empty() ? nullptr : &draw_; }
  std::atomic<uint64_t>* compute_invocation_counter() { return active_.empty() ? nullptr : &compute_invocations_; }

  void begin(QueryPool* pool, uint32_t query);
  // Writes the query's results. A query inside a multiview render pass uses `view_count`
  // consecutive queries: the first gets the total, the others zero (the spec allows this split).
  void end(QueryPool* pool, uint32_t query, uint32_t view_count);

 private:
  // Index: VkQueryPipelineStatisticFlagBits bit number; kSamplesPassed: occlusion.
  static constexpr uint32_t kSamplesPassed = kPipelineStatisticCount;
  struct Values {
    uint64_t v[kPipelineStatisticCount + 1] = {};
  };
  struct Active {
    QueryPool* pool;
    uint32_t query;
    Values start;
  };
  Values read() const;

  DrawCounters draw_;
  std::atomic<uint64_t> compute_invocations_{0};
  std::vector<Active> active_;
};

}  // namespace kiln::exec
