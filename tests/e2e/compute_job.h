#pragma once
// A compute pipeline ready to dispatch, for end-to-end tests of compute shaders: one shader from
// tests/shaders, a descriptor set 0 of buffer descriptors at bindings 0, 1, … and optional push
// constants and specialization. Used by compute_test.cpp and compute_instructions_test.cpp.
#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {

// Optional pipeline-creation state: the stage's flags and pNext chain, the pipeline's flags and
// the VkPipelineCache to create it with.
struct ComputePipelineOptions {
  VkPipelineShaderStageCreateFlags stage_flags = 0;
  const void* stage_next = nullptr;
  VkPipelineCreateFlags pipeline_flags = 0;
  VkPipelineCache cache = VK_NULL_HANDLE;
  const void* pipeline_next = nullptr;  // chained to VkComputePipelineCreateInfo
};

class ComputeJob {
 public:
  // Creates the pipeline from test shader `shader` (e.g. "saxpy.comp"); set 0 holds one
  // descriptor of each type in `bindings`, at bindings 0, 1, … Creation failures are test
  // failures, except the pipeline's own result, which pipeline_result() reports.
  ComputeJob(TestDevice& device, const std::string& shader, std::vector<VkDescriptorType> bindings,
             uint32_t push_constant_bytes = 0, const VkSpecializationInfo* specialization = nullptr,
             const ComputePipelineOptions& pipeline_options = {});
  // The same from SPIR-V words (e.g. a module a test assembles).
  ComputeJob(TestDevice& device, const std::vector<uint32_t>& spirv, std::vector<VkDescriptorType> bindings,
             uint32_t push_constant_bytes = 0, const VkSpecializationInfo* specialization = nullptr,
             const ComputePipelineOptions& pipeline_options = {});
  ~ComputeJob();
  ComputeJob(const ComputeJob&) = delete;
  ComputeJob& operator=(const ComputeJob&) = delete;

  VkResult pipeline_result() const { return pipeline_result_; }

  // Points `binding` at the whole of `buffer`.
  // Binds [offset, offset + range) of `buffer` (the whole buffer by default) to `binding`.
  void bind_buffer(uint32_t binding, const Buffer& buffer, VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE);
  // A null descriptor (VK_EXT_robustness2 nullDescriptor must be enabled).
  void bind_null_buffer(uint32_t binding);

  // Dispatches (x, y, z) groups, with `push_bytes` bytes of push constants, then makes the
  // shader's writes visible to the host and waits.
  void run(uint32_t x, uint32_t y = 1, uint32_t z = 1, const void* push = nullptr, uint32_t push_bytes = 0);
  // What run() records, into `cb` (for tests that record around it, e.g. queries).
  void record(VkCommandBuffer cb, uint32_t x, uint32_t y = 1, uint32_t z = 1, const void* push = nullptr,
              uint32_t push_bytes = 0);

 private:
  void bind_buffer_handle(uint32_t binding, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range);
  TestDevice& device_;
  std::vector<VkDescriptorType> types_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkResult pipeline_result_ = VK_ERROR_UNKNOWN;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

// The mapped contents of a test buffer viewed as an array of T.
template <typename T>
T* mapped_as(const Buffer& buffer) {
  return reinterpret_cast<T*>(buffer.mapped);
}

}  // namespace kiln::test
