#pragma once
// Compute kernels from SPIR-V: front end → typed module → SIMD translation → object code → JIT
// link. Keyed by (shader, specialization, binding layout, SIMD width, host CPU): a kernel is
// linked once per process, and object code is shared through VkPipelineCache (kernel_cache.h).
#include <cstdint>
#include <memory>
#include <string>

#include "common/abi/kernel_abi.h"
#include "compiler/compile_request.h"
#include "compiler/kernel_cache.h"
#include "compiler/shader_source.h"
#include "compiler/translator.h"

namespace kiln::compiler {

struct CompiledComputeKernel {
  abi::ComputeKernelFn function = nullptr;
  uint32_t simd_width = 8;
  ComputeKernelInfo info;
};

// `layout_hash` identifies what `bindings` answers (the pipeline layout), for the cache key.
// With `cache` (a VkPipelineCache's), object code found there is linked without running LLVM,
// and newly compiled code is added to it. Returns nullptr and sets `error` (one line naming the
// problem) when the shader cannot be compiled. With request->fail_if_compile_required
// (pipelineCreationCacheControl's FAIL_ON_PIPELINE_COMPILE_REQUIRED), only kernels already in this
// process, in `cache` or in the on-disk cache are returned; otherwise nullptr, with
// request->compile_required set. request->origin tells where the kernel came from.
std::shared_ptr<const CompiledComputeKernel> compile_compute_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                    const BindingResolver& bindings, uint64_t layout_hash,
                                                                    KernelCache* cache, std::string* error,
                                                                    CompileRequest* request = nullptr);

}  // namespace kiln::compiler
