#pragma once
// The building block of kiln-bench's texture-sampling scenarios (scenarios/sample_texture.cpp): a
// 2D texture of any sampleable format with its mip levels uploaded from host bytes, one sampler
// (filter, mipmap mode, clamp to edge), and a compute pipeline whose set 0 binds the texture at
// binding 0 (combined image sampler) and an output storage buffer at binding 1, with push constants.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"
#include "tools/kiln-bench/compute_helpers.h"

namespace kiln::bench {

struct SamplingTextureDesc {
  VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  uint32_t width = 1, height = 1;
  VkFilter filter = VK_FILTER_LINEAR;
  VkSamplerMipmapMode mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
};

// Why this device cannot sample `desc` (format features, linear filtering), or nullopt.
std::optional<std::string> missing_sampling_support(const tools::VulkanContext& context,
                                                    const SamplingTextureDesc& desc);

class SamplingKernel {
 public:
  // levels[l] holds level l's texels (or blocks), rows tightly packed.
  SamplingKernel(tools::VulkanContext& context, const SamplingTextureDesc& desc,
                 const std::vector<std::vector<uint8_t>>& levels, SpirvCode code,
                 const tools::Buffer& output, uint32_t push_constant_bytes);
  ~SamplingKernel();
  SamplingKernel(const SamplingKernel&) = delete;
  SamplingKernel& operator=(const SamplingKernel&) = delete;

  void record_dispatch(VkCommandBuffer cmd, GroupCount workgroups, const void* push_constants) const;

 private:
  void release();
  VkDevice device_;
  tools::Image image_;
  uint32_t push_constant_bytes_;
  VkImageView view_ = VK_NULL_HANDLE;
  VkSampler sampler_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace kiln::bench
