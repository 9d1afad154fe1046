#pragma once
// The engine side of a VkQueryPool: one slot per query holding its result and availability.
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

class QueryPool {
 public:
  QueryPool(SyncHub& hub, VkQueryType type, uint32_t count);
  VkQueryType type() const { return type_; }
  uint32_t count() const { return count_; }

  // Makes queries [first, first+count) unavailable with no result (vkResetQueryPool and
  // vkCmdResetQueryPool); out-of-range parts are clamped by the caller.
  void reset(uint32_t first, uint32_t count);
  // Stores a query's final result and makes it available.
  void write(uint32_t query, uint64_t value);

  // Writes results as vkGetQueryPoolResults defines them, `stride` bytes apart, each one value
  // (the pool types Kiln supports have one) plus availability when asked. VK_NOT_READY when a
  // query was unavailable and WAIT was not set; with WAIT, VK_ERROR_DEVICE_LOST if the device
  // shuts down first.
  VkResult get_results(uint32_t first, uint32_t count, uint8_t* data, VkDeviceSize stride,
                       VkQueryResultFlags flags);

 private:
  struct Slot {
    uint64_t value = 0;
    bool available = false;
  };
  SyncHub& hub_;
  VkQueryType type_;
  uint32_t count_;
  std::unique_ptr<Slot[]> slots_;  // guarded by hub_.mutex
};

// Bytes one query's results take for `flags` (value + optional availability word).
VkDeviceSize query_result_size(VkQueryResultFlags flags);

}  // namespace kiln::exec
