#include "e2e/descriptor_pipeline.h"

#include "shaders/test_shaders.h"

namespace kiln::test {

SetsPipeline::SetsPipeline(TestDevice& device, const std::string& shader,
                           const std::vector<VkDescriptorSetLayout>& set_layouts, uint32_t push_bytes) {
  VkDevice d = device.handle();
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo layout_info{.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = static_cast<uint32_t>(set_layouts.size());
  layout_info.pSetLayouts = set_layouts.data();
  layout_info.pushConstantRangeCount = push_bytes ? 1 : 0;
  layout_info.pPushConstantRanges = &push;
  EXPECT_EQ(VK_SUCCESS, vkCreatePipelineLayout(d, &layout_info, nullptr, &layout));
  const std::vector<uint32_t> words = kiln_test_shader(shader);
  EXPECT_FALSE(words.empty()) << "test shader " << shader << " was not built";
  VkShaderModuleCreateInfo module_info{.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = words.size() * 4;
  module_info.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkCreateShaderModule(d, &module_info, nullptr, &module));
  VkComputePipelineCreateInfo info{.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
  info.layout = layout;
  EXPECT_EQ(VK_SUCCESS, vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
  vkDestroyShaderModule(d, module, nullptr);
  VkPipelineLayout l = layout;
  VkPipeline p = pipeline;
  device.defer_destroy([=] {
    vkDestroyPipeline(d, p, nullptr);
    vkDestroyPipelineLayout(d, l, nullptr);
  });
}

void SetsPipeline::record_dispatch(VkCommandBuffer cmd, const std::vector<VkDescriptorSet>& sets, uint32_t groups,
                                   const void* push, uint32_t push_bytes) const {
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, static_cast<uint32_t>(sets.size()), sets.data(), 0,
                          nullptr);
  if (push_bytes) vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  vkCmdDispatch(cmd, groups, 1, 1);
}

void shader_writes_to_host_barrier(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0,
                       nullptr);
}

void write_buffers(VkDevice device, VkDescriptorSet set, uint32_t binding, uint32_t first_element, VkDescriptorType type,
                   const std::vector<VkDescriptorBufferInfo>& infos) {
  VkWriteDescriptorSet write{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = binding;
  write.dstArrayElement = first_element;
  write.descriptorCount = static_cast<uint32_t>(infos.size());
  write.descriptorType = type;
  write.pBufferInfo = infos.data();
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

}  // namespace kiln::test
