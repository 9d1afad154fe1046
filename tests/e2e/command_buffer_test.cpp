// Command pools and buffers: reset (buffer and pool), re-recording, secondary buffers, usage flags
// (ONE_TIME_SUBMIT, SIMULTANEOUS_USE), several buffers per submit.
#include <cstring>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using CommandBufferTest = VulkanTest;

uint32_t word_at(const Buffer& buffer, size_t index) {
  uint32_t word = 0;
  std::memcpy(&word, buffer.mapped + index * 4, 4);
  return word;
}

// Every 32-bit word of `buffer` equals `value`.
::testing::AssertionResult all_words_are(const Buffer& buffer, uint32_t value) {
  for (size_t i = 0; i < buffer.size / 4; ++i) {
    if (word_at(buffer, i) != value)
      return ::testing::AssertionFailure() << "word " << i << " is 0x" << std::hex << word_at(buffer, i)
                                           << ", expected 0x" << value;
  }
  return ::testing::AssertionSuccess();
}

void record_fill(VkCommandBuffer cmd, const Buffer& buffer, uint32_t value, VkCommandBufferUsageFlags flags = 0) {
  const VkCommandBufferBeginInfo begin = begin_info(flags);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  vkCmdFillBuffer(cmd, buffer.buffer, 0, VK_WHOLE_SIZE, value);
  full_barrier(cmd);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));
}

void submit_and_wait(TestDevice& device, VkCommandBuffer cmd) {
  VkFence fence = device.create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit(device.queue(), cmd, fence));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(device.handle(), 1, &fence, VK_TRUE, kGpuTimeoutNs));
}

TEST_F(CommandBufferTest, ResetCommandBufferAndReRecord) {
  Buffer buffer = device().create_buffer(1024, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer cmd = device().allocate_command_buffer();  // pool has RESET_COMMAND_BUFFER
  record_fill(cmd, buffer, 0x11111111u);
  ASSERT_EQ(VK_SUCCESS, vkResetCommandBuffer(cmd, 0));
  record_fill(cmd, buffer, 0x22222222u);  // only this recording may run
  submit_and_wait(device(), cmd);
  EXPECT_TRUE(all_words_are(buffer, 0x22222222u));

  // vkBeginCommandBuffer resets an executed buffer implicitly; with RELEASE_RESOURCES explicitly.
  record_fill(cmd, buffer, 0x33333333u);
  submit_and_wait(device(), cmd);
  EXPECT_TRUE(all_words_are(buffer, 0x33333333u));
  ASSERT_EQ(VK_SUCCESS, vkResetCommandBuffer(cmd, VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT));
  record_fill(cmd, buffer, 0x44444444u);
  submit_and_wait(device(), cmd);
  EXPECT_TRUE(all_words_are(buffer, 0x44444444u));
}

TEST_F(CommandBufferTest, ResetPoolResetsAllItsBuffers) {
  VkCommandPoolCreateInfo pool_info{.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;  // no per-buffer reset: only pool resets
  pool_info.queueFamilyIndex = 0;
  VkCommandPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateCommandPool(device().handle(), &pool_info, nullptr, &pool));
  VkDevice dev = device().handle();
  device().defer_destroy([=] { vkDestroyCommandPool(dev, pool, nullptr); });
  VkCommandBufferAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 2;
  VkCommandBuffer cmds[2];
  ASSERT_EQ(VK_SUCCESS, vkAllocateCommandBuffers(dev, &allocate, cmds));
  Buffer first = device().create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  Buffer second = device().create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

  for (uint32_t round = 1; round <= 3; ++round) {
    if (round > 1) {
      const VkCommandPoolResetFlags flags = round == 3 ? VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT : 0;
      ASSERT_EQ(VK_SUCCESS, vkResetCommandPool(dev, pool, flags));
    }
    record_fill(cmds[0], first, 0x01010101u * round);
    record_fill(cmds[1], second, 0x10101010u * round);
    VkFence fence = device().create_fence(false);
    VkSubmitInfo info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
    info.commandBufferCount = 2;
    info.pCommandBuffers = cmds;
    ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device().queue(), 1, &info, fence));
    ASSERT_EQ(VK_SUCCESS, vkWaitForFences(dev, 1, &fence, VK_TRUE, kGpuTimeoutNs));
    EXPECT_TRUE(all_words_are(first, 0x01010101u * round)) << "round " << round;
    EXPECT_TRUE(all_words_are(second, 0x10101010u * round)) << "round " << round;
  }
  vkFreeCommandBuffers(dev, pool, 2, cmds);
}

// Secondary command buffers run inline, in order, with the barriers they contain.
TEST_F(CommandBufferTest, SecondaryCommandBuffersExecuteCopies) {
  const VkDeviceSize size = 512;
  Buffer a = device().create_buffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  Buffer b = device().create_buffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  Buffer c = device().create_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

  VkCommandBufferInheritanceInfo inheritance{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  VkCommandBufferBeginInfo secondary_begin = begin_info(0);
  secondary_begin.pInheritanceInfo = &inheritance;
  VkCommandBuffer copy_a_to_b = device().allocate_command_buffer(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBuffer copy_b_to_c = device().allocate_command_buffer(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  const VkBufferCopy whole{0, 0, size};
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(copy_a_to_b, &secondary_begin));
  vkCmdCopyBuffer(copy_a_to_b, a.buffer, b.buffer, 1, &whole);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(copy_a_to_b));
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(copy_b_to_c, &secondary_begin));
  full_barrier(copy_b_to_c);  // the previous secondary's copy → this one
  vkCmdCopyBuffer(copy_b_to_c, b.buffer, c.buffer, 1, &whole);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(copy_b_to_c));

  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, 0xA5A5F00Du);
    full_barrier(cmd);
    const VkCommandBuffer secondaries[] = {copy_a_to_b, copy_b_to_c};
    vkCmdExecuteCommands(cmd, 2, secondaries);
    full_barrier(cmd);
  });
  EXPECT_TRUE(all_words_are(b, 0xA5A5F00Du));
  EXPECT_TRUE(all_words_are(c, 0xA5A5F00Du));
}

TEST_F(CommandBufferTest, OneTimeSubmitRunsAndCanBeReRecorded) {
  Buffer buffer = device().create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer cmd = device().allocate_command_buffer();
  record_fill(cmd, buffer, 0x0BADCAFEu, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  submit_and_wait(device(), cmd);
  EXPECT_TRUE(all_words_are(buffer, 0x0BADCAFEu));
  // Submitted once, the buffer is invalid; recording again makes it usable again.
  record_fill(cmd, buffer, 0x600DF00Du, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  submit_and_wait(device(), cmd);
  EXPECT_TRUE(all_words_are(buffer, 0x600DF00Du));
}

// A command buffer that rotates buffer `a` by 4 bytes (via `b`) is pending twice at once
// (SIMULTANEOUS_USE); both executions must happen, in submission order: rotation by 8.
TEST_F(CommandBufferTest, SimultaneousUseSubmittedTwice) {
  const VkDeviceSize size = 256;
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  Buffer a = device().create_buffer(size, usage);
  Buffer b = device().create_buffer(size, usage);
  for (size_t i = 0; i < size; ++i) a.mapped[i] = static_cast<uint8_t>(i);

  VkCommandBuffer cmd = device().allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  full_barrier(cmd);  // the previous execution's writes → this execution
  const VkBufferCopy rotate[] = {{0, 4, size - 4}, {size - 4, 0, 4}};
  vkCmdCopyBuffer(cmd, a.buffer, b.buffer, 2, rotate);
  full_barrier(cmd);
  const VkBufferCopy back{0, 0, size};
  vkCmdCopyBuffer(cmd, b.buffer, a.buffer, 1, &back);
  full_barrier(cmd);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));

  VkFence fence = device().create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit(device().queue(), cmd));  // no wait: pending twice
  ASSERT_EQ(VK_SUCCESS, submit(device().queue(), cmd, fence));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(device().handle(), 1, &fence, VK_TRUE, kGpuTimeoutNs));
  ASSERT_EQ(VK_SUCCESS, vkQueueWaitIdle(device().queue()));
  for (size_t i = 0; i < size; ++i) {
    ASSERT_EQ(static_cast<uint8_t>((i + size - 8) % size), a.mapped[i]) << "byte " << i;
  }
}

TEST_F(CommandBufferTest, CommandBuffersOfOneSubmitRunInOrder) {
  Buffer source = device().create_buffer(1024, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  Buffer destination = device().create_buffer(1024, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer fill = device().allocate_command_buffer();
  VkCommandBuffer copy = device().allocate_command_buffer();
  record_fill(fill, source, 0x12345678u);
  const VkCommandBufferBeginInfo begin = begin_info(0);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(copy, &begin));
  full_barrier(copy);  // orders against the fill in the earlier command buffer
  const VkBufferCopy whole{0, 0, 1024};
  vkCmdCopyBuffer(copy, source.buffer, destination.buffer, 1, &whole);
  full_barrier(copy);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(copy));
  VkFence fence = device().create_fence(false);
  const VkCommandBuffer cmds[] = {fill, copy};
  VkSubmitInfo info{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.commandBufferCount = 2;
  info.pCommandBuffers = cmds;
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device().queue(), 1, &info, fence));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(device().handle(), 1, &fence, VK_TRUE, kGpuTimeoutNs));
  EXPECT_TRUE(all_words_are(destination, 0x12345678u));
}

TEST_F(CommandBufferTest, EmptyCommandBufferAndEmptySubmit) {
  VkCommandBuffer cmd = device().allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(0);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));
  submit_and_wait(device(), cmd);
  // A submit without command buffers still signals its fence.
  VkFence fence = device().create_fence(false);
  ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(device().queue(), 0, nullptr, fence));
  EXPECT_EQ(VK_SUCCESS, vkWaitForFences(device().handle(), 1, &fence, VK_TRUE, kGpuTimeoutNs));
}

}  // namespace
}  // namespace kiln::test
