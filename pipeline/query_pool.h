#pragma once
// The engine side of a VkQueryPool: one slot per query holding its results and availability.
// Queue threads write slots when the writing command executes, so availability follows the
// queue's execution order; the host reads them (vkGetQueryPoolResults) or a queue copies them
// (vkCmdCopyQueryPoolResults). Availability changes are published through the device's SyncHub,
// so VK_QUERY_RESULT_WAIT_BIT is one condition-variable wait.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

#include "pipeline/sync.h"

namespace kiln::exec {

// Device time for timestamps: nanoseconds of CLOCK_MONOTONIC (timestampPeriod 1, 64 valid bits).
uint64_t device_timestamp_ns();

// The core VkQueryPipelineStatisticFlagBits (bits 0..10) and VK_EXT_mesh_shader's task and mesh
// invocations (bits 11, 12); Kiln counts every one of them (stages it does not have count 0, as
// the spec says for absent stages).
constexpr uint32_t kPipelineStatisticCount = 13;
constexpr VkQueryPipelineStatisticFlags kSupportedPipelineStatistics = (1u << kPipelineStatisticCount) - 1;

class QueryPool {
 public:
  // `statistics`: the enabled VkQueryPipelineStatisticFlags of a PIPELINE_STATISTICS pool.
  QueryPool(SyncHub& hub, VkQueryType type, uint32_t count, VkQueryPipelineStatisticFlags statistics = 0);
  VkQueryType type() const { return type_; }
  uint32_t count() const { return count_; }
  VkQueryPipelineStatisticFlags statistics() const { return statistics_; }
  // Values one query produces: one per enabled statistic (in bit order), two for a transform
  // feedback stream query (primitives written, needed), otherwise one.
  uint32_t values_per_query() const { return values_; }
  // Bytes one query's results take for `flags` (its values + optional availability word).
  VkDeviceSize result_size(VkQueryResultFlags flags) const;

  // Makes queries [first, first+count) unavailable with no result (vkResetQueryPool and
  // vkCmdResetQueryPool); out-of-range parts are clamped by the caller.
  void reset(uint32_t first, uint32_t count);
  // Stores a query's final results (values_per_query() of them) and makes it available.
  void write(uint32_t query, const uint64_t* values);
  // Every value of the query = `value` (timestamps, occlusion; 0 for a multiview query's extra queries).
  void write(uint32_t query, uint64_t value);

  // Writes results as vkGetQueryPoolResults defines them, `stride` bytes apart, each
  // values_per_query() values plus availability when asked. VK_NOT_READY when a query was
  // unavailable and WAIT was not set; VK_ERROR_DEVICE_LOST on a lost device (and when the device
  // shuts down during a WAIT).
  VkResult get_results(uint32_t first, uint32_t count, uint8_t* data, VkDeviceSize stride,
                       VkQueryResultFlags flags);

 private:
  SyncHub& hub_;
  VkQueryType type_;
  uint32_t count_;
  VkQueryPipelineStatisticFlags statistics_;
  uint32_t values_;
  // Guarded by hub_.mutex: values_ results per query, and availability.
  std::unique_ptr<uint64_t[]> results_;
  std::unique_ptr<bool[]> available_;
};

}  // namespace kiln::exec
