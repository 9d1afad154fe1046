// Physical-device queries: properties (1.0–1.3, ID, driver), limits against the spec's
// "Required Limits" table, memory, queue families, features and format support.
#include <cstring>
#include <string>

#include "e2e/conformance_gaps.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using PhysicalDeviceTest = VulkanTest;

bool is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

bool all_zero(const uint8_t* bytes, size_t size) {
  for (size_t i = 0; i < size; ++i)
    if (bytes[i] != 0) return false;
  return true;
}

// Every property struct the tests look at, chained into one vkGetPhysicalDeviceProperties2 call.
struct AllProperties {
  VkPhysicalDeviceProperties2 core{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  VkPhysicalDeviceVulkan11Properties v11{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
  VkPhysicalDeviceVulkan12Properties v12{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceVulkan13Properties v13{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceIDProperties id{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  // Promoted extension structs: the same members as parts of v12 and v13.
  VkPhysicalDeviceDescriptorIndexingProperties indexing{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES};
  VkPhysicalDeviceInlineUniformBlockProperties inline_block{
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties maintenance3{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};

  explicit AllProperties(VkPhysicalDevice physical_device) {
    core.pNext = &v11;
    v11.pNext = &v12;
    v12.pNext = &v13;
    v13.pNext = &id;
    id.pNext = &driver;
    driver.pNext = &indexing;
    indexing.pNext = &inline_block;
    inline_block.pNext = &maintenance3;
    vkGetPhysicalDeviceProperties2(physical_device, &core);
  }
  AllProperties(const AllProperties&) = delete;
};

std::vector<VkQueueFamilyProperties> queue_families(VkPhysicalDevice physical_device) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, families.data());
  return families;
}

TEST_F(PhysicalDeviceTest, ApiVersionIsAtLeast13) {
  EXPECT_GE(properties().apiVersion, VK_API_VERSION_1_3)
      << "apiVersion " << VK_API_VERSION_MAJOR(properties().apiVersion) << "."
      << VK_API_VERSION_MINOR(properties().apiVersion);
}

// The core external-object queries answer (they must exist in 1.1+); Kiln shares memory, fences
// and semaphores as opaque fds (memfds), and no sync files (they need a kernel driver's fences).
TEST_F(PhysicalDeviceTest, ExternalObjectQueriesAnswer) {
  VkPhysicalDeviceExternalFenceInfo fence_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO};
  fence_info.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkExternalFenceProperties fence{VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
  fence.externalFenceFeatures = 0xFFFFFFFFu;
  vkGetPhysicalDeviceExternalFenceProperties(physical_device(), &fence_info, &fence);
  VkPhysicalDeviceExternalSemaphoreInfo semaphore_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
  semaphore_info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkExternalSemaphoreProperties semaphore{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  semaphore.externalSemaphoreFeatures = 0xFFFFFFFFu;
  vkGetPhysicalDeviceExternalSemaphoreProperties(physical_device(), &semaphore_info, &semaphore);
  VkPhysicalDeviceExternalBufferInfo buffer_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  buffer_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkExternalBufferProperties buffer{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  buffer.externalMemoryProperties.externalMemoryFeatures = 0xFFFFFFFFu;
  vkGetPhysicalDeviceExternalBufferProperties(physical_device(), &buffer_info, &buffer);
  KILN_ONLY();
  EXPECT_EQ(fence.externalFenceFeatures,
            VkExternalFenceFeatureFlags(VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT));
  EXPECT_EQ(fence.compatibleHandleTypes, VkExternalFenceHandleTypeFlags(VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT));
  EXPECT_EQ(semaphore.externalSemaphoreFeatures,
            VkExternalSemaphoreFeatureFlags(VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT));
  EXPECT_EQ(semaphore.compatibleHandleTypes, VkExternalSemaphoreHandleTypeFlags(VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT));
  fence_info.handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT;
  vkGetPhysicalDeviceExternalFenceProperties(physical_device(), &fence_info, &fence);
  EXPECT_EQ(fence.externalFenceFeatures, 0u);
  semaphore_info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT;
  vkGetPhysicalDeviceExternalSemaphoreProperties(physical_device(), &semaphore_info, &semaphore);
  EXPECT_EQ(semaphore.externalSemaphoreFeatures, 0u);
  // Memory exports and imports opaque fds (memfds, VK_KHR_external_memory_fd).
  EXPECT_EQ(buffer.externalMemoryProperties.externalMemoryFeatures,
            VkExternalMemoryFeatureFlags(VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT));
  EXPECT_EQ(buffer.externalMemoryProperties.compatibleHandleTypes,
            VkExternalMemoryHandleTypeFlags(VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT));
}

// texelBufferAlignment is mandatory for a Vulkan 1.3 device that lists VK_EXT_texel_buffer_alignment
// (the CTS's info.device_mandatory_features), and the alignments it points to are powers of two no
// larger than minTexelBufferOffsetAlignment.
TEST_F(PhysicalDeviceTest, TexelBufferAlignmentFeatureAndProperties) {
  VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT feature{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT};
  if (!query_extension_features(physical_device(), VK_EXT_TEXEL_BUFFER_ALIGNMENT_EXTENSION_NAME, feature))
    GTEST_SKIP() << "VK_EXT_texel_buffer_alignment not listed";
  EXPECT_TRUE(feature.texelBufferAlignment);
  VkPhysicalDeviceVulkan13Properties p13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p13};
  vkGetPhysicalDeviceProperties2(physical_device(), &props);
  const VkDeviceSize limit = props.properties.limits.minTexelBufferOffsetAlignment;
  for (const VkDeviceSize a : {p13.storageTexelBufferOffsetAlignmentBytes, p13.uniformTexelBufferOffsetAlignmentBytes}) {
    EXPECT_TRUE(a > 0 && (a & (a - 1)) == 0) << a;
    EXPECT_LE(a, limit);
  }
}

TEST_F(PhysicalDeviceTest, KilnDeviceNameAndType) {
  KILN_ONLY();
  EXPECT_EQ(0, std::strncmp(properties().deviceName, "Kiln", 4)) << properties().deviceName;
  EXPECT_EQ(VK_PHYSICAL_DEVICE_TYPE_CPU, properties().deviceType);
}

TEST_F(PhysicalDeviceTest, Properties2MatchesProperties) {
  AllProperties all(physical_device());
  EXPECT_STREQ(properties().deviceName, all.core.properties.deviceName);
  EXPECT_EQ(properties().apiVersion, all.core.properties.apiVersion);
  EXPECT_EQ(properties().vendorID, all.core.properties.vendorID);
  EXPECT_EQ(0, std::memcmp(&properties().limits, &all.core.properties.limits, sizeof(VkPhysicalDeviceLimits)));
}

TEST_F(PhysicalDeviceTest, IdAndDriverProperties) {
  AllProperties all(physical_device());
  EXPECT_FALSE(all_zero(all.id.deviceUUID, VK_UUID_SIZE)) << "deviceUUID is all zero";
  EXPECT_FALSE(all_zero(all.id.driverUUID, VK_UUID_SIZE)) << "driverUUID is all zero";
  // The 1.1 properties struct repeats the ID properties.
  EXPECT_EQ(0, std::memcmp(all.id.deviceUUID, all.v11.deviceUUID, VK_UUID_SIZE));
  EXPECT_EQ(0, std::memcmp(all.id.driverUUID, all.v11.driverUUID, VK_UUID_SIZE));
  EXPECT_NE(0, all.driver.driverID);
  EXPECT_GT(std::strlen(all.driver.driverName), 0u);
  EXPECT_EQ(all.driver.driverID, all.v12.driverID);
  EXPECT_STREQ(all.driver.driverName, all.v12.driverName);
}

TEST_F(PhysicalDeviceTest, DeviceUuidIsStableAcrossInstances) {
  AllProperties first(physical_device());
  std::unique_ptr<TestInstance> second;
  ASSERT_EQ(VK_SUCCESS, TestInstance::create({}, &second));
  const std::vector<VkPhysicalDevice> devices = second->physical_devices();
  ASSERT_FALSE(devices.empty());
  bool found = false;
  for (VkPhysicalDevice device : devices) {
    AllProperties other(device);
    if (std::strcmp(other.core.properties.deviceName, properties().deviceName) != 0) continue;
    found = true;
    EXPECT_EQ(0, std::memcmp(first.id.deviceUUID, other.id.deviceUUID, VK_UUID_SIZE));
    EXPECT_EQ(0, std::memcmp(first.id.driverUUID, other.id.driverUUID, VK_UUID_SIZE));
  }
  EXPECT_TRUE(found) << "the second instance does not list " << properties().deviceName;
  second->destroy();
  for (const std::string& message : second->messages()) ADD_FAILURE() << "validation: " << message;
}

TEST_F(PhysicalDeviceTest, CoreLimitsMeetRequiredMinimums) {
  const VkPhysicalDeviceLimits& l = properties().limits;
  const VkPhysicalDeviceFeatures& f = features().core.features;
  EXPECT_GE(l.maxImageDimension1D, 4096u);
  EXPECT_GE(l.maxImageDimension2D, 4096u);
  EXPECT_GE(l.maxImageDimension3D, 256u);
  EXPECT_GE(l.maxImageDimensionCube, 4096u);
  EXPECT_GE(l.maxImageArrayLayers, 256u);
  EXPECT_GE(l.maxTexelBufferElements, 65536u);
  EXPECT_GE(l.maxUniformBufferRange, 16384u);
  EXPECT_GE(l.maxStorageBufferRange, 1u << 27);
  EXPECT_GE(l.maxPushConstantsSize, 128u);
  EXPECT_GE(l.maxMemoryAllocationCount, 4096u);
  EXPECT_GE(l.maxSamplerAllocationCount, 4000u);
  EXPECT_LE(l.bufferImageGranularity, 131072u);
  EXPECT_TRUE(is_power_of_two(l.bufferImageGranularity)) << l.bufferImageGranularity;
  EXPECT_GE(l.maxBoundDescriptorSets, 4u);
  EXPECT_GE(l.maxPerStageDescriptorSamplers, 16u);
  EXPECT_GE(l.maxPerStageDescriptorUniformBuffers, 12u);
  EXPECT_GE(l.maxPerStageDescriptorStorageBuffers, 4u);
  EXPECT_GE(l.maxPerStageDescriptorSampledImages, 16u);
  EXPECT_GE(l.maxPerStageDescriptorStorageImages, 4u);
  EXPECT_GE(l.maxPerStageDescriptorInputAttachments, 4u);
  EXPECT_GE(l.maxPerStageResources, 128u);
  EXPECT_GE(l.maxDescriptorSetSamplers, 96u);
  EXPECT_GE(l.maxDescriptorSetUniformBuffers, 72u);
  EXPECT_GE(l.maxDescriptorSetUniformBuffersDynamic, 8u);
  EXPECT_GE(l.maxDescriptorSetStorageBuffers, 24u);
  EXPECT_GE(l.maxDescriptorSetStorageBuffersDynamic, 4u);
  EXPECT_GE(l.maxDescriptorSetSampledImages, 96u);
  EXPECT_GE(l.maxDescriptorSetStorageImages, 24u);
  EXPECT_GE(l.maxDescriptorSetInputAttachments, 4u);
  EXPECT_GE(l.maxVertexInputAttributes, 16u);
  EXPECT_GE(l.maxVertexInputBindings, 16u);
  EXPECT_GE(l.maxVertexInputAttributeOffset, 2047u);
  EXPECT_GE(l.maxVertexInputBindingStride, 2048u);
  EXPECT_GE(l.maxVertexOutputComponents, 64u);
  EXPECT_GE(l.maxFragmentInputComponents, 64u);
  EXPECT_GE(l.maxFragmentOutputAttachments, 4u);
  EXPECT_GE(l.maxFragmentCombinedOutputResources, 4u);
  EXPECT_GE(l.maxComputeSharedMemorySize, 16384u);
  for (uint32_t count : l.maxComputeWorkGroupCount) EXPECT_GE(count, 65535u);
  EXPECT_GE(l.maxComputeWorkGroupInvocations, 128u);
  EXPECT_GE(l.maxComputeWorkGroupSize[0], 128u);
  EXPECT_GE(l.maxComputeWorkGroupSize[1], 128u);
  EXPECT_GE(l.maxComputeWorkGroupSize[2], 64u);
  EXPECT_GE(l.subPixelPrecisionBits, 4u);
  EXPECT_GE(l.subTexelPrecisionBits, 4u);
  EXPECT_GE(l.mipmapPrecisionBits, 4u);
  EXPECT_GE(l.maxDrawIndexedIndexValue, (1u << 24) - 1);
  EXPECT_GE(l.maxDrawIndirectCount, f.multiDrawIndirect ? 65535u : 1u);
  EXPECT_GE(l.maxSamplerLodBias, 2.0f);
  EXPECT_GE(l.maxSamplerAnisotropy, f.samplerAnisotropy ? 16.0f : 1.0f);
  EXPECT_GE(l.maxViewports, f.multiViewport ? 16u : 1u);
  EXPECT_GE(l.maxViewportDimensions[0], 4096u);
  EXPECT_GE(l.maxViewportDimensions[1], 4096u);
  EXPECT_LE(l.viewportBoundsRange[0], -8192.0f);
  EXPECT_GE(l.viewportBoundsRange[1], 8191.0f);
  EXPECT_GE(l.minMemoryMapAlignment, 64u);
  EXPECT_TRUE(is_power_of_two(l.minMemoryMapAlignment));
  EXPECT_LE(l.minTexelBufferOffsetAlignment, 256u);
  EXPECT_TRUE(is_power_of_two(l.minTexelBufferOffsetAlignment));
  EXPECT_LE(l.minUniformBufferOffsetAlignment, 256u);
  EXPECT_TRUE(is_power_of_two(l.minUniformBufferOffsetAlignment));
  EXPECT_LE(l.minStorageBufferOffsetAlignment, 256u);
  EXPECT_TRUE(is_power_of_two(l.minStorageBufferOffsetAlignment));
  EXPECT_LE(l.minTexelOffset, -8);
  EXPECT_GE(l.maxTexelOffset, 7u);
  EXPECT_GE(l.maxFramebufferWidth, 4096u);
  EXPECT_GE(l.maxFramebufferHeight, 4096u);
  EXPECT_GE(l.maxFramebufferLayers, 256u);
  EXPECT_TRUE(l.storageImageSampleCounts & VK_SAMPLE_COUNT_1_BIT);
  EXPECT_GE(l.maxColorAttachments, 4u);
  EXPECT_GE(l.maxSampleMaskWords, 1u);
  if (f.shaderClipDistance) {
    EXPECT_GE(l.maxClipDistances, 8u);
  }
  if (f.shaderCullDistance) {
    EXPECT_GE(l.maxCullDistances, 8u);
  }
  if (f.shaderClipDistance || f.shaderCullDistance) {
    EXPECT_GE(l.maxCombinedClipAndCullDistances, 8u);
  }
  EXPECT_LE(l.pointSizeRange[0], 1.0f);
  EXPECT_LE(l.lineWidthRange[0], 1.0f);
  EXPECT_GE(l.lineWidthRange[1], f.wideLines ? 7.9f : 1.0f);
  if (f.largePoints) {
    EXPECT_GE(l.pointSizeRange[1], 63.9f);
  }
  EXPECT_LE(l.nonCoherentAtomSize, 256u);
  EXPECT_TRUE(is_power_of_two(l.nonCoherentAtomSize));
}

// Multisampling: the "Required Limits" table asks for 1 and 4 samples in these counts.
TEST_F(PhysicalDeviceTest, SampleCountLimitsIncludeOneAndFour) {
  const VkPhysicalDeviceLimits& l = properties().limits;
  const VkSampleCountFlags one = VK_SAMPLE_COUNT_1_BIT, four = VK_SAMPLE_COUNT_4_BIT;
  const VkSampleCountFlags counts[] = {l.framebufferColorSampleCounts, l.framebufferDepthSampleCounts,
                                       l.framebufferStencilSampleCounts, l.framebufferNoAttachmentsSampleCounts,
                                       l.sampledImageColorSampleCounts, l.sampledImageDepthSampleCounts,
                                       l.sampledImageStencilSampleCounts};
  bool all_four = true;
  for (VkSampleCountFlags c : counts) {
    EXPECT_TRUE(c & one);
    all_four = all_four && (c & four);
  }
  EXPECT_TRUE(l.sampledImageIntegerSampleCounts & one);
  expect_requirement(all_four, "4x sample counts", is_kiln());
}

TEST_F(PhysicalDeviceTest, Vulkan11To13LimitsMeetRequiredMinimums) {
  AllProperties all(physical_device());
  EXPECT_GE(all.v11.subgroupSize, 1u);
  EXPECT_TRUE(is_power_of_two(all.v11.subgroupSize)) << all.v11.subgroupSize;
  EXPECT_TRUE(all.v11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_TRUE(all.v11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT);
  EXPECT_GE(all.v11.maxPerSetDescriptors, 1024u);
  EXPECT_GE(all.v11.maxMemoryAllocationSize, VkDeviceSize(1) << 30);
  if (features().v11.multiview) {
    EXPECT_GE(all.v11.maxMultiviewViewCount, 6u);
    EXPECT_GE(all.v11.maxMultiviewInstanceIndex, (1u << 27) - 1);
  }
  if (features().v12.timelineSemaphore) {
    EXPECT_GE(all.v12.maxTimelineSemaphoreValueDifference, (1ull << 31) - 1);
  }
  EXPECT_TRUE(all.v12.framebufferIntegerColorSampleCounts & VK_SAMPLE_COUNT_1_BIT);
  EXPECT_TRUE(is_power_of_two(all.v13.minSubgroupSize)) << all.v13.minSubgroupSize;
  EXPECT_TRUE(is_power_of_two(all.v13.maxSubgroupSize)) << all.v13.maxSubgroupSize;
  EXPECT_LE(all.v13.minSubgroupSize, all.v11.subgroupSize);
  EXPECT_GE(all.v13.maxSubgroupSize, all.v11.subgroupSize);
  if (features().v13.inlineUniformBlock) {
    EXPECT_GE(all.v13.maxInlineUniformBlockSize, 256u);
    EXPECT_GE(all.v13.maxPerStageDescriptorInlineUniformBlocks, 4u);
    EXPECT_GE(all.v13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks, 4u);
    EXPECT_GE(all.v13.maxDescriptorSetInlineUniformBlocks, 4u);
    EXPECT_GE(all.v13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks, 4u);
    EXPECT_GE(all.v13.maxInlineUniformTotalSize, 256u);
  }
  // The descriptor-indexing limits' minimums (the spec ties them to descriptorIndexing; Kiln
  // meets them as soon as any update-after-bind feature is on).
  const VkPhysicalDeviceVulkan12Features& f12 = features().v12;
  if (f12.descriptorIndexing || f12.descriptorBindingStorageBufferUpdateAfterBind ||
      f12.descriptorBindingUniformBufferUpdateAfterBind) {
    EXPECT_GE(all.v12.maxUpdateAfterBindDescriptorsInAllPools, 500000u);
    EXPECT_GE(all.v12.maxPerStageDescriptorUpdateAfterBindSamplers, 500000u);
    EXPECT_GE(all.v12.maxPerStageDescriptorUpdateAfterBindUniformBuffers, 12u);
    EXPECT_GE(all.v12.maxPerStageDescriptorUpdateAfterBindStorageBuffers, 500000u);
    EXPECT_GE(all.v12.maxPerStageDescriptorUpdateAfterBindSampledImages, 500000u);
    EXPECT_GE(all.v12.maxPerStageDescriptorUpdateAfterBindStorageImages, 500000u);
    EXPECT_GE(all.v12.maxPerStageDescriptorUpdateAfterBindInputAttachments, 4u);
    EXPECT_GE(all.v12.maxPerStageUpdateAfterBindResources, 500000u);
    EXPECT_GE(all.v12.maxDescriptorSetUpdateAfterBindSamplers, 500000u);
    EXPECT_GE(all.v12.maxDescriptorSetUpdateAfterBindUniformBuffers, 72u);
    EXPECT_GE(all.v12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic, 8u);
    EXPECT_GE(all.v12.maxDescriptorSetUpdateAfterBindStorageBuffers, 500000u);
    EXPECT_GE(all.v12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic, 4u);
    EXPECT_GE(all.v12.maxDescriptorSetUpdateAfterBindSampledImages, 500000u);
    EXPECT_GE(all.v12.maxDescriptorSetUpdateAfterBindStorageImages, 500000u);
    EXPECT_GE(all.v12.maxDescriptorSetUpdateAfterBindInputAttachments, 4u);
  }
  if (features().v13.maintenance4) {
    EXPECT_GE(all.v13.maxBufferSize, VkDeviceSize(1) << 30);
  }
}

// The promoted extension structs report exactly what the core structs do.
TEST_F(PhysicalDeviceTest, PromotedDescriptorPropertyStructsMatchTheCoreStructs) {
  const AllProperties all(physical_device());
  const VkPhysicalDeviceDescriptorIndexingProperties& x = all.indexing;
  EXPECT_EQ(all.v12.maxUpdateAfterBindDescriptorsInAllPools, x.maxUpdateAfterBindDescriptorsInAllPools);
  EXPECT_EQ(all.v12.shaderUniformBufferArrayNonUniformIndexingNative, x.shaderUniformBufferArrayNonUniformIndexingNative);
  EXPECT_EQ(all.v12.shaderStorageBufferArrayNonUniformIndexingNative, x.shaderStorageBufferArrayNonUniformIndexingNative);
  EXPECT_EQ(all.v12.robustBufferAccessUpdateAfterBind, x.robustBufferAccessUpdateAfterBind);
  EXPECT_EQ(all.v12.quadDivergentImplicitLod, x.quadDivergentImplicitLod);
  EXPECT_EQ(all.v12.maxPerStageDescriptorUpdateAfterBindStorageBuffers, x.maxPerStageDescriptorUpdateAfterBindStorageBuffers);
  EXPECT_EQ(all.v12.maxDescriptorSetUpdateAfterBindInputAttachments, x.maxDescriptorSetUpdateAfterBindInputAttachments);
  EXPECT_EQ(all.v13.maxInlineUniformBlockSize, all.inline_block.maxInlineUniformBlockSize);
  EXPECT_EQ(all.v13.maxPerStageDescriptorInlineUniformBlocks, all.inline_block.maxPerStageDescriptorInlineUniformBlocks);
  EXPECT_EQ(all.v13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks,
            all.inline_block.maxDescriptorSetUpdateAfterBindInlineUniformBlocks);
  EXPECT_EQ(all.v11.maxPerSetDescriptors, all.maintenance3.maxPerSetDescriptors);
  EXPECT_EQ(all.v11.maxMemoryAllocationSize, all.maintenance3.maxMemoryAllocationSize);
  if (is_kiln()) {
    // Each lane gathers its own descriptor record: non-uniform buffer indexing is native.
    EXPECT_TRUE(x.shaderUniformBufferArrayNonUniformIndexingNative);
    EXPECT_TRUE(x.shaderStorageBufferArrayNonUniformIndexingNative);
    EXPECT_TRUE(x.robustBufferAccessUpdateAfterBind);
  }
}

TEST_F(PhysicalDeviceTest, MemoryPropertiesHaveHostVisibleCoherentAndDeviceLocalTypes) {
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical_device(), &memory);
  ASSERT_GE(memory.memoryHeapCount, 1u);
  ASSERT_LE(memory.memoryHeapCount, uint32_t(VK_MAX_MEMORY_HEAPS));
  ASSERT_GE(memory.memoryTypeCount, 1u);
  ASSERT_LE(memory.memoryTypeCount, uint32_t(VK_MAX_MEMORY_TYPES));
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i) EXPECT_GT(memory.memoryHeaps[i].size, 0u) << "heap " << i;
  bool host_visible_coherent = false, device_local = false;
  const VkMemoryPropertyFlags visible_coherent =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    const VkMemoryType& type = memory.memoryTypes[i];
    EXPECT_LT(type.heapIndex, memory.memoryHeapCount) << "type " << i;
    host_visible_coherent |= (type.propertyFlags & visible_coherent) == visible_coherent;
    device_local |= (type.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
  }
  EXPECT_TRUE(host_visible_coherent) << "the spec requires a HOST_VISIBLE|HOST_COHERENT memory type";
  EXPECT_TRUE(device_local) << "the spec requires a DEVICE_LOCAL memory type";
}

TEST_F(PhysicalDeviceTest, QueueFamilyZeroDoesGraphicsComputeTransfer) {
  const std::vector<VkQueueFamilyProperties> families = queue_families(physical_device());
  ASSERT_GE(families.size(), 1u);
  const VkQueueFlags wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  EXPECT_EQ(wanted, families[0].queueFlags & wanted) << "queueFlags " << families[0].queueFlags;
  EXPECT_GE(families[0].queueCount, 1u);
  // Graphics queues transfer at texel granularity.
  EXPECT_EQ(1u, families[0].minImageTransferGranularity.width);
  EXPECT_EQ(1u, families[0].minImageTransferGranularity.height);
  EXPECT_EQ(1u, families[0].minImageTransferGranularity.depth);
}

TEST_F(PhysicalDeviceTest, KilnQueueFamilyZeroHasTwoQueues) {
  KILN_ONLY();
  EXPECT_GE(queue_families(physical_device()).at(0).queueCount, 2u);
}

TEST_F(PhysicalDeviceTest, Features2MatchesFeatures) {
  VkPhysicalDeviceFeatures core;
  vkGetPhysicalDeviceFeatures(physical_device(), &core);
  EXPECT_EQ(0, std::memcmp(&core, &features().core.features, sizeof(core)));
}

// The promoted extension feature structs report exactly the bits of the core structs.
TEST_F(PhysicalDeviceTest, PromotedDescriptorFeatureStructsMatchTheCoreStructs) {
  VkPhysicalDeviceDescriptorIndexingFeatures indexing{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES};
  VkPhysicalDeviceInlineUniformBlockFeatures block{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES,
                                                   .pNext = &indexing};
  VkPhysicalDeviceFeatures2 features2{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &block};
  vkGetPhysicalDeviceFeatures2(physical_device(), &features2);
  const VkPhysicalDeviceVulkan12Features& v12 = features().v12;
  // Both list the same 20 VkBool32 members in the same order.
  EXPECT_EQ(0, std::memcmp(&indexing.shaderInputAttachmentArrayDynamicIndexing, &v12.shaderInputAttachmentArrayDynamicIndexing,
                           20 * sizeof(VkBool32)));
  EXPECT_EQ(features().v13.inlineUniformBlock, block.inlineUniformBlock);
  EXPECT_EQ(features().v13.descriptorBindingInlineUniformBlockUpdateAfterBind,
            block.descriptorBindingInlineUniformBlockUpdateAfterBind);
  EXPECT_EQ(&indexing, block.pNext) << "the chain must be kept";
}

// Features that Vulkan 1.1–1.3 make mandatory for a 1.3 device (spec, "Feature Requirements").
TEST_F(PhysicalDeviceTest, FeaturesRequiredByVulkan13AreSupported) {
  const DeviceFeatures& f = features();
  const std::pair<VkBool32, const char*> required[] = {
      {f.core.features.robustBufferAccess, "robustBufferAccess"},  // required by every Vulkan version
      {f.v11.multiview, "multiview"},
      {f.v12.timelineSemaphore, "timelineSemaphore"},
      {f.v12.uniformBufferStandardLayout, "uniformBufferStandardLayout"},
      {f.v12.shaderSubgroupExtendedTypes, "shaderSubgroupExtendedTypes"},
      {f.v12.separateDepthStencilLayouts, "separateDepthStencilLayouts"},
      {f.v12.hostQueryReset, "hostQueryReset"},
      {f.v12.imagelessFramebuffer, "imagelessFramebuffer"},
      {f.v12.subgroupBroadcastDynamicId, "subgroupBroadcastDynamicId"},
      {f.v12.vulkanMemoryModel, "vulkanMemoryModel"},
      {f.v12.vulkanMemoryModelDeviceScope, "vulkanMemoryModelDeviceScope"},
      {f.v12.bufferDeviceAddress, "bufferDeviceAddress"},
      {f.v13.robustImageAccess, "robustImageAccess"},
      {f.v13.inlineUniformBlock, "inlineUniformBlock"},
      {f.v13.pipelineCreationCacheControl, "pipelineCreationCacheControl"},
      {f.v13.privateData, "privateData"},
      {f.v13.shaderDemoteToHelperInvocation, "shaderDemoteToHelperInvocation"},
      {f.v13.shaderTerminateInvocation, "shaderTerminateInvocation"},
      {f.v13.subgroupSizeControl, "subgroupSizeControl"},
      {f.v13.computeFullSubgroups, "computeFullSubgroups"},
      {f.v13.synchronization2, "synchronization2"},
      {f.v13.shaderZeroInitializeWorkgroupMemory, "shaderZeroInitializeWorkgroupMemory"},
      {f.v13.dynamicRendering, "dynamicRendering"},
      {f.v13.shaderIntegerDotProduct, "shaderIntegerDotProduct"},
      {f.v13.maintenance4, "maintenance4"},
  };
  for (const auto& [supported, name] : required) expect_requirement(supported == VK_TRUE, name, is_kiln());
}

TEST_F(PhysicalDeviceTest, KilnExposesTimelineSemaphoreAndSynchronization2) {
  KILN_ONLY();
  EXPECT_TRUE(features().v12.timelineSemaphore);
  EXPECT_TRUE(features().v13.synchronization2);
}

TEST_F(PhysicalDeviceTest, Rgba8UnormSupportsTransfersWithOptimalTiling) {
  VkFormatProperties format;
  vkGetPhysicalDeviceFormatProperties(physical_device(), VK_FORMAT_R8G8B8A8_UNORM, &format);
  const VkFormatFeatureFlags transfer = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  EXPECT_EQ(transfer, format.optimalTilingFeatures & transfer);

  // vkGetPhysicalDeviceFormatProperties2 agrees, and the 64-bit flags (1.3) include the 32-bit ones.
  VkFormatProperties3 format3{.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
  VkFormatProperties2 format2{.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &format3};
  vkGetPhysicalDeviceFormatProperties2(physical_device(), VK_FORMAT_R8G8B8A8_UNORM, &format2);
  EXPECT_EQ(format.optimalTilingFeatures, format2.formatProperties.optimalTilingFeatures);
  EXPECT_EQ(format.linearTilingFeatures, format2.formatProperties.linearTilingFeatures);
  EXPECT_EQ(format.bufferFeatures, format2.formatProperties.bufferFeatures);
  EXPECT_EQ(VkFormatFeatureFlags2(format.optimalTilingFeatures),
            format3.optimalTilingFeatures & VkFormatFeatureFlags2(format.optimalTilingFeatures));
}

// VK_IMAGE_CREATE_EXTENDED_USAGE_BIT (with MUTABLE_FORMAT): an image may have a usage its own format
// lacks when a format of its compatibility class has it. A2R10G10B10_SINT_PACK32 images cannot be
// storage images, but their R8G8B8A8_UNORM views can: the query succeeds with the flags, and such an
// image and a storage view of it are created.
TEST_F(PhysicalDeviceTest, ExtendedUsageTakesTheCompatibilityClassesUsages) {
  const VkFormat format = VK_FORMAT_A2R10G10B10_SINT_PACK32;
  VkFormatProperties features;
  vkGetPhysicalDeviceFormatProperties(physical_device(), format, &features);
  if (!features.optimalTilingFeatures) GTEST_SKIP() << "no optimal-tiling images of the format";  // lavapipe
  VkImageFormatProperties props;
  const VkResult own = vkGetPhysicalDeviceImageFormatProperties(physical_device(), format, VK_IMAGE_TYPE_2D,
                                                                VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT, 0, &props);
  if (own == VK_SUCCESS) GTEST_SKIP() << "the format itself supports storage here";
  const VkImageCreateFlags flags = VK_IMAGE_CREATE_EXTENDED_USAGE_BIT | VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceImageFormatProperties(physical_device(), format, VK_IMAGE_TYPE_2D,
                                                                 VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT, flags,
                                                                 &props));
  // Single-sampled, and multisampled only as far as storage images may be.
  EXPECT_TRUE(props.sampleCounts & VK_SAMPLE_COUNT_1_BIT);
  EXPECT_EQ(props.sampleCounts & ~properties().limits.storageImageSampleCounts, 0u);
  TestDevice& device = this->device();
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = flags;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {8, 8, 1};
  info.mipLevels = info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_STORAGE_BIT;
  Image image = device.create_image(info);
  ASSERT_NE(image.image, VK_NULL_HANDLE);
  VkImageViewCreateInfo view_info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = image.image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = VK_FORMAT_R8G8B8A8_UNORM;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &view_info, nullptr, &view));
  vkDestroyImageView(device.handle(), view, nullptr);
}

// A block-compressed image created BLOCK_TEXEL_VIEW_COMPATIBLE (with MUTABLE_FORMAT and
// EXTENDED_USAGE) may be a storage image through views of an uncompressed format whose texel is its
// block (the CTS's image.texel_view_compatible writes BC blocks that way): BC1's 8-byte blocks
// through R32G32_UINT. Without BLOCK_TEXEL_VIEW_COMPATIBLE the compressed format's own features
// decide, and BC1 has no storage.
TEST_F(PhysicalDeviceTest, BlockTexelViewsLendTheirUsagesToCompressedImages) {
  const VkFormat format = VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
  VkFormatProperties features;
  vkGetPhysicalDeviceFormatProperties(physical_device(), format, &features);
  if (!(features.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)) GTEST_SKIP() << "no BC1 images";
  if (features.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) GTEST_SKIP() << "BC1 itself supports storage here";
  const VkImageUsageFlags usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  const VkImageCreateFlags views = VK_IMAGE_CREATE_EXTENDED_USAGE_BIT | VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  VkImageFormatProperties props;
  if (is_kiln())  // lavapipe 22.3 accepts it too
    EXPECT_EQ(VK_ERROR_FORMAT_NOT_SUPPORTED,
              vkGetPhysicalDeviceImageFormatProperties(physical_device(), format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                       usage, views, &props));
  const VkImageCreateFlags flags = views | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceImageFormatProperties(physical_device(), format, VK_IMAGE_TYPE_2D,
                                                                 VK_IMAGE_TILING_OPTIMAL, usage, flags, &props));
  TestDevice& device = this->device();
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = flags;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {16, 16, 1};
  info.mipLevels = info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  Image image = device.create_image(info);
  ASSERT_NE(image.image, VK_NULL_HANDLE);
  VkImageViewUsageCreateInfo view_usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
  view_usage.usage = VK_IMAGE_USAGE_STORAGE_BIT;
  VkImageViewCreateInfo view_info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .pNext = &view_usage};
  view_info.image = image.image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = VK_FORMAT_R32G32_UINT;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &view_info, nullptr, &view));
  vkDestroyImageView(device.handle(), view, nullptr);
}

// The spec's "Required Format Support" table: R8G8B8A8_UNORM must be usable for everything.
TEST_F(PhysicalDeviceTest, Rgba8UnormHasTheFeaturesTheSpecRequires) {
  VkFormatProperties format;
  vkGetPhysicalDeviceFormatProperties(physical_device(), VK_FORMAT_R8G8B8A8_UNORM, &format);
  const VkFormatFeatureFlags sampling = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                        VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                        VK_FORMAT_FEATURE_BLIT_DST_BIT;
  const VkFormatFeatureFlags attachment = VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT;
  const VkFormatFeatureFlags buffer = VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT | VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT |
                                      VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
  expect_requirement((format.optimalTilingFeatures & sampling) == sampling &&
                         (format.bufferFeatures & (buffer & ~VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT)) ==
                             (buffer & ~VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT),
                     "R8G8B8A8_UNORM sampled/storage/blit/texel-buffer features", is_kiln());
  expect_requirement((format.optimalTilingFeatures & attachment) == attachment &&
                         (format.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT),
                     "R8G8B8A8_UNORM colour attachment/blend features", is_kiln());
}

// The spec's "Required Format Support" tables for texel buffers: every format marked for
// UNIFORM_TEXEL_BUFFER and STORAGE_TEXEL_BUFFER.
TEST_F(PhysicalDeviceTest, RequiredTexelBufferFormatsHaveTheirFeatures) {
  const VkFormat uniform[] = {
      VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SNORM, VK_FORMAT_R8_UINT, VK_FORMAT_R8_SINT, VK_FORMAT_R8G8_UNORM,
      VK_FORMAT_R8G8_SNORM, VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SNORM,
      VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_A8B8G8R8_UNORM_PACK32,
      VK_FORMAT_A8B8G8R8_SNORM_PACK32, VK_FORMAT_A8B8G8R8_UINT_PACK32, VK_FORMAT_A8B8G8R8_SINT_PACK32,
      VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_A2B10G10R10_UINT_PACK32, VK_FORMAT_R16_UINT, VK_FORMAT_R16_SINT,
      VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16_SINT, VK_FORMAT_R16G16_SFLOAT,
      VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_SINT, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_UINT,
      VK_FORMAT_R32_SINT, VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32_SFLOAT,
      VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SINT, VK_FORMAT_R32G32B32A32_SFLOAT,
      VK_FORMAT_B10G11R11_UFLOAT_PACK32};
  const VkFormat storage[] = {
      VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_SINT,
      VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_A8B8G8R8_SNORM_PACK32, VK_FORMAT_A8B8G8R8_UINT_PACK32,
      VK_FORMAT_A8B8G8R8_SINT_PACK32, VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_SINT,
      VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_UINT, VK_FORMAT_R32_SINT, VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_UINT,
      VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SINT,
      VK_FORMAT_R32G32B32A32_SFLOAT};
  auto has = [&](VkFormat format, VkFormatFeatureFlags feature) {
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(physical_device(), format, &properties);
    return (properties.bufferFeatures & feature) == feature;
  };
  for (VkFormat f : uniform)
    expect_requirement(has(f, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT),
                       "UNIFORM_TEXEL_BUFFER for format " + std::to_string(f), is_kiln());
  for (VkFormat f : storage)
    expect_requirement(has(f, VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT),
                       "STORAGE_TEXEL_BUFFER for format " + std::to_string(f), is_kiln());
}

// shaderStorageImageExtendedFormats guarantees STORAGE_IMAGE (optimal tiling) for these formats;
// Kiln reports the feature.
TEST_F(PhysicalDeviceTest, StorageImageExtendedFormatsAreStorageFormats) {
  if (is_kiln()) EXPECT_TRUE(features().core.features.shaderStorageImageExtendedFormats);
  if (!features().core.features.shaderStorageImageExtendedFormats) GTEST_SKIP() << "shaderStorageImageExtendedFormats is FALSE";
  for (VkFormat f : {VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_R16_SFLOAT,
                     VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R16G16_UNORM,
                     VK_FORMAT_R8G8_UNORM, VK_FORMAT_R16_UNORM, VK_FORMAT_R8_UNORM, VK_FORMAT_R16G16B16A16_SNORM,
                     VK_FORMAT_R16G16_SNORM, VK_FORMAT_R8G8_SNORM, VK_FORMAT_R16_SNORM, VK_FORMAT_R8_SNORM,
                     VK_FORMAT_R16G16_SINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R16_SINT, VK_FORMAT_R8_SINT,
                     VK_FORMAT_A2B10G10R10_UINT_PACK32, VK_FORMAT_R16G16_UINT, VK_FORMAT_R8G8_UINT, VK_FORMAT_R16_UINT,
                     VK_FORMAT_R8_UINT}) {
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(physical_device(), f, &properties);
    EXPECT_TRUE(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) << "format " << f;
  }
}

TEST_F(PhysicalDeviceTest, RequiredDepthFormatsAreSupported) {
  auto supports_depth_attachment = [&](VkFormat format) {
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(physical_device(), format, &properties);
    return (properties.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0;
  };
  expect_requirement(supports_depth_attachment(VK_FORMAT_D16_UNORM) &&
                         (supports_depth_attachment(VK_FORMAT_X8_D24_UNORM_PACK32) ||
                          supports_depth_attachment(VK_FORMAT_D32_SFLOAT)) &&
                         (supports_depth_attachment(VK_FORMAT_D24_UNORM_S8_UINT) ||
                          supports_depth_attachment(VK_FORMAT_D32_SFLOAT_S8_UINT)),
                     "depth/stencil attachment formats", is_kiln());
}

TEST_F(PhysicalDeviceTest, ImageFormatPropertiesFor2DRgba8) {
  VkImageFormatProperties image;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceImageFormatProperties(
                            physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                            VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &image));
  EXPECT_GE(image.maxExtent.width, 4096u);
  EXPECT_GE(image.maxExtent.height, 4096u);
  EXPECT_EQ(1u, image.maxExtent.depth);
  EXPECT_GE(image.maxArrayLayers, 256u);
  EXPECT_GE(image.maxMipLevels, 13u);  // log2(4096) + 1
  EXPECT_TRUE(image.sampleCounts & VK_SAMPLE_COUNT_1_BIT);
}

}  // namespace
}  // namespace kiln::test
