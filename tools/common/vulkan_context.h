#pragma once
// The Vulkan setup that kiln-demo and kiln-bench share: one instance, the first physical device
// the loader reports (VK_ICD_FILENAMES / VK_DRIVER_FILES decide which driver that is), one queue,
// plus owning wrappers for buffers and images and helpers to submit and wait.
//
// Only core Vulkan 1.0 entry points are used (plus 1.1/1.2 queries when the device offers them),
// so the tools also run on a driver that is still young.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kiln::tools {

// A Vulkan call failed; `result` is what it returned.
class VulkanError : public std::runtime_error {
 public:
  VulkanError(VkResult result, const std::string& what);
  VkResult result;
};

// Throws VulkanError naming `what` unless `result` is VK_SUCCESS.
void check(VkResult result, const char* what);

const char* result_name(VkResult result);

// What a context is made for beyond offscreen work.
enum class Presentation {
  None,
  // Presenting to X11 windows: VK_KHR_surface and VK_KHR_xcb_surface on the instance,
  // VK_KHR_swapchain on the device (a VulkanError when the driver lacks one).
  Xcb,
};

class VulkanContext {
 public:
  // Creates the instance, picks the first physical device and creates a device with one queue
  // that supports transfer commands, preferring one that also runs compute (or graphics) work.
  // Throws VulkanError when there is no usable device.
  explicit VulkanContext(const char* application_name, Presentation presentation = Presentation::None);
  ~VulkanContext();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  // The family of queue() (for a library that makes its own command pool, like VkFFT).
  uint32_t queue_family() const { return queue_family_; }
  // What queue() can do (VK_QUEUE_COMPUTE_BIT etc.).
  VkQueueFlags queue_flags() const { return queue_flags_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }
  // The optional features the device was created with: those of the tools' scenarios that the
  // device supports (tessellationShader, geometryShader, shaderFloat64), all others FALSE. A scenario that needs
  // one checks here. shaderFloat64 too (VkFFT's double-precision plans).
  const VkPhysicalDeviceFeatures& enabled_features() const { return enabled_features_; }
  // Whether the device was created with VK_EXT_transform_feedback and its transformFeedback
  // feature (enabled whenever the device offers both).
  bool transform_feedback_enabled() const { return transform_feedback_enabled_; }
  // Whether the device was created with VK_EXT_mesh_shader and its meshShader feature, and also
  // taskShader (both enabled whenever the device offers them, on a Vulkan 1.2 device: the
  // extension needs SPIR-V 1.4).
  bool mesh_shader_enabled() const { return mesh_shader_enabled_; }
  bool task_shader_enabled() const { return task_shader_enabled_; }

  std::string device_name() const { return properties_.deviceName; }
  // VkPhysicalDeviceDriverProperties::driverName, or "unknown" on a device older than Vulkan 1.2.
  const std::string& driver_name() const { return driver_name_; }

  // Warnings and errors reported through VK_EXT_debug_utils (from the validation layer when it is
  // enabled, e.g. VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation). Each is also printed to stderr.
  uint32_t validation_problem_count() const { return validation_problems_; }
  // Validation messages with this message ID (e.g. "VUID-vkDestroyDevice-device-00378") are
  // neither printed nor counted as problems, only counted here: for a library's known misuse
  // that the tool cannot change (VkFFT 1.2.26, tests/vkfft/README.md).
  void tolerate_validation_message(std::string message_id) { tolerated_messages_.push_back(std::move(message_id)); }
  uint32_t tolerated_message_count() const { return tolerated_problems_; }

  // Index of a memory type allowed by `type_bits` that has all `required` flags, preferring one
  // that also has `preferred`. nullopt when none qualifies.
  std::optional<uint32_t> find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                                           VkMemoryPropertyFlags preferred = 0) const;

  // Size of the largest heap that has a memory type with `flags`; 0 when there is none.
  VkDeviceSize largest_heap_with(VkMemoryPropertyFlags flags) const;

  // A primary command buffer from the context's pool, freed with the context (or by free_*).
  VkCommandBuffer allocate_command_buffer();
  void free_command_buffer(VkCommandBuffer command_buffer);

  // Submits a recorded command buffer and waits for its fence. Returns the seconds spent from just
  // before vkQueueSubmit to the fence wait's return (std::chrono::steady_clock).
  double submit_and_wait(VkCommandBuffer command_buffer);

  // Records `record` into a temporary command buffer, submits it and waits.
  void run_commands(const std::function<void(VkCommandBuffer)>& record);

 private:
  void release();
  void create_instance(const char* application_name);
  void pick_physical_device();
  void create_device();
  bool transform_feedback_supported() const;
  VkPhysicalDeviceMeshShaderFeaturesEXT supported_mesh_shader_features() const;
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  Presentation presentation_ = Presentation::None;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  VkPhysicalDeviceFeatures enabled_features_{};
  bool transform_feedback_enabled_ = false;
  bool mesh_shader_enabled_ = false;
  bool task_shader_enabled_ = false;
  std::string driver_name_ = "unknown";
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkQueueFlags queue_flags_ = 0;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  uint32_t validation_problems_ = 0;
  std::vector<std::string> tolerated_messages_;
  uint32_t tolerated_problems_ = 0;
};

// A buffer with its own memory. Host-visible buffers are host-coherent and stay mapped.
class Buffer {
 public:
  enum class Access { DeviceOnly, HostMapped };

  Buffer(VulkanContext& context, VkDeviceSize size, VkBufferUsageFlags usage, Access access);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  // The mapped bytes; nullptr for Access::DeviceOnly.
  void* mapped() const { return mapped_; }

 private:
  void release();
  VkDevice device_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_;
  void* mapped_ = nullptr;
};

// A 2D, optimally tiled image (one mip level and one array layer unless told otherwise; `flags`
// e.g. CUBE_COMPATIBLE) with its own (preferably device-local) memory. It starts in
// VK_IMAGE_LAYOUT_UNDEFINED.
class Image {
 public:
  Image(VulkanContext& context, VkFormat format, uint32_t width, uint32_t height,
        VkImageUsageFlags usage, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT,
        uint32_t mip_levels = 1, uint32_t array_layers = 1, VkImageCreateFlags flags = 0);
  ~Image();
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  VkImage handle() const { return image_; }
  VkFormat format() const { return format_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t mip_levels() const { return mip_levels_; }
  uint32_t array_layers() const { return array_layers_; }

 private:
  void release();
  VkDevice device_;
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkFormat format_;
  uint32_t width_;
  uint32_t height_;
  uint32_t mip_levels_;
  uint32_t array_layers_;
};

// The colour aspect, mip 0, layer 0 of a 2D colour image.
VkImageSubresourceRange colour_subresource_range();
VkImageSubresourceLayers colour_subresource_layers();

// One global memory barrier: `src_access` writes in `src_stages` become visible to `dst_access`
// in `dst_stages`.
void memory_barrier(VkCommandBuffer command_buffer, VkPipelineStageFlags src_stages,
                    VkAccessFlags src_access, VkPipelineStageFlags dst_stages,
                    VkAccessFlags dst_access);

// One image memory barrier with a layout transition, on `range` (by default the whole colour
// image: colour aspect, mip 0, layer 0).
void image_barrier(VkCommandBuffer command_buffer, VkImage image, VkImageLayout old_layout,
                   VkImageLayout new_layout, VkPipelineStageFlags src_stages,
                   VkAccessFlags src_access, VkPipelineStageFlags dst_stages,
                   VkAccessFlags dst_access, VkImageSubresourceRange range = colour_subresource_range());

}  // namespace kiln::tools
