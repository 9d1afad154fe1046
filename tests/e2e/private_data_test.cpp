// Private data (core 1.3 privateData): values round-trip on objects of several types, slots are
// independent, unset values read 0, a new object never inherits a destroyed one's values, a
// destroyed slot's values are gone, and concurrent use from several threads is safe.
#include <stdexcept>
#include <thread>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class PrivateDataTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (!features().v13.privateData) GTEST_SKIP() << "privateData not supported";
  }
  // A device with privateData and a reservation of `reserved` slots.
  TestDevice& data_device(uint32_t reserved = 2) {
    if (!device_) {
      reservation_.privateDataSlotRequestCount = reserved;
      v13_.privateData = VK_TRUE;
      v13_.pNext = &reservation_;
      features_.pNext = &v13_;
      DeviceOptions options;
      options.create_info_chain = &features_;
      options.queue_count = 1;
      device_ = create_device(options);
      if (!device_) throw std::runtime_error("device with privateData");
    }
    return *device_;
  }
  VkPrivateDataSlot create_slot() {
    TestDevice& dev = data_device();
    VkPrivateDataSlotCreateInfo info{.sType = VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
    VkPrivateDataSlot slot = VK_NULL_HANDLE;
    require(vkCreatePrivateDataSlot(dev.handle(), &info, nullptr, &slot), "vkCreatePrivateDataSlot");
    return slot;
  }
  uint64_t get(VkObjectType type, uint64_t object, VkPrivateDataSlot slot) {
    uint64_t value = 0x5555;
    vkGetPrivateData(data_device().handle(), type, object, slot, &value);
    return value;
  }

 private:
  VkPhysicalDeviceFeatures2 features_{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan13Features v13_{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkDevicePrivateDataCreateInfo reservation_{.sType = VK_STRUCTURE_TYPE_DEVICE_PRIVATE_DATA_CREATE_INFO};
  TestDevice* device_ = nullptr;
};

template <typename Handle>
uint64_t raw(Handle h) {
  return reinterpret_cast<uint64_t>(h);
}

TEST_F(PrivateDataTest, ValuesRoundTripOnSeveralObjectTypes) {
  TestDevice& dev = data_device();
  VkDevice handle = dev.handle();
  VkPrivateDataSlot a = create_slot();
  VkPrivateDataSlot b = create_slot();
  Buffer buffer = dev.create_buffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  const std::pair<VkObjectType, uint64_t> objects[] = {
      {VK_OBJECT_TYPE_DEVICE, raw(handle)},
      {VK_OBJECT_TYPE_QUEUE, raw(dev.queue())},
      {VK_OBJECT_TYPE_COMMAND_POOL, raw(dev.command_pool())},
      {VK_OBJECT_TYPE_COMMAND_BUFFER, raw(dev.allocate_command_buffer())},
      {VK_OBJECT_TYPE_BUFFER, raw(buffer.buffer)},
      {VK_OBJECT_TYPE_DEVICE_MEMORY, raw(buffer.memory)},
      {VK_OBJECT_TYPE_FENCE, raw(dev.create_fence(false))},
      {VK_OBJECT_TYPE_SEMAPHORE, raw(dev.create_binary_semaphore())},
      {VK_OBJECT_TYPE_EVENT, raw(dev.create_event())},
      {VK_OBJECT_TYPE_PRIVATE_DATA_SLOT, raw(b)},
  };
  for (auto [type, object] : objects) EXPECT_EQ(0u, get(type, object, a)) << "type " << type << " before any set";
  uint64_t n = 0;
  for (auto [type, object] : objects) {
    ASSERT_EQ(VK_SUCCESS, vkSetPrivateData(handle, type, object, a, 0x1000 + n));
    ASSERT_EQ(VK_SUCCESS, vkSetPrivateData(handle, type, object, b, ~0ull - n));
    ++n;
  }
  n = 0;
  for (auto [type, object] : objects) {
    EXPECT_EQ(0x1000 + n, get(type, object, a)) << "type " << type;
    EXPECT_EQ(~0ull - n, get(type, object, b)) << "type " << type;
    ++n;
  }
  ASSERT_EQ(VK_SUCCESS, vkSetPrivateData(handle, VK_OBJECT_TYPE_BUFFER, raw(buffer.buffer), a, 7));
  EXPECT_EQ(7u, get(VK_OBJECT_TYPE_BUFFER, raw(buffer.buffer), a)) << "a second set overwrites";
  EXPECT_EQ(~0ull - 4, get(VK_OBJECT_TYPE_BUFFER, raw(buffer.buffer), b)) << "slots are independent";
  vkDestroyPrivateDataSlot(handle, a, nullptr);
  vkDestroyPrivateDataSlot(handle, b, nullptr);
}

// A new object must read 0 even if the driver reuses a destroyed object's memory for it.
TEST_F(PrivateDataTest, NewObjectsStartWithoutValues) {
  TestDevice& dev = data_device();
  VkDevice handle = dev.handle();
  VkPrivateDataSlot slot = create_slot();
  for (int i = 0; i < 8; ++i) {
    VkFenceCreateInfo info{.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkCreateFence(handle, &info, nullptr, &fence));
    EXPECT_EQ(0u, get(VK_OBJECT_TYPE_FENCE, raw(fence), slot)) << "iteration " << i;
    ASSERT_EQ(VK_SUCCESS, vkSetPrivateData(handle, VK_OBJECT_TYPE_FENCE, raw(fence), slot, 100 + i));
    EXPECT_EQ(100u + i, get(VK_OBJECT_TYPE_FENCE, raw(fence), slot));
    vkDestroyFence(handle, fence, nullptr);
  }
  vkDestroyPrivateDataSlot(handle, slot, nullptr);
}

// A slot made after another was destroyed starts empty, even at the same address.
TEST_F(PrivateDataTest, NewSlotsStartEmpty) {
  TestDevice& dev = data_device();
  VkDevice handle = dev.handle();
  VkEvent event = dev.create_event();
  for (int i = 0; i < 4; ++i) {
    VkPrivateDataSlot slot = create_slot();
    EXPECT_EQ(0u, get(VK_OBJECT_TYPE_EVENT, raw(event), slot)) << "iteration " << i;
    ASSERT_EQ(VK_SUCCESS, vkSetPrivateData(handle, VK_OBJECT_TYPE_EVENT, raw(event), slot, 42));
    vkDestroyPrivateDataSlot(handle, slot, nullptr);
  }
}

TEST_F(PrivateDataTest, ConcurrentSetAndGet) {
  TestDevice& dev = data_device();
  VkDevice handle = dev.handle();
  VkPrivateDataSlot slot = create_slot();
  constexpr int kThreads = 4;
  std::vector<VkSemaphore> objects;
  for (int i = 0; i < kThreads; ++i) objects.push_back(dev.create_binary_semaphore());
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 1; i <= 2000; ++i) {
        const uint64_t value = (uint64_t(t) << 32) | i;
        vkSetPrivateData(handle, VK_OBJECT_TYPE_SEMAPHORE, raw(objects[t]), slot, value);
        uint64_t read = 0;
        vkGetPrivateData(handle, VK_OBJECT_TYPE_SEMAPHORE, raw(objects[t]), slot, &read);
        mismatches[t] += read != value;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(0, mismatches[t]) << "thread " << t;
    EXPECT_EQ((uint64_t(t) << 32) | 2000, get(VK_OBJECT_TYPE_SEMAPHORE, raw(objects[t]), slot));
  }
  vkDestroyPrivateDataSlot(handle, slot, nullptr);
}

}  // namespace
}  // namespace kiln::test
