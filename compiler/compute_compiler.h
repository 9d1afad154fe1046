#pragma once
// Compute kernels from SPIR-V: front end → typed module → SIMD translation → JIT, with an
// in-memory cache keyed by (shader, specialization, binding layout, SIMD width), so creating the
// same pipeline twice compiles once.
#include <cstdint>
#include <memory>
#include <string>

#include "compiler/kernel_abi.h"
#include "compiler/shader_source.h"
#include "compiler/translator.h"

namespace kiln::compiler {

struct CompiledComputeKernel {
  abi::ComputeKernelFn function = nullptr;
  uint32_t simd_width = 8;
  ComputeKernelInfo info;
};

// `layout_hash` identifies what `bindings` answers (the pipeline layout), for the cache key.
// Returns nullptr and sets `error` (one line naming the problem) when the shader cannot be compiled.
std::shared_ptr<const CompiledComputeKernel> compile_compute_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                    const BindingResolver& bindings, uint64_t layout_hash,
                                                                    std::string* error);

}  // namespace kiln::compiler
