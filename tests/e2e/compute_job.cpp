#include "e2e/compute_job.h"


namespace kiln::test {

ComputeJob::ComputeJob(TestDevice& device, const std::string& shader, std::vector<VkDescriptorType> bindings,
                       uint32_t push_constant_bytes, const VkSpecializationInfo* specialization,
                       const ComputePipelineOptions& pipeline_options)
    : ComputeJob(device, test_shader_code(shader), std::move(bindings), push_constant_bytes, specialization,
                 pipeline_options) {}

ComputeJob::ComputeJob(TestDevice& device, const std::vector<uint32_t>& spirv, std::vector<VkDescriptorType> bindings,
                       uint32_t push_constant_bytes, const VkSpecializationInfo* specialization,
                       const ComputePipelineOptions& pipeline_options)
    : device_(device), types_(std::move(bindings)) {
  VkDevice d = device.handle();
  std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
  for (uint32_t i = 0; i < types_.size(); ++i)
    layout_bindings.push_back({i, types_[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = static_cast<uint32_t>(layout_bindings.size());
  set_info.pBindings = layout_bindings.data();
  EXPECT_EQ(vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout_), VK_SUCCESS);
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = push_constant_bytes ? 1 : 0;
  layout_info.pPushConstantRanges = &push;
  EXPECT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout_), VK_SUCCESS);

  VkShaderModule module = create_shader_module(d, spirv);
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, pipeline_options.stage_next,
                         pipeline_options.stage_flags, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", specialization};
  pipeline_info.pNext = pipeline_options.pipeline_next;
  pipeline_info.flags = pipeline_options.pipeline_flags;
  pipeline_info.layout = layout_;
  pipeline_result_ = vkCreateComputePipelines(d, pipeline_options.cache, 1, &pipeline_info, nullptr, &pipeline_);
  vkDestroyShaderModule(d, module, nullptr);

  std::vector<VkDescriptorPoolSize> sizes;
  for (VkDescriptorType t : types_) sizes.push_back({t, 1});
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = static_cast<uint32_t>(sizes.size());
  pool_info.pPoolSizes = sizes.data();
  EXPECT_EQ(vkCreateDescriptorPool(d, &pool_info, nullptr, &pool_), VK_SUCCESS);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool_;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &set_layout_;
  EXPECT_EQ(vkAllocateDescriptorSets(d, &alloc, &set_), VK_SUCCESS);
}

ComputeJob::~ComputeJob() {
  VkDevice d = device_.handle();
  vkDestroyDescriptorPool(d, pool_, nullptr);
  vkDestroyPipeline(d, pipeline_, nullptr);
  vkDestroyPipelineLayout(d, layout_, nullptr);
  vkDestroyDescriptorSetLayout(d, set_layout_, nullptr);
}

void ComputeJob::bind_buffer(uint32_t binding, const Buffer& buffer, VkDeviceSize offset, VkDeviceSize range) {
  bind_buffer_handle(binding, buffer.buffer, offset, range);
}

void ComputeJob::bind_null_buffer(uint32_t binding) { bind_buffer_handle(binding, VK_NULL_HANDLE, 0, VK_WHOLE_SIZE); }

void ComputeJob::bind_buffer_handle(uint32_t binding, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
  VkDescriptorBufferInfo info{buffer, offset, range};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set_;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = types_.at(binding);
  write.pBufferInfo = &info;
  vkUpdateDescriptorSets(device_.handle(), 1, &write, 0, nullptr);
}

void ComputeJob::run(uint32_t x, uint32_t y, uint32_t z, const void* push, uint32_t push_bytes) {
  device_.run_commands([&](VkCommandBuffer cb) { record(cb, x, y, z, push, push_bytes); });
}

void ComputeJob::record(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z, const void* push, uint32_t push_bytes) {
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  if (push_bytes) vkCmdPushConstants(cb, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  vkCmdDispatch(cb, x, y, z);
  // The results go to the host, or to the next dispatch recorded after this one.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace kiln::test
