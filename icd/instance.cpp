// vkCreateInstance and the global commands.
#include "icd/instance.h"

#include <string>
#include <vector>

#include "common/log.h"
#include "icd/extensions.h"
#include "kiln_entrypoints.h"

namespace kiln {
namespace {
// The highest Vulkan version Kiln's entry points and loader interface are written for.
constexpr uint32_t kKilnApiVersion = VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION);
}  // namespace
}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_EnumerateInstanceVersion(uint32_t* pApiVersion) {
  *pApiVersion = kKilnApiVersion;
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_EnumerateInstanceExtensionProperties(
    const char* pLayerName, uint32_t* pPropertyCount, VkExtensionProperties* pProperties) {
  if (pLayerName) return VK_ERROR_LAYER_NOT_PRESENT;
  return enumerate_extensions(supported_instance_extensions(), pPropertyCount, pProperties);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_EnumerateInstanceLayerProperties(uint32_t* pPropertyCount,
                                                                                VkLayerProperties*) {
  *pPropertyCount = 0;  // drivers have no layers
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateInstance(const VkInstanceCreateInfo* pCreateInfo,
                                                              const VkAllocationCallbacks* pAllocator,
                                                              VkInstance* pInstance) {
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
    if (!is_supported_extension(supported_instance_extensions(), pCreateInfo->ppEnabledExtensionNames[i])) {
      log(LogLevel::Info, "vkCreateInstance: extension %s is not supported",
          pCreateInfo->ppEnabledExtensionNames[i]);
      return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
  }
  Instance* instance = create_object<Instance>(pAllocator, VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
  if (!instance) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (pAllocator) {
    instance->allocator_storage = *pAllocator;
    instance->allocator = &instance->allocator_storage;
  }
  const VkApplicationInfo* app = pCreateInfo->pApplicationInfo;
  instance->api_version = (app && app->apiVersion) ? app->apiVersion : VK_API_VERSION_1_0;
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i)
    instance->enabled_extensions.emplace_back(pCreateInfo->ppEnabledExtensionNames[i]);
  // Messengers chained to the create info hear what happens in vkCreateInstance and vkDestroyInstance.
  std::vector<DebugMessenger> chained;
  for (auto* s = static_cast<const VkBaseInStructure*>(pCreateInfo->pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT)
      chained.push_back(DebugMessenger::from(*reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT*>(s)));
  instance->debug_messengers.set_instance_messengers(std::move(chained));
  init_physical_device(&instance->physical_device, instance);
  instance->debug_messengers.set_creating_or_destroying(true);
  const std::string message = "instance created: Vulkan " + std::to_string(VK_API_VERSION_MAJOR(instance->api_version)) +
                              "." + std::to_string(VK_API_VERSION_MINOR(instance->api_version)) + " requested by " +
                              (app && app->pApplicationName ? app->pApplicationName : "an unnamed application") +
                              ", device " + instance->physical_device.properties.deviceName;
  instance->debug_messengers.report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT,
                                    VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "KILN-instance-created", message);
  instance->debug_messengers.set_creating_or_destroying(false);
  *pInstance = to_handle<VkInstance>(instance);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyInstance(VkInstance instance, const VkAllocationCallbacks* pAllocator) {
  Instance* self = from_handle<Instance>(instance);
  if (!self) return;
  self->debug_messengers.set_creating_or_destroying(true);
  self->debug_messengers.report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
                                "KILN-instance-destroyed", "instance destroyed");
  destroy_object(pAllocator, self);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_EnumeratePhysicalDevices(VkInstance instance, uint32_t* pCount,
                                                                        VkPhysicalDevice* pDevices) {
  Instance* self = from_handle<Instance>(instance);
  if (!pDevices) {
    *pCount = 1;
    return VK_SUCCESS;
  }
  if (*pCount == 0) return VK_INCOMPLETE;
  pDevices[0] = to_handle<VkPhysicalDevice>(&self->physical_device);
  *pCount = 1;
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_EnumeratePhysicalDeviceGroups(
    VkInstance instance, uint32_t* pCount, VkPhysicalDeviceGroupProperties* pGroups) {
  Instance* self = from_handle<Instance>(instance);
  if (!pGroups) {
    *pCount = 1;
    return VK_SUCCESS;
  }
  if (*pCount == 0) return VK_INCOMPLETE;
  pGroups[0].physicalDeviceCount = 1;
  pGroups[0].physicalDevices[0] = to_handle<VkPhysicalDevice>(&self->physical_device);
  pGroups[0].subsetAllocation = VK_FALSE;
  *pCount = 1;
  return VK_SUCCESS;
}
