#pragma once
// A compute pipeline over descriptor sets the test makes itself (ComputeJob, by contrast, makes
// one fixed set), plus the small helpers descriptor tests share: set-layout bindings, a set with a
// pool of its own, writes of buffer, image and texel buffer descriptors, and a barrier that makes
// the shader's writes visible to the host.
#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {

// A compute pipeline running test shader `shader` with the caller's `layout`; destroyed with the
// device. Creation failures are test failures.
VkPipeline create_compute_pipeline(TestDevice& device, const std::string& shader, VkPipelineLayout layout);

// A compute pipeline running test shader `shader` with `set_layouts` and `push_bytes` bytes of
// compute push constants; destroyed with the device. Creation failures are test failures.
struct SetsPipeline {
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;

  SetsPipeline(TestDevice& device, const std::string& shader, const std::vector<VkDescriptorSetLayout>& set_layouts,
               uint32_t push_bytes = 0);

  // Binds the pipeline and `sets` (from set 0), pushes `push` and dispatches `groups` workgroups.
  void record_dispatch(VkCommandBuffer cmd, const std::vector<VkDescriptorSet>& sets, uint32_t groups,
                       const void* push = nullptr, uint32_t push_bytes = 0) const;
};

// Makes compute-shader writes visible to host reads (after a dispatch).
void shader_writes_to_host_barrier(VkCommandBuffer cmd);

inline VkDescriptorSetLayoutBinding compute_binding(uint32_t binding, VkDescriptorType type, uint32_t count) {
  return {binding, type, count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
}

// One binding of a set make_set() lays out: `count` descriptors of `type`, with binding `flags`
// (descriptor indexing: partially bound, update after bind, variable count).
struct DescriptorBinding {
  VkDescriptorType type;
  uint32_t count = 1;
  VkDescriptorBindingFlags flags = 0;
};

// A set whose bindings 0, 1, … (compute stage) are `bindings`, from a pool of its own; its layout
// in *layout. Both are destroyed with the device. When a binding may be updated after bind, the
// layout and pool are update-after-bind ones; a binding of variable count gets `variable_count`
// descriptors.
VkDescriptorSet make_set(TestDevice& device, const std::vector<DescriptorBinding>& bindings, VkDescriptorSetLayout* layout,
                         uint32_t variable_count = 0);

// Writes `infos` (image, sampler or combined descriptors) into elements 0, 1, … of `binding`.
void write_images(TestDevice& device, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                  const std::vector<VkDescriptorImageInfo>& infos);

// Writes `views` (texel buffer descriptors) into elements 0, 1, … of `binding`.
void write_texel_buffers(TestDevice& device, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                         const std::vector<VkBufferView>& views);

// A sampled image and a view of all of it, destroyed with the device.
struct SampledImage {
  Image image;
  VkImageView view = VK_NULL_HANDLE;
};

// An image of `view_type` whose level l holds levels[l] (all layers, tightly packed), ready to
// sample (SHADER_READ_ONLY_OPTIMAL).
SampledImage make_sampled_image(TestDevice& device, VkImageViewType view_type, VkFormat format, VkExtent3D extent,
                                uint32_t layers, const std::vector<std::vector<uint8_t>>& levels,
                                VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT);

// Writes `infos` into consecutive elements of (binding, first_element) of `set`.
void write_buffers(VkDevice device, VkDescriptorSet set, uint32_t binding, uint32_t first_element, VkDescriptorType type,
                   const std::vector<VkDescriptorBufferInfo>& infos);

}  // namespace kiln::test
