#include "compiler/compute_compiler.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <mutex>
#include <unordered_map>

#include "common/log.h"
#include "compiler/jit.h"
#include "compiler/shader_dump.h"
#include "compiler/shader_hash.h"
#include "compiler/spirv_front.h"
#include "compiler/spirv_module.h"

namespace kiln::compiler {
namespace {

// Kernels already linked into this process, so a pipeline created twice links once.
std::mutex loaded_mutex;
std::unordered_map<uint64_t, std::shared_ptr<const CompiledComputeKernel>> loaded_kernels;

std::shared_ptr<const CompiledComputeKernel> link(uint64_t key, const CachedKernel& cached, std::string* error) {
  {
    std::lock_guard lock(loaded_mutex);
    if (auto it = loaded_kernels.find(key); it != loaded_kernels.end()) return it->second;
  }
  const uint64_t address = Jit::instance().load_object(cached.object, cached.symbol, error);
  if (!address) return nullptr;
  auto kernel = std::make_shared<CompiledComputeKernel>();
  kernel->function = reinterpret_cast<abi::ComputeKernelFn>(address);
  kernel->simd_width = cached.simd_width;
  kernel->info = cached.info;
  std::lock_guard lock(loaded_mutex);
  return loaded_kernels.emplace(key, std::move(kernel)).first->second;
}

// SPIR-V → object code: the expensive path that a cache hit skips.
std::shared_ptr<const CachedKernel> build(const ShaderSource& source, uint32_t simd_width, const BindingResolver& bindings,
                                          uint64_t key, std::string* error) {
  FrontResult front = prepare_spirv(source, kKilnLayoutSupport);
  if (!front.ok()) {
    *error = front.error;
    return nullptr;
  }
  std::string parse_error;
  auto module = spirv::Module::parse(front.words, &parse_error);
  if (!module) {
    *error = parse_error;
    return nullptr;
  }
  const spirv::EntryPoint* entry = module->entry_point(source.entry_point, spv::ExecutionModel::GLCompute);
  if (!entry) {
    *error = "no compute entry point named \"" + std::string(source.entry_point) + "\"";
    return nullptr;
  }
  TranslateOptions options;
  options.simd_width = simd_width;
  options.bindings = bindings;
  auto context = std::make_unique<llvm::LLVMContext>();
  auto kernel = std::make_shared<CachedKernel>();
  kernel->symbol = "kiln_compute_" + std::to_string(key);
  kernel->simd_width = simd_width;
  std::unique_ptr<llvm::Module> ir = translate_compute(*module, *entry, options, *context, kernel->symbol, &kernel->info, error);
  if (!ir) return nullptr;
  const char* stage = stage_suffix(source.stage);
  if (dump_enabled("llvm")) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    ir->print(stream, nullptr);
    dump_text("llvm", key, stage, stream.str());
  }
  std::string assembly;
  const bool want_assembly = dump_enabled("asm");
  if (!Jit::instance().compile_to_object(std::move(context), std::move(ir), &kernel->object,
                                         want_assembly ? &assembly : nullptr, error))
    return nullptr;
  if (want_assembly) dump_text("asm", key, stage, assembly);
  return kernel;
}

}  // namespace

std::shared_ptr<const CompiledComputeKernel> compile_compute_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                    const BindingResolver& bindings, uint64_t layout_hash,
                                                                    KernelCache* cache, std::string* error,
                                                                    bool* compile_required) {
  const uint64_t key = StableHasher()
                           .add_u64(shader_hash(source))
                           .add_u64(simd_width)
                           .add_u64(layout_hash)
                           .add_string(Jit::instance().cpu_name())
                           .finish();
  {
    std::lock_guard lock(loaded_mutex);
    if (auto it = loaded_kernels.find(key); it != loaded_kernels.end()) return it->second;
  }
  std::shared_ptr<const CachedKernel> cached = cache ? cache->find(key) : nullptr;
  if (cached) {
    log(LogLevel::Info, "compute kernel %016llx: linked from VkPipelineCache without compiling", (unsigned long long)key);
  } else if (compile_required) {
    *compile_required = true;
    return nullptr;
  } else {
    const auto start = std::chrono::steady_clock::now();
    cached = build(source, simd_width, bindings, key, error);
    if (!cached) return nullptr;
    log(LogLevel::Info, "compute kernel %016llx: compiled in %.1f ms", (unsigned long long)key,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    if (cache) cache->insert(key, cached);
  }
  return link(key, *cached, error);
}

}  // namespace kiln::compiler
