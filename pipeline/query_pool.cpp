#include "pipeline/query_pool.h"

#include <time.h>

#include <cstring>
#include <mutex>
#include <vector>

#include "common/clock.h"

namespace kiln::exec {

uint64_t device_timestamp_ns() { return clock_ns(CLOCK_MONOTONIC); }

QueryPool::QueryPool(SyncHub& hub, VkQueryType type, uint32_t count, VkQueryPipelineStatisticFlags statistics)
    : hub_(hub),
      type_(type),
      count_(count),
      statistics_(type == VK_QUERY_TYPE_PIPELINE_STATISTICS ? statistics : 0),
      values_(type == VK_QUERY_TYPE_PIPELINE_STATISTICS          ? uint32_t(__builtin_popcount(statistics_))
              : type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT ? 2u  // primitives written, needed
                                                                    : 1u),
      results_(new uint64_t[size_t(count) * values_]()),
      available_(new bool[count]()) {}

VkDeviceSize QueryPool::result_size(VkQueryResultFlags flags) const {
  const VkDeviceSize word = (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
  return word * (values_ + ((flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? 1 : 0));
}

void QueryPool::reset(uint32_t first, uint32_t count) {
  std::lock_guard lock(hub_.mutex);
  for (uint32_t i = first; i < first + count && i < count_; ++i) {
    available_[i] = false;
    for (uint32_t v = 0; v < values_; ++v) results_[size_t(i) * values_ + v] = 0;
  }
}

void QueryPool::write(uint32_t query, const uint64_t* values) {
  std::lock_guard lock(hub_.mutex);
  if (query >= count_) return;
  memcpy(&results_[size_t(query) * values_], values, sizeof(uint64_t) * values_);
  available_[query] = true;
  hub_.changed.notify_all();
}

void QueryPool::write(uint32_t query, uint64_t value) {
  const std::vector<uint64_t> values(values_, value);
  write(query, values.data());
}

namespace {
void store_word(uint8_t* at, uint64_t value, bool is64) {
  if (is64) {
    memcpy(at, &value, 8);
  } else {
    // 32-bit results keep the low bits (the spec allows wrapping on overflow).
    const uint32_t v = static_cast<uint32_t>(value);
    memcpy(at, &v, 4);
  }
}
}  // namespace

VkResult QueryPool::get_results(uint32_t first, uint32_t count, uint8_t* data, VkDeviceSize stride,
                                VkQueryResultFlags flags) {
  const bool is64 = flags & VK_QUERY_RESULT_64_BIT;
  const size_t word = is64 ? 8 : 4;
  VkResult result = VK_SUCCESS;
  std::unique_lock lock(hub_.mutex);
  if (hub_.is_lost()) return VK_ERROR_DEVICE_LOST;
  for (uint32_t i = 0; i < count && first + i < count_; ++i) {
    const uint32_t q = first + i;
    if ((flags & VK_QUERY_RESULT_WAIT_BIT) && !available_[q]) {
      while (!available_[q] && !hub_.released()) hub_.changed.wait(lock);
      if (!available_[q]) return VK_ERROR_DEVICE_LOST;
    }
    uint8_t* out = data + i * stride;
    if (available_[q]) {
      for (uint32_t v = 0; v < values_; ++v) store_word(out + v * word, results_[size_t(q) * values_ + v], is64);
    } else {
      result = VK_NOT_READY;
      // PARTIAL: a value between zero and the final one. Results are written whole when the
      // query ends, so an unfinished query has nothing to report beyond zero.
      if (flags & VK_QUERY_RESULT_PARTIAL_BIT)
        for (uint32_t v = 0; v < values_; ++v) store_word(out + v * word, 0, is64);
    }
    if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) store_word(out + values_ * word, available_[q] ? 1 : 0, is64);
  }
  return result;
}

}  // namespace kiln::exec
