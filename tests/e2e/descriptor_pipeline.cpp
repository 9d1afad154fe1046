#include "e2e/descriptor_pipeline.h"

#include <cstring>

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
  pipeline = create_compute_pipeline(device, shader, layout);
  VkPipelineLayout l = layout;
  device.defer_destroy([=] { vkDestroyPipelineLayout(d, l, nullptr); });
}

VkPipeline create_compute_pipeline(TestDevice& device, const std::string& shader, VkPipelineLayout layout) {
  VkDevice d = device.handle();
  VkShaderModule module = create_test_shader_module(d, shader);
  VkComputePipelineCreateInfo info{.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline)) << shader;
  vkDestroyShaderModule(d, module, nullptr);
  device.defer_destroy([=] { vkDestroyPipeline(d, pipeline, nullptr); });
  return pipeline;
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

VkDescriptorSet make_set(TestDevice& device, const std::vector<DescriptorBinding>& bindings, VkDescriptorSetLayout* layout,
                         uint32_t variable_count) {
  VkDevice d = device.handle();
  std::vector<VkDescriptorSetLayoutBinding> b;
  std::vector<VkDescriptorBindingFlags> flags;
  std::vector<VkDescriptorPoolSize> sizes;
  bool update_after_bind = false;
  for (uint32_t i = 0; i < bindings.size(); ++i) {
    b.push_back(compute_binding(i, bindings[i].type, bindings[i].count));
    flags.push_back(bindings[i].flags);
    const bool variable = bindings[i].flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
    sizes.push_back({bindings[i].type, variable ? variable_count : bindings[i].count});
    update_after_bind |= (bindings[i].flags & VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT) != 0;
  }
  VkDescriptorSetLayoutBindingFlagsCreateInfo flag_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
  flag_info.bindingCount = static_cast<uint32_t>(flags.size());
  flag_info.pBindingFlags = flags.data();
  VkDescriptorSetLayoutCreateInfo li{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .pNext = &flag_info};
  if (update_after_bind) li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT;
  li.bindingCount = static_cast<uint32_t>(b.size());
  li.pBindings = b.data();
  EXPECT_EQ(VK_SUCCESS, vkCreateDescriptorSetLayout(d, &li, nullptr, layout));
  VkDescriptorSetLayout l = *layout;
  device.defer_destroy([d, l] { vkDestroyDescriptorSetLayout(d, l, nullptr); });
  VkDescriptorPoolCreateInfo pi{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  if (update_after_bind) pi.flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT;
  pi.maxSets = 1;
  pi.poolSizeCount = static_cast<uint32_t>(sizes.size());
  pi.pPoolSizes = sizes.data();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkCreateDescriptorPool(d, &pi, nullptr, &pool));
  device.defer_destroy([d, pool] { vkDestroyDescriptorPool(d, pool, nullptr); });
  VkDescriptorSetVariableDescriptorCountAllocateInfo variable{
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO};
  variable.descriptorSetCount = 1;
  variable.pDescriptorCounts = &variable_count;
  VkDescriptorSetAllocateInfo ai{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .pNext = &variable};
  ai.descriptorPool = pool;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkAllocateDescriptorSets(d, &ai, &set));
  return set;
}

void write_images(TestDevice& device, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                  const std::vector<VkDescriptorImageInfo>& infos) {
  VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  w.dstSet = set;
  w.dstBinding = binding;
  w.descriptorCount = static_cast<uint32_t>(infos.size());
  w.descriptorType = type;
  w.pImageInfo = infos.data();
  vkUpdateDescriptorSets(device.handle(), 1, &w, 0, nullptr);
}

void write_texel_buffers(TestDevice& device, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                         const std::vector<VkBufferView>& views) {
  VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  w.dstSet = set;
  w.dstBinding = binding;
  w.descriptorCount = static_cast<uint32_t>(views.size());
  w.descriptorType = type;
  w.pTexelBufferView = views.data();
  vkUpdateDescriptorSets(device.handle(), 1, &w, 0, nullptr);
}

SampledImage make_sampled_image(TestDevice& device, VkImageViewType view_type, VkFormat format, VkExtent3D extent,
                                uint32_t layers, const std::vector<std::vector<uint8_t>>& levels, VkImageAspectFlags aspect) {
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = view_type == VK_IMAGE_VIEW_TYPE_3D ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = extent;
  info.mipLevels = static_cast<uint32_t>(levels.size());
  info.arrayLayers = layers;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (view_type == VK_IMAGE_VIEW_TYPE_CUBE || view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY)
    info.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  SampledImage out;
  out.image = device.create_image(info);
  VkDeviceSize total = 0;
  for (const auto& l : levels) total += l.size();
  Buffer upload = device.create_buffer(total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::vector<VkBufferImageCopy> regions;
  VkDeviceSize offset = 0;
  for (uint32_t l = 0; l < levels.size(); ++l) {
    std::memcpy(upload.mapped + offset, levels[l].data(), levels[l].size());
    VkBufferImageCopy r{};
    r.bufferOffset = offset;
    r.imageSubresource = {aspect, l, 0, layers};
    r.imageExtent = mip_extent(extent, l);
    regions.push_back(r);
    offset += levels[l].size();
  }
  device.run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, out.image.image, aspect, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkCmdCopyBufferToImage(cmd, upload.buffer, out.image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           static_cast<uint32_t>(regions.size()), regions.data());
    transition(cmd, out.image.image, aspect, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  });
  VkImageViewCreateInfo vi{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = out.image.image;
  vi.viewType = view_type;
  vi.format = format;
  vi.subresourceRange = {aspect, 0, info.mipLevels, 0, layers};
  EXPECT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &vi, nullptr, &out.view));
  VkDevice d = device.handle();
  VkImageView view = out.view;
  device.defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
  return out;
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
