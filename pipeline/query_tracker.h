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

  // `index`: the vertex stream of a transform feedback stream or primitives-generated query.
  void begin(QueryPool* pool, uint32_t query, uint32_t index = 0);
  // Writes the query's results. A query inside a multiview render pass uses `view_count`
  // consecutive queries: the first gets the total, the others zero (the spec allows this split).
  void end(QueryPool* pool, uint32_t query, uint32_t view_count);

 private:
  // Index: VkQueryPipelineStatisticFlagBits bit number; kSamplesPassed: occlusion; then per vertex
  // stream the primitives generated, transform feedback's primitives written and needed.
  static constexpr uint32_t kSamplesPassed = kPipelineStatisticCount;
  static constexpr uint32_t kGenerated = kSamplesPassed + 1;
  static constexpr uint32_t kXfbWritten = kGenerated + abi::kMaxVertexStreams;
  static constexpr uint32_t kXfbNeeded = kXfbWritten + abi::kMaxVertexStreams;
  static constexpr uint32_t kMeshPrimitives = kXfbNeeded + abi::kMaxVertexStreams;  // MESH_PRIMITIVES_GENERATED
  struct Values {
    uint64_t v[kMeshPrimitives + 1] = {};
  };
  struct Active {
    QueryPool* pool;
    uint32_t query;
    uint32_t index;
    Values start;
  };
  Values read() const;

  DrawCounters draw_;
  std::atomic<uint64_t> compute_invocations_{0};
  std::vector<Active> active_;
};

}  // namespace kiln::exec
