#pragma once
// Vertex and fragment kernels from SPIR-V (the graphics stages of ARCHITECTURE.md "Stage ABIs";
// signatures in common/abi/kernel_abi.h). Like compute kernels they are keyed by (shader,
// specialization, binding layout, SIMD width, host CPU) plus the stage's variant key — for a
// vertex kernel the vertex input state it fetches with — linked once per process, and shared
// through VkPipelineCache.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "compiler/kernel_cache.h"
#include "compiler/shader_source.h"
#include "compiler/translator.h"
#include "compiler/vertex_input_key.h"

namespace kiln::compiler {

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
