#pragma once
// Kiln's kernel ABI: the one header that says how JIT-compiled shader kernels are called and
// what memory they read (ARCHITECTURE.md, decisions 1 and 2). Plain C++ — no LLVM here; icd/
// writes descriptor memory in these formats, pipeline/ calls kernels with these signatures, and
// compiler/ generates code that reads exactly these layouts. Change it only together with the
// translator and the tests in tests/unit/kernel_abi_test.cpp.
#include <cstddef>
#include <cstdint>

namespace kiln::abi {

// ---------------------------------------------------------------------------------------------
// Descriptors are memory. A descriptor set is a block of fixed-size records, one per array
// element of each binding, at the offsets its layout assigns (DescriptorSetLayout in icd/).
// Shaders load these records directly; there is no C++ call per descriptor access.
// ---------------------------------------------------------------------------------------------
constexpr uint32_t kDescriptorRecordSize = 32;
constexpr uint32_t kDescriptorRecordAlignment = 16;

// UNIFORM_BUFFER, STORAGE_BUFFER (and their _DYNAMIC forms once the dynamic offset is applied).
// A null descriptor (robustness2) has address 0 and range 0.
struct BufferDescriptor {
  uint64_t address;  // first byte the shader sees
  uint64_t range;    // bytes the shader may access; robust access clamps against it
  uint64_t reserved[2];
};

// UNIFORM_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER.
// A null descriptor (or a view Kiln cannot address) is all zero: every access is out of bounds.
struct TexelBufferDescriptor {
  uint64_t address;
  uint32_t element_count;  // texels in range
  uint32_t format;         // VkFormat
  uint32_t texel_bytes;    // bytes per texel of `format`
  uint32_t reserved0;
  uint64_t reserved1;
};

// SAMPLED_IMAGE, STORAGE_IMAGE, INPUT_ATTACHMENT, SAMPLER, COMBINED_IMAGE_SAMPLER: pointers to
// records owned by the VkImageView / VkSampler objects (the view must outlive the set's use, as
// Vulkan requires). A null descriptor has image_view == nullptr: shaders then read a record of
// zero size, so every access is out of bounds.
struct ImageSamplerDescriptor {
  const void* image_view;  // ImageViewRecord*, or nullptr
  const void* sampler;     // mem::Sampler* (memory/image_view.h), or nullptr
  uint64_t reserved[2];
};

// What a shader needs to address the texels of an image view's base mip level. The view is
// described as a grid in the coordinate space of SPIR-V image instructions, so the kernel's
// address math is the same for every view type:
//   texel (c0, c1, c2) lives at address + c0 * pitch[0] + c1 * pitch[1] + c2 * pitch[2]
//   and exists when c_i < size[i] for each i (unused dimensions have size 1, pitch 0).
// Per view type, (size[0], size[1], size[2]) is:
//   1D (w,1,1)  1D_ARRAY (w,layers,1)  2D (w,h,1)  2D_ARRAY (w,h,layers)  3D (w,h,d)
//   CUBE (w,h,6)  CUBE_ARRAY (w,h,6*cubes)  2D(_ARRAY) view of a 3D image (w,h,slices).
// pitch[0] is the texel size in bytes. Depth/stencil views address the aspect they select.
struct ImageViewRecord {
  uint64_t address;    // texel (0,0,0) of the view's base mip level and first layer/slice
  uint64_t pitch[3];   // bytes between neighbouring texels in each coordinate
  uint32_t size[3];    // texels in each coordinate
  uint32_t format;     // VkFormat of the view
};

static_assert(sizeof(BufferDescriptor) == kDescriptorRecordSize);
static_assert(sizeof(TexelBufferDescriptor) == kDescriptorRecordSize);
static_assert(sizeof(ImageSamplerDescriptor) == kDescriptorRecordSize);

// INLINE_UNIFORM_BLOCK bindings are not records: their descriptorCount bytes are stored in the
// set's memory at the binding's offset (16-byte aligned) and read like a uniform buffer.

constexpr uint32_t kMaxBoundDescriptorSets = 8;
constexpr uint32_t kMaxPushConstantBytes = 256;
constexpr uint32_t kMaxDynamicBuffers = 32;  // 16 uniform + 16 storage

// ---------------------------------------------------------------------------------------------
// What every kernel receives: the bound resources of the draw or dispatch.
// ---------------------------------------------------------------------------------------------
struct ResourceContext {
  const uint8_t* descriptor_sets[kMaxBoundDescriptorSets];  // set memory, or nullptr if unbound
  // Dynamic buffers of all bound sets, in pipeline-layout order, offsets already applied.
  BufferDescriptor dynamic_buffers[kMaxDynamicBuffers];
  alignas(16) uint8_t push_constants[kMaxPushConstantBytes];
  // Elements of each bound set's variable-count binding (VARIABLE_DESCRIPTOR_COUNT, always the
  // set's last binding), chosen when the set was allocated: shaders clamp indices against it.
  uint32_t variable_counts[kMaxBoundDescriptorSets];
};

// Bits a kernel ORs into ComputeDispatchContext::faults when the application's data made it clamp
// something it cannot detect at record time; the engine logs each kind once after the dispatch.
constexpr uint32_t kFaultDescriptorIndex = 1u << 0;  // a descriptor array index past the array's end

// ---------------------------------------------------------------------------------------------
// Compute (and later task/mesh) kernels: one call runs one subgroup of W invocations of one
// workgroup. Lanes are invocations local_index = subgroup_id * W + lane; lanes past the
// workgroup's size are inactive from the start.
// ---------------------------------------------------------------------------------------------
struct ComputeDispatchContext {
  const ResourceContext* resources;
  uint32_t workgroup_size[3];   // LocalSize (from the module or specialization)
  uint32_t workgroup_count[3];  // NumWorkgroups: the dispatch's group counts
  uint32_t base_workgroup[3];   // vkCmdDispatchBase offset (WorkgroupId includes it)
  uint32_t* faults;             // kFault* bits, ORed atomically by kernels (never null)
};

struct ComputeInvocation {
  const ComputeDispatchContext* dispatch;
  uint32_t workgroup_id[3];  // includes base_workgroup
  uint32_t subgroup_id;
  uint32_t subgroup_count;
  uint8_t* shared_memory;    // the workgroup's Workgroup-storage block (zeroed when the shader asks)
  // OpControlBarrier with Workgroup scope: suspends this subgroup until every other live
  // subgroup of the workgroup has reached a barrier too (pipeline/compute_dispatch.cpp).
  void (*workgroup_barrier)(void* barrier_context);
  void* barrier_context;
};

// The kernel entry point. Returns nothing; writes memory only through descriptors.
using ComputeKernelFn = void (*)(const ComputeInvocation* invocation);

}  // namespace kiln::abi
