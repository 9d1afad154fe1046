#include "e2e/vk_fixture.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

#include "shaders/test_shaders.h"

namespace kiln::test {

bool device_has_extension(VkPhysicalDevice physical_device, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& e : extensions)
    if (std::string(e.extensionName) == name) return true;
  return false;
}

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool instance_layer_available(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  return std::any_of(layers.begin(), layers.end(),
                     [&](const VkLayerProperties& layer) { return std::strcmp(layer.layerName, name) == 0; });
}

// Instance extensions visible with the given layer (or the loader and drivers alone when null).
bool instance_extension_available(const char* layer, const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(layer, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data());
  return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& extension) {
    return std::strcmp(extension.extensionName, name) == 0;
  });
}

const char* severity_name(VkDebugUtilsMessageSeverityFlagBitsEXT severity) {
  return severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "ERROR" : "WARNING";
}

std::string type_names(VkDebugUtilsMessageTypeFlagsEXT types) {
  std::string names;
  if (types & VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT) names += "general ";
  if (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) names += "validation ";
  if (types & VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT) names += "performance ";
  if (!names.empty()) names.pop_back();
  return names;
}

void fill_messenger_info(VkDebugUtilsMessengerCreateInfoEXT* info,
                         PFN_vkDebugUtilsMessengerCallbackEXT callback, void* user_data) {
  *info = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  info->messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info->messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info->pfnUserCallback = callback;
  info->pUserData = user_data;
}

VkPhysicalDeviceIDProperties id_properties(VkPhysicalDevice physical_device) {
  VkPhysicalDeviceIDProperties id{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
  vkGetPhysicalDeviceProperties2(physical_device, &properties);
  return id;
}

}  // namespace

void require(VkResult result, const std::string& what) {
  if (result != VK_SUCCESS) throw std::runtime_error(what + " failed with VkResult " + std::to_string(result));
}

// --- Driver selection --------------------------------------------------------------------------

Driver driver_under_test() {
  const char* value = std::getenv("KILN_TEST_DRIVER");
  return value && std::strcmp(value, "lavapipe") == 0 ? Driver::Lavapipe : Driver::Kiln;
}

const char* manifest_path(Driver driver) {
  return driver == Driver::Lavapipe ? KILN_TEST_LAVAPIPE_MANIFEST : KILN_TEST_ICD_MANIFEST;
}

bool file_exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

void point_loader_at(const std::string& manifests) {
  setenv("VK_ICD_FILENAMES", manifests.c_str(), 1);
  unsetenv("VK_DRIVER_FILES");
  unsetenv("VK_ADD_DRIVER_FILES");
}

bool is_kiln_device(const VkPhysicalDeviceProperties& properties) {
  return std::strncmp(properties.deviceName, "Kiln", 4) == 0;
}

bool is_lavapipe_device(VkPhysicalDevice physical_device) {
  VkPhysicalDeviceDriverProperties driver{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
  vkGetPhysicalDeviceProperties2(physical_device, &properties);
  return driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
}

// --- TestInstance ------------------------------------------------------------------------------

VkResult TestInstance::create(const InstanceOptions& options, std::unique_ptr<TestInstance>* out) {
  if (options.validation && !instance_layer_available(kValidationLayer)) return VK_ERROR_LAYER_NOT_PRESENT;
  std::unique_ptr<TestInstance> instance(new TestInstance());
  instance->allocator_ = options.allocator;

  const char* layer = options.validation ? kValidationLayer : nullptr;
  const bool debug_utils = instance_extension_available(nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) ||
                           (layer && instance_extension_available(layer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME));
  if (options.validation && !debug_utils) return VK_ERROR_EXTENSION_NOT_PRESENT;

  VkApplicationInfo app{.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "kiln_e2e_tests";
  app.apiVersion = VK_API_VERSION_1_3;
  VkDebugUtilsMessengerCreateInfoEXT messenger_info;
  fill_messenger_info(&messenger_info, &TestInstance::on_message, instance.get());

  VkInstanceCreateInfo create_info{.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  create_info.pNext = debug_utils ? &messenger_info : nullptr;
  create_info.pApplicationInfo = &app;
  create_info.enabledLayerCount = layer ? 1 : 0;
  create_info.ppEnabledLayerNames = &layer;
  std::vector<const char*> extensions = options.extensions;
  if (debug_utils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();
  VkResult result = vkCreateInstance(&create_info, options.allocator, &instance->instance_);
  if (result != VK_SUCCESS) {
    instance->instance_ = VK_NULL_HANDLE;
    return result;
  }
  if (debug_utils) {
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance->instance_, "vkCreateDebugUtilsMessengerEXT"));
    result = create_messenger(instance->instance_, &messenger_info, options.allocator, &instance->messenger_);
    if (result != VK_SUCCESS) return result;  // the destructor destroys the instance
  }
  *out = std::move(instance);
  return VK_SUCCESS;
}

void TestInstance::destroy() {
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    destroy_messenger(instance_, messenger_, allocator_);
    messenger_ = VK_NULL_HANDLE;
  }
  if (instance_ != VK_NULL_HANDLE) {
    vkDestroyInstance(instance_, allocator_);
    instance_ = VK_NULL_HANDLE;
  }
}

TestInstance::~TestInstance() { destroy(); }

std::vector<VkPhysicalDevice> TestInstance::physical_devices() const {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  devices.resize(count);
  return devices;
}

std::vector<std::string> TestInstance::messages() const {
  std::lock_guard<std::mutex> lock(messages_mutex_);
  return messages_;
}

namespace {
std::atomic<bool> g_expecting_strict_reports{false};
}  // namespace

void set_expecting_strict_reports(bool expecting) { g_expecting_strict_reports = expecting; }

VKAPI_ATTR VkBool32 VKAPI_CALL TestInstance::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                        VkDebugUtilsMessageTypeFlagsEXT types,
                                                        const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                        void* user_data) {
  auto* self = static_cast<TestInstance*>(user_data);
  // Kiln's own informational reports (debugPrintfEXT output, "KILN-debug-printf") are not
  // validation messages; the messenger takes warnings and errors only, but be explicit.
  if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT && data->pMessageIdName &&
      std::strncmp(data->pMessageIdName, "KILN-", 5) == 0)
    return VK_FALSE;
  if (g_expecting_strict_reports && data->pMessageIdName && std::strncmp(data->pMessageIdName, "KILN-strict-", 12) == 0)
    return VK_FALSE;
  std::ostringstream text;
  text << "[" << severity_name(severity) << " " << type_names(types) << "] "
       << (data->pMessageIdName ? data->pMessageIdName : "") << ": " << (data->pMessage ? data->pMessage : "");
  std::lock_guard<std::mutex> lock(self->messages_mutex_);
  self->messages_.push_back(text.str());
  return VK_FALSE;  // never abort the call: the test reports the message
}

// --- DeviceFeatures ----------------------------------------------------------------------------

DeviceFeatures::DeviceFeatures() {
  // Zero whole structs, padding included, as `T x{}` would: some structs end in padding.
  std::memset(&core, 0, sizeof core);
  std::memset(&v11, 0, sizeof v11);
  std::memset(&v12, 0, sizeof v12);
  std::memset(&v13, 0, sizeof v13);
  core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  core.pNext = &v11;
  v11.pNext = &v12;
  v12.pNext = &v13;
}

const char* enable_features(const DeviceFeatures& supported, std::initializer_list<WantedFeature> wanted, DeviceFeatures* enabled) {
  for (const WantedFeature& feature : wanted)
    if (!feature.bit(const_cast<DeviceFeatures&>(supported))) return feature.name;  // only read
  for (const WantedFeature& feature : wanted) feature.bit(*enabled) = VK_TRUE;
  return nullptr;
}

void DeviceFeatures::query(VkPhysicalDevice physical_device, DeviceFeatures* out) {
  vkGetPhysicalDeviceFeatures2(physical_device, &out->core);
}

// --- TestDevice --------------------------------------------------------------------------------

VkResult TestDevice::create(VkPhysicalDevice physical_device, const DeviceOptions& options,
                            std::unique_ptr<TestDevice>* out) {
  std::unique_ptr<TestDevice> device(new TestDevice());
  device->physical_device_ = physical_device;
  device->allocator_ = options.allocator;
  vkGetPhysicalDeviceProperties(physical_device, &device->properties_);
  vkGetPhysicalDeviceMemoryProperties(physical_device, &device->memory_properties_);

  std::vector<float> priorities(options.queue_count, 1.0f);
  VkDeviceQueueCreateInfo queue_info{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = 0;
  queue_info.queueCount = options.queue_count;
  queue_info.pQueuePriorities = priorities.data();
  VkDeviceCreateInfo create_info{.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create_info.pNext = options.create_info_chain;
  create_info.pEnabledFeatures = options.enabled_features;
  create_info.queueCreateInfoCount = 1;
  create_info.pQueueCreateInfos = &queue_info;
  create_info.enabledExtensionCount = static_cast<uint32_t>(options.extensions.size());
  create_info.ppEnabledExtensionNames = options.extensions.data();
  VkResult result = vkCreateDevice(physical_device, &create_info, options.allocator, &device->device_);
  if (result != VK_SUCCESS) {
    device->device_ = VK_NULL_HANDLE;
    return result;
  }
  for (uint32_t i = 0; i < options.queue_count; ++i) {
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device->device_, 0, i, &queue);
    device->queues_.push_back(queue);
  }
  VkCommandPoolCreateInfo pool_info{.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = 0;
  result = vkCreateCommandPool(device->device_, &pool_info, options.allocator, &device->command_pool_);
  if (result != VK_SUCCESS) return result;  // the destructor destroys the device
  *out = std::move(device);
  return VK_SUCCESS;
}

TestDevice::~TestDevice() {
  if (device_ == VK_NULL_HANDLE) return;
  vkDeviceWaitIdle(device_);
  for (auto it = deferred_destroys_.rbegin(); it != deferred_destroys_.rend(); ++it) (*it)();
  if (command_pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, command_pool_, allocator_);
  vkDestroyDevice(device_, allocator_);
}

uint32_t TestDevice::find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const {
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    const bool allowed = type_bits & (1u << i);
    if (allowed && (memory_properties_.memoryTypes[i].propertyFlags & required) == required) return i;
  }
  return UINT32_MAX;
}

void TestDevice::defer_destroy(std::function<void()> destroy) { deferred_destroys_.push_back(std::move(destroy)); }

Buffer TestDevice::create_buffer(VkDeviceSize size, VkBufferUsageFlags usage, std::optional<uint8_t> fill) {
  Buffer result;
  result.size = size;
  VkBufferCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  require(vkCreateBuffer(device_, &info, allocator_, &result.buffer),
          "vkCreateBuffer (" + std::to_string(size) + " bytes)");
  VkDevice device = device_;
  const VkAllocationCallbacks* allocator = allocator_;
  VkBuffer buffer = result.buffer;
  defer_destroy([=] { vkDestroyBuffer(device, buffer, allocator); });
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device_, result.buffer, &requirements);
  VkMemoryAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = find_memory_type(
      requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  // A buffer used through its device address needs memory allocated for device addresses.
  VkMemoryAllocateFlagsInfo flags{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  if (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) allocate.pNext = &flags;
  if (allocate.memoryTypeIndex == UINT32_MAX)
    throw std::runtime_error("no HOST_VISIBLE|HOST_COHERENT memory type accepts the buffer");
  require(vkAllocateMemory(device_, &allocate, allocator_, &result.memory),
          "vkAllocateMemory (" + std::to_string(requirements.size) + " bytes for a buffer)");
  VkDeviceMemory memory = result.memory;
  defer_destroy([=] { vkFreeMemory(device, memory, allocator); });
  require(vkBindBufferMemory(device_, result.buffer, result.memory, 0), "vkBindBufferMemory");
  void* mapped = nullptr;
  require(vkMapMemory(device_, result.memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
  result.mapped = static_cast<uint8_t*>(mapped);
  if (fill) std::memset(result.mapped, *fill, size);
  return result;
}

Image TestDevice::create_image(const VkImageCreateInfo& info, VkMemoryPropertyFlags required) {
  Image result;
  result.info = info;
  result.info.pNext = nullptr;  // the caller's chain need not outlive this call
  require(vkCreateImage(device_, &info, allocator_, &result.image),
          "vkCreateImage (format " + std::to_string(info.format) + ", usage " + std::to_string(info.usage) + ")");
  VkDevice device = device_;
  const VkAllocationCallbacks* allocator = allocator_;
  VkImage image = result.image;
  defer_destroy([=] { vkDestroyImage(device, image, allocator); });
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device_, result.image, &requirements);
  const VkMemoryPropertyFlags preferred = required ? required : VkMemoryPropertyFlags(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  uint32_t type = find_memory_type(requirements.memoryTypeBits, preferred);
  if (type == UINT32_MAX && !required) type = find_memory_type(requirements.memoryTypeBits, 0);
  if (type == UINT32_MAX) throw std::runtime_error("no suitable memory type accepts the image");
  VkMemoryAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  require(vkAllocateMemory(device_, &allocate, allocator_, &result.memory),
          "vkAllocateMemory (" + std::to_string(requirements.size) + " bytes for an image)");
  VkDeviceMemory memory = result.memory;
  defer_destroy([=] { vkFreeMemory(device, memory, allocator); });
  require(vkBindImageMemory(device_, result.image, result.memory, 0), "vkBindImageMemory");
  return result;
}

Image TestDevice::create_image(VkImageType type, VkFormat format, VkExtent3D extent, uint32_t mip_levels,
                               uint32_t array_layers, VkImageCreateFlags flags, VkImageUsageFlags usage) {
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = flags;
  info.imageType = type;
  info.format = format;
  info.extent = extent;
  info.mipLevels = mip_levels;
  info.arrayLayers = array_layers;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return create_image(info);
}

VkFence TestDevice::create_fence(bool signaled) {
  VkFenceCreateInfo info{.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  info.flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0;
  VkFence fence = VK_NULL_HANDLE;
  require(vkCreateFence(device_, &info, allocator_, &fence), "vkCreateFence");
  VkDevice device = device_;
  const VkAllocationCallbacks* allocator = allocator_;
  defer_destroy([=] { vkDestroyFence(device, fence, allocator); });
  return fence;
}

VkSemaphore TestDevice::create_binary_semaphore() {
  VkSemaphoreCreateInfo info{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  require(vkCreateSemaphore(device_, &info, allocator_, &semaphore), "vkCreateSemaphore (binary)");
  VkDevice device = device_;
  const VkAllocationCallbacks* allocator = allocator_;
  defer_destroy([=] { vkDestroySemaphore(device, semaphore, allocator); });
  return semaphore;
}

VkSemaphore TestDevice::create_timeline_semaphore(uint64_t initial_value) {
  VkSemaphoreTypeCreateInfo type{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = initial_value;
  VkSemaphoreCreateInfo info{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  require(vkCreateSemaphore(device_, &info, allocator_, &semaphore), "vkCreateSemaphore (timeline)");
  VkDevice device = device_;
  const VkAllocationCallbacks* allocator = allocator_;
  defer_destroy([=] { vkDestroySemaphore(device, semaphore, allocator); });
  return semaphore;
}

VkEvent TestDevice::create_event() {
  VkEventCreateInfo info{.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent event = VK_NULL_HANDLE;
  require(vkCreateEvent(device_, &info, allocator_, &event), "vkCreateEvent");
  VkDevice device = device_;
  const VkAllocationCallbacks* allocator = allocator_;
  defer_destroy([=] { vkDestroyEvent(device, event, allocator); });
  return event;
}

VkCommandBuffer TestDevice::allocate_command_buffer(VkCommandBufferLevel level) {
  VkCommandBufferAllocateInfo info{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = command_pool_;
  info.level = level;
  info.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  require(vkAllocateCommandBuffers(device_, &info, &cmd), "vkAllocateCommandBuffers");
  return cmd;  // freed with the pool
}

VkCommandBuffer TestDevice::record_commands(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBuffer cmd = allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(0);
  require(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  record(cmd);
  require(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
  return cmd;
}

void TestDevice::run_commands(const std::function<void(VkCommandBuffer)>& record, uint32_t queue_index) {
  VkCommandBuffer cmd = allocate_command_buffer();
  VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  require(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  record(cmd);
  require(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
  VkFence fence = create_fence(false);
  require(submit(queue(queue_index), cmd, fence), "vkQueueSubmit");
  // On a timeout the command buffer is still pending: leave it to the pool's destruction.
  require(vkWaitForFences(device_, 1, &fence, VK_TRUE, kGpuTimeoutNs), "waiting for a one-shot command buffer");
  vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
}

std::vector<uint8_t> TestDevice::read_image(const Image& image, VkImageAspectFlags aspect, uint32_t mip_level,
                                            uint32_t array_layer, VkImageLayout layout) {
  const VkExtent3D extent = mip_extent(image.info.extent, mip_level);
  const VkDeviceSize size =
      VkDeviceSize(extent.width) * extent.height * extent.depth * texel_size(image.info.format, aspect);
  Buffer readback = create_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  run_commands([&](VkCommandBuffer cmd) {
    full_barrier(cmd);  // earlier submissions' writes → this copy
    VkBufferImageCopy region{};
    region.imageSubresource = layers(aspect, mip_level, array_layer);
    region.imageExtent = extent;
    vkCmdCopyImageToBuffer(cmd, image.image, layout, readback.buffer, 1, &region);
    full_barrier(cmd);  // the copy → host reads after the fence
  });
  return std::vector<uint8_t>(readback.mapped, readback.mapped + size);
}

// --- Recording helpers -------------------------------------------------------------------------

VkCommandBufferBeginInfo begin_info(VkCommandBufferUsageFlags flags) {
  VkCommandBufferBeginInfo info{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  info.flags = flags;
  return info;
}

void full_barrier(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                       nullptr, 0, nullptr);
}

void transition(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                VkImageLayout to, uint32_t base_mip, uint32_t mip_count, uint32_t base_layer,
                uint32_t layer_count) {
  VkImageMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {aspect, base_mip, mip_count, base_layer, layer_count};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &barrier);
}

VkResult submit(VkQueue queue, VkCommandBuffer cmd, VkFence fence) {
  VkSubmitInfo info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.commandBufferCount = 1;
  info.pCommandBuffers = &cmd;
  return vkQueueSubmit(queue, 1, &info, fence);
}

uint32_t texel_size(VkFormat format, VkImageAspectFlags aspect) {
  if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT) return 1;  // stencil copies are always one byte
  switch (format) {
    case VK_FORMAT_R8_UNORM:
    case VK_FORMAT_R8_UINT:
    case VK_FORMAT_S8_UINT:
      return 1;
    case VK_FORMAT_R16_UINT:
    case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_A4R4G4B4_UNORM_PACK16:
    case VK_FORMAT_A4B4G4R4_UNORM_PACK16:
      return 2;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_UINT:
    case VK_FORMAT_R8G8B8A8_SINT:
    case VK_FORMAT_R8G8B8A8_SNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_A8B8G8R8_UNORM_PACK32:
    case VK_FORMAT_A8B8G8R8_SNORM_PACK32:
    case VK_FORMAT_A8B8G8R8_UINT_PACK32:
    case VK_FORMAT_A8B8G8R8_SINT_PACK32:
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
    case VK_FORMAT_A2B10G10R10_UINT_PACK32:
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32:
    case VK_FORMAT_R32_UINT:
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT:    // depth aspect: 24 bits in a 32-bit word
    case VK_FORMAT_D32_SFLOAT_S8_UINT:  // depth aspect
      return 4;
    case VK_FORMAT_R16G16B16A16_UINT:
    case VK_FORMAT_R16G16B16A16_SFLOAT:
      return 8;
    case VK_FORMAT_R32G32B32A32_UINT:
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      return 16;
    default:
      throw std::runtime_error("texel_size: format " + std::to_string(format) + " is not in the suite's table");
  }
}

void expect_valid_requirements(const VkMemoryRequirements& requirements, VkDeviceSize minimum_size) {
  EXPECT_GE(requirements.size, minimum_size);
  EXPECT_NE(0u, requirements.alignment);
  EXPECT_EQ(0u, requirements.alignment & (requirements.alignment - 1)) << "alignment " << requirements.alignment;
  EXPECT_NE(0u, requirements.memoryTypeBits);
}

VkExtent3D mip_extent(const VkExtent3D& extent, uint32_t mip_level) {
  return {std::max(1u, extent.width >> mip_level), std::max(1u, extent.height >> mip_level),
          std::max(1u, extent.depth >> mip_level)};
}

VkImageSubresourceLayers layers(VkImageAspectFlags aspect, uint32_t mip, uint32_t base_layer, uint32_t layer_count) {
  return {aspect, mip, base_layer, layer_count};
}

// --- VulkanTest --------------------------------------------------------------------------------

void VulkanTest::SetUp() {
  const Driver driver = driver_under_test();
  const std::string manifest = manifest_path(driver);
  ASSERT_TRUE(file_exists(manifest)) << "ICD manifest " << manifest << " does not exist"
                                     << (driver == Driver::Kiln ? " (build the vulkan_kiln target)" : "");
  point_loader_at(manifest);
  InstanceOptions options;
  options.extensions = instance_extensions();
  const VkResult result = TestInstance::create(options, &instance_);
  ASSERT_NE(VK_ERROR_LAYER_NOT_PRESENT, result)
      << "VK_LAYER_KHRONOS_validation is missing (Debian package vulkan-validationlayers)";
  ASSERT_EQ(VK_SUCCESS, result) << "vkCreateInstance failed with the driver " << manifest;
  const std::vector<VkPhysicalDevice> devices = instance_->physical_devices();
  ASSERT_FALSE(devices.empty()) << "the driver " << manifest << " exposes no physical device";
  physical_device_ = devices[0];
  vkGetPhysicalDeviceProperties(physical_device_, &properties_);
  DeviceFeatures::query(physical_device_, &features_);
}

void VulkanTest::TearDown() {
  default_device_.reset();
  extra_devices_.clear();
  unvalidated_instances_.clear();  // their messages are not validation: error paths may warn
  if (!instance_) return;
  instance_->destroy();  // keeps the messages, including those emitted while destroying
  for (const std::string& message : instance_->messages()) ADD_FAILURE() << "validation: " << message;
  instance_.reset();
}

TestDevice& VulkanTest::device() {
  if (!default_device_) {
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, families.data());

    DeviceFeatures enabled;
    enabled.v12.timelineSemaphore = features_.v12.timelineSemaphore;
    enabled.v13.synchronization2 = features_.v13.synchronization2;
    enabled.v13.maintenance4 = features_.v13.maintenance4;
    DeviceOptions options;
    options.queue_count = std::min(2u, families.at(0).queueCount);
    options.create_info_chain = &enabled.core;
    const VkResult result = TestDevice::create(physical_device_, options, &default_device_);
    if (result != VK_SUCCESS)  // GoogleTest reports the exception as this test's failure
      throw std::runtime_error("vkCreateDevice (default device) failed: " + std::to_string(result));
  }
  return *default_device_;
}

TestDevice* VulkanTest::create_device(const DeviceOptions& options) {
  std::unique_ptr<TestDevice> device;
  const VkResult result = TestDevice::create(physical_device_, options, &device);
  if (result != VK_SUCCESS) {
    ADD_FAILURE() << "vkCreateDevice failed: " << result;
    return nullptr;
  }
  extra_devices_.push_back(std::move(device));
  return extra_devices_.back().get();
}

TestDevice* VulkanTest::create_device(DeviceFeatures& enabled, std::vector<const char*> extensions) {
  enabled.v13.maintenance4 = features_.v13.maintenance4;
  DeviceOptions options;
  options.create_info_chain = &enabled.core;
  options.extensions = std::move(extensions);
  return create_device(options);
}

VulkanTest::UnvalidatedContext VulkanTest::create_unvalidated_context() {
  std::unique_ptr<TestInstance> instance;
  InstanceOptions options;
  options.validation = false;
  if (TestInstance::create(options, &instance) != VK_SUCCESS) {
    ADD_FAILURE() << "could not create an instance without the validation layer";
    return {};
  }
  // The same physical device as the validated instance's, recognised by its UUID.
  const VkPhysicalDeviceIDProperties wanted = id_properties(physical_device_);
  UnvalidatedContext context;
  context.instance = instance.get();
  for (VkPhysicalDevice candidate : instance->physical_devices()) {
    if (std::memcmp(id_properties(candidate).deviceUUID, wanted.deviceUUID, VK_UUID_SIZE) == 0) {
      context.physical_device = candidate;
      break;
    }
  }
  if (context.physical_device == VK_NULL_HANDLE) ADD_FAILURE() << "the unvalidated instance lacks the device";
  unvalidated_instances_.push_back(std::move(instance));
  return context;
}

// --- DifferentialTest --------------------------------------------------------------------------

VkPhysicalDevice find_driver_device(const TestInstance& instance, Driver driver) {
  for (VkPhysicalDevice candidate : instance.physical_devices()) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(candidate, &properties);
    const bool match = driver == Driver::Kiln ? is_kiln_device(properties) : is_lavapipe_device(candidate);
    if (match) return candidate;
  }
  return VK_NULL_HANDLE;
}

void DifferentialTest::SetUp() {
  const std::string lavapipe_manifest = KILN_TEST_LAVAPIPE_MANIFEST;
  if (!file_exists(lavapipe_manifest))
    GTEST_SKIP() << "lavapipe's ICD manifest " << lavapipe_manifest
                 << " is missing (Debian package mesa-vulkan-drivers); no reference to compare with";
  const bool self_check = driver_under_test() == Driver::Lavapipe;
  if (self_check) {
    point_loader_at(lavapipe_manifest);
  } else {
    const std::string kiln_manifest = KILN_TEST_ICD_MANIFEST;
    ASSERT_TRUE(file_exists(kiln_manifest)) << "ICD manifest " << kiln_manifest << " does not exist";
    point_loader_at(kiln_manifest + ":" + lavapipe_manifest);
  }
  ASSERT_EQ(VK_SUCCESS, TestInstance::create({}, &instance_));
  const VkPhysicalDevice kiln_device = find_driver_device(*instance_, self_check ? Driver::Lavapipe : Driver::Kiln);
  const VkPhysicalDevice lavapipe_device = find_driver_device(*instance_, Driver::Lavapipe);
  ASSERT_NE(VK_NULL_HANDLE, kiln_device) << "the loader lists no Kiln device";
  ASSERT_NE(VK_NULL_HANDLE, lavapipe_device) << "the loader lists no lavapipe device";
  ASSERT_EQ(VK_SUCCESS, TestDevice::create(kiln_device, {}, &kiln_));
  ASSERT_EQ(VK_SUCCESS, TestDevice::create(lavapipe_device, {}, &lavapipe_));
}

void DifferentialTest::TearDown() {
  kiln_.reset();
  lavapipe_.reset();
  if (!instance_) return;
  instance_->destroy();
  for (const std::string& message : instance_->messages()) ADD_FAILURE() << "validation: " << message;
  instance_.reset();
}

std::string DifferentialTest::current_test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

std::vector<uint32_t> test_shader_code(const std::string& name) {
  std::vector<uint32_t> words = kiln_test_shader(name);
  EXPECT_FALSE(words.empty()) << "test shader " << name << " was not built";
  return words;
}

VkShaderModule create_test_shader_module(VkDevice device, const std::string& name) {
  return create_shader_module(device, test_shader_code(name));
}

VkShaderModule create_shader_module(VkDevice device, const std::vector<uint32_t>& words) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = words.size() * 4;
  info.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateShaderModule(device, &info, nullptr, &module), VK_SUCCESS);
  return module;
}

// Whether `stage` has the subgroup operations draw_subgroup.frag/.vert and geom_subgroup.geom use (basic, ballot,
// arithmetic, vote, shuffle).
bool has_subgroup_checks(VkPhysicalDevice physical_device, VkShaderStageFlagBits stage) {
  VkPhysicalDeviceVulkan11Properties p11{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p11};
  vkGetPhysicalDeviceProperties2(physical_device, &properties2);
  const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                        VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                        VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
  return (p11.subgroupSupportedStages & stage) && (p11.subgroupSupportedOperations & needed) == needed;
}

}  // namespace kiln::test
