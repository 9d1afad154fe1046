#include "pipeline/query_tracker.h"

#include <algorithm>

#include "common/log.h"

namespace kiln::exec {

QueryTracker::Values QueryTracker::read() const {
  auto get = [](const std::atomic<uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  Values r;
  r.v[0] = get(draw_.input_assembly_vertices);
  r.v[1] = get(draw_.input_assembly_primitives);
  r.v[2] = get(draw_.vertex_shader_invocations);
  r.v[3] = get(draw_.geometry_shader_invocations);
  r.v[4] = get(draw_.geometry_shader_primitives);
  r.v[5] = get(draw_.clipping_invocations);
  r.v[6] = get(draw_.clipping_primitives);
  r.v[7] = get(draw_.fragment_shader_invocations);
  r.v[8] = get(draw_.tessellation_control_patches);
  r.v[9] = get(draw_.tessellation_evaluation_invocations);
  r.v[10] = get(compute_invocations_);
  r.v[11] = get(draw_.task_shader_invocations);
  r.v[12] = get(draw_.mesh_shader_invocations);
  r.v[kMeshPrimitives] = get(draw_.mesh_primitives_generated);
  r.v[kSamplesPassed] = get(draw_.samples_passed);
  for (uint32_t s = 0; s < abi::kMaxVertexStreams; ++s) {
    r.v[kGenerated + s] = get(draw_.primitives_generated[s]);
    r.v[kXfbWritten + s] = get(draw_.xfb_written[s]);
    r.v[kXfbNeeded + s] = get(draw_.xfb_needed[s]);
  }
  return r;
}

void QueryTracker::begin(QueryPool* pool, uint32_t query, uint32_t index) {
  // Work counted before this point finished on this thread (commands run in order), so the
  // snapshot is exact. Beginning an active query again is invalid; the new begin wins.
  active_.erase(std::remove_if(active_.begin(), active_.end(),
                               [&](const Active& a) { return a.pool == pool && a.query == query; }),
                active_.end());
  active_.push_back({pool, query, index, read()});
}

void QueryTracker::end(QueryPool* pool, uint32_t query, uint32_t view_count) {
  auto it = std::find_if(active_.begin(), active_.end(), [&](const Active& a) { return a.pool == pool && a.query == query; });
  uint64_t results[kPipelineStatisticCount] = {};
  if (it == active_.end()) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdEndQuery: query %u was not begun in this command buffer; it reads 0", query);
  } else {
    const Values now = read();
    auto since_begin = [&](uint32_t value) { return now.v[value] - it->start.v[value]; };
    if (pool->type() == VK_QUERY_TYPE_OCCLUSION) {
      results[0] = since_begin(kSamplesPassed);
    } else if (pool->type() == VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT) {
      results[0] = since_begin(kMeshPrimitives);
    } else if (pool->type() == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT) {
      results[0] = since_begin(kGenerated + it->index);
    } else if (pool->type() == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
      results[0] = since_begin(kXfbWritten + it->index);
      results[1] = since_begin(kXfbNeeded + it->index);
    } else {
      // One value per enabled statistic, in increasing bit order.
      uint32_t n = 0;
      for (uint32_t bit = 0; bit < kPipelineStatisticCount; ++bit)
        if (pool->statistics() & (1u << bit)) results[n++] = now.v[bit] - it->start.v[bit];
    }
    active_.erase(it);
  }
  pool->write(query, results);
  for (uint32_t view = 1; view < view_count && query + view < pool->count(); ++view) pool->write(query + view, uint64_t{0});
}

}  // namespace kiln::exec
