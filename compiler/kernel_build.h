#pragma once
// The path every compile_*_kernel takes (compute_compiler.cpp, graphics_compiler.cpp): a key
// from everything that decides the code, the process's linked kernels, the VkPipelineCache's
// object code, the on-disk cache's, FAIL_ON_PIPELINE_COMPILE_REQUIRED, and — only when all of
// those miss — front end, translation and LLVM. Stages differ only in the translate step and what
// they report.
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "compiler/compile_request.h"
#include "compiler/kernel_cache.h"
#include "compiler/shader_source.h"
#include "compiler/translator.h"


namespace kiln::compiler {

// Stable key of a kernel: shader (incl. stage and specialization), SIMD width, pipeline layout,
// host CPU, and the stage's variant key (0 when it has none, e.g. compute).
uint64_t kernel_key(const ShaderSource& source, uint32_t simd_width, uint64_t layout_hash, uint64_t variant_hash);
// `key` for what `request` asks (strict mode's kernels are kernels of their own).
uint64_t request_key(uint64_t key, const CompileRequest* request);

// Translates the entry point into `kernel->symbol` and fills the stage's part of `kernel`.
using StageTranslator = std::function<std::unique_ptr<llvm::Module>(const spirv::Module&, const spirv::EntryPoint&,
                                                                    llvm::LLVMContext&, CachedKernel* kernel, std::string* error)>;

// Object code for `key`: from `cache`, from the on-disk cache, or built (front end → `translate`
// → object code); added to `cache` and the on-disk cache when they lack it. nullptr with `error`,
// or with request->compile_required when request->fail_if_compile_required and nothing is cached.
// request->origin says where the kernel came from.
std::shared_ptr<const CachedKernel> find_or_build_kernel(const ShaderSource& source, uint32_t simd_width, uint64_t key,
                                                         KernelCache* cache, CompileRequest* request,
                                                         const StageTranslator& translate, std::string* error);

// For a kernel found already linked into this process (its object code `object`): request->origin
// — PipelineCache when `cache` holds it — and `cache` gets the object code when it lacks it, so
// the application's cache data carries every kernel its pipelines use.
void reuse_linked_kernel(uint64_t key, const std::shared_ptr<const CachedKernel>& object, KernelCache* cache,
                         CompileRequest* request);

// Links object code into the process; the function's address, or 0 with `error`.
uint64_t link_kernel(const CachedKernel& kernel, std::string* error);

// Kernels of one stage already linked into this process, so a pipeline created twice links once.
// Each keeps its object code, for the VkPipelineCaches of later pipelines that use it.
template <typename Compiled>
class LinkedKernels {
 public:
  // The linked kernel for `key` (and its object code in *object), or nullptr.
  std::shared_ptr<const Compiled> find(uint64_t key, std::shared_ptr<const CachedKernel>* object = nullptr) {
    std::lock_guard lock(mutex_);
    auto it = kernels_.find(key);
    if (it == kernels_.end()) return nullptr;
    if (object) *object = it->second.object;
    return it->second.compiled;
  }
  // Links `cached` (unless another thread did first) and describes it with `describe(cached, compiled)`.
  template <typename Describe>
  std::shared_ptr<const Compiled> link(uint64_t key, const std::shared_ptr<const CachedKernel>& cached, Describe&& describe,
                                       std::string* error) {
    if (auto found = find(key)) return found;
    const uint64_t address = link_kernel(*cached, error);
    if (!address) return nullptr;
    auto kernel = std::make_shared<Compiled>();
    kernel->simd_width = cached->simd_width;
    describe(address, *cached, kernel.get());
    std::lock_guard lock(mutex_);
    return kernels_.emplace(key, Entry{std::move(kernel), cached}).first->second.compiled;
  }

 private:
  struct Entry {
    std::shared_ptr<const Compiled> compiled;
    std::shared_ptr<const CachedKernel> object;
  };
  std::mutex mutex_;
  std::unordered_map<uint64_t, Entry> kernels_;
};

}  // namespace kiln::compiler
