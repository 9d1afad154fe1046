#pragma once
// Messages from the driver to the application: the VK_EXT_debug_utils messengers of the instance
// (icd/debug_utils.cpp implements this) and Kiln's log. Strict mode's hazard reports and
// debugPrintfEXT output go through it; the execution engine sees only this interface, not icd types.
#include <vulkan/vulkan.h>

#include <string>
#include <string_view>

namespace kiln {

class DebugReporter {
 public:
  virtual ~DebugReporter() = default;
  // Thread-safe: called from queue and worker threads. `message_id_name` is a stable name such as
  // "KILN-strict-read-after-write" that tests and users can filter on.
  virtual void report(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                      const char* message_id_name, std::string_view message) const = 0;
  // The name the application gave the object with `object` as its handle
  // (vkSetDebugUtilsObjectNameEXT), or "".
  virtual std::string object_name(const void* object) const = 0;
};

}  // namespace kiln
