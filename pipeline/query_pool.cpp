#include "pipeline/query_pool.h"

#include <time.h>

#include <cstring>
#include <mutex>

namespace kiln::exec {

uint64_t device_timestamp_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

QueryPool::QueryPool(SyncHub& hub, VkQueryType type, uint32_t count)
    : hub_(hub), type_(type), count_(count), slots_(new Slot[count]) {}

void QueryPool::reset(uint32_t first, uint32_t count) {
  std::lock_guard lock(hub_.mutex);
  for (uint32_t i = first; i < first + count && i < count_; ++i) slots_[i] = Slot{};
}

void QueryPool::write(uint32_t query, uint64_t value) {
  std::lock_guard lock(hub_.mutex);
  if (query >= count_) return;
  slots_[query] = Slot{value, true};
  hub_.changed.notify_all();
}

VkDeviceSize query_result_size(VkQueryResultFlags flags) {
  const VkDeviceSize word = (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
  return (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? 2 * word : word;
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
  for (uint32_t i = 0; i < count && first + i < count_; ++i) {
    const Slot* slot = &slots_[first + i];
    if ((flags & VK_QUERY_RESULT_WAIT_BIT) && !slot->available) {
      while (!slot->available && !hub_.shutting_down) hub_.changed.wait(lock);
      if (!slot->available) return VK_ERROR_DEVICE_LOST;
    }
    uint8_t* out = data + i * stride;
    if (slot->available) {
      store_word(out, slot->value, is64);
    } else {
      result = VK_NOT_READY;
      // PARTIAL: a value between zero and the final one; nothing has been counted yet, so zero.
      if (flags & VK_QUERY_RESULT_PARTIAL_BIT) store_word(out, 0, is64);
    }
    if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) store_word(out + word, slot->available ? 1 : 0, is64);
  }
  return result;
}

}  // namespace kiln::exec
