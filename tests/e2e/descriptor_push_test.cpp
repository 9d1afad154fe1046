// Push descriptors (VK_KHR_push_descriptor): sets pushed with vkCmdPushDescriptorSetKHR and with
// a push-descriptor update template, several pushes in one command buffer. A later push changes
// only what it writes, and dispatches recorded before it keep what they saw. Results against a
// CPU reference; KILN_TEST_DRIVER=lavapipe checks the test itself.
#include <array>
#include <cstddef>
#include <vector>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kInvocations = 16;

class ComputePushDescriptorTest : public VulkanTest {};

TEST_F(ComputePushDescriptorTest, PushesKeepUnwrittenBindingsAndEarlierDispatchesKeepTheirs) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME), "VK_KHR_push_descriptor");
  DeviceFeatures enabled;
  enabled.v13.maintenance4 = features().v13.maintenance4;  // glslang's LocalSizeId needs it
  DeviceOptions options;
  options.create_info_chain = &enabled.core;
  options.extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  TestDevice* dev = create_device(options);
  ASSERT_NE(nullptr, dev);
  VkDevice d = dev->handle();
  auto push_set = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(d, "vkCmdPushDescriptorSetKHR"));
  auto push_with_template = reinterpret_cast<PFN_vkCmdPushDescriptorSetWithTemplateKHR>(
      vkGetDeviceProcAddr(d, "vkCmdPushDescriptorSetWithTemplateKHR"));
  ASSERT_NE(nullptr, push_set);
  ASSERT_NE(nullptr, push_with_template);

  const VkDescriptorSetLayoutBinding bindings[] = {compute_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                                   compute_binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1),
                                                   compute_binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)};
  VkDescriptorSetLayoutCreateInfo layout_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  layout_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  layout_info.bindingCount = 3;
  layout_info.pBindings = bindings;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateDescriptorSetLayout(d, &layout_info, nullptr, &set_layout));
  dev->defer_destroy([=] { vkDestroyDescriptorSetLayout(d, set_layout, nullptr); });
  SetsPipeline pipeline(*dev, "descriptor_push.comp", {set_layout});

  // Values a and b, adds 100 and 2000, three result buffers.
  Buffer a = dev->create_buffer(4 * kInvocations, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer b = dev->create_buffer(4 * kInvocations, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    reinterpret_cast<uint32_t*>(a.mapped)[i] = i;
    reinterpret_cast<uint32_t*>(b.mapped)[i] = 50 * i;
  }
  Buffer add1 = dev->create_buffer(16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT), add2 = dev->create_buffer(16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  reinterpret_cast<uint32_t*>(add1.mapped)[0] = 100;
  reinterpret_cast<uint32_t*>(add2.mapped)[0] = 2000;
  std::array<Buffer, 3> results;
  for (Buffer& r : results) r = dev->create_buffer(4 * kInvocations, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);

  // The third push goes through a template reading this struct.
  struct TemplateData {
    VkDescriptorBufferInfo values;
    VkDescriptorBufferInfo results;
  } data{{b.buffer, 0, VK_WHOLE_SIZE}, {results[2].buffer, 0, VK_WHOLE_SIZE}};
  const VkDescriptorUpdateTemplateEntry entries[] = {
      {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(TemplateData, values), 0},
      {2, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(TemplateData, results), 0}};
  VkDescriptorUpdateTemplateCreateInfo template_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  template_info.descriptorUpdateEntryCount = 2;
  template_info.pDescriptorUpdateEntries = entries;
  template_info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR;
  template_info.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  template_info.pipelineLayout = pipeline.layout;
  template_info.set = 0;
  VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateDescriptorUpdateTemplate(d, &template_info, nullptr, &update_template));
  dev->defer_destroy([=] { vkDestroyDescriptorUpdateTemplate(d, update_template, nullptr); });

  auto write = [](uint32_t binding, VkDescriptorType type, const VkDescriptorBufferInfo* info) {
    VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstBinding = binding;
    w.descriptorCount = 1;
    w.descriptorType = type;
    w.pBufferInfo = info;
    return w;
  };
  const VkDescriptorBufferInfo a_info{a.buffer, 0, VK_WHOLE_SIZE}, add1_info{add1.buffer, 0, 16}, add2_info{add2.buffer, 0, 16};
  const VkDescriptorBufferInfo r0_info{results[0].buffer, 0, VK_WHOLE_SIZE}, r1_info{results[1].buffer, 0, VK_WHOLE_SIZE};
  dev->run_commands([&](VkCommandBuffer cmd) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    const VkWriteDescriptorSet first[] = {write(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &a_info),
                                          write(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &add1_info),
                                          write(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &r0_info)};
    push_set(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 3, first);
    vkCmdDispatch(cmd, 1, 1, 1);  // results[0] = a + 100
    const VkWriteDescriptorSet second[] = {write(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &add2_info),
                                           write(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &r1_info)};
    push_set(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 2, second);
    vkCmdDispatch(cmd, 1, 1, 1);  // results[1] = a (kept) + 2000
    push_with_template(cmd, update_template, pipeline.layout, 0, &data);
    vkCmdDispatch(cmd, 1, 1, 1);  // results[2] = b + 2000 (kept)
    shader_writes_to_host_barrier(cmd);
  });
  for (uint32_t i = 0; i < kInvocations; ++i) {
    EXPECT_EQ(i + 100, reinterpret_cast<const uint32_t*>(results[0].mapped)[i]) << "first push, invocation " << i;
    EXPECT_EQ(i + 2000, reinterpret_cast<const uint32_t*>(results[1].mapped)[i]) << "second push, invocation " << i;
    EXPECT_EQ(50 * i + 2000, reinterpret_cast<const uint32_t*>(results[2].mapped)[i]) << "template push, invocation " << i;
  }
}

}  // namespace
}  // namespace kiln::test
