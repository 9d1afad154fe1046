// VkAllocationCallbacks: every object family made with counting callbacks allocates through them,
// and once everything (down to the instance) is destroyed no allocation is left alive.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "e2e/vk_fixture.h"
#include "shaders/test_shaders.h"

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
  // Failure injection: the `n`-th allocation or reallocation from now (0: the next) returns null,
  // and every one after it too until disarm() (a driver that retries must still give up).
  void fail_from(uint64_t n) {
    std::lock_guard<std::mutex> lock(mutex_);
    countdown_ = n;
    failing_ = true;
  }
  void disarm() {
    std::lock_guard<std::mutex> lock(mutex_);
    failing_ = false;
  }
  uint64_t failed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return failed_;
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
    if (failing_) {
      if (countdown_ == 0) {
        ++failed_;
        return nullptr;
      }
      --countdown_;
    }
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
  bool failing_ = false;
  uint64_t countdown_ = 0, failed_ = 0;
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

// Makes an object with the first allocation failing, then the second, and so on until it is made:
// every failed attempt must return VK_ERROR_OUT_OF_HOST_MEMORY (or `other_error`, when the command
// may also fail another way) and leave no allocation alive; the object finally made is destroyed
// without a leak. Returns how many allocations it took.
template <typename Create, typename Destroy>
uint64_t expect_clean_failures(CountingAllocator& allocator, const std::string& what, Create create, Destroy destroy) {
  for (uint64_t n = 0; n < 2000; ++n) {
    const size_t live_before = allocator.live();
    const uint64_t failed_before = allocator.failed();
    allocator.fail_from(n);
    const VkResult result = create();
    allocator.disarm();
    if (result == VK_SUCCESS) {
      EXPECT_EQ(failed_before, allocator.failed()) << what << " succeeded although allocation " << n << " failed";
      destroy();
      EXPECT_EQ(live_before, allocator.live()) << what << " leaked on destruction";
      return n;
    }
    EXPECT_EQ(VK_ERROR_OUT_OF_HOST_MEMORY, result) << what << " with allocation " << n << " failing";
    EXPECT_EQ(live_before, allocator.live()) << what << " leaked after allocation " << n << " failed";
    if (::testing::Test::HasFailure()) return n;
  }
  ADD_FAILURE() << what << " never succeeded";
  return 0;
}

// Host allocation callbacks that fail at any point (the CTS's api.object_management.alloc_callback_fail
// in small): each object family, the device itself included, made with its first, second, …
// allocation failing. Nothing leaks, and what already existed keeps working. Without the
// validation layer, which allocates through the same callbacks and does not expect them to fail.
TEST_F(AllocatorTest, FailingCallbacksAtEveryPointGiveOutOfHostMemoryAndLeakNothing) {
  SKIP_ON_LAVAPIPE("Mesa 22.3 leaks a command buffer when vkAllocateCommandBuffers sees a callback fail");
  UnvalidatedContext context = create_unvalidated_context();
  ASSERT_NE(VK_NULL_HANDLE, context.physical_device);
  CountingAllocator allocator;
  const VkAllocationCallbacks* callbacks = allocator.callbacks();

  // The device.
  VkDeviceQueueCreateInfo queue_info{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  const float priority = 1.0f;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  VkDevice dev = VK_NULL_HANDLE;
  const uint64_t device_allocations = expect_clean_failures(
      allocator, "vkCreateDevice", [&] { return vkCreateDevice(context.physical_device, &device_info, callbacks, &dev); },
      [&] { vkDestroyDevice(dev, callbacks); });
  if (is_kiln()) EXPECT_GT(device_allocations, 0u) << "vkCreateDevice made nothing through the callbacks";

  // A device (made with the callbacks), and a buffer whose contents must survive everything below.
  DeviceOptions device_options;
  device_options.allocator = callbacks;
  std::unique_ptr<TestDevice> device;
  ASSERT_EQ(VK_SUCCESS, TestDevice::create(context.physical_device, device_options, &device));
  dev = device->handle();
  Buffer source = device->create_buffer(4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0x5A);
  Buffer destination = device->create_buffer(4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0);

  VkBufferCreateInfo buffer_info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = 4096;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateBuffer", [&] { return vkCreateBuffer(dev, &buffer_info, callbacks, &buffer); },
      [&] { vkDestroyBuffer(dev, buffer, callbacks); });

  VkImageCreateInfo image_info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = VK_FORMAT_R8G8B8A8_UNORM;
  image_info.extent = {16, 16, 1};
  image_info.mipLevels = 2;
  image_info.arrayLayers = 2;
  image_info.samples = VK_SAMPLE_COUNT_1_BIT;
  image_info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage image = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateImage", [&] { return vkCreateImage(dev, &image_info, callbacks, &image); },
      [&] { vkDestroyImage(dev, image, callbacks); });

  // An image and its memory for the views below.
  const Image texture = device->create_image(image_info);
  VkImageViewCreateInfo view_info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = texture.image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  view_info.format = image_info.format;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 0, 2};
  VkImageView view = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateImageView", [&] { return vkCreateImageView(dev, &view_info, callbacks, &view); },
      [&] { vkDestroyImageView(dev, view, callbacks); });

  VkSamplerCreateInfo sampler_info{.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler_info.maxLod = 1.0f;
  VkSampler sampler = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateSampler", [&] { return vkCreateSampler(dev, &sampler_info, callbacks, &sampler); },
      [&] { vkDestroySampler(dev, sampler, callbacks); });

  VkMemoryAllocateInfo memory_info{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  memory_info.allocationSize = 65536;
  memory_info.memoryTypeIndex = 0;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkAllocateMemory", [&] { return vkAllocateMemory(dev, &memory_info, callbacks, &memory); },
      [&] { vkFreeMemory(dev, memory, callbacks); });

  VkFenceCreateInfo fence_info{.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateFence", [&] { return vkCreateFence(dev, &fence_info, callbacks, &fence); },
      [&] { vkDestroyFence(dev, fence, callbacks); });
  VkSemaphoreCreateInfo semaphore_info{.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateSemaphore", [&] { return vkCreateSemaphore(dev, &semaphore_info, callbacks, &semaphore); },
      [&] { vkDestroySemaphore(dev, semaphore, callbacks); });
  VkEventCreateInfo event_info{.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent event = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateEvent", [&] { return vkCreateEvent(dev, &event_info, callbacks, &event); },
      [&] { vkDestroyEvent(dev, event, callbacks); });
  VkQueryPoolCreateInfo query_info{.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  query_info.queryType = VK_QUERY_TYPE_OCCLUSION;
  query_info.queryCount = 64;
  VkQueryPool query_pool = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateQueryPool", [&] { return vkCreateQueryPool(dev, &query_info, callbacks, &query_pool); },
      [&] { vkDestroyQueryPool(dev, query_pool, callbacks); });

  // Command pools and their buffers (which take the device's callbacks when allocated).
  VkCommandPoolCreateInfo pool_info{.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool command_pool = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateCommandPool", [&] { return vkCreateCommandPool(dev, &pool_info, callbacks, &command_pool); },
      [&] { vkDestroyCommandPool(dev, command_pool, callbacks); });
  ASSERT_EQ(VK_SUCCESS, vkCreateCommandPool(dev, &pool_info, callbacks, &command_pool));
  VkCommandBufferAllocateInfo cb_info{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cb_info.commandPool = command_pool;
  cb_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cb_info.commandBufferCount = 4;
  VkCommandBuffer command_buffers[4];
  expect_clean_failures(
      allocator, "vkAllocateCommandBuffers",
      [&] {
        const VkResult result = vkAllocateCommandBuffers(dev, &cb_info, command_buffers);
        if (result != VK_SUCCESS)
          for (VkCommandBuffer cb : command_buffers) EXPECT_EQ(VK_NULL_HANDLE, cb) << "a failed allocation's handles are null";
        return result;
      },
      [&] { vkFreeCommandBuffers(dev, command_pool, 4, command_buffers); });
  vkDestroyCommandPool(dev, command_pool, callbacks);

  // Descriptors and pipeline layouts.
  const VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo set_layout_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_layout_info.bindingCount = 2;
  set_layout_info.pBindings = bindings;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateDescriptorSetLayout",
      [&] { return vkCreateDescriptorSetLayout(dev, &set_layout_info, callbacks, &set_layout); },
      [&] { vkDestroyDescriptorSetLayout(dev, set_layout, callbacks); });
  ASSERT_EQ(VK_SUCCESS, vkCreateDescriptorSetLayout(dev, &set_layout_info, callbacks, &set_layout));
  VkPipelineLayoutCreateInfo layout_info{.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreatePipelineLayout",
      [&] { return vkCreatePipelineLayout(dev, &layout_info, callbacks, &pipeline_layout); },
      [&] { vkDestroyPipelineLayout(dev, pipeline_layout, callbacks); });
  const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8},
                                         {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4}};
  VkDescriptorPoolCreateInfo descriptor_pool_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  descriptor_pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  descriptor_pool_info.maxSets = 4;
  descriptor_pool_info.poolSizeCount = 2;
  descriptor_pool_info.pPoolSizes = sizes;
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateDescriptorPool",
      [&] { return vkCreateDescriptorPool(dev, &descriptor_pool_info, callbacks, &descriptor_pool); },
      [&] { vkDestroyDescriptorPool(dev, descriptor_pool, callbacks); });
  ASSERT_EQ(VK_SUCCESS, vkCreateDescriptorPool(dev, &descriptor_pool_info, callbacks, &descriptor_pool));
  const VkDescriptorSetLayout set_layouts[3] = {set_layout, set_layout, set_layout};
  VkDescriptorSetAllocateInfo set_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  set_info.descriptorPool = descriptor_pool;
  set_info.descriptorSetCount = 3;
  set_info.pSetLayouts = set_layouts;
  VkDescriptorSet sets[3];
  expect_clean_failures(
      allocator, "vkAllocateDescriptorSets",
      [&] {
        VkResult result = vkAllocateDescriptorSets(dev, &set_info, sets);
        if (result != VK_SUCCESS)
          for (VkDescriptorSet set : sets) EXPECT_EQ(VK_NULL_HANDLE, set) << "a failed allocation's handles are null";
        // Whether host memory or the pool ran out, a failed allocation returns what it took.
        if (result == VK_ERROR_OUT_OF_POOL_MEMORY || result == VK_ERROR_FRAGMENTED_POOL) result = VK_ERROR_UNKNOWN;
        return result;
      },
      [&] { EXPECT_EQ(VK_SUCCESS, vkFreeDescriptorSets(dev, descriptor_pool, 3, sets)); });
  // The pool is whole again: its 4 sets can all be allocated.
  const VkDescriptorSetLayout four_layouts[4] = {set_layout, set_layout, set_layout, set_layout};
  set_info.descriptorSetCount = 4;
  set_info.pSetLayouts = four_layouts;
  VkDescriptorSet four[4];
  EXPECT_EQ(VK_SUCCESS, vkAllocateDescriptorSets(dev, &set_info, four));

  // A shader module and a compute pipeline (a compile, or a hit in the device's kernel cache).
  const std::vector<uint32_t> words = kiln_test_shader("watchdog_loop.comp");
  ASSERT_FALSE(words.empty());
  VkShaderModuleCreateInfo module_info{.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = words.size() * 4;
  module_info.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateShaderModule", [&] { return vkCreateShaderModule(dev, &module_info, callbacks, &module); },
      [&] { vkDestroyShaderModule(dev, module, callbacks); });
  ASSERT_EQ(VK_SUCCESS, vkCreateShaderModule(dev, &module_info, callbacks, &module));
  const VkDescriptorSetLayoutBinding storage{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  set_layout_info.bindingCount = 1;
  set_layout_info.pBindings = &storage;
  VkDescriptorSetLayout compute_set_layout = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateDescriptorSetLayout(dev, &set_layout_info, callbacks, &compute_set_layout));
  layout_info.pSetLayouts = &compute_set_layout;
  ASSERT_EQ(VK_SUCCESS, vkCreatePipelineLayout(dev, &layout_info, callbacks, &pipeline_layout));
  VkComputePipelineCreateInfo pipeline_info{.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                         module, "main", nullptr};
  pipeline_info.layout = pipeline_layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  expect_clean_failures(
      allocator, "vkCreateComputePipelines",
      [&] {
        const VkResult result = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pipeline_info, callbacks, &pipeline);
        if (result != VK_SUCCESS) EXPECT_EQ(VK_NULL_HANDLE, pipeline) << "a failed creation's handle is null";
        return result;
      },
      [&] { vkDestroyPipeline(dev, pipeline, callbacks); });
  vkDestroyPipelineLayout(dev, pipeline_layout, callbacks);
  vkDestroyDescriptorSetLayout(dev, compute_set_layout, callbacks);
  vkDestroyShaderModule(dev, module, callbacks);
  vkDestroyDescriptorPool(dev, descriptor_pool, callbacks);
  vkDestroyDescriptorSetLayout(dev, set_layout, callbacks);

  // What existed before all of this still works: a copy between the two buffers.
  device->run_commands([&](VkCommandBuffer cmd) {
    const VkBufferCopy whole{0, 0, 4096};
    vkCmdCopyBuffer(cmd, source.buffer, destination.buffer, 1, &whole);
    full_barrier(cmd);
  });
  EXPECT_EQ(0x5A, destination.mapped[0]);
  EXPECT_EQ(0x5A, destination.mapped[4095]);
  device.reset();
  EXPECT_EQ(0u, allocator.live()) << "allocations still alive after destroying the device";
  EXPECT_EQ(0u, allocator.misuses()) << "frees of unknown pointers or bad alignments";
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
