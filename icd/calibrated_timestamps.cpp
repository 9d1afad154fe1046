// VK_EXT_calibrated_timestamps. Kiln's device timestamps are CLOCK_MONOTONIC nanoseconds
// (pipeline/query_pool.h), so the device domain and CLOCK_MONOTONIC are one clock; CLOCK_MONOTONIC_RAW
// is offered too, as the extension suggests for Linux.
#include <vulkan/vulkan.h>

#include <algorithm>

#include "common/clock.h"
#include "common/log.h"
#include "pipeline/query_pool.h"

namespace kiln {
namespace {

constexpr VkTimeDomainEXT kTimeDomains[] = {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT,
                                            VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT};

}  // namespace
}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceCalibrateableTimeDomainsEXT(VkPhysicalDevice,
                                                                                         uint32_t* pTimeDomainCount,
                                                                                         VkTimeDomainEXT* pTimeDomains) {
  constexpr uint32_t available = uint32_t(std::size(kTimeDomains));
  if (!pTimeDomains) {
    *pTimeDomainCount = available;
    return VK_SUCCESS;
  }
  const uint32_t n = std::min(*pTimeDomainCount, available);
  std::copy_n(kTimeDomains, n, pTimeDomains);
  *pTimeDomainCount = n;
  return n < available ? VK_INCOMPLETE : VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetCalibratedTimestampsEXT(VkDevice, uint32_t timestampCount,
                                                                          const VkCalibratedTimestampInfoEXT* pTimestampInfos,
                                                                          uint64_t* pTimestamps, uint64_t* pMaxDeviation) {
  // The readings are taken one after another; how far apart they can be is the time the loop took
  // (all three clocks tick in nanoseconds at the same rate).
  const uint64_t start = clock_ns(CLOCK_MONOTONIC_RAW);
  for (uint32_t i = 0; i < timestampCount; ++i) {
    switch (pTimestampInfos[i].timeDomain) {
      case VK_TIME_DOMAIN_DEVICE_EXT: pTimestamps[i] = exec::device_timestamp_ns(); break;
      case VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT: pTimestamps[i] = clock_ns(CLOCK_MONOTONIC); break;
      case VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT: pTimestamps[i] = clock_ns(CLOCK_MONOTONIC_RAW); break;
      default:
        KILN_LOG_ONCE(LogLevel::Error, "vkGetCalibratedTimestampsEXT: time domain %d is not one Kiln offers; 0 returned",
                      int(pTimestampInfos[i].timeDomain));
        pTimestamps[i] = 0;
        break;
    }
  }
  *pMaxDeviation = clock_ns(CLOCK_MONOTONIC_RAW) - start + 1;
  return VK_SUCCESS;
}
