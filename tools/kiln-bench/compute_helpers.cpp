#include "tools/kiln-bench/compute_helpers.h"

#include <bit>
#include <chrono>
#include <stdexcept>

#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {

using tools::check;
using tools::VulkanContext;

GroupCount workgroup_rows(uint64_t workgroups) {
  if (workgroups > 0 && workgroups <= kWorkgroupsPerRow) return {uint32_t(workgroups), 1, 1};
  if (workgroups == 0 || workgroups % kWorkgroupsPerRow != 0 ||
      workgroups / kWorkgroupsPerRow > UINT32_MAX) {
    throw std::invalid_argument("workgroup_rows: " + std::to_string(workgroups) +
                                " workgroups is not a whole number of rows");
  }
  return {kWorkgroupsPerRow, uint32_t(workgroups / kWorkgroupsPerRow), 1};
}

namespace {

std::string xyz(const uint32_t (&v)[3]) {
  return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
}

std::string xyz(GroupCount g) {
  return std::to_string(g.x) + "x" + std::to_string(g.y) + "x" + std::to_string(g.z);
}

}  // namespace

std::optional<std::string> missing_compute_support(const VulkanContext& context,
                                                   const ComputeNeeds& needs) {
  if (!(context.queue_flags() & VK_QUEUE_COMPUTE_BIT)) return "the queue does not support compute";
  if (context.properties().apiVersion < VK_API_VERSION_1_2) {
    return "kiln-bench's shaders are SPIR-V 1.5, which needs a Vulkan 1.2 device";
  }
  const VkPhysicalDeviceLimits& limits = context.properties().limits;
  const GroupCount& local = needs.local_size;
  if (local.x > limits.maxComputeWorkGroupSize[0] || local.y > limits.maxComputeWorkGroupSize[1] ||
      local.z > limits.maxComputeWorkGroupSize[2] ||
      local.total() > limits.maxComputeWorkGroupInvocations) {
    return "workgroup size " + xyz(local) + " exceeds maxComputeWorkGroupSize " +
           xyz(limits.maxComputeWorkGroupSize) + " / maxComputeWorkGroupInvocations " +
           std::to_string(limits.maxComputeWorkGroupInvocations);
  }
  const GroupCount& groups = needs.workgroups;
  if (groups.x > limits.maxComputeWorkGroupCount[0] || groups.y > limits.maxComputeWorkGroupCount[1] ||
      groups.z > limits.maxComputeWorkGroupCount[2]) {
    return "dispatch of " + xyz(groups) + " workgroups exceeds maxComputeWorkGroupCount " +
           xyz(limits.maxComputeWorkGroupCount);
  }
  if (needs.storage_buffer_range > limits.maxStorageBufferRange) {
    return "storage buffer of " + std::to_string(needs.storage_buffer_range) +
           " bytes exceeds maxStorageBufferRange " + std::to_string(limits.maxStorageBufferRange);
  }
  if (needs.shared_memory_bytes > limits.maxComputeSharedMemorySize) {
    return std::to_string(needs.shared_memory_bytes) +
           " bytes of shared memory exceed maxComputeSharedMemorySize " +
           std::to_string(limits.maxComputeSharedMemorySize);
  }
  if (needs.push_constant_bytes > limits.maxPushConstantsSize) {
    return std::to_string(needs.push_constant_bytes) +
           " bytes of push constants exceed maxPushConstantsSize " +
           std::to_string(limits.maxPushConstantsSize);
  }
  return std::nullopt;
}

StorageBufferLayout::StorageBufferLayout(VkDevice device, uint32_t storage_buffer_count,
                                         uint32_t push_constant_bytes, VkShaderStageFlags stages)
    : device_(device),
      storage_buffer_count_(storage_buffer_count),
      push_constant_bytes_(push_constant_bytes) {
  std::vector<VkDescriptorSetLayoutBinding> bindings(storage_buffer_count);
  for (uint32_t i = 0; i < storage_buffer_count; ++i) {
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr};
  }
  VkDescriptorSetLayoutCreateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_info.bindingCount = storage_buffer_count;
  set_info.pBindings = bindings.data();
  check(vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout_),
        "vkCreateDescriptorSetLayout");

  const VkPushConstantRange push_range{stages, 0, push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = push_constant_bytes ? 1 : 0;
  layout_info.pPushConstantRanges = &push_range;
  try {
    check(vkCreatePipelineLayout(device_, &layout_info, nullptr, &pipeline_layout_),
          "vkCreatePipelineLayout");
  } catch (...) {
    release();
    throw;
  }
}

StorageBufferLayout::~StorageBufferLayout() { release(); }

void StorageBufferLayout::release() {
  if (pipeline_layout_ != VK_NULL_HANDLE) vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
  if (set_layout_ != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  pipeline_layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
}

ShaderModule::ShaderModule(VkDevice device, SpirvCode code) : device_(device) {
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = code.word_count * sizeof(uint32_t);
  info.pCode = code.words;
  check(vkCreateShaderModule(device_, &info, nullptr, &module_), "vkCreateShaderModule");
}

ShaderModule::~ShaderModule() { vkDestroyShaderModule(device_, module_, nullptr); }

ComputePipeline::ComputePipeline(VkDevice device, const StorageBufferLayout& layout,
                                 const ShaderModule& module, const VkSpecializationInfo* specialization)
    : device_(device) {
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module.handle();
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = specialization;
  info.layout = layout.pipeline_layout();
  const auto start = std::chrono::steady_clock::now();
  const VkResult result =
      vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_);
  creation_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  check(result, "vkCreateComputePipelines");
}

ComputePipeline::~ComputePipeline() { vkDestroyPipeline(device_, pipeline_, nullptr); }

StorageBufferSet::StorageBufferSet(VkDevice device, const StorageBufferLayout& layout,
                                   const std::vector<const tools::Buffer*>& buffers)
    : device_(device) {
  if (buffers.size() != layout.storage_buffer_count()) {
    throw std::invalid_argument("StorageBufferSet: " + std::to_string(buffers.size()) + " buffers for " +
                                std::to_string(layout.storage_buffer_count()) + " bindings");
  }
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, layout.storage_buffer_count()};
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  check(vkCreateDescriptorPool(device_, &pool_info, nullptr, &pool_), "vkCreateDescriptorPool");

  try {
    const VkDescriptorSetLayout set_layout = layout.set_layout();
    VkDescriptorSetAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate.descriptorPool = pool_;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &set_layout;
    check(vkAllocateDescriptorSets(device_, &allocate, &set_), "vkAllocateDescriptorSets");
  } catch (...) {
    vkDestroyDescriptorPool(device_, pool_, nullptr);  // a throwing constructor runs no destructor
    throw;
  }

  std::vector<VkDescriptorBufferInfo> infos;
  for (const tools::Buffer* buffer : buffers) infos.push_back({buffer->handle(), 0, VK_WHOLE_SIZE});
  std::vector<VkWriteDescriptorSet> writes(buffers.size());
  for (uint32_t i = 0; i < writes.size(); ++i) {
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = set_;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(device_, uint32_t(writes.size()), writes.data(), 0, nullptr);
}

StorageBufferSet::~StorageBufferSet() {
  vkDestroyDescriptorPool(device_, pool_, nullptr);
}  // frees set_

void record_dispatch(VkCommandBuffer cmd, const StorageBufferLayout& layout,
                     const ComputePipeline& pipeline, const StorageBufferSet& set, GroupCount workgroups,
                     const void* push_constants) {
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
  const VkDescriptorSet descriptor_set = set.handle();
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout.pipeline_layout(), 0, 1,
                          &descriptor_set, 0, nullptr);
  if (layout.push_constant_bytes() > 0) {
    if (!push_constants)
      throw std::invalid_argument("record_dispatch: the layout has push constants but none were given");
    vkCmdPushConstants(cmd, layout.pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       layout.push_constant_bytes(), push_constants);
  }
  vkCmdDispatch(cmd, workgroups.x, workgroups.y, workgroups.z);
}

ComputeKernel::ComputeKernel(VulkanContext& context, SpirvCode code,
                             const std::vector<const tools::Buffer*>& buffers,
                             uint32_t push_constant_bytes, const VkSpecializationInfo* specialization)
    : layout_(context.device(), uint32_t(buffers.size()), push_constant_bytes),
      module_(context.device(), code),
      pipeline_(context.device(), layout_, module_, specialization),
      set_(context.device(), layout_, buffers) {}

void ComputeKernel::record_dispatch(VkCommandBuffer cmd, GroupCount workgroups,
                                    const void* push_constants) const {
  bench::record_dispatch(cmd, layout_, pipeline_, set_, workgroups, push_constants);
}

tools::Buffer make_storage_buffer(VulkanContext& context, VkDeviceSize size) {
  return tools::Buffer(context, size,
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       tools::Buffer::Access::HostMapped);
}

SaxpyArrays::SaxpyArrays(tools::VulkanContext& context, size_t elements, uint32_t seed_x, uint32_t seed_y)
    : x(make_storage_buffer(context, elements * sizeof(float))),
      y(make_storage_buffer(context, elements * sizeof(float))),
      elements_(elements),
      seed_x_(seed_x),
      seed_y_(seed_y) {
  float* xs = static_cast<float*>(x.mapped());
  for (size_t i = 0; i < elements_; ++i) xs[i] = x_value(i);
  reset_y();
}

float SaxpyArrays::x_value(size_t i) const { return float((pattern_word(i, seed_x_) & 0xffff) + 1); }
float SaxpyArrays::initial_y_value(size_t i) const { return float(pattern_word(i, seed_y_) & 0xffff); }

void SaxpyArrays::reset_y() {
  float* ys = static_cast<float*>(y.mapped());
  for (size_t i = 0; i < elements_; ++i) ys[i] = initial_y_value(i);
}

std::optional<std::string> SaxpyArrays::mismatch(float a) const {
  return find_mismatch(static_cast<const uint32_t*>(y.mapped()), elements_,
                       [&](size_t i) { return std::bit_cast<uint32_t>(a * x_value(i) + initial_y_value(i)); });
}

}  // namespace kiln::bench
