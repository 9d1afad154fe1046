// Inline uniform blocks (Vulkan 1.3 core): bytes written into the set itself with
// VkWriteDescriptorSetInlineUniformBlock, copied between sets at byte offsets, written by update
// templates and after the set is bound (update after bind), read by a compute shader as uniform
// blocks and checked against a CPU reference; pool capacity counted in bytes and in bindings
// (VkDescriptorPoolInlineUniformBlockCreateInfo).
//
// ctest runs these at KILN_SIMD_WIDTH=4, 8 and the default (16 on AVX-512 hosts); KILN_TEST_DRIVER=lavapipe checks
// the tests themselves.
#include <array>
#include <cstddef>
#include <cstring>
#include <vector>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

// descriptor_inline_uniform_block.comp's blocks: set 0 binding 1 (Block), binding 2 (Small), set 1
// binding 0 (Other).
struct Block {
  std::array<uint32_t, 4> header;
  std::array<std::array<uint32_t, 4>, 3> rows;
};
struct Small {
  uint32_t x, y, z, w;
};
constexpr uint32_t kInvocations = 16;

Block block_data() {
  Block b{};
  b.header = {500, 0, 0, 0};
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t c = 0; c < 4; ++c) b.rows[r][c] = 10 * r + c + 1;
  return b;
}

// What lane i of the shader stores.
std::array<uint32_t, 4> expected_result(uint32_t i, const Block& b, const Small& s, const std::array<float, 4>& scale) {
  return {b.rows[i % 3][i % 4] + b.header[0], s.x * 1000 + s.y, s.z + s.w, static_cast<uint32_t>(scale[i % 4] * float(i))};
}

class ComputeInlineUniformBlockTest : public VulkanTest {
 protected:
  TestDevice* block_device() {
    const DeviceFeatures& s = features();
    if (!s.v13.inlineUniformBlock || !s.v13.descriptorBindingInlineUniformBlockUpdateAfterBind) {
      if (is_kiln()) ADD_FAILURE() << "Kiln must support inline uniform blocks, also updated after bind";
      return nullptr;
    }
    enabled_.v13.inlineUniformBlock = VK_TRUE;
    enabled_.v13.descriptorBindingInlineUniformBlockUpdateAfterBind = VK_TRUE;
    TestDevice* device = create_device(enabled_);
    if (!device) throw std::runtime_error("vkCreateDevice with inlineUniformBlock failed");
    return device;
  }

  VkDescriptorSetLayout make_layout(TestDevice& device, const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                                    const std::vector<VkDescriptorBindingFlags>& flags = {},
                                    VkDescriptorSetLayoutCreateFlags layout_flags = 0) {
    VkDescriptorSetLayoutBindingFlagsCreateInfo flag_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
    flag_info.bindingCount = static_cast<uint32_t>(flags.size());
    flag_info.pBindingFlags = flags.data();
    VkDescriptorSetLayoutCreateInfo info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.pNext = flags.empty() ? nullptr : &flag_info;
    info.flags = layout_flags;
    info.bindingCount = static_cast<uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    require(vkCreateDescriptorSetLayout(device.handle(), &info, nullptr, &layout), "vkCreateDescriptorSetLayout");
    VkDevice d = device.handle();
    device.defer_destroy([=] { vkDestroyDescriptorSetLayout(d, layout, nullptr); });
    return layout;
  }

  // A pool of `max_sets` sets with `block_bytes` inline uniform block bytes in at most
  // `block_bindings` bindings, and `storage_buffers` storage buffers.
  VkDescriptorPool make_pool(TestDevice& device, uint32_t max_sets, uint32_t block_bytes, uint32_t block_bindings,
                             uint32_t storage_buffers, VkDescriptorPoolCreateFlags flags = 0) {
    std::vector<VkDescriptorPoolSize> sizes = {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, block_bytes}};
    if (storage_buffers) sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage_buffers});
    VkDescriptorPoolInlineUniformBlockCreateInfo block_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO};
    block_info.maxInlineUniformBlockBindings = block_bindings;
    VkDescriptorPoolCreateInfo info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .pNext = &block_info};
    info.flags = flags;
    info.maxSets = max_sets;
    info.poolSizeCount = static_cast<uint32_t>(sizes.size());
    info.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    require(vkCreateDescriptorPool(device.handle(), &info, nullptr, &pool), "vkCreateDescriptorPool");
    VkDevice d = device.handle();
    device.defer_destroy([=] { vkDestroyDescriptorPool(d, pool, nullptr); });
    return pool;
  }

  static VkResult allocate(VkDevice device, VkDescriptorPool pool, VkDescriptorSetLayout layout, VkDescriptorSet* set) {
    VkDescriptorSetAllocateInfo info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    info.descriptorPool = pool;
    info.descriptorSetCount = 1;
    info.pSetLayouts = &layout;
    return vkAllocateDescriptorSets(device, &info, set);
  }

  // Writes `bytes` at byte `offset` of inline uniform block `binding`.
  static void write_block(VkDevice device, VkDescriptorSet set, uint32_t binding, uint32_t offset, const void* bytes,
                          uint32_t size) {
    VkWriteDescriptorSetInlineUniformBlock block{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK};
    block.dataSize = size;
    block.pData = bytes;
    VkWriteDescriptorSet write{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .pNext = &block};
    write.dstSet = set;
    write.dstBinding = binding;
    write.dstArrayElement = offset;
    write.descriptorCount = size;
    write.descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
  }

  static void expect_results(const Buffer& results, const Block& b, const Small& s, const std::array<float, 4>& scale) {
    const auto* got = reinterpret_cast<const uint32_t*>(results.mapped);
    for (uint32_t i = 0; i < kInvocations; ++i) {
      const std::array<uint32_t, 4> want = expected_result(i, b, s, scale);
      for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(want[c], got[4 * i + c]) << "invocation " << i << " component " << c;
    }
  }

 private:
  DeviceFeatures enabled_;
};

TEST_F(ComputeInlineUniformBlockTest, WritesCopiesAndTemplatesReachTheShader) {
  TestDevice* dev = block_device();
  if (!dev) GTEST_SKIP() << "the driver lacks inline uniform blocks";
  VkDevice d = dev->handle();
  VkDescriptorSetLayout set0_layout = make_layout(*dev, {compute_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                                         compute_binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, sizeof(Block)),
                                                         compute_binding(2, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, sizeof(Small))});
  VkDescriptorSetLayout set1_layout = make_layout(*dev, {compute_binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  SetsPipeline pipeline(*dev, "descriptor_inline_uniform_block.comp", {set0_layout, set1_layout});
  const uint32_t set0_bytes = sizeof(Block) + sizeof(Small);
  VkDescriptorPool pool = make_pool(*dev, 3, 2 * set0_bytes + 16, 5, 2);
  VkDescriptorSet set0, staging, set1;
  ASSERT_EQ(VK_SUCCESS, allocate(d, pool, set0_layout, &set0));
  ASSERT_EQ(VK_SUCCESS, allocate(d, pool, set0_layout, &staging));
  ASSERT_EQ(VK_SUCCESS, allocate(d, pool, set1_layout, &set1));
  Buffer results = dev->create_buffer(kInvocations * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);

  // Block: the header written in place; the rows written at offset 0 of the staging set's block,
  // then copied to offset 16 of set 0's (source and destination offsets differ).
  const Block block = block_data();
  write_block(d, set0, 1, 0, &block.header, sizeof(block.header));
  write_block(d, staging, 1, 0, &block.rows, sizeof(block.rows));
  VkCopyDescriptorSet copy{.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
  copy.srcSet = staging;
  copy.srcBinding = 1;
  copy.srcArrayElement = 0;
  copy.dstSet = set0;
  copy.dstBinding = 1;
  copy.dstArrayElement = sizeof(block.header);
  copy.descriptorCount = sizeof(block.rows);
  vkUpdateDescriptorSets(d, 0, nullptr, 1, &copy);

  // Small and the results buffer: one update template, Small in two pieces from two places of the
  // application's struct.
  struct TemplateData {
    uint32_t xy[2];
    VkDescriptorBufferInfo results;
    uint32_t zw[2];
  } data{{7, 8}, {results.buffer, 0, VK_WHOLE_SIZE}, {30, 12}};
  const VkDescriptorUpdateTemplateEntry entries[] = {
      {2, 0, 8, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, offsetof(TemplateData, xy), 0},
      {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(TemplateData, results), sizeof(VkDescriptorBufferInfo)},
      {2, 8, 8, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, offsetof(TemplateData, zw), 0}};
  VkDescriptorUpdateTemplateCreateInfo template_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  template_info.descriptorUpdateEntryCount = 3;
  template_info.pDescriptorUpdateEntries = entries;
  template_info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  template_info.descriptorSetLayout = set0_layout;
  VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateDescriptorUpdateTemplate(d, &template_info, nullptr, &update_template));
  vkUpdateDescriptorSetWithTemplate(d, set0, update_template, &data);
  vkDestroyDescriptorUpdateTemplate(d, update_template, nullptr);

  const std::array<float, 4> scale = {0.5f, 2.0f, 3.0f, 10.0f};
  write_block(d, set1, 0, 0, scale.data(), sizeof(scale));

  dev->run_commands([&](VkCommandBuffer cmd) {
    pipeline.record_dispatch(cmd, {set0, set1}, 1);
    shader_writes_to_host_barrier(cmd);
  });
  expect_results(results, block, Small{7, 8, 30, 12}, scale);
}

TEST_F(ComputeInlineUniformBlockTest, BlocksWrittenAfterBindAreWhatTheShaderReads) {
  TestDevice* dev = block_device();
  if (!dev) GTEST_SKIP() << "the driver lacks inline uniform blocks";
  VkDevice d = dev->handle();
  VkDescriptorSetLayout set0_layout = make_layout(
      *dev,
      {compute_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
       compute_binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, sizeof(Block)),
       compute_binding(2, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, sizeof(Small))},
      {0, VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT, VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT},
      VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT);
  VkDescriptorSetLayout set1_layout = make_layout(*dev, {compute_binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  SetsPipeline pipeline(*dev, "descriptor_inline_uniform_block.comp", {set0_layout, set1_layout});
  VkDescriptorPool after_bind_pool = make_pool(*dev, 1, sizeof(Block) + sizeof(Small), 2, 1,
                                               VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT);
  VkDescriptorPool pool = make_pool(*dev, 1, 16, 1, 0);
  VkDescriptorSet set0, set1;
  ASSERT_EQ(VK_SUCCESS, allocate(d, after_bind_pool, set0_layout, &set0));
  ASSERT_EQ(VK_SUCCESS, allocate(d, pool, set1_layout, &set1));
  Buffer results = dev->create_buffer(kInvocations * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  write_buffers(d, set0, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  const std::array<float, 4> scale = {1.0f, 1.5f, 0.25f, 4.0f};
  write_block(d, set1, 0, 0, scale.data(), sizeof(scale));
  const Block stale{};  // bound contents, replaced before submission
  write_block(d, set0, 1, 0, &stale, sizeof(stale));

  VkCommandBuffer cmd = dev->allocate_command_buffer();
  const VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(cmd, &begin));
  pipeline.record_dispatch(cmd, {set0, set1}, 1);
  shader_writes_to_host_barrier(cmd);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(cmd));
  const Block block = block_data();
  const Small small{3, 4, 5, 6};
  write_block(d, set0, 1, 0, &block, sizeof(block));
  write_block(d, set0, 2, 0, &small, sizeof(small));
  VkFence fence = dev->create_fence(false);
  ASSERT_EQ(VK_SUCCESS, submit(dev->queue(), cmd, fence));
  ASSERT_EQ(VK_SUCCESS, vkWaitForFences(d, 1, &fence, VK_TRUE, kGpuTimeoutNs));
  expect_results(results, block, small, scale);
}

// A pool holds inline uniform block bytes (VkDescriptorPoolSize counts bytes) and at most
// maxInlineUniformBlockBindings bindings; either running out refuses the allocation.
TEST_F(ComputeInlineUniformBlockTest, PoolCountsBlockBytesAndBindings) {
  TestDevice* dev = block_device();
  if (!dev) GTEST_SKIP() << "the driver lacks inline uniform blocks";
  VkDevice d = dev->handle();
  VkDescriptorSetLayout one_block = make_layout(*dev, {compute_binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64)});
  VkDescriptorSetLayout two_blocks = make_layout(*dev, {compute_binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16),
                                                        compute_binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  auto expect_exhausted = [&](VkResult r) {
    if (is_kiln()) EXPECT_EQ(VK_ERROR_OUT_OF_POOL_MEMORY, r);
    else EXPECT_TRUE(r == VK_SUCCESS || r == VK_ERROR_OUT_OF_POOL_MEMORY || r == VK_ERROR_FRAGMENTED_POOL) << r;
  };
  VkDescriptorSet set;
  VkDescriptorPool bytes_pool = make_pool(*dev, 4, 128, 4, 0);  // room for two 64-byte blocks
  EXPECT_EQ(VK_SUCCESS, allocate(d, bytes_pool, one_block, &set));
  EXPECT_EQ(VK_SUCCESS, allocate(d, bytes_pool, one_block, &set));
  expect_exhausted(allocate(d, bytes_pool, one_block, &set));
  VkDescriptorPool bindings_pool = make_pool(*dev, 4, 1024, 3, 0);  // bytes aplenty, three bindings
  EXPECT_EQ(VK_SUCCESS, allocate(d, bindings_pool, two_blocks, &set));
  expect_exhausted(allocate(d, bindings_pool, two_blocks, &set));
  EXPECT_EQ(VK_SUCCESS, allocate(d, bindings_pool, one_block, &set));
}

}  // namespace
}  // namespace kiln::test
