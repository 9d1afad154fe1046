#include "tools/common/vulkan_context.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace kiln::tools {

VulkanError::VulkanError(VkResult result, const std::string& what)
    : std::runtime_error(what + " failed: " + result_name(result)), result(result) {}

void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) throw VulkanError(result, what);
}

const char* result_name(VkResult result) {
  switch (result) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    default: return "VkResult error";
  }
}

namespace {

bool extension_listed(const std::vector<VkExtensionProperties>& extensions, const char* name) {
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

bool instance_extension_available(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
  return extension_listed(extensions, name);
}

bool device_extension_available(VkPhysicalDevice physical_device, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data());
  return extension_listed(extensions, name);
}

}  // namespace

VulkanContext::VulkanContext(const char* application_name, Presentation presentation)
    : presentation_(presentation) {
  try {
    create_instance(application_name);
    pick_physical_device();
    create_device();
  } catch (...) {
    release();  // a throwing constructor runs no destructor
    throw;
  }
}

VulkanContext::~VulkanContext() { release(); }

void VulkanContext::release() {
  if (device_ != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device_);
    if (fence_ != VK_NULL_HANDLE) vkDestroyFence(device_, fence_, nullptr);
    if (command_pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, command_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    destroy(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
  }
  if (instance_ != VK_NULL_HANDLE) {
    vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
}

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanContext::on_debug_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data) {
  const bool is_error = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  const bool from_validation = types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  // Loader chatter (GENERAL warnings such as "env var VK_INSTANCE_LAYERS defined") is dropped;
  // only the validation layer's findings count as problems.
  if (!is_error && types == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT) return VK_FALSE;
  auto* context = static_cast<VulkanContext*>(user_data);
  const std::string id = data->pMessageIdName ? data->pMessageIdName : "";
  for (const std::string& tolerated : context->tolerated_messages_) {
    if (from_validation && id == tolerated) {
      ++context->tolerated_problems_;
      return VK_FALSE;
    }
  }
  std::fprintf(stderr, "[vulkan %s] %s\n", is_error ? "error" : "warning", data->pMessage);
  if (from_validation) ++context->validation_problems_;
  return VK_FALSE;
}

void VulkanContext::create_instance(const char* application_name) {
  uint32_t loader_version = VK_API_VERSION_1_0;
  vkEnumerateInstanceVersion(&loader_version);

  VkApplicationInfo application{};
  application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  application.pApplicationName = application_name;
  application.apiVersion = loader_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : loader_version;

  // The loader itself implements VK_EXT_debug_utils; enabling it lets a validation layer turned on
  // through the environment report to us, so the tools can fail on validation errors.
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
  messenger_info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &VulkanContext::on_debug_message;
  messenger_info.pUserData = this;
  const bool have_debug_utils = instance_extension_available(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  std::vector<const char*> extensions;
  if (have_debug_utils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (presentation_ == Presentation::Xcb) {
    for (const char* name : {VK_KHR_SURFACE_EXTENSION_NAME, "VK_KHR_xcb_surface"}) {
      if (!instance_extension_available(name)) {
        throw VulkanError(VK_ERROR_EXTENSION_NOT_PRESENT, std::string("finding instance extension ") + name);
      }
      extensions.push_back(name);
    }
  }

  VkInstanceCreateInfo create_info{};
  create_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  create_info.pApplicationInfo = &application;
  if (have_debug_utils) create_info.pNext = &messenger_info;  // also covers vkCreateInstance / vkDestroyInstance
  create_info.enabledExtensionCount = uint32_t(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();
  check(vkCreateInstance(&create_info, nullptr, &instance_), "vkCreateInstance");

  if (have_debug_utils) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    check(create(instance_, &messenger_info, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
  }
}

void VulkanContext::pick_physical_device() {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  if (count == 0) throw VulkanError(VK_ERROR_INITIALIZATION_FAILED, "finding a Vulkan device");
  std::vector<VkPhysicalDevice> devices(count);
  VkResult result = vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  if (result != VK_INCOMPLETE) check(result, "vkEnumeratePhysicalDevices");
  physical_device_ = devices[0];

  vkGetPhysicalDeviceProperties(physical_device_, &properties_);
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);
  if (properties_.apiVersion >= VK_API_VERSION_1_2) {
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDeviceProperties2 properties2{};
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties2.pNext = &driver;
    vkGetPhysicalDeviceProperties2(physical_device_, &properties2);
    driver_name_ = driver.driverName;
  }
}

void VulkanContext::create_device() {
  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, families.data());
  // Graphics and compute queues support transfer commands implicitly. A family that runs compute
  // work is preferred (kiln-bench's compute scenarios need it); the first one wins among equals.
  const VkQueueFlags transfer_capable =
      VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  std::optional<uint32_t> chosen;
  for (uint32_t i = 0; i < family_count; ++i) {
    const VkQueueFlags flags = families[i].queueFlags;
    if (families[i].queueCount == 0 || !(flags & transfer_capable)) continue;
    if (!chosen || ((flags & VK_QUEUE_COMPUTE_BIT) && !(families[*chosen].queueFlags & VK_QUEUE_COMPUTE_BIT))) {
      chosen = i;
    }
  }
  if (!chosen) throw VulkanError(VK_ERROR_FEATURE_NOT_PRESENT, "finding a transfer-capable queue");
  queue_family_ = *chosen;
  queue_flags_ = families[*chosen].queueFlags;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  // Optional features are enabled only when supported, so the device is created on any driver;
  // scenarios that need one report themselves unsupported without it.
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(physical_device_, &supported);
  enabled_features_ = {};
  enabled_features_.tessellationShader = supported.tessellationShader;
  enabled_features_.geometryShader = supported.geometryShader;
  enabled_features_.shaderFloat64 = supported.shaderFloat64;  // VkFFT's double-precision plans
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.pEnabledFeatures = &enabled_features_;
  // Optional device extensions follow the same rule: enabled when offered. Their feature
  // structures are chained onto device_info.pNext.
  std::vector<const char*> extensions;
  void* chain = nullptr;
  transform_feedback_enabled_ = transform_feedback_supported();
  VkPhysicalDeviceTransformFeedbackFeaturesEXT transform_feedback{};
  transform_feedback.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT;
  if (transform_feedback_enabled_) {
    transform_feedback.transformFeedback = VK_TRUE;
    transform_feedback.pNext = chain;
    chain = &transform_feedback;
    extensions.push_back(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
  }
  // Only meshShader and taskShader: VK_EXT_mesh_shader's other features (multiview, queries,
  // shading rate) stay off.
  const VkPhysicalDeviceMeshShaderFeaturesEXT mesh_supported = supported_mesh_shader_features();
  mesh_shader_enabled_ = mesh_supported.meshShader;
  task_shader_enabled_ = mesh_supported.meshShader && mesh_supported.taskShader;
  VkPhysicalDeviceMeshShaderFeaturesEXT mesh_shader{};
  mesh_shader.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
  if (mesh_shader_enabled_) {
    mesh_shader.meshShader = VK_TRUE;
    mesh_shader.taskShader = task_shader_enabled_;
    mesh_shader.pNext = chain;
    chain = &mesh_shader;
    extensions.push_back(VK_EXT_MESH_SHADER_EXTENSION_NAME);
  }
  if (presentation_ != Presentation::None) {
    if (!device_extension_available(physical_device_, VK_KHR_SWAPCHAIN_EXTENSION_NAME)) {
      throw VulkanError(VK_ERROR_EXTENSION_NOT_PRESENT, "finding device extension " VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    }
    extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  }
  device_info.pNext = chain;
  device_info.enabledExtensionCount = uint32_t(extensions.size());
  device_info.ppEnabledExtensionNames = extensions.data();
  check(vkCreateDevice(physical_device_, &device_info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.queueFamilyIndex = queue_family_;
  check(vkCreateCommandPool(device_, &pool_info, nullptr, &command_pool_), "vkCreateCommandPool");
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  check(vkCreateFence(device_, &fence_info, nullptr, &fence_), "vkCreateFence");
}

bool VulkanContext::transform_feedback_supported() const {
  // The feature query needs vkGetPhysicalDeviceFeatures2 (Vulkan 1.1).
  if (properties_.apiVersion < VK_API_VERSION_1_1) return false;
  if (!device_extension_available(physical_device_, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME)) return false;
  VkPhysicalDeviceTransformFeedbackFeaturesEXT transform_feedback{};
  transform_feedback.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &transform_feedback;
  vkGetPhysicalDeviceFeatures2(physical_device_, &features);
  return transform_feedback.transformFeedback;
}

VkPhysicalDeviceMeshShaderFeaturesEXT VulkanContext::supported_mesh_shader_features() const {
  VkPhysicalDeviceMeshShaderFeaturesEXT mesh_shader{};
  mesh_shader.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
  // The extension needs SPIR-V 1.4, core in Vulkan 1.2 (kiln-bench's shaders are SPIR-V 1.5).
  if (properties_.apiVersion < VK_API_VERSION_1_2) return mesh_shader;
  if (!device_extension_available(physical_device_, VK_EXT_MESH_SHADER_EXTENSION_NAME)) return mesh_shader;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &mesh_shader;
  vkGetPhysicalDeviceFeatures2(physical_device_, &features);
  mesh_shader.pNext = nullptr;
  return mesh_shader;
}

std::optional<uint32_t> VulkanContext::find_memory_type(uint32_t type_bits,
                                                        VkMemoryPropertyFlags required,
                                                        VkMemoryPropertyFlags preferred) const {
  std::optional<uint32_t> fallback;
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags flags = memory_properties_.memoryTypes[i].propertyFlags;
    if (!(type_bits & (1u << i)) || (flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (!fallback) fallback = i;
  }
  return fallback;
}

VkDeviceSize VulkanContext::largest_heap_with(VkMemoryPropertyFlags flags) const {
  VkDeviceSize largest = 0;
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    const VkMemoryType& type = memory_properties_.memoryTypes[i];
    if ((type.propertyFlags & flags) != flags) continue;
    largest = std::max(largest, memory_properties_.memoryHeaps[type.heapIndex].size);
  }
  return largest;
}

VkCommandBuffer VulkanContext::allocate_command_buffer() {
  VkCommandBufferAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  info.commandPool = command_pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(device_, &info, &command_buffer), "vkAllocateCommandBuffers");
  return command_buffer;
}

void VulkanContext::free_command_buffer(VkCommandBuffer command_buffer) {
  vkFreeCommandBuffers(device_, command_pool_, 1, &command_buffer);
}

double VulkanContext::submit_and_wait(VkCommandBuffer command_buffer) {
  check(vkResetFences(device_, 1, &fence_), "vkResetFences");
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer;
  const auto start = std::chrono::steady_clock::now();
  check(vkQueueSubmit(queue_, 1, &submit, fence_), "vkQueueSubmit");
  check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  const auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - start).count();
}

void VulkanContext::run_commands(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBuffer command_buffer = allocate_command_buffer();
  try {
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(command_buffer, &begin), "vkBeginCommandBuffer");
    record(command_buffer);
    check(vkEndCommandBuffer(command_buffer), "vkEndCommandBuffer");
    submit_and_wait(command_buffer);
  } catch (...) {
    free_command_buffer(command_buffer);
    throw;
  }
  free_command_buffer(command_buffer);
}

namespace {

VkDeviceMemory allocate_memory(VulkanContext& context, const VkMemoryRequirements& requirements,
                               VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  std::optional<uint32_t> type = context.find_memory_type(requirements.memoryTypeBits, required, preferred);
  if (!type) throw VulkanError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "finding a suitable memory type");
  VkMemoryAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  info.allocationSize = requirements.size;
  info.memoryTypeIndex = *type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  check(vkAllocateMemory(context.device(), &info, nullptr, &memory), "vkAllocateMemory");
  return memory;
}

}  // namespace

Buffer::Buffer(VulkanContext& context, VkDeviceSize size, VkBufferUsageFlags usage, Access access)
    : device_(context.device()), size_(size) {
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(device_, &info, nullptr, &buffer_), "vkCreateBuffer");
  try {
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device_, buffer_, &requirements);
    if (access == Access::HostMapped) {
      memory_ = allocate_memory(context, requirements,
                                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                VK_MEMORY_PROPERTY_HOST_CACHED_BIT);  // cached: fast host reads
    } else {
      memory_ = allocate_memory(context, requirements, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    }
    check(vkBindBufferMemory(device_, buffer_, memory_, 0), "vkBindBufferMemory");
    if (access == Access::HostMapped) {
      check(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory");
    }
  } catch (...) {
    release();
    throw;
  }
}

Buffer::~Buffer() { release(); }

void Buffer::release() {
  if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);  // also unmaps
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

Image::Image(VulkanContext& context, VkFormat format, uint32_t width, uint32_t height,
             VkImageUsageFlags usage, VkSampleCountFlagBits samples, uint32_t mip_levels,
             uint32_t array_layers, VkImageCreateFlags flags)
    : device_(context.device()),
      format_(format),
      width_(width),
      height_(height),
      mip_levels_(mip_levels),
      array_layers_(array_layers) {
  VkImageCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  info.flags = flags;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {width, height, 1};
  info.mipLevels = mip_levels;
  info.arrayLayers = array_layers;
  info.samples = samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  check(vkCreateImage(device_, &info, nullptr, &image_), "vkCreateImage");
  try {
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(device_, image_, &requirements);
    memory_ = allocate_memory(context, requirements, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    check(vkBindImageMemory(device_, image_, memory_, 0), "vkBindImageMemory");
  } catch (...) {
    release();
    throw;
  }
}

Image::~Image() { release(); }

void Image::release() {
  if (image_ != VK_NULL_HANDLE) vkDestroyImage(device_, image_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

VkImageSubresourceRange colour_subresource_range() {
  return VkImageSubresourceRange{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
}

VkImageSubresourceLayers colour_subresource_layers() {
  return VkImageSubresourceLayers{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
}

void memory_barrier(VkCommandBuffer command_buffer, VkPipelineStageFlags src_stages,
                    VkAccessFlags src_access, VkPipelineStageFlags dst_stages,
                    VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  vkCmdPipelineBarrier(command_buffer, src_stages, dst_stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void image_barrier(VkCommandBuffer command_buffer, VkImage image, VkImageLayout old_layout,
                   VkImageLayout new_layout, VkPipelineStageFlags src_stages,
                   VkAccessFlags src_access, VkPipelineStageFlags dst_stages,
                   VkAccessFlags dst_access, VkImageSubresourceRange range) {
  VkImageMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  barrier.oldLayout = old_layout;
  barrier.newLayout = new_layout;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = range;
  vkCmdPipelineBarrier(command_buffer, src_stages, dst_stages, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

}  // namespace kiln::tools
