// VkAllocationCallbacks: every object family made with counting callbacks allocates through them,
// and once everything (down to the instance) is destroyed no allocation is left alive.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using AllocatorTest = VulkanTest;

// Thread-safe counting allocator. Remembers each live block's size (for realloc) and notices
// misuse: frees/reallocs of pointers it never returned, alignments that are not powers of two.
class CountingAllocator {
 public:
  CountingAllocator() {
    callbacks_.pUserData = this;
    callbacks_.pfnAllocation = &CountingAllocator::allocate;
    callbacks_.pfnReallocation = &CountingAllocator::reallocate;
    callbacks_.pfnFree = &CountingAllocator::free;
  }
  const VkAllocationCallbacks* callbacks() const { return &callbacks_; }

  size_t live() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return blocks_.size();
  }
  uint64_t allocations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return allocations_;
  }
  uint64_t frees() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return frees_;
  }
  uint64_t reallocations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return reallocations_;
  }
  uint64_t misuses() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return misuses_;
  }

 private:
  static VKAPI_ATTR void* VKAPI_CALL allocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    auto* self = static_cast<CountingAllocator*>(user);
    std::lock_guard<std::mutex> lock(self->mutex_);
    return self->allocate_locked(size, alignment);
  }

  static VKAPI_ATTR void* VKAPI_CALL reallocate(void* user, void* original, size_t size, size_t alignment,
                                                VkSystemAllocationScope) {
    auto* self = static_cast<CountingAllocator*>(user);
    std::lock_guard<std::mutex> lock(self->mutex_);
    ++self->reallocations_;
    if (!original) return self->allocate_locked(size, alignment);
    auto it = self->blocks_.find(original);
    if (it == self->blocks_.end()) {
      ++self->misuses_;
      return nullptr;
    }
    if (size == 0) {  // the spec: behaves like pfnFree
      self->free_locked(original);
      return nullptr;
    }
    void* replacement = self->allocate_locked(size, alignment);
    if (!replacement) return nullptr;  // the original stays valid
    std::memcpy(replacement, original, std::min(size, it->second));
    self->free_locked(original);
    return replacement;
  }

  static VKAPI_ATTR void VKAPI_CALL free(void* user, void* memory) {
    if (!memory) return;  // freeing NULL is allowed and does nothing
    auto* self = static_cast<CountingAllocator*>(user);
    std::lock_guard<std::mutex> lock(self->mutex_);
    self->free_locked(memory);
  }

  void* allocate_locked(size_t size, size_t alignment) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) ++misuses_;
    void* memory = nullptr;
    if (posix_memalign(&memory, std::max(alignment, sizeof(void*)), size ? size : 1) != 0) return nullptr;
    blocks_[memory] = size;
    ++allocations_;
    return memory;
  }

  void free_locked(void* memory) {
    if (blocks_.erase(memory) == 0) {
      ++misuses_;  // not ours (or already freed): leave it alone
      return;
    }
    ++frees_;
    std::free(memory);
  }

  VkAllocationCallbacks callbacks_{};
  mutable std::mutex mutex_;
  std::unordered_map<void*, size_t> blocks_;
  uint64_t allocations_ = 0, reallocations_ = 0, frees_ = 0, misuses_ = 0;
};

// Runs `create`, checks it allocated through `allocator`, runs `destroy`, checks the object's
// allocations were returned.
template <typename Create, typename Destroy>
void expect_object_uses_callbacks(const CountingAllocator& allocator, const char* what, Create create,
                                  Destroy destroy) {
  const size_t live_before = allocator.live();
  const uint64_t allocations_before = allocator.allocations();
  create();
  EXPECT_GT(allocator.allocations(), allocations_before) << what << " was created without the callbacks";
  destroy();
  EXPECT_EQ(live_before, allocator.live()) << what << " leaked allocations on destruction";
}

TEST_F(AllocatorTest, EveryObjectUsesTheCallbacksAndNothingLeaks) {
  CountingAllocator allocator;
  InstanceOptions instance_options;
  instance_options.allocator = allocator.callbacks();
  std::unique_ptr<TestInstance> instance;
  ASSERT_EQ(VK_SUCCESS, TestInstance::create(instance_options, &instance));
  EXPECT_GT(allocator.allocations(), 0u) << "vkCreateInstance did not use the callbacks";
  const std::vector<VkPhysicalDevice> physical_devices = instance->physical_devices();
  ASSERT_FALSE(physical_devices.empty());

  {
    DeviceFeatures supported;
    DeviceFeatures::query(physical_devices[0], &supported);
    DeviceFeatures enabled;
    enabled.v12.timelineSemaphore = supported.v12.timelineSemaphore;
    DeviceOptions device_options;
    device_options.allocator = allocator.callbacks();
    device_options.create_info_chain = &enabled.core;
    const uint64_t before_device = allocator.allocations();
    std::unique_ptr<TestDevice> device;
    ASSERT_EQ(VK_SUCCESS, TestDevice::create(physical_devices[0], device_options, &device));
    EXPECT_GT(allocator.allocations(), before_device) << "vkCreateDevice did not use the callbacks";
    VkDevice dev = device->handle();
    const VkAllocationCallbacks* callbacks = allocator.callbacks();

    VkBufferCreateInfo buffer_info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    buffer_info.size = 4096;
    buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    expect_object_uses_callbacks(
        allocator, "VkBuffer", [&] { ASSERT_EQ(VK_SUCCESS, vkCreateBuffer(dev, &buffer_info, callbacks, &buffer)); },
        [&] { vkDestroyBuffer(dev, buffer, callbacks); });

    VkImageCreateInfo image_info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    image_info.imageType = VK_IMAGE_TYPE_2D;
    image_info.format = VK_FORMAT_R8G8B8A8_UNORM;
    image_info.extent = {16, 16, 1};
    image_info.mipLevels = 1;
    image_info.arrayLayers = 1;
    image_info.samples = VK_SAMPLE_COUNT_1_BIT;
    image_info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImage image = VK_NULL_HANDLE;
    expect_object_uses_callbacks(
        allocator, "VkImage", [&] { ASSERT_EQ(VK_SUCCESS, vkCreateImage(dev, &image_info, callbacks, &image)); },
        [&] { vkDestroyImage(dev, image, callbacks); });

    VkMemoryAllocateInfo memory_info{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    memory_info.allocationSize = 65536;
    memory_info.memoryTypeIndex = 0;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    expect_object_uses_callbacks(
        allocator, "VkDeviceMemory",
        [&] { ASSERT_EQ(VK_SUCCESS, vkAllocateMemory(dev, &memory_info, callbacks, &memory)); },
        [&] { vkFreeMemory(dev, memory, callbacks); });

    VkFenceCreateInfo fence_info{.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    expect_object_uses_callbacks(
        allocator, "VkFence", [&] { ASSERT_EQ(VK_SUCCESS, vkCreateFence(dev, &fence_info, callbacks, &fence)); },
        [&] { vkDestroyFence(dev, fence, callbacks); });

    VkSemaphoreCreateInfo semaphore_info{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore semaphore = VK_NULL_HANDLE;
    expect_object_uses_callbacks(
        allocator, "binary VkSemaphore",
        [&] { ASSERT_EQ(VK_SUCCESS, vkCreateSemaphore(dev, &semaphore_info, callbacks, &semaphore)); },
        [&] { vkDestroySemaphore(dev, semaphore, callbacks); });

    if (supported.v12.timelineSemaphore) {
      VkSemaphoreTypeCreateInfo timeline{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
      timeline.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
      VkSemaphoreCreateInfo timeline_info{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &timeline};
      expect_object_uses_callbacks(
          allocator, "timeline VkSemaphore",
          [&] { ASSERT_EQ(VK_SUCCESS, vkCreateSemaphore(dev, &timeline_info, callbacks, &semaphore)); },
          [&] { vkDestroySemaphore(dev, semaphore, callbacks); });
    }

    VkEventCreateInfo event_info{.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    VkEvent event = VK_NULL_HANDLE;
    expect_object_uses_callbacks(
        allocator, "VkEvent", [&] { ASSERT_EQ(VK_SUCCESS, vkCreateEvent(dev, &event_info, callbacks, &event)); },
        [&] { vkDestroyEvent(dev, event, callbacks); });

    VkCommandPoolCreateInfo pool_info{.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool = VK_NULL_HANDLE;
    expect_object_uses_callbacks(
        allocator, "VkCommandPool",
        [&] { ASSERT_EQ(VK_SUCCESS, vkCreateCommandPool(dev, &pool_info, callbacks, &pool)); },
        [&] { vkDestroyCommandPool(dev, pool, callbacks); });


    // A realistic mix through the fixture helpers (which pass the device's callbacks on), with
    // command buffers recorded and executed; all destroyed with the device.
    Buffer source = device->create_buffer(1 << 16, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0x42);
    Buffer destination = device->create_buffer(1 << 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0);
    Image texture = device->create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {32, 32, 1}, 2, 2);
    device->create_binary_semaphore();
    device->create_event();
    device->run_commands([&](VkCommandBuffer cmd) {
      const VkBufferCopy whole{0, 0, 1 << 16};
      vkCmdCopyBuffer(cmd, source.buffer, destination.buffer, 1, &whole);
      transition(cmd, texture.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      full_barrier(cmd);
    });
    EXPECT_EQ(0x42, destination.mapped[(1 << 16) - 1]);
    device->run_commands([&](VkCommandBuffer cmd) { full_barrier(cmd); });
  }  // the device and everything made through it are destroyed here

  instance->destroy();
  for (const std::string& message : instance->messages()) ADD_FAILURE() << "validation: " << message;
  EXPECT_EQ(0u, allocator.live()) << "allocations still alive after destroying everything";
  EXPECT_GT(allocator.frees(), 0u);
  EXPECT_EQ(0u, allocator.misuses()) << "frees of unknown pointers or bad alignments";
  RecordProperty("reallocations", static_cast<int>(allocator.reallocations()));
}

}  // namespace
}  // namespace kiln::test
