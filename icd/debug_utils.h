#pragma once
// VK_EXT_debug_utils in the ICD (docs/design/debug-output.md): the instance's messengers, which
// are also the DebugReporter (common/debug_report.h) through which the engine reports to the
// application — strict mode's hazards and debugPrintfEXT.
//
// The loader implements messengers too (its own list, fed by layers and by
// vkSubmitDebugUtilsMessageEXT), and it also calls the ICD's vkCreateDebugUtilsMessengerEXT when
// the ICD has one: then Kiln calls the application's callback itself for what Kiln reports.
#include <vulkan/vulkan.h>

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "common/debug_report.h"

namespace kiln {

// VkDebugUtilsMessengerEXT: what the application asked for.
struct DebugMessenger {
  VkDebugUtilsMessageSeverityFlagsEXT severities = 0;
  VkDebugUtilsMessageTypeFlagsEXT types = 0;
  PFN_vkDebugUtilsMessengerCallbackEXT callback = nullptr;
  void* user_data = nullptr;

  static DebugMessenger from(const VkDebugUtilsMessengerCreateInfoEXT& info) {
    return {info.messageSeverity, info.messageType, info.pfnUserCallback, info.pUserData};
  }
  bool wants(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT message_types) const {
    return (severities & severity) && (types & message_types);
  }
};

// The messengers of one instance. Reports come from any thread (application threads, queue
// threads, workers); a callback is never called after vkDestroyDebugUtilsMessengerEXT of its
// messenger has returned, because deliveries and changes of the list hold one mutex (recursive:
// a callback may call Kiln, which may report again on the same thread).
class DebugMessengers final : public DebugReporter {
 public:
  void add(DebugMessenger* messenger);
  void remove(DebugMessenger* messenger);
  // The VkDebugUtilsMessengerCreateInfoEXT structs chained to VkInstanceCreateInfo: they hear
  // only what is reported during vkCreateInstance and vkDestroyInstance (set_creating_or_destroying).
  void set_instance_messengers(std::vector<DebugMessenger> messengers);
  void set_creating_or_destroying(bool on);

  // Calls every messenger whose filters match; returns how many were called.
  size_t deliver(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                 const VkDebugUtilsMessengerCallbackDataEXT& data) const;
  // The messengers, and one line of Kiln's log at the matching level.
  void report(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
              const char* message_id_name, std::string_view message) const override;
  std::string object_name(const void* object) const override;
  // As report(); a message no messenger takes goes to stdout instead (debugPrintfEXT output
  // works without a messenger). Returns whether a messenger took it.
  bool report_or_print(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                       const char* message_id_name, std::string_view message) const;

 private:
  bool deliver_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                       const char* message_id_name, const std::string& text) const;

  mutable std::recursive_mutex mutex_;
  std::vector<DebugMessenger*> messengers_;
  std::vector<DebugMessenger> instance_messengers_;
  bool creating_or_destroying_ = false;
};

// abi::ResourceContext::debug_printf of every pipeline bound on a device (context: the device's
// instance's DebugMessengers): one INFO / GENERAL "KILN-debug-printf" message per printing lane,
// in ascending lane order, to the messengers, or to stdout when no messenger takes it.
void report_debug_printf(const void* messengers, const abi::DebugPrintfCall* call);

}  // namespace kiln
