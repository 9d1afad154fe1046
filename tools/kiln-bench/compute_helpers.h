#pragma once
// The compute building blocks every kiln-bench compute scenario uses: embedded SPIR-V, the one
// pipeline interface they share (set 0 = N storage buffers at bindings 0…N-1, optional push
// constants), pipelines, descriptor sets, dispatches and support checks.
//
// Shaders live in tools/kiln-bench/shaders/ and are compiled at build time (SPIR-V 1.5, for
// Vulkan 1.2: SPIR-V 1.6 would need maintenance4 for its LocalSizeId) into headers holding
// `const uint32_t <file>_<ext>_spirv[]` (tools/CMakeLists.txt), so the installed binary needs no
// files next to it: `#include "kiln-bench-shaders/saxpy.comp.spv.h"`, then
// `spirv_code(saxpy_comp_spirv)`.
#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"

namespace kiln::bench {

// SPIR-V words compiled into the binary.
struct SpirvCode {
  const uint32_t* words = nullptr;
  size_t word_count = 0;
};

template <size_t N>
SpirvCode spirv_code(const uint32_t (&words)[N]) {
  return {words, N};
}

// A workgroup size or a dispatch's workgroup count.
struct GroupCount {
  uint32_t x = 1;
  uint32_t y = 1;
  uint32_t z = 1;
  uint64_t total() const { return uint64_t(x) * y * z; }
};

// Workgroups per row in workgroup_rows(): well under maxComputeWorkGroupCount[0] (65535 is all
// the spec guarantees).
inline constexpr uint32_t kWorkgroupsPerRow = 1024;

// A one-dimensional job of `workgroups` groups laid out as rows of kWorkgroupsPerRow (or one
// shorter row), for shaders that number their groups with linear_workgroup_index()
// (shaders/linear_workgroup.glsl). Throws std::invalid_argument unless `workgroups` fits one row
// or is a multiple of kWorkgroupsPerRow: the shaders have no bounds check.
GroupCount workgroup_rows(uint64_t workgroups);

// What a compute scenario needs from the device beyond memory.
struct ComputeNeeds {
  GroupCount local_size;                  // the shader's workgroup size
  GroupCount workgroups;                  // the largest dispatch
  VkDeviceSize storage_buffer_range = 0;  // the largest storage buffer bound
  uint32_t shared_memory_bytes = 0;
  uint32_t push_constant_bytes = 0;
};

// Why this device (or its chosen queue) cannot run the dispatches described by `needs`, or nullopt.
std::optional<std::string> missing_compute_support(const tools::VulkanContext& context,
                                                   const ComputeNeeds& needs);

// A descriptor set layout with `storage_buffer_count` storage buffers at bindings 0, 1, … and a
// pipeline layout made of it plus `push_constant_bytes` of push constants (0 = none), both for the
// shader `stages` (a graphics pipeline's shaders read storage buffers through the set layout, in a
// pipeline layout of its own).
class StorageBufferLayout {
 public:
  StorageBufferLayout(VkDevice device, uint32_t storage_buffer_count, uint32_t push_constant_bytes,
                      VkShaderStageFlags stages = VK_SHADER_STAGE_COMPUTE_BIT);
  ~StorageBufferLayout();
  StorageBufferLayout(const StorageBufferLayout&) = delete;
  StorageBufferLayout& operator=(const StorageBufferLayout&) = delete;

  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  VkPipelineLayout pipeline_layout() const { return pipeline_layout_; }
  uint32_t storage_buffer_count() const { return storage_buffer_count_; }
  uint32_t push_constant_bytes() const { return push_constant_bytes_; }

 private:
  void release();
  VkDevice device_;
  uint32_t storage_buffer_count_;
  uint32_t push_constant_bytes_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
};

class ShaderModule {
 public:
  ShaderModule(VkDevice device, SpirvCode code);
  ~ShaderModule();
  ShaderModule(const ShaderModule&) = delete;
  ShaderModule& operator=(const ShaderModule&) = delete;

  VkShaderModule handle() const { return module_; }

 private:
  VkDevice device_;
  VkShaderModule module_ = VK_NULL_HANDLE;
};

// A compute pipeline (entry point "main", no VkPipelineCache). Remembers how long
// vkCreateComputePipelines took, for the pipeline-creation scenarios.
class ComputePipeline {
 public:
  ComputePipeline(VkDevice device, const StorageBufferLayout& layout, const ShaderModule& module,
                  const VkSpecializationInfo* specialization = nullptr);
  ~ComputePipeline();
  ComputePipeline(const ComputePipeline&) = delete;
  ComputePipeline& operator=(const ComputePipeline&) = delete;

  VkPipeline handle() const { return pipeline_; }
  // Seconds spent in vkCreateComputePipelines (std::chrono::steady_clock).
  double creation_seconds() const { return creation_seconds_; }

 private:
  VkDevice device_;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  double creation_seconds_ = 0;
};

// A descriptor set (with its own pool) of `layout` whose binding i is the whole of buffers[i].
class StorageBufferSet {
 public:
  StorageBufferSet(VkDevice device, const StorageBufferLayout& layout,
                   const std::vector<const tools::Buffer*>& buffers);
  ~StorageBufferSet();
  StorageBufferSet(const StorageBufferSet&) = delete;
  StorageBufferSet& operator=(const StorageBufferSet&) = delete;

  VkDescriptorSet handle() const { return set_; }

 private:
  VkDevice device_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

// Binds `pipeline` and `set`, pushes layout.push_constant_bytes() from `push_constants` (when the
// layout has any) and dispatches `workgroups`.
void record_dispatch(VkCommandBuffer cmd, const StorageBufferLayout& layout,
                     const ComputePipeline& pipeline, const StorageBufferSet& set, GroupCount workgroups,
                     const void* push_constants = nullptr);

// Everything one dispatch scenario needs: the layout for buffers.size() storage buffers, the
// pipeline built from `code`, and a descriptor set pointing at `buffers`.
class ComputeKernel {
 public:
  ComputeKernel(tools::VulkanContext& context, SpirvCode code,
                const std::vector<const tools::Buffer*>& buffers, uint32_t push_constant_bytes = 0,
                const VkSpecializationInfo* specialization = nullptr);

  void record_dispatch(VkCommandBuffer cmd, GroupCount workgroups,
                       const void* push_constants = nullptr) const;

 private:
  StorageBufferLayout layout_;
  ShaderModule module_;
  ComputePipeline pipeline_;
  StorageBufferSet set_;
};

// A host-mapped buffer usable as a storage buffer (and as a transfer destination, for fills).
tools::Buffer make_storage_buffer(tools::VulkanContext& context, VkDeviceSize size);

// The arrays of y = a * x + y (the saxpy scenarios): `elements` floats each, integers below 2^16
// (x never 0), so every result is exact and a repetition that did nothing leaves y unchanged.
class SaxpyArrays {
 public:
  SaxpyArrays(tools::VulkanContext& context, size_t elements, uint32_t seed_x, uint32_t seed_y);
  void reset_y();
  // The first element of y that is not a * x + (initial y), or nullopt.
  std::optional<std::string> mismatch(float a) const;

  tools::Buffer x;
  tools::Buffer y;

 private:
  float x_value(size_t i) const;
  float initial_y_value(size_t i) const;
  size_t elements_;
  uint32_t seed_x_, seed_y_;
};

}  // namespace kiln::bench
