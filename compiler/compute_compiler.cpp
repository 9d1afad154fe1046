#include "compiler/compute_compiler.h"

#include "compiler/kernel_build.h"

namespace kiln::compiler {
namespace {

LinkedKernels<CompiledComputeKernel> linked;

}  // namespace

std::shared_ptr<const CompiledComputeKernel> compile_compute_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                    const BindingResolver& bindings, uint64_t layout_hash,
                                                                    KernelCache* cache, std::string* error,
                                                                    CompileRequest* request) {
  const uint64_t key = request_key(kernel_key(source, simd_width, layout_hash, 0), request);
  std::shared_ptr<const CachedKernel> object;
  if (auto kernel = linked.find(key, &object)) {
    reuse_linked_kernel(key, object, cache, request);
    return kernel;
  }
  auto translate = [&](const spirv::Module& module, const spirv::EntryPoint& entry, llvm::LLVMContext& context,
                       CachedKernel* kernel, std::string* err) {
    TranslateOptions options;
    options.simd_width = simd_width;
    options.bindings = bindings;
    options.strict_reports = request ? request->strict_reports : 0;
    kernel->stage = ShaderStage::Compute;
    return translate_compute(module, entry, options, context, kernel->symbol, &kernel->info, err);
  };
  auto cached = find_or_build_kernel(source, simd_width, key, cache, request, translate, error);
  if (!cached) return nullptr;
  if (cached->stage != ShaderStage::Compute) {
    *error = "pipeline cache entry is not a compute kernel";
    return nullptr;
  }
  return linked.link(key, cached, [](uint64_t address, const CachedKernel& c, CompiledComputeKernel* k) {
    k->function = reinterpret_cast<abi::ComputeKernelFn>(address);
    k->info = c.info;
  }, error);
}

}  // namespace kiln::compiler
