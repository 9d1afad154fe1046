#pragma once
// What pipeline creation asks of one stage's compile besides the shader, and what the compile
// reports back: pipelineCreationCacheControl's FAIL_ON_PIPELINE_COMPILE_REQUIRED in, and for
// VK_EXT_pipeline_creation_feedback where the kernel came from.
namespace kiln::compiler {

enum class KernelOrigin {
  Compiled,       // SPIR-V front end, translation and LLVM ran
  Linked,         // already linked into this process (the same kernel made before)
  PipelineCache,  // object code from the application's VkPipelineCache
  DiskCache,      // object code from the on-disk cache (KILN_CACHE_DIR)
};

struct CompileRequest {
  // In: return nothing rather than compile (FAIL_ON_PIPELINE_COMPILE_REQUIRED).
  bool fail_if_compile_required = false;
  // In: what the kernel reports in strict mode (abi::kShaderFault* bits; docs/strict-mode.md): a
  // kernel of its own, keyed apart. 0: none (the default mode).
  uint32_t strict_reports = 0;
  // Out: the compile was refused because of fail_if_compile_required.
  bool compile_required = false;
  // Out: where the kernel came from (valid when a kernel was returned).
  KernelOrigin origin = KernelOrigin::Compiled;
};

}  // namespace kiln::compiler
