// The loader interface (vk_icd* exports) and GetInstanceProcAddr / GetDeviceProcAddr, answered
// from the table generated from vk.xml.
#include <cstring>

#include "icd/device.h"
#include "icd/entrypoint_table.h"
#include "icd/extensions.h"
#include "icd/instance.h"
#include "kiln_entrypoints.h"

namespace kiln {

const EntrypointInfo* find_entrypoint(const char* name) {
  // The generated table is sorted by name.
  size_t lo = 0, hi = kEntrypointCount;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(kEntrypoints[mid].name, name);
    if (c == 0) return &kEntrypoints[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return nullptr;
}

namespace {

// Whether a command is available: in core at `api_version`, or from an extension that `enabled` accepts.
template <typename Enabled>
bool available(const EntrypointInfo& e, uint32_t api_version, Enabled enabled) {
  if (!e.function) return false;
  if (e.core_version && VK_API_VERSION_MINOR(e.core_version) <= VK_API_VERSION_MINOR(api_version)) return true;
  for (const char* ext : e.extensions)
    if (ext && enabled(ext)) return true;
  return false;
}

PFN_vkVoidFunction instance_proc_addr(Instance* instance, const char* name) {
  const EntrypointInfo* e = find_entrypoint(name);
  if (!e) return nullptr;
  if (!instance) {
    // Without an instance only the global commands exist.
    return e->level == EntrypointLevel::Global ? e->function : nullptr;
  }
  // Instance-level lookups may return any command Kiln implements; the loader builds its
  // trampolines from them. Extension commands need the extension to exist in Kiln.
  return available(*e, VK_API_VERSION_1_3, [](const char* ext) {
           return is_supported_extension(supported_instance_extensions(), ext) ||
                  is_supported_extension(supported_device_extensions(), ext);
         })
             ? e->function
             : nullptr;
}

}  // namespace
}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL kiln_GetInstanceProcAddr(VkInstance instance, const char* pName) {
  return instance_proc_addr(from_handle<Instance>(instance), pName);
}

extern "C" VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL kiln_GetDeviceProcAddr(VkDevice handle, const char* pName) {
  Device* device = device_of(handle);
  const EntrypointInfo* e = find_entrypoint(pName);
  // Only device-level commands, in core at the device's version or from an enabled extension.
  if (!e || e->level != EntrypointLevel::Device) return nullptr;
  return available(*e, device->api_version, [&](const char* ext) { return device->extension_enabled(ext); })
             ? e->function
             : nullptr;
}

#define KILN_EXPORT extern "C" __attribute__((visibility("default")))

KILN_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* pSupportedVersion) {
  // Version 5: the loader may create instances of any apiVersion; physical-device-level
  // commands are found through vk_icdGetPhysicalDeviceProcAddr.
  constexpr uint32_t kKilnInterfaceVersion = 5;
  if (*pSupportedVersion > kKilnInterfaceVersion) *pSupportedVersion = kKilnInterfaceVersion;
  return *pSupportedVersion < 3 ? VK_ERROR_INCOMPATIBLE_DRIVER : VK_SUCCESS;
}

KILN_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance, const char* pName) {
  return kiln_GetInstanceProcAddr(instance, pName);
}

KILN_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance, const char* pName) {
  const EntrypointInfo* e = find_entrypoint(pName);
  if (!e || e->level != EntrypointLevel::PhysicalDevice) return nullptr;
  return e->function;
}
