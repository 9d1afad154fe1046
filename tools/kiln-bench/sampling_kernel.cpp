#include "tools/kiln-bench/sampling_kernel.h"

#include <cstring>

namespace kiln::bench {

using tools::check;

std::optional<std::string> missing_sampling_support(const tools::VulkanContext& context,
                                                    const SamplingTextureDesc& desc) {
  VkFormatProperties properties{};
  vkGetPhysicalDeviceFormatProperties(context.physical_device(), desc.format, &properties);
  VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  if (desc.filter == VK_FILTER_LINEAR || desc.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR)
    needed |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
  if ((properties.optimalTilingFeatures & needed) != needed)
    return "format " + std::to_string(desc.format) + " cannot be sampled (with linear filtering) here";
  return std::nullopt;
}

SamplingKernel::SamplingKernel(tools::VulkanContext& context, const SamplingTextureDesc& desc,
                               const std::vector<std::vector<uint8_t>>& levels, SpirvCode code,
                               const tools::Buffer& output, uint32_t push_constant_bytes)
    : device_(context.device()),
      image_(context, desc.format, desc.width, desc.height,
             VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_SAMPLE_COUNT_1_BIT,
             uint32_t(levels.size())),
      push_constant_bytes_(push_constant_bytes) {
  try {
    // Upload every level through one staging buffer.
    VkDeviceSize total = 0;
    for (const auto& level : levels) total += (level.size() + 15) & ~VkDeviceSize(15);
    tools::Buffer staging(context, total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, tools::Buffer::Access::HostMapped);
    std::vector<VkBufferImageCopy> regions;
    VkDeviceSize offset = 0;
    for (uint32_t l = 0; l < levels.size(); ++l) {
      std::memcpy(static_cast<uint8_t*>(staging.mapped()) + offset, levels[l].data(), levels[l].size());
      VkBufferImageCopy region{};
      region.bufferOffset = offset;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
      region.imageExtent = {std::max(desc.width >> l, 1u), std::max(desc.height >> l, 1u), 1};
      regions.push_back(region);
      offset += (levels[l].size() + 15) & ~VkDeviceSize(15);
    }
    const VkImageSubresourceRange all_levels{VK_IMAGE_ASPECT_COLOR_BIT, 0, uint32_t(levels.size()), 0, 1};
    auto barrier = [&](VkCommandBuffer cmd, VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst,
                       VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage) {
      VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      b.srcAccessMask = src;
      b.dstAccessMask = dst;
      b.oldLayout = from;
      b.newLayout = to;
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = image_.handle();
      b.subresourceRange = all_levels;
      vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &b);
    };
    context.run_commands([&](VkCommandBuffer cmd) {
      barrier(cmd, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
      vkCmdCopyBufferToImage(cmd, staging.handle(), image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                             uint32_t(regions.size()), regions.data());
      barrier(cmd, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
              VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    });

    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image_.handle();
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = desc.format;
    view.subresourceRange = all_levels;
    check(vkCreateImageView(device_, &view, nullptr, &view_), "vkCreateImageView");

    VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sampler.magFilter = sampler.minFilter = desc.filter;
    sampler.mipmapMode = desc.mipmap_mode;
    sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sampler.maxLod = float(levels.size() - 1);
    check(vkCreateSampler(device_, &sampler, nullptr, &sampler_), "vkCreateSampler");

    VkDescriptorSetLayoutBinding bindings[2]{};
    bindings[0] = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    bindings[1] = {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo set_layout{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_layout.bindingCount = 2;
    set_layout.pBindings = bindings;
    check(vkCreateDescriptorSetLayout(device_, &set_layout, nullptr, &set_layout_), "vkCreateDescriptorSetLayout");
    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
    VkPipelineLayoutCreateInfo pipeline_layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pipeline_layout.setLayoutCount = 1;
    pipeline_layout.pSetLayouts = &set_layout_;
    pipeline_layout.pushConstantRangeCount = push_constant_bytes ? 1 : 0;
    pipeline_layout.pPushConstantRanges = &push;
    check(vkCreatePipelineLayout(device_, &pipeline_layout, nullptr, &pipeline_layout_), "vkCreatePipelineLayout");

    const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                           {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
    VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool.maxSets = 1;
    pool.poolSizeCount = 2;
    pool.pPoolSizes = sizes;
    check(vkCreateDescriptorPool(device_, &pool, nullptr, &pool_), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = pool_;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &set_layout_;
    check(vkAllocateDescriptorSets(device_, &allocate, &set_), "vkAllocateDescriptorSets");
    const VkDescriptorImageInfo image_info{sampler_, view_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    const VkDescriptorBufferInfo buffer_info{output.handle(), 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet writes[2]{};
    for (uint32_t i = 0; i < 2; ++i) {
      writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      writes[i].dstSet = set_;
      writes[i].dstBinding = i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = bindings[i].descriptorType;
    }
    writes[0].pImageInfo = &image_info;
    writes[1].pBufferInfo = &buffer_info;
    vkUpdateDescriptorSets(device_, 2, writes, 0, nullptr);

    const ShaderModule module(device_, code);
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module.handle();
    info.stage.pName = "main";
    info.layout = pipeline_layout_;
    check(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_), "vkCreateComputePipelines");
  } catch (...) {
    release();
    throw;
  }
}

SamplingKernel::~SamplingKernel() { release(); }

void SamplingKernel::release() {
  if (pipeline_ != VK_NULL_HANDLE) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(device_, pool_, nullptr);
  if (pipeline_layout_ != VK_NULL_HANDLE) vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
  if (set_layout_ != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  if (sampler_ != VK_NULL_HANDLE) vkDestroySampler(device_, sampler_, nullptr);
  if (view_ != VK_NULL_HANDLE) vkDestroyImageView(device_, view_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  pool_ = VK_NULL_HANDLE;
  pipeline_layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
  sampler_ = VK_NULL_HANDLE;
  view_ = VK_NULL_HANDLE;
}

void SamplingKernel::record_dispatch(VkCommandBuffer cmd, GroupCount workgroups, const void* push_constants) const {
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 1, &set_, 0, nullptr);
  if (push_constant_bytes_)
    vkCmdPushConstants(cmd, pipeline_layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes_, push_constants);
  vkCmdDispatch(cmd, workgroups.x, workgroups.y, workgroups.z);
}

}  // namespace kiln::bench
