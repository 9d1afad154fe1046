#pragma once
// Vertex and fragment kernels from SPIR-V (the graphics stages of ARCHITECTURE.md "Stage ABIs";
// signatures in compiler/kernel_abi.h). Like compute kernels they are keyed by (shader,
// specialization, binding layout, SIMD width, host CPU) plus the stage's variant key — for a
// vertex kernel the vertex input state it fetches with — linked once per process, and shared
// through VkPipelineCache.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/kernel_abi.h"
#include "compiler/kernel_cache.h"
#include "compiler/shader_source.h"
#include "compiler/translator.h"

namespace kiln::compiler {

// The vertex input state a vertex kernel is compiled for (VkPipelineVertexInputStateCreateInfo
// with VkPipelineVertexInputDivisorStateCreateInfoEXT folded in). Strides are not part of it: they
// come at run time in abi::VertexBufferRecord (VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE).
struct VertexAttributeKey {
  uint32_t location = 0;
  uint32_t binding = 0;
  uint32_t format = 0;  // VkFormat
  uint32_t offset = 0;
};
struct VertexBindingKey {
  uint32_t binding = 0;
  bool per_instance = false;  // VK_VERTEX_INPUT_RATE_INSTANCE
  uint32_t divisor = 1;       // per-instance only; 0 = every instance reads element base_instance
};
struct VertexInputKey {
  std::vector<VertexAttributeKey> attributes;  // sorted by location
  std::vector<VertexBindingKey> bindings;      // sorted by binding
  uint64_t hash() const;
};

struct CompiledVertexKernel {
  abi::VertexKernelFn function = nullptr;
  uint32_t simd_width = 8;
  abi::VertexOutputLayout outputs;
};

struct CompiledFragmentKernel {
  abi::FragmentKernelFn function = nullptr;
  uint32_t simd_width = 8;  // a multiple of 4: W / 4 quads per call
  abi::FragmentInterface interface;
};

// As compile_compute_kernel (compiler/compute_compiler.h): nullptr and a one-line `error` naming
// the instruction when the shader cannot be compiled; `compile_required` for
// FAIL_ON_PIPELINE_COMPILE_REQUIRED.
std::shared_ptr<const CompiledVertexKernel> compile_vertex_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                  const VertexInputKey& vertex_input,
                                                                  const BindingResolver& bindings, uint64_t layout_hash,
                                                                  KernelCache* cache, std::string* error,
                                                                  bool* compile_required = nullptr);

std::shared_ptr<const CompiledFragmentKernel> compile_fragment_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                      const BindingResolver& bindings, uint64_t layout_hash,
                                                                      KernelCache* cache, std::string* error,
                                                                      bool* compile_required = nullptr);

}  // namespace kiln::compiler
