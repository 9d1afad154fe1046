#pragma once
// Shared machinery of the end-to-end tests: every test talks to a driver through the real Vulkan
// loader, with the Khronos validation layer on, and fails if the layer reports anything.
//
// Which driver: the build tree's Kiln (KILN_TEST_ICD_MANIFEST) by default, or lavapipe
// (KILN_TEST_LAVAPIPE_MANIFEST) when the environment has KILN_TEST_DRIVER=lavapipe. Running the
// suite on lavapipe checks the tests themselves: everything except the checks marked Kiln-only
// (KILN_ONLY / REQUIRE_ON_KILN below) must pass there.
//
// Objects: TestInstance (instance + validation messages), TestDevice (device, queues, command
// pool and every resource made through it, destroyed in reverse order with the device), the
// GoogleTest fixture VulkanTest that wires them to a test's lifetime, and DifferentialTest, which
// opens Kiln and lavapipe side by side for differential tests (compare results with
// image_compare.h).
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <initializer_list>

#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kiln::test {

// Generous bound for any wait on GPU work, so that a hanging driver fails a test instead of
// hanging the suite. Every workload in the suite finishes in milliseconds.
inline constexpr uint64_t kGpuTimeoutNs = 5'000'000'000ull;

// Helpers that return objects cannot return a VkResult: when making the object fails the test
// cannot go on (it would hand a null handle to the driver), so they throw std::runtime_error,
// which GoogleTest reports as the test's failure. `require` does that for a result.
void require(VkResult result, const std::string& what);

enum class Driver { Kiln, Lavapipe };

// The driver the suite runs against (KILN_TEST_DRIVER=lavapipe selects lavapipe).
Driver driver_under_test();
const char* manifest_path(Driver driver);
bool file_exists(const std::string& path);

// Makes the loader see exactly the drivers in `manifests` (':'-separated list of ICD JSON files).
// Must run before vkCreateInstance. VK_DRIVER_FILES and VK_ADD_DRIVER_FILES are cleared because
// newer loaders prefer them over VK_ICD_FILENAMES.
void point_loader_at(const std::string& manifests);

// Kiln's devices are named "Kiln ..."; checks of Kiln-specific facts key on this.
bool is_kiln_device(const VkPhysicalDeviceProperties& properties);
bool is_lavapipe_device(VkPhysicalDevice physical_device);

struct InstanceOptions {
  // The validation layer is on for every test. Only tests of error paths (which the spec calls
  // invalid usage, so the layer would rightly complain) turn it off; see
  // VulkanTest::create_unvalidated_context.
  bool validation = true;
  const VkAllocationCallbacks* allocator = nullptr;
  // Instance extensions besides VK_EXT_debug_utils (e.g. surfaces).
  std::vector<const char*> extensions;
};

// A VkInstance (API 1.3) with a VK_EXT_debug_utils messenger that records every WARNING or ERROR
// message of any type. The messenger is also chained into VkInstanceCreateInfo so that messages
// emitted inside vkCreateInstance / vkDestroyInstance are caught too.
// Strict mode's reports ("KILN-strict-*", KILN_STRICT=1) are validation messages like any other,
// so the whole suite run under KILN_STRICT=1 fails on a false report; tests of strict mode itself
// expect them and turn this on while they run (their own messenger checks them).
void set_expecting_strict_reports(bool expecting);

class TestInstance {
 public:
  // Returns the vkCreateInstance result; `out` is set only on success.
  static VkResult create(const InstanceOptions& options, std::unique_ptr<TestInstance>* out);
  ~TestInstance();
  TestInstance(const TestInstance&) = delete;
  TestInstance& operator=(const TestInstance&) = delete;

  VkInstance handle() const { return instance_; }
  std::vector<VkPhysicalDevice> physical_devices() const;
  // Messages captured so far (thread-safe copy).
  std::vector<std::string> messages() const;
  // Destroys the messenger and the VkInstance but keeps the captured messages readable.
  void destroy();

 private:
  TestInstance() = default;
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void* user_data);
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  const VkAllocationCallbacks* allocator_ = nullptr;
  mutable std::mutex messages_mutex_;
  std::vector<std::string> messages_;
};

// The three feature structs of Vulkan 1.1–1.3 plus the 1.0 features, queried in one chain.
struct DeviceFeatures {
  VkPhysicalDeviceFeatures2 core;
  VkPhysicalDeviceVulkan11Features v11;
  VkPhysicalDeviceVulkan12Features v12;
  VkPhysicalDeviceVulkan13Features v13;

  DeviceFeatures();  // all FALSE, chained core → v11 → v12 → v13
  DeviceFeatures(const DeviceFeatures&) = delete;
  DeviceFeatures& operator=(const DeviceFeatures&) = delete;
  static void query(VkPhysicalDevice physical_device, DeviceFeatures* out);
};

// A feature bit a test needs: its name and where it lives (KILN_FEATURE(v12.runtimeDescriptorArray)).
struct WantedFeature {
  const char* name;
  VkBool32& (*bit)(DeviceFeatures&);
};
#define KILN_FEATURE(path) ::kiln::test::WantedFeature{#path, [](::kiln::test::DeviceFeatures& f) -> VkBool32& { return f.path; }}
// Sets every bit of `wanted` in `enabled` and returns nullptr when `supported` has them all;
// otherwise returns the name of the first one missing and leaves `enabled` alone.
const char* enable_features(const DeviceFeatures& supported, std::initializer_list<WantedFeature> wanted, DeviceFeatures* enabled);

// The SPIR-V of test shader `name` (e.g. "saxpy.comp"); a missing shader is a test failure (and
// no words).
std::vector<uint32_t> test_shader_code(const std::string& name);
// A shader module of `words`; a failed creation is a test failure (and VK_NULL_HANDLE).
VkShaderModule create_shader_module(VkDevice device, const std::vector<uint32_t>& words);
// A shader module of test shader `name` (e.g. "saxpy.comp", built from tests/shaders); a missing
// shader or a failed creation is a test failure (and VK_NULL_HANDLE).
VkShaderModule create_test_shader_module(VkDevice device, const std::string& name);

// Whether the physical device lists device extension `name`.
bool device_has_extension(VkPhysicalDevice physical_device, const char* name);

// Whether the physical device lists extension `name`; if it does, `features` (the extension's
// feature struct, its sType set) is filled by vkGetPhysicalDeviceFeatures2. pNext is left null.
template <typename Features>
bool query_extension_features(VkPhysicalDevice physical_device, const char* name, Features& features) {
  if (!device_has_extension(physical_device, name)) return false;
  features.pNext = nullptr;
  VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
  vkGetPhysicalDeviceFeatures2(physical_device, &query);
  features.pNext = nullptr;
  return true;
}

struct DeviceOptions {
  uint32_t queue_count = 1;  // queues created in family 0
  // pNext chain of VkDeviceCreateInfo (e.g. a VkPhysicalDeviceFeatures2 chain), may be null.
  const void* create_info_chain = nullptr;
  // VkDeviceCreateInfo::pEnabledFeatures (the 1.0 way; not together with a features chain).
  const VkPhysicalDeviceFeatures* enabled_features = nullptr;
  std::vector<const char*> extensions;
  const VkAllocationCallbacks* allocator = nullptr;
};

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  uint8_t* mapped = nullptr;  // persistently mapped, host-visible + host-coherent
};

struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageCreateInfo info{};
};

// A VkDevice with queues of family 0, a command pool (RESET_COMMAND_BUFFER) and helpers that make
// resources. Everything made through the helpers is destroyed, in reverse order, before the device.
// A helper that cannot make its object throws std::runtime_error, which fails the current test
// (GoogleTest reports the exception) instead of letting it pass a null handle to the driver.
class TestDevice {
 public:
  static VkResult create(VkPhysicalDevice physical_device, const DeviceOptions& options,
                         std::unique_ptr<TestDevice>* out);
  ~TestDevice();
  TestDevice(const TestDevice&) = delete;
  TestDevice& operator=(const TestDevice&) = delete;

  VkDevice handle() const { return device_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkQueue queue(uint32_t index = 0) const { return queues_.at(index); }
  uint32_t queue_count() const { return static_cast<uint32_t>(queues_.size()); }
  VkCommandPool command_pool() const { return command_pool_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }

  // Index of a memory type allowed by `type_bits` having all `required` flags, or UINT32_MAX.
  uint32_t find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const;

  // Runs `destroy` when the TestDevice goes away (before the device, latest-registered first).
  void defer_destroy(std::function<void()> destroy);

  // Buffer bound to its own HOST_VISIBLE|HOST_COHERENT allocation, mapped, filled with `fill`
  // (std::nullopt: left as the driver allocated it, e.g. strict mode's poison).
  // With SHADER_DEVICE_ADDRESS usage the memory is allocated with DEVICE_ADDRESS_BIT.
  Buffer create_buffer(VkDeviceSize size, VkBufferUsageFlags usage, std::optional<uint8_t> fill = 0);
  // Image with its own allocation: of a memory type with all `required` flags when given,
  // otherwise any type the image allows, device-local preferred.
  Image create_image(const VkImageCreateInfo& info, VkMemoryPropertyFlags required = 0);
  // Common case: optimal-tiling transfer src/dst image of `type` with one sample.
  Image create_image(VkImageType type, VkFormat format, VkExtent3D extent, uint32_t mip_levels = 1,
                     uint32_t array_layers = 1, VkImageCreateFlags flags = 0,
                     VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                               VK_IMAGE_USAGE_TRANSFER_DST_BIT);

  VkFence create_fence(bool signaled);
  VkSemaphore create_binary_semaphore();
  VkSemaphore create_timeline_semaphore(uint64_t initial_value);
  VkEvent create_event();
  VkCommandBuffer allocate_command_buffer(VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY);

  // Records `record` into a one-time command buffer, submits it to `queue(queue_index)` and waits
  // for it (at most kGpuTimeoutNs).
  void run_commands(const std::function<void(VkCommandBuffer)>& record, uint32_t queue_index = 0);
  // A new primary command buffer (freed with the pool) with `record` recorded into it, for the test
  // to submit itself.
  VkCommandBuffer record_commands(const std::function<void(VkCommandBuffer)>& record);

  // Copies one subresource of `image` (currently in `layout`, TRANSFER_SRC_OPTIMAL or GENERAL,
  // after work already waited for) to a host buffer and returns its tightly packed bytes.
  std::vector<uint8_t> read_image(const Image& image, VkImageAspectFlags aspect, uint32_t mip_level,
                                  uint32_t array_layer, VkImageLayout layout);

 private:
  TestDevice() = default;
  VkDevice device_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  const VkAllocationCallbacks* allocator_ = nullptr;
  std::vector<VkQueue> queues_;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  std::vector<std::function<void()>> deferred_destroys_;
};

// --- Recording helpers -------------------------------------------------------------------------

VkCommandBufferBeginInfo begin_info(VkCommandBufferUsageFlags flags = 0);
// Full memory barrier between all earlier and all later commands (vkCmdPipelineBarrier).
void full_barrier(VkCommandBuffer cmd);
// Layout transition of a subresource range with a full memory dependency (vkCmdPipelineBarrier).
void transition(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                VkImageLayout to, uint32_t base_mip = 0, uint32_t mip_count = VK_REMAINING_MIP_LEVELS,
                uint32_t base_layer = 0, uint32_t layer_count = VK_REMAINING_ARRAY_LAYERS);
// Submits one command buffer with an optional fence (vkQueueSubmit).
VkResult submit(VkQueue queue, VkCommandBuffer cmd, VkFence fence = VK_NULL_HANDLE);

// Bytes of one texel (or, for a depth/stencil format, of one texel of `aspect` as copied to a
// buffer) for the formats the suite uses.
uint32_t texel_size(VkFormat format, VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT);
VkExtent3D mip_extent(const VkExtent3D& extent, uint32_t mip_level);
VkImageSubresourceLayers layers(VkImageAspectFlags aspect, uint32_t mip, uint32_t base_layer = 0,
                                uint32_t layer_count = 1);

// What every VkMemoryRequirements must say: at least `minimum_size` bytes, a power-of-two
// alignment, some memory type.
void expect_valid_requirements(const VkMemoryRequirements& requirements, VkDeviceSize minimum_size);

// --- The fixture -------------------------------------------------------------------------------

class VulkanTest : public ::testing::Test {
 protected:
  // Points the loader at the driver under test, creates the validated instance and picks the
  // first physical device.
  void SetUp() override;
  // Destroys devices and instances made by the test, then fails the test for every validation
  // message captured during it.
  void TearDown() override;
  // Instance extensions a fixture needs (e.g. VK_KHR_surface); none by default.
  virtual std::vector<const char*> instance_extensions() const { return {}; }

  TestInstance& instance() { return *instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const DeviceFeatures& features() const { return features_; }
  bool is_kiln() const { return is_kiln_device(properties_); }

  // The default device, made on first use: min(2, available) queues of family 0, and the features
  // timelineSemaphore, synchronization2 and maintenance4 enabled where the device supports them.
  // Throws std::runtime_error (a test failure) if the device cannot be created.
  TestDevice& device();
  // Another device on the selected physical device; destroyed at TearDown. Null (and a test
  // failure) if creation fails.
  TestDevice* create_device(const DeviceOptions& options);
  // A device with the features set in `enabled` (its chain, plus any pNext added to its v13) and
  // `extensions`. maintenance4 is turned on when the driver has it: glslang's Vulkan 1.3 output
  // declares workgroup sizes with LocalSizeId, which needs it.
  TestDevice* create_device(DeviceFeatures& enabled, std::vector<const char*> extensions = {});
  // A device with extension `name` and its feature struct `features` as set (pNext must be null).
  template <typename Features>
  TestDevice* create_device_with_extension(Features& features, const char* name) {
    DeviceFeatures enabled;
    enabled.v13.pNext = &features;
    return create_device(enabled, {name});
  }

  // ERROR-PATH HELPER. An instance WITHOUT the validation layer (and the same physical device in
  // it), for the few tests that must exercise invalid usage the spec leaves to the driver
  // (unsupported extension, unsupported feature, allocation larger than its heap). Everything else
  // runs validated. Lives until TearDown.
  struct UnvalidatedContext {
    TestInstance* instance = nullptr;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  };
  UnvalidatedContext create_unvalidated_context();

 private:
  std::unique_ptr<TestInstance> instance_;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  DeviceFeatures features_;
  std::unique_ptr<TestDevice> default_device_;
  std::vector<std::unique_ptr<TestDevice>> extra_devices_;
  std::vector<std::unique_ptr<TestInstance>> unvalidated_instances_;
};

// Whether `stage` has the subgroup operations draw_subgroup.frag/.vert and geom_subgroup.geom use
// (basic, ballot, arithmetic, vote, shuffle).
bool has_subgroup_checks(VkPhysicalDevice physical_device, VkShaderStageFlagBits stage);

// --- Differential tests ------------------------------------------------------------------------

// Finds the physical device of `driver` among the instance's devices: Kiln by its "Kiln" name
// prefix, lavapipe by VkPhysicalDeviceDriverProperties::driverID == VK_DRIVER_ID_MESA_LLVMPIPE.
VkPhysicalDevice find_driver_device(const TestInstance& instance, Driver driver);

// Kiln and lavapipe side by side in one process: the loader is given both manifests
// ("<kiln>:<lavapipe>"), one validated instance sees both drivers, and each gets its own device.
// Skips when lavapipe's manifest is missing. With KILN_TEST_DRIVER=lavapipe both devices are
// lavapipe's (the loader only sees lavapipe), which checks the differential tests themselves.
class DifferentialTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;  // devices, instance, then a failure per validation message

  TestDevice& kiln() { return *kiln_; }
  TestDevice& lavapipe() { return *lavapipe_; }
  // "<test suite>.<test name>", for naming saved images.
  static std::string current_test_name();

 private:
  std::unique_ptr<TestInstance> instance_;
  std::unique_ptr<TestDevice> kiln_;
  std::unique_ptr<TestDevice> lavapipe_;
};

// Skips the rest of the test unless the driver under test is Kiln (for Kiln-specific facts).
#define KILN_ONLY()                                                                        \
  do {                                                                                     \
    if (!is_kiln())                                                                        \
      GTEST_SKIP() << "Kiln-specific check; driver under test is " << properties().deviceName; \
  } while (0)

// A capability the test needs: Kiln must have it (failure otherwise); other drivers may lack it
// (the test is skipped there).
#define REQUIRE_ON_KILN(condition, what)                                                  \
  do {                                                                                    \
    if (!(condition)) {                                                                   \
      if (is_kiln()) FAIL() << "Kiln must support " << what;                              \
      GTEST_SKIP() << properties().deviceName << " does not support " << what;            \
    }                                                                                     \
  } while (0)

// Skips the rest of the test on lavapipe, whose result for the checks that follow deviates from
// the spec (`why`; seen with Mesa 22.3, the reference driver here). Checks before it run on every
// driver; Kiln must pass all of them.
#define SKIP_ON_LAVAPIPE(why)                                              \
  do {                                                                     \
    if (is_lavapipe_device(physical_device()))                             \
      GTEST_SKIP() << "lavapipe deviates from the spec here: " << (why); \
  } while (0)

}  // namespace kiln::test
