// Device memory: allocation, mapping, flush/invalidate, out-of-memory, memory requirements and
// binding (1 and 2 forms), device-level requirements queries (maintenance4).
#include <cstdlib>
#include <cstring>
#include <algorithm>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using MemoryTest = VulkanTest;

VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Byte i of the test pattern number `seed`.
uint8_t pattern(size_t i, uint8_t seed) { return static_cast<uint8_t>(i * 7 + seed); }

void write_pattern(uint8_t* destination, size_t size, uint8_t seed) {
  for (size_t i = 0; i < size; ++i) destination[i] = pattern(i, seed);
}

// Index of the first byte that breaks the pattern, or `size` when all match.
size_t first_pattern_mismatch(const uint8_t* data, size_t size, uint8_t seed) {
  for (size_t i = 0; i < size; ++i)
    if (data[i] != pattern(i, seed)) return i;
  return size;
}

// The helpers below make unbound objects and raw allocations (the fixture's helpers bind for
// you); each is destroyed with the TestDevice, so a failing assertion leaks nothing, and like the
// fixture's helpers they throw (failing the test) when the object cannot be made.
VkDeviceMemory allocate(TestDevice& device, VkDeviceSize size, uint32_t type) {
  VkMemoryAllocateInfo info{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.allocationSize = size;
  info.memoryTypeIndex = type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  require(vkAllocateMemory(device.handle(), &info, nullptr, &memory), "vkAllocateMemory");
  VkDevice handle = device.handle();
  device.defer_destroy([=] { vkFreeMemory(handle, memory, nullptr); });
  return memory;
}

VkBuffer make_buffer(TestDevice& device, VkDeviceSize size, VkBufferUsageFlags usage) {
  VkBufferCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  VkBuffer buffer = VK_NULL_HANDLE;
  require(vkCreateBuffer(device.handle(), &info, nullptr, &buffer), "vkCreateBuffer");
  VkDevice handle = device.handle();
  device.defer_destroy([=] { vkDestroyBuffer(handle, buffer, nullptr); });
  return buffer;
}

VkImage make_image(TestDevice& device, const VkImageCreateInfo& info) {
  VkImage image = VK_NULL_HANDLE;
  require(vkCreateImage(device.handle(), &info, nullptr, &image), "vkCreateImage");
  VkDevice handle = device.handle();
  device.defer_destroy([=] { vkDestroyImage(handle, image, nullptr); });
  return image;
}

VkImageCreateInfo rgba8_image_info(uint32_t width, uint32_t height) {
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.extent = {width, height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return info;
}

TEST_F(MemoryTest, AllocateAndFreeFromEveryType) {
  const VkPhysicalDeviceMemoryProperties& memory = device().memory_properties();
  for (uint32_t type = 0; type < memory.memoryTypeCount; ++type) {
    VkMemoryAllocateInfo info{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = 65536;
    info.memoryTypeIndex = type;
    VkDeviceMemory allocation = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkAllocateMemory(device().handle(), &info, nullptr, &allocation)) << "type " << type;
    EXPECT_NE(VK_NULL_HANDLE, allocation) << "type " << type;
    vkFreeMemory(device().handle(), allocation, nullptr);
  }
  vkFreeMemory(device().handle(), VK_NULL_HANDLE, nullptr);  // freeing VK_NULL_HANDLE is a no-op
}

TEST_F(MemoryTest, MapWriteUnmapRemapReadBack) {
  const uint32_t type = device().find_memory_type(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  ASSERT_NE(UINT32_MAX, type);
  const VkDeviceSize size = 8192;
  VkDeviceMemory memory = allocate(device(), size, type);
  void* mapped = nullptr;
  ASSERT_EQ(VK_SUCCESS, vkMapMemory(device().handle(), memory, 0, VK_WHOLE_SIZE, 0, &mapped));
  ASSERT_NE(nullptr, mapped);
  const VkDeviceSize map_alignment = properties().limits.minMemoryMapAlignment;
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(mapped) % map_alignment);
  write_pattern(static_cast<uint8_t*>(mapped), size, 3);
  vkUnmapMemory(device().handle(), memory);

  // A second mapping at an offset sees the bytes written through the first.
  const VkDeviceSize offset = 1024;
  ASSERT_EQ(VK_SUCCESS, vkMapMemory(device().handle(), memory, offset, 2048, 0, &mapped));
  // The spec: (mapped - offset) is aligned to minMemoryMapAlignment.
  EXPECT_EQ(0u, (reinterpret_cast<uintptr_t>(mapped) - offset) % map_alignment);
  const uint8_t* bytes = static_cast<const uint8_t*>(mapped);
  for (size_t i = 0; i < 2048; ++i) {
    ASSERT_EQ(pattern(offset + i, 3), bytes[i]) << "byte " << offset + i;
  }
  vkUnmapMemory(device().handle(), memory);
}

// Host writes made available with vkFlushMappedMemoryRanges reach the device; device writes
// made visible with vkInvalidateMappedMemoryRanges reach the host. Uses a non-coherent type when
// the device has one (the flush/invalidate matter there); on coherent memory they must still work.
TEST_F(MemoryTest, FlushAndInvalidateRanges) {
  VkDevice dev = device().handle();
  const VkDeviceSize atom = properties().limits.nonCoherentAtomSize;
  const VkDeviceSize size = align_up(4096, atom);
  VkBuffer source = make_buffer(device(), size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  VkBuffer destination = make_buffer(device(), size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(dev, source, &requirements);
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < device().memory_properties().memoryTypeCount && type == UINT32_MAX; ++i) {
    const VkMemoryPropertyFlags flags = device().memory_properties().memoryTypes[i].propertyFlags;
    if ((requirements.memoryTypeBits & (1u << i)) && (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
        !(flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
      type = i;
  }
  if (type == UINT32_MAX) type = device().find_memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  ASSERT_NE(UINT32_MAX, type);
  VkDeviceMemory source_memory = allocate(device(), requirements.size, type);
  VkDeviceMemory destination_memory = allocate(device(), requirements.size, type);
  ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(dev, source, source_memory, 0));
  ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(dev, destination, destination_memory, 0));
  uint8_t *source_bytes = nullptr, *destination_bytes = nullptr;
  ASSERT_EQ(VK_SUCCESS, vkMapMemory(dev, source_memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&source_bytes)));
  ASSERT_EQ(VK_SUCCESS,
            vkMapMemory(dev, destination_memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&destination_bytes)));

  write_pattern(source_bytes, size, 11);
  // Two atom-aligned ranges covering the buffer, then the whole allocation.
  VkMappedMemoryRange ranges[2] = {{.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE}, {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE}};
  ranges[0].memory = source_memory;
  ranges[0].offset = 0;
  ranges[0].size = atom;
  ranges[1].memory = source_memory;
  ranges[1].offset = atom;
  ranges[1].size = VK_WHOLE_SIZE;
  EXPECT_EQ(VK_SUCCESS, vkFlushMappedMemoryRanges(dev, 2, ranges));

  device().run_commands([&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, 0, size};
    vkCmdCopyBuffer(cmd, source, destination, 1, &region);
    full_barrier(cmd);  // transfer writes → host reads
  });
  VkMappedMemoryRange whole{.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  whole.memory = destination_memory;
  whole.size = VK_WHOLE_SIZE;
  EXPECT_EQ(VK_SUCCESS, vkInvalidateMappedMemoryRanges(dev, 1, &whole));
  EXPECT_EQ(size, first_pattern_mismatch(destination_bytes, size, 11));
}

// ERROR PATH (unvalidated instance): an allocation larger than its heap is invalid usage, so the
// spec leaves the outcome open; Kiln promises VK_ERROR_OUT_OF_DEVICE_MEMORY (lavapipe, for one,
// overcommits and succeeds). Every driver must keep existing allocations intact and keep working.
TEST_F(MemoryTest, AllocationLargerThanHeapFailsCleanly) {
  UnvalidatedContext context = create_unvalidated_context();
  ASSERT_NE(VK_NULL_HANDLE, context.physical_device);
  std::unique_ptr<TestDevice> device;
  ASSERT_EQ(VK_SUCCESS, TestDevice::create(context.physical_device, {}, &device));
  Buffer before = device->create_buffer(4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  ASSERT_NE(nullptr, before.mapped);
  write_pattern(before.mapped, 4096, 42);

  const uint32_t type = device->find_memory_type(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  ASSERT_NE(UINT32_MAX, type);
  const VkMemoryType& memory_type = device->memory_properties().memoryTypes[type];
  const VkDeviceSize heap_size = device->memory_properties().memoryHeaps[memory_type.heapIndex].size;
  // Half again the heap, and an absurd size no machine can back.
  for (const VkDeviceSize size : {heap_size + heap_size / 2, VkDeviceSize(1) << 62}) {
    VkMemoryAllocateInfo info{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = size;
    info.memoryTypeIndex = type;
    VkDeviceMemory huge = VK_NULL_HANDLE;
    const VkResult result = vkAllocateMemory(device->handle(), &info, nullptr, &huge);
    if (result == VK_SUCCESS) vkFreeMemory(device->handle(), huge, nullptr);
    if (is_kiln()) {
      EXPECT_EQ(VK_ERROR_OUT_OF_DEVICE_MEMORY, result)
          << "Kiln allocating " << size << " bytes from a heap of " << heap_size;
    }
  }

  Buffer after = device->create_buffer(4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  ASSERT_NE(nullptr, after.mapped);
  device->run_commands([&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, 0, 4096};
    vkCmdCopyBuffer(cmd, before.buffer, after.buffer, 1, &region);
    full_barrier(cmd);
  });
  EXPECT_EQ(4096u, first_pattern_mismatch(before.mapped, 4096, 42)) << "an existing allocation was disturbed";
  EXPECT_EQ(4096u, first_pattern_mismatch(after.mapped, 4096, 42)) << "a new allocation does not work";
}

// The heap is a budget shared by a device's allocations: with a 64 MiB heap (KILN_HEAP_SIZE_MB, read
// when the instance is made), four 16 MiB allocations fit and a fifth is VK_ERROR_OUT_OF_DEVICE_MEMORY
// (valid usage: each is within the heap); freeing one makes room again, and the memory that was
// already there keeps its contents.
TEST_F(MemoryTest, AllocationsRunOutAtTheHeapSizeAndFreeingMakesRoom) {
  KILN_ONLY();  // other drivers' heaps do not follow KILN_HEAP_SIZE_MB
  setenv("KILN_HEAP_SIZE_MB", "64", 1);
  std::unique_ptr<TestInstance> small_heap;
  const VkResult created = TestInstance::create(InstanceOptions{}, &small_heap);
  unsetenv("KILN_HEAP_SIZE_MB");
  ASSERT_EQ(VK_SUCCESS, created);
  ASSERT_FALSE(small_heap->physical_devices().empty());
  {
    std::unique_ptr<TestDevice> device;
    ASSERT_EQ(VK_SUCCESS, TestDevice::create(small_heap->physical_devices()[0], {}, &device));
    ASSERT_EQ(VkDeviceSize(64) << 20, device->memory_properties().memoryHeaps[0].size);
    const uint32_t type = device->find_memory_type(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    ASSERT_NE(UINT32_MAX, type);
    VkMemoryAllocateInfo info{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = VkDeviceSize(16) << 20;
    info.memoryTypeIndex = type;
    VkDeviceMemory blocks[5] = {};
    for (int i = 0; i < 4; ++i) ASSERT_EQ(VK_SUCCESS, vkAllocateMemory(device->handle(), &info, nullptr, &blocks[i])) << i;
    void* first = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(device->handle(), blocks[0], 0, VK_WHOLE_SIZE, 0, &first));
    write_pattern(static_cast<uint8_t*>(first), 4096, 7);
    EXPECT_EQ(VK_ERROR_OUT_OF_DEVICE_MEMORY, vkAllocateMemory(device->handle(), &info, nullptr, &blocks[4]));
    info.allocationSize = 4096;  // not even a little
    EXPECT_EQ(VK_ERROR_OUT_OF_DEVICE_MEMORY, vkAllocateMemory(device->handle(), &info, nullptr, &blocks[4]));
    vkFreeMemory(device->handle(), blocks[3], nullptr);
    info.allocationSize = VkDeviceSize(16) << 20;
    EXPECT_EQ(VK_SUCCESS, vkAllocateMemory(device->handle(), &info, nullptr, &blocks[3]));
    EXPECT_EQ(size_t(4096), first_pattern_mismatch(static_cast<uint8_t*>(first), 4096, 7));
    for (int i = 0; i < 4; ++i) vkFreeMemory(device->handle(), blocks[i], nullptr);
  }
  small_heap->destroy();
  for (const std::string& message : small_heap->messages()) ADD_FAILURE() << "validation: " << message;
}

// Images and buffers past the device's limits (invalid usage, so without the validation layer):
// Kiln refuses them with VK_ERROR_OUT_OF_DEVICE_MEMORY and a log line rather than computing a layout
// that overflows, and the device goes on working.
TEST_F(MemoryTest, ImagesAndBuffersBeyondLimitsAreRefused) {
  KILN_ONLY();
  UnvalidatedContext context = create_unvalidated_context();
  ASSERT_NE(VK_NULL_HANDLE, context.physical_device);
  std::unique_ptr<TestDevice> device;
  ASSERT_EQ(VK_SUCCESS, TestDevice::create(context.physical_device, {}, &device));
  const VkPhysicalDeviceLimits& limits = device->properties().limits;
  VkImageCreateInfo beyond[3] = {rgba8_image_info(limits.maxImageDimension2D + 1, 16), rgba8_image_info(16, 16),
                                 rgba8_image_info(limits.maxImageDimension2D, limits.maxImageDimension2D)};
  beyond[1].arrayLayers = limits.maxImageArrayLayers + 1;
  beyond[2].format = VK_FORMAT_R32G32B32A32_SFLOAT;
  beyond[2].arrayLayers = limits.maxImageArrayLayers;  // terabytes: a layout past any maxResourceSize
  for (int i = 0; i < 3; ++i) {
    VkImage image = VK_NULL_HANDLE;
    const VkResult result = vkCreateImage(device->handle(), &beyond[i], nullptr, &image);
    if (i < 2) {
      EXPECT_EQ(VK_ERROR_OUT_OF_DEVICE_MEMORY, result) << "image " << i;
    } else if (result == VK_SUCCESS) {
      // Within every per-dimension limit: made, but no allocation can back it.
      VkMemoryRequirements requirements;
      vkGetImageMemoryRequirements(device->handle(), image, &requirements);
      VkMemoryAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      allocate.allocationSize = requirements.size;
      VkDeviceMemory memory = VK_NULL_HANDLE;
      EXPECT_EQ(VK_ERROR_OUT_OF_DEVICE_MEMORY, vkAllocateMemory(device->handle(), &allocate, nullptr, &memory));
    } else {
      EXPECT_EQ(VK_ERROR_OUT_OF_DEVICE_MEMORY, result);
    }
    if (image) vkDestroyImage(device->handle(), image, nullptr);
  }
  VkBufferCreateInfo buffer_info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = VkDeviceSize(1) << 62;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  EXPECT_EQ(VK_ERROR_OUT_OF_DEVICE_MEMORY, vkCreateBuffer(device->handle(), &buffer_info, nullptr, &buffer));
  // Still a working device.
  Buffer ok = device->create_buffer(1024, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  device->run_commands([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, ok.buffer, 0, VK_WHOLE_SIZE, 0x01020304u); });
  EXPECT_EQ(0x04, ok.mapped[1020]);
}

TEST_F(MemoryTest, BufferMemoryRequirements1And2AndDedicated) {
  VkDevice dev = device().handle();
  VkBuffer buffer = make_buffer(device(), 1000, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                               VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(dev, buffer, &requirements);
  expect_valid_requirements(requirements, 1000);
  // Spec: every non-sparse buffer may live in a HOST_VISIBLE|HOST_COHERENT type.
  EXPECT_NE(UINT32_MAX, device().find_memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT));

  VkMemoryDedicatedRequirements dedicated{.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
  dedicated.prefersDedicatedAllocation = dedicated.requiresDedicatedAllocation = 0x7F;  // must be overwritten
  VkMemoryRequirements2 requirements2{.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &dedicated};
  VkBufferMemoryRequirementsInfo2 info{.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2};
  info.buffer = buffer;
  vkGetBufferMemoryRequirements2(dev, &info, &requirements2);
  EXPECT_EQ(requirements.size, requirements2.memoryRequirements.size);
  EXPECT_EQ(requirements.alignment, requirements2.memoryRequirements.alignment);
  EXPECT_EQ(requirements.memoryTypeBits, requirements2.memoryRequirements.memoryTypeBits);
  EXPECT_EQ(VK_FALSE, dedicated.requiresDedicatedAllocation) << "only external-memory buffers may require it";
  EXPECT_TRUE(dedicated.prefersDedicatedAllocation == VK_TRUE || dedicated.prefersDedicatedAllocation == VK_FALSE)
      << "prefersDedicatedAllocation not written: " << dedicated.prefersDedicatedAllocation;
}

TEST_F(MemoryTest, ImageMemoryRequirements1And2AndDedicated) {
  VkDevice dev = device().handle();
  VkImage image = make_image(device(), rgba8_image_info(64, 32));
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(dev, image, &requirements);
  expect_valid_requirements(requirements, 64 * 32 * 4);

  VkMemoryDedicatedRequirements dedicated{.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
  dedicated.prefersDedicatedAllocation = dedicated.requiresDedicatedAllocation = 0x7F;  // must be overwritten
  VkMemoryRequirements2 requirements2{.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &dedicated};
  VkImageMemoryRequirementsInfo2 info{.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2};
  info.image = image;
  vkGetImageMemoryRequirements2(dev, &info, &requirements2);
  EXPECT_EQ(requirements.size, requirements2.memoryRequirements.size);
  EXPECT_EQ(requirements.alignment, requirements2.memoryRequirements.alignment);
  EXPECT_EQ(requirements.memoryTypeBits, requirements2.memoryRequirements.memoryTypeBits);
  EXPECT_EQ(VK_FALSE, dedicated.requiresDedicatedAllocation) << "only external-memory images may require it";
  EXPECT_TRUE(dedicated.prefersDedicatedAllocation == VK_TRUE || dedicated.prefersDedicatedAllocation == VK_FALSE)
      << "prefersDedicatedAllocation not written: " << dedicated.prefersDedicatedAllocation;
}

// The spec orders memory types: a type whose flags are a strict subset of another's comes first.
// No type is both lazily allocated and host visible; buffers never get the lazily allocated type.
TEST_F(MemoryTest, MemoryTypesFollowTheSpecOrder) {
  const VkPhysicalDeviceMemoryProperties& memory = device().memory_properties();
  for (uint32_t x = 0; x < memory.memoryTypeCount; ++x) {
    const VkMemoryPropertyFlags fx = memory.memoryTypes[x].propertyFlags;
    EXPECT_FALSE((fx & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT) && (fx & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) << x;
    for (uint32_t y = x + 1; y < memory.memoryTypeCount; ++y) {
      const VkMemoryPropertyFlags fy = memory.memoryTypes[y].propertyFlags;
      EXPECT_FALSE(fy != fx && (fy & fx) == fy) << "type " << y << " (flags 0x" << std::hex << fy
                                                 << ") is a strict subset of earlier type " << x << " (0x" << fx << ")";
    }
  }
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device().handle(), make_buffer(device(), 256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT),
                                &requirements);
  for (uint32_t t = 0; t < memory.memoryTypeCount; ++t)
    if (requirements.memoryTypeBits & (1u << t))
      EXPECT_FALSE(memory.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT) << t;
}

// ERROR PATH (unvalidated instance: the validation layer warns about an image beyond
// maxResourceSize). An image within the limits but larger than maxResourceSize (4096 x 4096 x 80
// RGBA8: 5 GiB) is created and reports what it needs: applications, and the CTS's huge
// render-to-image cases, create the largest image the limits allow to read its requirements and
// then shrink it to fit the heap. Kiln then refuses memory that large, like any allocation beyond
// maxMemoryAllocationSize (lavapipe, for one, overcommits).
TEST_F(MemoryTest, ImageBeyondMaxResourceSizeIsCreatedButNotBacked) {
  UnvalidatedContext context = create_unvalidated_context();
  ASSERT_NE(VK_NULL_HANDLE, context.physical_device);
  std::unique_ptr<TestDevice> device;
  ASSERT_EQ(VK_SUCCESS, TestDevice::create(context.physical_device, {}, &device));
  VkImageCreateInfo info = rgba8_image_info(4096, 4096);
  info.arrayLayers = 80;
  info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image = make_image(*device, info);
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device->handle(), image, &requirements);
  expect_valid_requirements(requirements, VkDeviceSize(4096) * 4096 * 80 * 4);
  if (!is_kiln()) return;
  VkMemoryAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = uint32_t(__builtin_ctz(requirements.memoryTypeBits));
  VkDeviceMemory memory = VK_NULL_HANDLE;
  EXPECT_EQ(VK_ERROR_OUT_OF_DEVICE_MEMORY, vkAllocateMemory(device->handle(), &allocate, nullptr, &memory));
  if (memory) vkFreeMemory(device->handle(), memory, nullptr);
}

// Two buffers and an image in one allocation at aligned offsets, bound with the 1 and 2 forms:
// each resource must see its own part of the memory.
TEST_F(MemoryTest, BindMemory1And2AtOffsets) {
  VkDevice dev = device().handle();
  const VkDeviceSize buffer_size = 3000;
  VkBuffer first = make_buffer(device(), buffer_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkBuffer second = make_buffer(device(), buffer_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  const VkImageCreateInfo image_info = rgba8_image_info(16, 16);
  VkImage image = make_image(device(), image_info);
  VkMemoryRequirements buffer_requirements, image_requirements;
  vkGetBufferMemoryRequirements(dev, first, &buffer_requirements);
  vkGetImageMemoryRequirements(dev, image, &image_requirements);
  const VkDeviceSize granularity = properties().limits.bufferImageGranularity;
  const VkDeviceSize second_offset = align_up(buffer_requirements.size, buffer_requirements.alignment);
  const VkDeviceSize image_offset =
      align_up(second_offset + buffer_requirements.size, std::max(image_requirements.alignment, granularity));
  const uint32_t type = device().find_memory_type(buffer_requirements.memoryTypeBits & image_requirements.memoryTypeBits,
                                                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (type == UINT32_MAX) GTEST_SKIP() << "no host-visible memory type accepts both buffers and optimal images";
  VkDeviceMemory memory = allocate(device(), image_offset + image_requirements.size, type);
  uint8_t* bytes = nullptr;
  ASSERT_EQ(VK_SUCCESS, vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&bytes)));

  ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(dev, first, memory, 0));
  VkBindBufferMemoryInfo bind_second{.sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO};
  bind_second.buffer = second;
  bind_second.memory = memory;
  bind_second.memoryOffset = second_offset;
  ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory2(dev, 1, &bind_second));
  VkBindImageMemoryInfo bind_image{.sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO};
  bind_image.image = image;
  bind_image.memory = memory;
  bind_image.memoryOffset = image_offset;
  ASSERT_EQ(VK_SUCCESS, vkBindImageMemory2(dev, 1, &bind_image));

  // Host writes into the second buffer's range; the device copies second → first and clears the image.
  std::memset(bytes, 0, image_offset);
  write_pattern(bytes + second_offset, buffer_size, 77);
  device().run_commands([&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, 0, buffer_size};
    vkCmdCopyBuffer(cmd, second, first, 1, &region);
    transition(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkClearColorValue color{.float32 = {0.0f, 1.0f, 0.0f, 1.0f}};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
    transition(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    full_barrier(cmd);
  });
  EXPECT_EQ(buffer_size, first_pattern_mismatch(bytes, buffer_size, 77)) << "first buffer (offset 0)";
  EXPECT_EQ(buffer_size, first_pattern_mismatch(bytes + second_offset, buffer_size, 77)) << "second buffer";

  Image wrapped;
  wrapped.image = image;
  wrapped.info = image_info;
  const std::vector<uint8_t> texels = device().read_image(wrapped, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0,
                                                          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  ASSERT_EQ(16u * 16 * 4, texels.size());
  for (size_t i = 0; i < texels.size(); i += 4) {
    ASSERT_EQ(0, texels[i]) << "texel " << i / 4;
    ASSERT_EQ(255, texels[i + 1]) << "texel " << i / 4;
    ASSERT_EQ(0, texels[i + 2]) << "texel " << i / 4;
    ASSERT_EQ(255, texels[i + 3]) << "texel " << i / 4;
  }
  // The buffers' bytes are untouched by the image clear.
  EXPECT_EQ(buffer_size, first_pattern_mismatch(bytes + second_offset, buffer_size, 77));
}

// vkGetDevice*MemoryRequirements (maintenance4) answer as if the object had been created.
TEST_F(MemoryTest, DeviceMemoryRequirementsMatchCreatedObjects) {
  REQUIRE_ON_KILN(features().v13.maintenance4, "maintenance4");
  VkDevice dev = device().handle();
  VkBufferCreateInfo buffer_info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = 12345;
  buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = make_buffer(device(), buffer_info.size, buffer_info.usage);
  VkMemoryRequirements actual;
  vkGetBufferMemoryRequirements(dev, buffer, &actual);
  VkDeviceBufferMemoryRequirements query{.sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS};
  query.pCreateInfo = &buffer_info;
  VkMemoryRequirements2 predicted{.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
  vkGetDeviceBufferMemoryRequirements(dev, &query, &predicted);
  EXPECT_EQ(actual.size, predicted.memoryRequirements.size);
  EXPECT_EQ(actual.alignment, predicted.memoryRequirements.alignment);
  EXPECT_EQ(actual.memoryTypeBits, predicted.memoryRequirements.memoryTypeBits);

  const VkImageCreateInfo image_info = rgba8_image_info(100, 60);
  VkImage image = make_image(device(), image_info);
  vkGetImageMemoryRequirements(dev, image, &actual);
  VkDeviceImageMemoryRequirements image_query{.sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS};
  image_query.pCreateInfo = &image_info;
  vkGetDeviceImageMemoryRequirements(dev, &image_query, &predicted);
  EXPECT_EQ(actual.size, predicted.memoryRequirements.size);
  EXPECT_EQ(actual.alignment, predicted.memoryRequirements.alignment);
  EXPECT_EQ(actual.memoryTypeBits, predicted.memoryRequirements.memoryTypeBits);
}

// VK_EXT_external_memory_host: a page-aligned host allocation imported as device memory backs a
// buffer that commands write; the writes land in the application's own allocation, which stays
// the application's (freeing the memory object leaves it alone).
// A device with VK_EXT_external_memory_host and a host allocation it can import (its size at least
// `minimum`, a multiple of minImportedHostPointerAlignment), filled with pattern(…, 3). Fails the
// test (null) without the extension on Kiln, skips elsewhere.
struct HostImport {
  TestDevice* device = nullptr;
  VkDeviceSize alignment = 0, size = 0;
  uint8_t* allocation = nullptr;  // std::free it after the memory
  uint32_t memory_types = 0;      // vkGetMemoryHostPointerPropertiesEXT
  static constexpr auto kHandle = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  // Imports `allocation` as memory of one of `allowed` types (& memory_types).
  VkDeviceMemory import(uint32_t allowed) const {
    const uint32_t types = allowed & memory_types;
    EXPECT_NE(types, 0u);
    VkImportMemoryHostPointerInfoEXT info{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
    info.handleType = kHandle;
    info.pHostPointer = allocation;
    VkMemoryAllocateInfo allocate_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &info};
    allocate_info.allocationSize = size;
    allocate_info.memoryTypeIndex = uint32_t(__builtin_ctz(types));
    VkDeviceMemory memory = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateMemory(device->handle(), &allocate_info, nullptr, &memory), VK_SUCCESS);
    return memory;
  }
};

class HostImportTest : public VulkanTest {
 protected:
  HostImport prepare(VkDeviceSize minimum) {
    HostImport h;
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &host};
    vkGetPhysicalDeviceProperties2(physical_device(), &props);
    h.alignment = host.minImportedHostPointerAlignment;
    EXPECT_TRUE(h.alignment > 0 && (h.alignment & (h.alignment - 1)) == 0) << h.alignment;
    h.device = create_device(DeviceOptions{.extensions = {VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME}});
    auto host_pointer_properties = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
        vkGetDeviceProcAddr(h.device->handle(), "vkGetMemoryHostPointerPropertiesEXT"));
    EXPECT_NE(host_pointer_properties, nullptr);
    h.size = align_up(std::max<VkDeviceSize>(minimum, 4 * h.alignment), h.alignment);
    h.allocation = static_cast<uint8_t*>(std::aligned_alloc(h.alignment, h.size));
    write_pattern(h.allocation, h.size, 3);
    VkMemoryHostPointerPropertiesEXT pointer{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    EXPECT_EQ(host_pointer_properties(h.device->handle(), HostImport::kHandle, h.allocation, &pointer), VK_SUCCESS);
    h.memory_types = pointer.memoryTypeBits;
    return h;
  }
};

TEST_F(HostImportTest, ImportedHostAllocationBacksABuffer) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME),
                  "VK_EXT_external_memory_host");
  constexpr auto kHandle = HostImport::kHandle;
  VkPhysicalDeviceExternalBufferInfo query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
  query.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  query.handleType = kHandle;
  VkExternalBufferProperties external{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(physical_device(), &query, &external);
  ASSERT_TRUE(external.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);

  const HostImport h = prepare(16384);
  ASSERT_FALSE(HasFailure());
  TestDevice& device = *h.device;
  const VkDeviceSize size = h.size, alignment = h.alignment;
  uint8_t* allocation = h.allocation;

  VkExternalMemoryBufferCreateInfo external_buffer{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external_buffer.handleTypes = kHandle;
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external_buffer};
  buffer_info.size = size;
  buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateBuffer(device.handle(), &buffer_info, nullptr, &buffer), VK_SUCCESS);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device.handle(), buffer, &requirements);
  VkDeviceMemory memory = h.import(requirements.memoryTypeBits);
  ASSERT_NE(memory, VK_NULL_HANDLE);
  ASSERT_EQ(vkBindBufferMemory(device.handle(), buffer, memory, 0), VK_SUCCESS);

  device.run_commands([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, buffer, 4096, 4096, 0xA5A5A5A5u); });
  for (size_t i = 0; i < size; ++i) {
    const uint8_t want = i >= 4096 && i < 8192 ? 0xA5 : pattern(i, 3);
    ASSERT_EQ(allocation[i], want) << "byte " << i;
  }
  vkDestroyBuffer(device.handle(), buffer, nullptr);
  vkFreeMemory(device.handle(), memory, nullptr);
  EXPECT_EQ(allocation[0], pattern(0, 3));  // still the application's
  allocation[size - 1] = 1;
  std::free(allocation);
  KILN_ONLY();
  EXPECT_EQ(alignment, 4096u);
}

// An image on an imported host allocation (VkExternalMemoryImageCreateInfo with HOST_ALLOCATION):
// the format query says it can be imported, and a clear of the image lands in the application's
// bytes at the subresource layout's offsets.
TEST_F(HostImportTest, ImportedHostAllocationBacksAnImage) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME),
                  "VK_EXT_external_memory_host");
  VkPhysicalDeviceExternalImageFormatInfo external_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO};
  external_info.handleType = HostImport::kHandle;
  VkPhysicalDeviceImageFormatInfo2 format_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, &external_info};
  format_info.format = VK_FORMAT_R8G8B8A8_UNORM;
  format_info.type = VK_IMAGE_TYPE_2D;
  format_info.tiling = VK_IMAGE_TILING_LINEAR;
  format_info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkExternalImageFormatProperties external{VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES};
  VkImageFormatProperties2 format_properties{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &external};
  const VkResult supported = vkGetPhysicalDeviceImageFormatProperties2(physical_device(), &format_info, &format_properties);
  REQUIRE_ON_KILN(supported == VK_SUCCESS, "linear RGBA8 images on imported host memory");
  ASSERT_TRUE(external.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);
  ASSERT_TRUE(external.externalMemoryProperties.compatibleHandleTypes & HostImport::kHandle);

  VkExternalMemoryImageCreateInfo external_image{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO};
  external_image.handleTypes = HostImport::kHandle;
  VkImageCreateInfo image_info = rgba8_image_info(32, 32);
  image_info.pNext = &external_image;
  image_info.tiling = VK_IMAGE_TILING_LINEAR;
  image_info.usage = format_info.usage;
  const HostImport h = prepare(0);
  ASSERT_FALSE(HasFailure());
  VkDevice dev = h.device->handle();
  VkImage image = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateImage(dev, &image_info, nullptr, &image));
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(dev, image, &requirements);
  ASSERT_LE(requirements.size, h.size);
  VkDeviceMemory memory = h.import(requirements.memoryTypeBits);
  ASSERT_NE(memory, VK_NULL_HANDLE);
  ASSERT_EQ(VK_SUCCESS, vkBindImageMemory(dev, image, memory, 0));
  h.device->run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkClearColorValue red{{1.0f, 0.0f, 0.0f, 1.0f}};
    const VkImageSubresourceRange whole{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &red, 1, &whole);
    full_barrier(cmd);
  });
  const VkImageSubresource subresource{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
  VkSubresourceLayout layout;
  vkGetImageSubresourceLayout(dev, image, &subresource, &layout);
  for (uint32_t y = 0; y < 32; y += 31)
    for (uint32_t x = 0; x < 32; x += 31) {
      const uint8_t* texel = h.allocation + layout.offset + y * layout.rowPitch + x * 4;
      EXPECT_EQ(0xFF, texel[0]) << x << "," << y;
      EXPECT_EQ(0x00, texel[1]) << x << "," << y;
      EXPECT_EQ(0xFF, texel[3]) << x << "," << y;
    }
  EXPECT_EQ(pattern(h.size - 1, 3), h.allocation[h.size - 1]) << "a byte past the image changed";
  vkDestroyImage(dev, image, nullptr);
  vkFreeMemory(dev, memory, nullptr);
  std::free(h.allocation);
}

}  // namespace
}  // namespace kiln::test
