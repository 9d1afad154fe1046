// VK_EXT_debug_utils (icd/debug_utils.h): messengers, vkSubmitDebugUtilsMessageEXT, object names
// and tags, labels.
#include "icd/debug_utils.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "common/debug_printf.h"
#include "common/log.h"
#include "icd/command_buffer.h"
#include "icd/device.h"
#include "icd/instance.h"
#include "kiln_entrypoints.h"

namespace kiln {
namespace {

LogLevel log_level_of(VkDebugUtilsMessageSeverityFlagBitsEXT severity) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) return LogLevel::Error;
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return LogLevel::Warn;
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT) return LogLevel::Info;
  return LogLevel::Debug;
}

}  // namespace

void DebugMessengers::add(DebugMessenger* messenger) {
  std::lock_guard lock(mutex_);
  messengers_.push_back(messenger);
}

void DebugMessengers::remove(DebugMessenger* messenger) {
  std::lock_guard lock(mutex_);  // waits for deliveries in flight: none calls it after this returns
  messengers_.erase(std::remove(messengers_.begin(), messengers_.end(), messenger), messengers_.end());
}

void DebugMessengers::set_instance_messengers(std::vector<DebugMessenger> messengers) {
  std::lock_guard lock(mutex_);
  instance_messengers_ = std::move(messengers);
}

void DebugMessengers::set_creating_or_destroying(bool on) {
  std::lock_guard lock(mutex_);
  creating_or_destroying_ = on;
}

size_t DebugMessengers::deliver(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                                const VkDebugUtilsMessengerCallbackDataEXT& data) const {
  std::lock_guard lock(mutex_);
  size_t called = 0;
  auto call = [&](const DebugMessenger& m) {
    if (!m.callback || !m.wants(severity, types)) return;
    m.callback(severity, types, &data, m.user_data);  // the return value only matters to layers
    ++called;
  };
  if (creating_or_destroying_)
    for (const DebugMessenger& m : instance_messengers_) call(m);
  for (const DebugMessenger* m : messengers_) call(*m);
  return called;
}

bool DebugMessengers::deliver_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                      VkDebugUtilsMessageTypeFlagsEXT types, const char* message_id_name,
                                      const std::string& text) const {
  log(log_level_of(severity), "[%s] %s", message_id_name, text.c_str());
  VkDebugUtilsMessengerCallbackDataEXT data{.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
  data.pMessageIdName = message_id_name;
  data.pMessage = text.c_str();
  return deliver(severity, types, data) != 0;
}

std::string DebugMessengers::object_name(const void* object) const {
  return kiln::object_name(reinterpret_cast<uint64_t>(object));
}

void DebugMessengers::report(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                             const char* message_id_name, std::string_view message) const {
  deliver_message(severity, types, message_id_name, std::string(message));
}

bool DebugMessengers::report_or_print(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                      VkDebugUtilsMessageTypeFlagsEXT types, const char* message_id_name,
                                      std::string_view message) const {
  std::string text(message);
  if (deliver_message(severity, types, message_id_name, text)) return true;
  // One write per line, under the lock, so lines of concurrent reports do not interleave.
  std::lock_guard lock(mutex_);
  text += '\n';
  fwrite(text.data(), 1, text.size(), stdout);
  fflush(stdout);
  return false;
}

void report_debug_printf(const void* messengers, const abi::DebugPrintfCall* call) {
  const auto* self = static_cast<const DebugMessengers*>(messengers);
  for (uint32_t lanes = call->lanes; lanes; lanes &= lanes - 1) {
    const uint32_t lane = uint32_t(__builtin_ctz(lanes));
    self->report_or_print(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
                          "KILN-debug-printf", debug_printf_message(*call, lane));
  }
}

}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateDebugUtilsMessengerEXT(VkInstance instance,
                                                                            const VkDebugUtilsMessengerCreateInfoEXT* pCreateInfo,
                                                                            const VkAllocationCallbacks* pAllocator,
                                                                            VkDebugUtilsMessengerEXT* pMessenger) {
  Instance* self = from_handle<Instance>(instance);
  auto* messenger = create_object<DebugMessenger>(choose_allocator(pAllocator, self->allocator),
                                                  VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, DebugMessenger::from(*pCreateInfo));
  if (!messenger) return VK_ERROR_OUT_OF_HOST_MEMORY;
  self->debug_messengers.add(messenger);
  *pMessenger = to_handle<VkDebugUtilsMessengerEXT>(messenger);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyDebugUtilsMessengerEXT(VkInstance instance,
                                                                         VkDebugUtilsMessengerEXT handle,
                                                                         const VkAllocationCallbacks* pAllocator) {
  Instance* self = from_handle<Instance>(instance);
  auto* messenger = from_handle<DebugMessenger>(handle);
  if (!messenger) return;
  self->debug_messengers.remove(messenger);
  destroy_object(choose_allocator(pAllocator, self->allocator), messenger);
}

// Through the loader this is not called: the loader's terminator delivers application messages
// to its own copy of the messengers (so that several ICDs do not each repeat them). An
// application that reaches Kiln directly gets the same delivery from Kiln's list.
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_SubmitDebugUtilsMessageEXT(VkInstance instance,
                                                                     VkDebugUtilsMessageSeverityFlagBitsEXT messageSeverity,
                                                                     VkDebugUtilsMessageTypeFlagsEXT messageTypes,
                                                                     const VkDebugUtilsMessengerCallbackDataEXT* pCallbackData) {
  from_handle<Instance>(instance)->debug_messengers.deliver(messageSeverity, messageTypes, *pCallbackData);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_SetDebugUtilsObjectNameEXT(VkDevice, const VkDebugUtilsObjectNameInfoEXT* pNameInfo) {
  return set_object_name(pNameInfo->objectHandle, pNameInfo->pObjectName) ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
}

// Tags are for tools that know what they mean; Kiln has no use for them.
extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_SetDebugUtilsObjectTagEXT(VkDevice, const VkDebugUtilsObjectTagInfoEXT*) {
  return VK_SUCCESS;
}

// Labels are accepted and not kept yet: reports name objects, not the label regions they ran in.
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_QueueBeginDebugUtilsLabelEXT(VkQueue, const VkDebugUtilsLabelEXT*) {}
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_QueueEndDebugUtilsLabelEXT(VkQueue) {}
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_QueueInsertDebugUtilsLabelEXT(VkQueue, const VkDebugUtilsLabelEXT*) {}
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBeginDebugUtilsLabelEXT(VkCommandBuffer, const VkDebugUtilsLabelEXT*) {}
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdEndDebugUtilsLabelEXT(VkCommandBuffer) {}
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdInsertDebugUtilsLabelEXT(VkCommandBuffer, const VkDebugUtilsLabelEXT*) {}
