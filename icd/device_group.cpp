// The Vulkan 1.1 device-group commands for Kiln's only group shape: one physical device
// (vkEnumeratePhysicalDeviceGroups reports one group of one). Device index 0 is the only device,
// so device masks other than 1 are application errors (logged once, then treated as 1).
#include "common/log.h"
#include "kiln_entrypoints.h"

using namespace kiln;

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDeviceGroupPeerMemoryFeatures(VkDevice, uint32_t heapIndex,
                                                                            uint32_t localDeviceIndex,
                                                                            uint32_t remoteDeviceIndex,
                                                                            VkPeerMemoryFeatureFlags* pPeerMemoryFeatures) {
  // Local and remote must differ in a valid call, which one device cannot satisfy; answer as for
  // the device's own memory: every access works.
  if (localDeviceIndex != 0 || remoteDeviceIndex != 0)
    KILN_LOG_ONCE(LogLevel::Warn, "vkGetDeviceGroupPeerMemoryFeatures: device index %u/%u of a one-device group",
                  localDeviceIndex, remoteDeviceIndex);
  (void)heapIndex;
  *pPeerMemoryFeatures = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT | VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
                         VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDeviceMask(VkCommandBuffer, uint32_t deviceMask) {
  // Every command runs on device 0; a mask naming other devices is invalid usage.
  if (deviceMask != 1u)
    KILN_LOG_ONCE(LogLevel::Warn, "vkCmdSetDeviceMask: mask 0x%x names devices a one-device group lacks; device 0 runs the commands",
                  deviceMask);
}
