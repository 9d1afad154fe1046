// Logical devices: creation with several queues, queue retrieval, rejected extensions and
// features, device-level proc addresses, wait idle.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using DeviceTest = VulkanTest;

uint32_t family_zero_queue_count(VkPhysicalDevice physical_device) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, families.data());
  return families.at(0).queueCount;
}

// The VkBool32 members of a feature struct, viewed as an array: from `first` to `last` inclusive.
struct FeatureSpan {
  const char* struct_name;
  VkBool32* bits;
  size_t count;
};

template <typename Struct>
FeatureSpan feature_span(const char* struct_name, Struct& features, VkBool32 Struct::*first, VkBool32 Struct::*last) {
  VkBool32* begin = &(features.*first);
  return {struct_name, begin, static_cast<size_t>(&(features.*last) - begin) + 1};
}

// The 1.0, 1.1, 1.2 and 1.3 feature structs of `f`, in that order.
std::vector<FeatureSpan> feature_spans(DeviceFeatures& f) {
  return {
      feature_span("VkPhysicalDeviceFeatures", f.core.features, &VkPhysicalDeviceFeatures::robustBufferAccess,
                   &VkPhysicalDeviceFeatures::inheritedQueries),
      feature_span("VkPhysicalDeviceVulkan11Features", f.v11, &VkPhysicalDeviceVulkan11Features::storageBuffer16BitAccess,
                   &VkPhysicalDeviceVulkan11Features::shaderDrawParameters),
      feature_span("VkPhysicalDeviceVulkan12Features", f.v12, &VkPhysicalDeviceVulkan12Features::samplerMirrorClampToEdge,
                   &VkPhysicalDeviceVulkan12Features::subgroupBroadcastDynamicId),
      feature_span("VkPhysicalDeviceVulkan13Features", f.v13, &VkPhysicalDeviceVulkan13Features::robustImageAccess,
                   &VkPhysicalDeviceVulkan13Features::maintenance4),
  };
}

// Finds a feature the device reports FALSE — among the first `struct_count` feature structs —
// and sets it in `request` (all FALSE on entry). Returns its description, or "" if there is none.
std::string request_unsupported_feature(DeviceFeatures& supported, DeviceFeatures* request, size_t struct_count) {
  const std::vector<FeatureSpan> have = feature_spans(supported);
  const std::vector<FeatureSpan> want = feature_spans(*request);
  for (size_t group = 0; group < struct_count && group < have.size(); ++group) {
    for (size_t i = 0; i < have[group].count; ++i) {
      if (have[group].bits[i]) continue;
      want[group].bits[i] = VK_TRUE;
      return std::string(have[group].struct_name) + " member #" + std::to_string(i);
    }
  }
  return {};
}

TEST_F(DeviceTest, CreateWithTwoQueuesAndGetThem) {
  REQUIRE_ON_KILN(family_zero_queue_count(physical_device()) >= 2, "two queues in family 0");
  DeviceOptions options;
  options.queue_count = 2;
  TestDevice* device = create_device(options);
  ASSERT_NE(nullptr, device);
  VkQueue first = VK_NULL_HANDLE, second = VK_NULL_HANDLE;
  vkGetDeviceQueue(device->handle(), 0, 0, &first);
  vkGetDeviceQueue(device->handle(), 0, 1, &second);
  EXPECT_NE(VK_NULL_HANDLE, first);
  EXPECT_NE(VK_NULL_HANDLE, second);
  EXPECT_NE(first, second);
  // The same queue is returned every time, also through vkGetDeviceQueue2.
  VkQueue again = VK_NULL_HANDLE;
  vkGetDeviceQueue(device->handle(), 0, 1, &again);
  EXPECT_EQ(second, again);
  VkDeviceQueueInfo2 info{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2};
  info.queueFamilyIndex = 0;
  info.queueIndex = 0;
  VkQueue via_info2 = VK_NULL_HANDLE;
  vkGetDeviceQueue2(device->handle(), &info, &via_info2);
  EXPECT_EQ(first, via_info2);
  // Both queues accept work.
  for (uint32_t q = 0; q < 2; ++q) EXPECT_EQ(VK_SUCCESS, vkQueueWaitIdle(device->queue(q)));
}

TEST_F(DeviceTest, TwoDevicesOnOnePhysicalDeviceAreIndependent) {
  TestDevice* other = create_device({});
  ASSERT_NE(nullptr, other);
  EXPECT_NE(device().handle(), other->handle());
  Buffer a = device().create_buffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  Buffer b = other->create_buffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, 0x11111111u);
    full_barrier(cmd);
  });
  other->run_commands([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 0x22222222u);
    full_barrier(cmd);
  });
  EXPECT_EQ(0x11, a.mapped[63]);
  EXPECT_EQ(0x22, b.mapped[63]);
}

// ERROR PATH (unvalidated instance): the layer would flag the unknown extension.
TEST_F(DeviceTest, UnknownExtensionIsRejected) {
  UnvalidatedContext context = create_unvalidated_context();
  ASSERT_NE(VK_NULL_HANDLE, context.physical_device);
  DeviceOptions options;
  options.extensions = {"VK_KILN_extension_that_does_not_exist"};
  std::unique_ptr<TestDevice> device;
  EXPECT_EQ(VK_ERROR_EXTENSION_NOT_PRESENT, TestDevice::create(context.physical_device, options, &device));
  EXPECT_EQ(nullptr, device);
}

// ERROR PATH (unvalidated instance): requesting a feature the device reports FALSE, through a
// VkPhysicalDeviceFeatures2 chain (any of the 1.0–1.3 structs) and through pEnabledFeatures.
TEST_F(DeviceTest, UnsupportedFeatureIsRejected) {
  UnvalidatedContext context = create_unvalidated_context();
  ASSERT_NE(VK_NULL_HANDLE, context.physical_device);
  DeviceFeatures supported;
  DeviceFeatures::query(context.physical_device, &supported);
  DeviceFeatures request;
  const std::string feature = request_unsupported_feature(supported, &request, 4);
  if (feature.empty()) GTEST_SKIP() << "the device supports every core feature";
  DeviceOptions options;
  options.create_info_chain = &request.core;
  std::unique_ptr<TestDevice> device;
  EXPECT_EQ(VK_ERROR_FEATURE_NOT_PRESENT, TestDevice::create(context.physical_device, options, &device))
      << "requested unsupported " << feature;
}

TEST_F(DeviceTest, UnsupportedCoreFeatureViaEnabledFeaturesIsRejected) {
  UnvalidatedContext context = create_unvalidated_context();
  ASSERT_NE(VK_NULL_HANDLE, context.physical_device);
  DeviceFeatures supported;
  DeviceFeatures::query(context.physical_device, &supported);
  DeviceFeatures request;
  const std::string feature = request_unsupported_feature(supported, &request, 1);
  if (feature.empty()) GTEST_SKIP() << "the device supports every 1.0 feature";
  DeviceOptions options;
  options.enabled_features = &request.core.features;
  std::unique_ptr<TestDevice> device;
  EXPECT_EQ(VK_ERROR_FEATURE_NOT_PRESENT, TestDevice::create(context.physical_device, options, &device))
      << "requested unsupported " << feature;
}

// VkPhysicalDeviceVulkan12Features ends in 4 bytes of padding after its last VkBool32. A driver
// must look at the members only: applications need not zero padding.
TEST_F(DeviceTest, PaddingAfterTheLastFeatureIsIgnored) {
  VkPhysicalDeviceVulkan12Features v12;
  std::memset(&v12, 0xFF, sizeof v12);  // padding stays 0xFF
  v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  v12.pNext = nullptr;
  const FeatureSpan members =
      feature_span("VkPhysicalDeviceVulkan12Features", v12, &VkPhysicalDeviceVulkan12Features::samplerMirrorClampToEdge,
                   &VkPhysicalDeviceVulkan12Features::subgroupBroadcastDynamicId);
  const size_t members_end =
      reinterpret_cast<const char*>(members.bits + members.count) - reinterpret_cast<const char*>(&v12);
  if (members_end == sizeof v12) GTEST_SKIP() << "this ABI leaves no padding after the last member";
  for (size_t i = 0; i < members.count; ++i) members.bits[i] = VK_FALSE;
  v12.timelineSemaphore = features().v12.timelineSemaphore;  // one real request alongside
  VkPhysicalDeviceFeatures2 chain{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v12};
  DeviceOptions options;
  options.create_info_chain = &chain;
  EXPECT_NE(nullptr, create_device(options)) << "padding bytes were read as a requested feature";
}

// Enabled extensions bring their commands under the extension's names: vkGetDeviceProcAddr must
// return them, and they act like the core commands they alias. The loader answers for commands it
// knows even when the driver does not, so one of them is also called.
TEST_F(DeviceTest, ListedExtensionsCanBeEnabled) {
  uint32_t count = 0;
  ASSERT_EQ(VK_SUCCESS, vkEnumerateDeviceExtensionProperties(physical_device(), nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> listed(count);
  ASSERT_EQ(VK_SUCCESS, vkEnumerateDeviceExtensionProperties(physical_device(), nullptr, &count, listed.data()));
  // Promoted extensions without dependencies beyond 1.3 core, and a command of each; enable those
  // the device lists.
  const std::pair<const char*, const char*> extensions[] = {
      {VK_KHR_COPY_COMMANDS_2_EXTENSION_NAME, "vkCmdCopyBuffer2KHR"},
      {VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME, "vkQueueSubmit2KHR"},
      {VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME, "vkWaitSemaphoresKHR"},
      {VK_KHR_MAINTENANCE_4_EXTENSION_NAME, "vkGetDeviceBufferMemoryRequirementsKHR"}};
  DeviceOptions options;
  std::vector<const char*> commands;
  for (const auto& [name, command] : extensions) {
    for (const VkExtensionProperties& extension : listed)
      if (std::strcmp(extension.extensionName, name) == 0) {
        options.extensions.push_back(name);
        commands.push_back(command);
      }
  }
  if (options.extensions.empty()) GTEST_SKIP() << "the device lists none of the promoted extensions tried";
  TestDevice* device = create_device(options);
  ASSERT_NE(nullptr, device);
  for (const char* command : commands) EXPECT_NE(nullptr, vkGetDeviceProcAddr(device->handle(), command)) << command;
  const auto requirements_khr = reinterpret_cast<PFN_vkGetDeviceBufferMemoryRequirementsKHR>(
      vkGetDeviceProcAddr(device->handle(), "vkGetDeviceBufferMemoryRequirementsKHR"));
  if (!requirements_khr) return;  // maintenance4 not listed (or the failure above)
  VkBufferCreateInfo buffer_info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = 1000;
  buffer_info.usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
  const VkDeviceBufferMemoryRequirements query{VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS, nullptr, &buffer_info};
  VkMemoryRequirements2 core{.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
  VkMemoryRequirements2 khr{.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
  vkGetDeviceBufferMemoryRequirements(device->handle(), &query, &core);
  requirements_khr(device->handle(), &query, &khr);
  expect_valid_requirements(core.memoryRequirements, 1000);
  EXPECT_EQ(core.memoryRequirements.size, khr.memoryRequirements.size);
  EXPECT_EQ(core.memoryRequirements.alignment, khr.memoryRequirements.alignment);
  EXPECT_EQ(core.memoryRequirements.memoryTypeBits, khr.memoryRequirements.memoryTypeBits);
}

// VK_KHR_external_memory / _semaphore / _fence (core 1.1 by name): a device with them accepts the
// export structs with no handle types, and the queries report no exportable handle type for
// opaque file descriptors (Kiln exports nothing; it imports host allocations).
TEST_F(DeviceTest, ExternalObjectsExtensions) {
  const char* names[] = {VK_KHR_EXTERNAL_MEMORY_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_EXTENSION_NAME,
                         VK_KHR_EXTERNAL_FENCE_EXTENSION_NAME};
  uint32_t count = 0;
  ASSERT_EQ(VK_SUCCESS, vkEnumerateDeviceExtensionProperties(physical_device(), nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> listed(count);
  ASSERT_EQ(VK_SUCCESS, vkEnumerateDeviceExtensionProperties(physical_device(), nullptr, &count, listed.data()));
  DeviceOptions options;
  for (const char* name : names)
    for (const VkExtensionProperties& extension : listed)
      if (std::strcmp(extension.extensionName, name) == 0) options.extensions.push_back(name);
  REQUIRE_ON_KILN(options.extensions.size() == 3, "VK_KHR_external_memory, _semaphore and _fence");
  TestDevice* device = create_device(options);
  ASSERT_NE(device, nullptr);
  VkDevice d = device->handle();
  VkExternalMemoryBufferCreateInfo external_buffer{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external_buffer};
  buffer_info.size = 256;
  buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateBuffer(d, &buffer_info, nullptr, &buffer));
  vkDestroyBuffer(d, buffer, nullptr);
  VkExportSemaphoreCreateInfo export_semaphore{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
  VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &export_semaphore};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateSemaphore(d, &semaphore_info, nullptr, &semaphore));
  vkDestroySemaphore(d, semaphore, nullptr);
  VkExportFenceCreateInfo export_fence{VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO};
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, &export_fence};
  VkFence fence = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateFence(d, &fence_info, nullptr, &fence));
  vkDestroyFence(d, fence, nullptr);
  // What the property queries answer: PhysicalDeviceTest.ExternalObjectQueriesAnswer.
}

// vkGetDeviceProcAddr: NULL for an unknown name, and the 1.0-1.3 core commands. The loader answers
// for the commands it knows from its own table, and a command the driver does not return becomes
// a stub that does nothing, so 1.3 commands are also called through the pointers: a query
// answers, and a copy recorded and submitted with them arrives.
TEST_F(DeviceTest, GetDeviceProcAddr) {
  VkDevice device_handle = device().handle();
  EXPECT_EQ(nullptr, vkGetDeviceProcAddr(device_handle, "vkThisFunctionDoesNotExistKILN"));
  for (const char* name : {"vkQueueSubmit", "vkCmdCopyBuffer", "vkCmdCopyBuffer2", "vkQueueSubmit2",
                           "vkWaitSemaphores", "vkGetDeviceBufferMemoryRequirements", "vkDestroyDevice"})
    EXPECT_NE(nullptr, vkGetDeviceProcAddr(device_handle, name)) << name;

  const auto requirements = reinterpret_cast<PFN_vkGetDeviceBufferMemoryRequirements>(
      vkGetDeviceProcAddr(device_handle, "vkGetDeviceBufferMemoryRequirements"));
  const auto copy_buffer2 = reinterpret_cast<PFN_vkCmdCopyBuffer2>(vkGetDeviceProcAddr(device_handle, "vkCmdCopyBuffer2"));
  const auto queue_submit2 = reinterpret_cast<PFN_vkQueueSubmit2>(vkGetDeviceProcAddr(device_handle, "vkQueueSubmit2"));
  ASSERT_TRUE(requirements && copy_buffer2 && queue_submit2);
  VkBufferCreateInfo buffer_info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = 1000;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  const VkDeviceBufferMemoryRequirements query{VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS, nullptr, &buffer_info};
  VkMemoryRequirements2 answer{.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
  requirements(device_handle, &query, &answer);
  expect_valid_requirements(answer.memoryRequirements, 1000);

  ASSERT_TRUE(features().v13.synchronization2);  // required by Vulkan 1.3; the default device enables it
  Buffer source = device().create_buffer(256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0x5A);
  Buffer destination = device().create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer cmd = device().allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  const VkBufferCopy2 region{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 0, 0, 256};
  const VkCopyBufferInfo2 copy{VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2, nullptr, source.buffer, destination.buffer, 1, &region};
  copy_buffer2(cmd, &copy);
  full_barrier(cmd);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));
  const VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, cmd, 0};
  VkSubmitInfo2 submit_info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit_info.commandBufferInfoCount = 1;
  submit_info.pCommandBufferInfos = &cmd_info;
  VkFence fence = device().create_fence(false);
  ASSERT_EQ(VK_SUCCESS, queue_submit2(device().queue(), 1, &submit_info, fence));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(device_handle, 1, &fence, VK_TRUE, kGpuTimeoutNs));
  EXPECT_EQ(256, std::count(destination.mapped, destination.mapped + 256, 0x5A)) << "bytes copied";
}

TEST_F(DeviceTest, DeviceWaitIdleWaitsForSubmittedWork) {
  Buffer buffer = device().create_buffer(4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer cmd = device().allocate_command_buffer();
  VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  vkCmdFillBuffer(cmd, buffer.buffer, 0, VK_WHOLE_SIZE, 0xCAFEF00Du);
  full_barrier(cmd);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));
  ASSERT_EQ(VK_SUCCESS, submit(device().queue(), cmd));
  ASSERT_EQ(VK_SUCCESS, vkDeviceWaitIdle(device().handle()));
  uint32_t last = 0;
  std::memcpy(&last, buffer.mapped + 4092, 4);
  EXPECT_EQ(0xCAFEF00Du, last);
}

}  // namespace
}  // namespace kiln::test
