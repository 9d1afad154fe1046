#pragma once
// A VK_EXT_debug_utils messenger that keeps what it hears, for the tests of Kiln's own reports
// (debug_utils_test.cpp, debug_printf_test.cpp).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace kiln::test {

struct DebugMessage {
  VkDebugUtilsMessageSeverityFlagBitsEXT severity;
  VkDebugUtilsMessageTypeFlagsEXT types;
  std::string id;  // pMessageIdName
  std::string text;
};

class MessageLog {
 public:
  // A create info whose callback appends to this log (chain it, or pass it to create()).
  VkDebugUtilsMessengerCreateInfoEXT info(VkDebugUtilsMessageSeverityFlagsEXT severities,
                                          VkDebugUtilsMessageTypeFlagsEXT types);
  // A messenger of `instance` with these filters; destroy() (or the destructor) removes it.
  void create(VkInstance instance, VkDebugUtilsMessageSeverityFlagsEXT severities,
              VkDebugUtilsMessageTypeFlagsEXT types);
  void destroy();
  ~MessageLog() { destroy(); }

  std::vector<DebugMessage> messages() const;
  // Messages whose id starts with `prefix`.
  std::vector<DebugMessage> with_id(const std::string& prefix) const;
  void clear();

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data);
  mutable std::mutex mutex_;
  std::vector<DebugMessage> messages_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

}  // namespace kiln::test
