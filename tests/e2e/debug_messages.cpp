#include "e2e/debug_messages.h"

#include <stdexcept>

namespace kiln::test {

VkDebugUtilsMessengerCreateInfoEXT MessageLog::info(VkDebugUtilsMessageSeverityFlagsEXT severities,
                                                    VkDebugUtilsMessageTypeFlagsEXT types) {
  VkDebugUtilsMessengerCreateInfoEXT info{.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  info.messageSeverity = severities;
  info.messageType = types;
  info.pfnUserCallback = &MessageLog::on_message;
  info.pUserData = this;
  return info;
}

void MessageLog::create(VkInstance instance, VkDebugUtilsMessageSeverityFlagsEXT severities,
                        VkDebugUtilsMessageTypeFlagsEXT types) {
  auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  if (!create_messenger) throw std::runtime_error("vkCreateDebugUtilsMessengerEXT is missing");
  const VkDebugUtilsMessengerCreateInfoEXT create_info = info(severities, types);
  if (create_messenger(instance, &create_info, nullptr, &messenger_) != VK_SUCCESS)
    throw std::runtime_error("vkCreateDebugUtilsMessengerEXT failed");
  instance_ = instance;
}

void MessageLog::destroy() {
  if (messenger_ == VK_NULL_HANDLE) return;
  auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
  destroy_messenger(instance_, messenger_, nullptr);
  messenger_ = VK_NULL_HANDLE;
}

std::vector<DebugMessage> MessageLog::messages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

std::vector<DebugMessage> MessageLog::with_id(const std::string& prefix) const {
  std::vector<DebugMessage> out;
  for (DebugMessage& m : messages())
    if (m.id.compare(0, prefix.size(), prefix) == 0) out.push_back(std::move(m));
  return out;
}

void MessageLog::clear() {
  std::lock_guard lock(mutex_);
  messages_.clear();
}

VKAPI_ATTR VkBool32 VKAPI_CALL MessageLog::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                      VkDebugUtilsMessageTypeFlagsEXT types,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data) {
  auto* self = static_cast<MessageLog*>(user_data);
  std::lock_guard lock(self->mutex_);
  self->messages_.push_back({severity, types, data->pMessageIdName ? data->pMessageIdName : "",
                             data->pMessage ? data->pMessage : ""});
  return VK_FALSE;
}

}  // namespace kiln::test
