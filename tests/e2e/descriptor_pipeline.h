#pragma once
// A compute pipeline over descriptor sets the test makes itself (ComputeJob, by contrast, makes
// one fixed set), plus the small helpers descriptor tests share: set-layout bindings, one write
// of buffer descriptors, and a dispatch that makes the shader's writes visible to the host.
#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {

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

// Writes `infos` into consecutive elements of (binding, first_element) of `set`.
void write_buffers(VkDevice device, VkDescriptorSet set, uint32_t binding, uint32_t first_element, VkDescriptorType type,
                   const std::vector<VkDescriptorBufferInfo>& infos);

}  // namespace kiln::test
