// Instance-level entry points through the loader: version, creation, proc addresses, devices.
#include <algorithm>
#include <string>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using InstanceTest = VulkanTest;

TEST_F(InstanceTest, InstanceVersionIsAtLeast13) {
  uint32_t version = 0;
  ASSERT_EQ(VK_SUCCESS, vkEnumerateInstanceVersion(&version));
  EXPECT_GE(VK_API_VERSION_MAJOR(version), 1u);
  EXPECT_GE(version, VK_API_VERSION_1_3) << "instance version " << VK_API_VERSION_MAJOR(version) << "."
                                         << VK_API_VERSION_MINOR(version);
}

TEST_F(InstanceTest, SecondInstanceCanBeCreatedAndDestroyed) {
  std::unique_ptr<TestInstance> second;
  ASSERT_EQ(VK_SUCCESS, TestInstance::create({}, &second));
  ASSERT_NE(VK_NULL_HANDLE, second->handle());
  EXPECT_NE(instance().handle(), second->handle());
  EXPECT_FALSE(second->physical_devices().empty());
  second->destroy();
  EXPECT_TRUE(second->messages().empty()) << second->messages().front();
}

// VK_KHR_device_group_creation / VK_KHR_device_group (core 1.1) under their names: an instance
// that enables the extension reaches vkEnumeratePhysicalDeviceGroupsKHR, which reports Kiln's one
// device as a group of one; the device lists VK_KHR_device_group.
TEST_F(InstanceTest, DeviceGroupExtensionsNameTheCoreCommands) {
  uint32_t count = 0;
  ASSERT_EQ(VK_SUCCESS, vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> extensions(count);
  ASSERT_EQ(VK_SUCCESS, vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data()));
  const bool listed = std::any_of(extensions.begin(), extensions.end(), [](const VkExtensionProperties& e) {
    return std::string(e.extensionName) == VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME;
  });
  REQUIRE_ON_KILN(listed && device_has_extension(physical_device(), VK_KHR_DEVICE_GROUP_EXTENSION_NAME),
                  "VK_KHR_device_group_creation and VK_KHR_device_group");
  InstanceOptions options;
  options.extensions = {VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME};
  std::unique_ptr<TestInstance> with_groups;
  ASSERT_EQ(VK_SUCCESS, TestInstance::create(options, &with_groups));
  auto enumerate_groups = reinterpret_cast<PFN_vkEnumeratePhysicalDeviceGroupsKHR>(
      vkGetInstanceProcAddr(with_groups->handle(), "vkEnumeratePhysicalDeviceGroupsKHR"));
  ASSERT_NE(enumerate_groups, nullptr);
  uint32_t groups = 0;
  ASSERT_EQ(VK_SUCCESS, enumerate_groups(with_groups->handle(), &groups, nullptr));
  ASSERT_GE(groups, 1u);
  std::vector<VkPhysicalDeviceGroupProperties> properties(groups, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES});
  ASSERT_EQ(VK_SUCCESS, enumerate_groups(with_groups->handle(), &groups, properties.data()));
  for (const VkPhysicalDeviceGroupProperties& g : properties) {
    EXPECT_EQ(g.physicalDeviceCount, 1u);
    EXPECT_NE(g.physicalDevices[0], VK_NULL_HANDLE);
  }
  with_groups->destroy();
  EXPECT_TRUE(with_groups->messages().empty()) << with_groups->messages().front();
}

// VK_KHR_external_{memory,semaphore,fence}_capabilities (core 1.1) under their names: an instance
// that enables them reaches the KHR commands, which answer as the core ones do — host allocations
// importable for buffers (VK_EXT_external_memory_host), no external semaphore or fence handles.
TEST_F(InstanceTest, ExternalCapabilitiesExtensionsNameTheCoreCommands) {
  const std::vector<const char*> names = {VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_EXTENSION_NAME,
                                          VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_EXTENSION_NAME,
                                          VK_KHR_EXTERNAL_FENCE_CAPABILITIES_EXTENSION_NAME};
  uint32_t count = 0;
  ASSERT_EQ(VK_SUCCESS, vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> extensions(count);
  ASSERT_EQ(VK_SUCCESS, vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data()));
  const bool listed = std::all_of(names.begin(), names.end(), [&](const char* name) {
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](const VkExtensionProperties& e) { return std::string(e.extensionName) == name; });
  });
  REQUIRE_ON_KILN(listed, "VK_KHR_external_{memory,semaphore,fence}_capabilities");
  InstanceOptions options;
  options.extensions = names;
  std::unique_ptr<TestInstance> instance;
  ASSERT_EQ(VK_SUCCESS, TestInstance::create(options, &instance));
  uint32_t devices = 1;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  ASSERT_GE(vkEnumeratePhysicalDevices(instance->handle(), &devices, &physical), VK_SUCCESS);
  auto buffer_properties = reinterpret_cast<PFN_vkGetPhysicalDeviceExternalBufferPropertiesKHR>(
      vkGetInstanceProcAddr(instance->handle(), "vkGetPhysicalDeviceExternalBufferPropertiesKHR"));
  auto semaphore_properties = reinterpret_cast<PFN_vkGetPhysicalDeviceExternalSemaphorePropertiesKHR>(
      vkGetInstanceProcAddr(instance->handle(), "vkGetPhysicalDeviceExternalSemaphorePropertiesKHR"));
  auto fence_properties = reinterpret_cast<PFN_vkGetPhysicalDeviceExternalFencePropertiesKHR>(
      vkGetInstanceProcAddr(instance->handle(), "vkGetPhysicalDeviceExternalFencePropertiesKHR"));
  ASSERT_TRUE(buffer_properties && semaphore_properties && fence_properties);
  const VkPhysicalDeviceExternalBufferInfo buffer{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO, nullptr, 0,
                                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                  VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkExternalBufferProperties got{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  VkExternalBufferProperties core{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  buffer_properties(physical, &buffer, &got);
  vkGetPhysicalDeviceExternalBufferProperties(physical, &buffer, &core);
  EXPECT_EQ(got.externalMemoryProperties.externalMemoryFeatures, core.externalMemoryProperties.externalMemoryFeatures);
  EXPECT_EQ(got.externalMemoryProperties.compatibleHandleTypes, core.externalMemoryProperties.compatibleHandleTypes);
  const VkPhysicalDeviceExternalSemaphoreInfo semaphore{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO, nullptr,
                                                        VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkExternalSemaphoreProperties semaphore_got{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  VkExternalSemaphoreProperties semaphore_core{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  semaphore_properties(physical, &semaphore, &semaphore_got);
  vkGetPhysicalDeviceExternalSemaphoreProperties(physical, &semaphore, &semaphore_core);
  EXPECT_EQ(semaphore_got.externalSemaphoreFeatures, semaphore_core.externalSemaphoreFeatures);
  const VkPhysicalDeviceExternalFenceInfo fence{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO, nullptr,
                                                VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkExternalFenceProperties fence_got{VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
  VkExternalFenceProperties fence_core{VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
  fence_properties(physical, &fence, &fence_got);
  vkGetPhysicalDeviceExternalFenceProperties(physical, &fence, &fence_core);
  EXPECT_EQ(fence_got.externalFenceFeatures, fence_core.externalFenceFeatures);
  if (is_kiln()) {
    // Kiln exports and imports opaque fds of memory, semaphores and fences.
    EXPECT_EQ(got.externalMemoryProperties.externalMemoryFeatures,
              VkExternalMemoryFeatureFlags(VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT));
    EXPECT_EQ(semaphore_got.externalSemaphoreFeatures,
              VkExternalSemaphoreFeatureFlags(VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT));
    EXPECT_EQ(fence_got.externalFenceFeatures,
              VkExternalFenceFeatureFlags(VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT));
  }
  instance->destroy();
  EXPECT_TRUE(instance->messages().empty()) << instance->messages().front();
}

TEST_F(InstanceTest, GetInstanceProcAddrReturnsNullForUnknownName) {
  EXPECT_EQ(nullptr, vkGetInstanceProcAddr(instance().handle(), "vkThisFunctionDoesNotExistKILN"));
  EXPECT_EQ(nullptr, vkGetInstanceProcAddr(instance().handle(), ""));
}

TEST_F(InstanceTest, GetInstanceProcAddrFindsCoreCommands) {
  // Instance-level, device-level and 1.3-core commands are all reachable from the instance.
  for (const char* name : {"vkEnumeratePhysicalDevices", "vkGetPhysicalDeviceProperties2", "vkCreateDevice",
                           "vkQueueSubmit2", "vkCmdCopyBuffer2", "vkCmdPipelineBarrier2"})
    EXPECT_NE(nullptr, vkGetInstanceProcAddr(instance().handle(), name)) << name;
  // Global commands are reachable without an instance.
  EXPECT_NE(nullptr, vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance"));

  // The loader answers the lookups above from its own table whatever the driver returns (and
  // emulates vkGetPhysicalDeviceProperties2 with vkGetPhysicalDeviceProperties when the driver has
  // none), so the instance-level ones are called: the driver's own answers fill a 1.1 struct.
  const auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(
      vkGetInstanceProcAddr(instance().handle(), "vkEnumeratePhysicalDevices"));
  const auto properties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(
      vkGetInstanceProcAddr(instance().handle(), "vkGetPhysicalDeviceProperties2"));
  ASSERT_TRUE(enumerate && properties2);
  uint32_t count = 1;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  const VkResult result = enumerate(instance().handle(), &count, &physical_device);
  ASSERT_TRUE(result == VK_SUCCESS || result == VK_INCOMPLETE) << result;
  ASSERT_NE(VK_NULL_HANDLE, physical_device);
  VkPhysicalDeviceVulkan11Properties v11{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &v11};
  properties2(physical_device, &properties);
  EXPECT_GE(properties.properties.apiVersion, VK_API_VERSION_1_3);
  EXPECT_GE(v11.subgroupSize, 1u) << "VkPhysicalDeviceVulkan11Properties not filled";
  EXPECT_NE(0u, v11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) << "the spec requires compute";
}

TEST_F(InstanceTest, AtLeastOnePhysicalDevice) {
  uint32_t count = 0;
  ASSERT_EQ(VK_SUCCESS, vkEnumeratePhysicalDevices(instance().handle(), &count, nullptr));
  EXPECT_GE(count, 1u);
  std::vector<VkPhysicalDevice> devices(count);
  ASSERT_EQ(VK_SUCCESS, vkEnumeratePhysicalDevices(instance().handle(), &count, devices.data()));
  for (VkPhysicalDevice device : devices) EXPECT_NE(VK_NULL_HANDLE, device);
}

TEST_F(InstanceTest, EnumeratePhysicalDevicesReportsIncomplete) {
  uint32_t count = 0;
  ASSERT_EQ(VK_SUCCESS, vkEnumeratePhysicalDevices(instance().handle(), &count, nullptr));
  ASSERT_GE(count, 1u);
  if (count < 2) {
    // With a zero-sized array the call must report VK_INCOMPLETE.
    uint32_t none = 0;
    VkPhysicalDevice unused = VK_NULL_HANDLE;
    EXPECT_EQ(VK_INCOMPLETE, vkEnumeratePhysicalDevices(instance().handle(), &none, &unused));
    EXPECT_EQ(0u, none);
    return;
  }
  uint32_t fewer = count - 1;
  std::vector<VkPhysicalDevice> devices(fewer);
  EXPECT_EQ(VK_INCOMPLETE, vkEnumeratePhysicalDevices(instance().handle(), &fewer, devices.data()));
  EXPECT_EQ(count - 1, fewer);
}

// The fixture's promise — any validation message fails the test — rests on the messenger
// actually capturing them. Provoke one in a separate instance and look for it.
TEST_F(InstanceTest, ValidationMessagesAreCaptured) {
  std::unique_ptr<TestInstance> probe;
  ASSERT_EQ(VK_SUCCESS, TestInstance::create({}, &probe));
  const std::vector<VkPhysicalDevice> devices = probe->physical_devices();
  ASSERT_FALSE(devices.empty());
  {
    std::unique_ptr<TestDevice> device;
    ASSERT_EQ(VK_SUCCESS, TestDevice::create(devices[0], {}, &device));
    // A buffer without usage flags: invalid usage the layer reports, harmless for a driver.
    VkBufferCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = 64;
    VkBuffer buffer = VK_NULL_HANDLE;
    if (vkCreateBuffer(device->handle(), &info, nullptr, &buffer) == VK_SUCCESS)
      vkDestroyBuffer(device->handle(), buffer, nullptr);
  }
  probe->destroy();
  const std::vector<std::string> messages = probe->messages();
  ASSERT_FALSE(messages.empty()) << "the validation layer's error was not captured";
  EXPECT_NE(std::string::npos, messages.front().find("ERROR")) << messages.front();
}

}  // namespace
}  // namespace kiln::test
