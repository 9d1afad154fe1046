// VK_KHR_external_memory_fd (OPAQUE_FD): memory exported by one device as a file descriptor and
// imported by another is one allocation — what either device's commands write, the other reads.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr auto kOpaqueFd = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
constexpr VkDeviceSize kSize = 65536;

// A transfer buffer of kSize bytes made shareable as an opaque fd, and its memory: exported, or
// imported from `import_fd` when that is not -1.
struct SharedBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};

class ExternalMemoryFdTest : public VulkanTest {
 protected:
  TestDevice* make_device() {
    return create_device(DeviceOptions{.extensions = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME}});
  }

  static int export_fd(TestDevice& device, VkDeviceMemory memory) {
    auto get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device.handle(), "vkGetMemoryFdKHR"));
    EXPECT_NE(get_fd, nullptr);
    VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
    info.memory = memory;
    info.handleType = kOpaqueFd;
    int fd = -1;
    EXPECT_EQ(get_fd(device.handle(), &info, &fd), VK_SUCCESS);
    return fd;
  }

  // The buffer and its memory, destroyed with the device. Returns the allocation's result.
  static VkResult make_shared_buffer(TestDevice& device, int import_fd, SharedBuffer* out) {
    VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    external.handleTypes = kOpaqueFd;
    VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external};
    buffer_info.size = kSize;
    buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    EXPECT_EQ(vkCreateBuffer(device.handle(), &buffer_info, nullptr, &out->buffer), VK_SUCCESS);
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device.handle(), out->buffer, &requirements);
    VkExportMemoryAllocateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    export_info.handleTypes = kOpaqueFd;
    VkImportMemoryFdInfoKHR import_info{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR};
    import_info.handleType = kOpaqueFd;
    import_info.fd = import_fd;
    VkMemoryAllocateInfo allocate_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate_info.pNext = import_fd >= 0 ? static_cast<const void*>(&import_info) : &export_info;
    allocate_info.allocationSize = requirements.size;
    allocate_info.memoryTypeIndex = uint32_t(__builtin_ctz(requirements.memoryTypeBits));
    const VkResult result = vkAllocateMemory(device.handle(), &allocate_info, nullptr, &out->memory);
    VkDevice d = device.handle();
    VkBuffer buffer = out->buffer;
    VkDeviceMemory memory = out->memory;
    device.defer_destroy([d, buffer, memory] {
      vkDestroyBuffer(d, buffer, nullptr);
      vkFreeMemory(d, memory, nullptr);
    });
    if (result == VK_SUCCESS) EXPECT_EQ(vkBindBufferMemory(d, out->buffer, out->memory, 0), VK_SUCCESS);
    return result;
  }

  // The first `count` bytes of `shared`, copied out by `device`'s own commands.
  static std::vector<uint8_t> read_back(TestDevice& device, const SharedBuffer& shared, VkDeviceSize count) {
    Buffer host = device.create_buffer(count, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    device.run_commands([&](VkCommandBuffer cmd) {
      const VkBufferCopy region{0, 0, count};
      vkCmdCopyBuffer(cmd, shared.buffer, host.buffer, 1, &region);
    });
    return std::vector<uint8_t>(host.mapped, host.mapped + count);
  }
};

// The queries say OPAQUE_FD memory is importable and exportable, for buffers and images.
TEST_F(ExternalMemoryFdTest, QueriesNameOpaqueFdsImportableAndExportable) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME),
                  "VK_KHR_external_memory_fd");
  constexpr VkExternalMemoryFeatureFlags kBoth =
      VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT;
  VkPhysicalDeviceExternalBufferInfo buffer_query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
  buffer_query.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  buffer_query.handleType = kOpaqueFd;
  VkExternalBufferProperties buffer{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(physical_device(), &buffer_query, &buffer);
  EXPECT_EQ(buffer.externalMemoryProperties.externalMemoryFeatures & kBoth, kBoth);
  EXPECT_TRUE(buffer.externalMemoryProperties.compatibleHandleTypes & kOpaqueFd);
  EXPECT_TRUE(buffer.externalMemoryProperties.exportFromImportedHandleTypes & kOpaqueFd);

  VkPhysicalDeviceExternalImageFormatInfo external_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO};
  external_info.handleType = kOpaqueFd;
  VkPhysicalDeviceImageFormatInfo2 format_info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, &external_info};
  format_info.format = VK_FORMAT_R8G8B8A8_UNORM;
  format_info.type = VK_IMAGE_TYPE_2D;
  format_info.tiling = VK_IMAGE_TILING_OPTIMAL;
  format_info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  VkExternalImageFormatProperties image{VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES};
  VkImageFormatProperties2 properties{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &image};
  ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties2(physical_device(), &format_info, &properties), VK_SUCCESS);
  EXPECT_EQ(image.externalMemoryProperties.externalMemoryFeatures & kBoth, kBoth);
  EXPECT_TRUE(image.externalMemoryProperties.compatibleHandleTypes & kOpaqueFd);
}

// Device A fills its exported memory; device B imports the fd and reads the fill, then writes
// part of it; A reads B's write. Each vkGetMemoryFdKHR gives a new descriptor.
TEST_F(ExternalMemoryFdTest, ExportedMemoryIsSharedWithASecondDevice) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME),
                  "VK_KHR_external_memory_fd");
  TestDevice* a = make_device();
  TestDevice* b = make_device();
  ASSERT_TRUE(a && b);
  SharedBuffer exported, imported;
  ASSERT_EQ(make_shared_buffer(*a, -1, &exported), VK_SUCCESS);
  a->run_commands([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, exported.buffer, 0, kSize, 0x5A5A5A5Au); });

  const int fd = export_fd(*a, exported.memory);
  const int second = export_fd(*a, exported.memory);
  ASSERT_GE(fd, 0);
  ASSERT_GE(second, 0);
  EXPECT_NE(fd, second);
  close(second);
  ASSERT_EQ(make_shared_buffer(*b, fd, &imported), VK_SUCCESS);  // b now owns fd

  std::vector<uint8_t> seen = read_back(*b, imported, kSize);
  for (VkDeviceSize i = 0; i < kSize; ++i) ASSERT_EQ(seen[i], 0x5A) << "byte " << i << " as device B reads it";
  b->run_commands([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, imported.buffer, 1024, 2048, 0xC3C3C3C3u); });
  seen = read_back(*a, exported, kSize);
  for (VkDeviceSize i = 0; i < kSize; ++i)
    ASSERT_EQ(seen[i], i >= 1024 && i < 3072 ? 0xC3 : 0x5A) << "byte " << i << " as device A reads it";
}

// On Kiln an opaque fd is a plain shared file: another process (or this one) that maps it sees
// the device's bytes, and its writes reach the device.
TEST_F(ExternalMemoryFdTest, KilnFdIsASharedFileOfTheMemory) {
  KILN_ONLY();
  ASSERT_TRUE(device_has_extension(physical_device(), VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME));
  TestDevice* device = make_device();
  ASSERT_NE(device, nullptr);
  SharedBuffer shared;
  ASSERT_EQ(make_shared_buffer(*device, -1, &shared), VK_SUCCESS);
  device->run_commands([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, shared.buffer, 0, kSize, 0x01020304u); });
  const int fd = export_fd(*device, shared.memory);
  ASSERT_GE(fd, 0);
  void* mapped = mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  auto* bytes = static_cast<uint8_t*>(mapped);
  EXPECT_EQ(bytes[0], 0x04);
  EXPECT_EQ(bytes[kSize - 1], 0x01);
  std::memset(bytes + 100, 0xEE, 8);
  const std::vector<uint8_t> seen = read_back(*device, shared, 128);
  EXPECT_EQ(seen[100], 0xEE);
  EXPECT_EQ(seen[107], 0xEE);
  EXPECT_EQ(seen[108], 0x04);
  munmap(mapped, kSize);
  close(fd);
}

// Importing a descriptor that is not a file of the allocation's size fails with
// VK_ERROR_INVALID_EXTERNAL_HANDLE and leaves the descriptor the application's.
TEST_F(ExternalMemoryFdTest, ImportOfAPipeIsAnInvalidHandle) {
  KILN_ONLY();  // which descriptors other drivers accept is theirs to say
  TestDevice* device = make_device();
  ASSERT_NE(device, nullptr);
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  SharedBuffer shared;
  EXPECT_EQ(make_shared_buffer(*device, pipe_fds[0], &shared), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  EXPECT_NE(fcntl(pipe_fds[0], F_GETFD), -1) << "the driver closed the descriptor of a failed import";
  close(pipe_fds[0]);
  close(pipe_fds[1]);
}

}  // namespace
}  // namespace kiln::test
