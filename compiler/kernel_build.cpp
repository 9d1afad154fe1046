#include "compiler/kernel_build.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>

#include "common/log.h"
#include "compiler/disk_cache.h"
#include "compiler/jit.h"
#include "compiler/shader_dump.h"
#include "compiler/shader_hash.h"
#include "compiler/spirv_front.h"
#include "compiler/spirv_module.h"
#include "compiler/thread_cpu_time.h"

namespace kiln::compiler {
namespace {

// SPIR-V → object code: the expensive path that a cache hit skips.
std::shared_ptr<const CachedKernel> build(const ShaderSource& source, uint32_t simd_width, uint64_t key,
                                          uint32_t strict_reports, const StageTranslator& translate, std::string* error) {
  const char* stage = stage_suffix(source.stage);
  const spv::ExecutionModel model = spirv::execution_model_of(source.stage);
  double phase_start = thread_cpu_ms();
  FrontResult front = prepare_spirv(source, kKilnLayoutSupport, strict_reports != 0);
  const double front_ms = thread_cpu_ms() - phase_start;
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
  const spirv::EntryPoint* entry = module->entry_point(source.entry_point, model);
  if (!entry) {
    *error = "no " + std::string(stage) + " entry point named \"" + std::string(source.entry_point) + "\"";
    return nullptr;
  }
  auto context = std::make_unique<llvm::LLVMContext>();
  auto kernel = std::make_shared<CachedKernel>();
  kernel->symbol = "kiln_" + std::string(stage) + "_" + std::to_string(key);
  kernel->simd_width = simd_width;
  phase_start = thread_cpu_ms();
  std::unique_ptr<llvm::Module> ir = translate(*module, *entry, *context, kernel.get(), error);
  if (!ir) return nullptr;
  const double translate_ms = thread_cpu_ms() - phase_start;
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
  log(LogLevel::Debug, "%s kernel %016llx: SPIR-V front %.1f ms, translation %.1f ms (thread CPU time)", stage, (unsigned long long)key,
      front_ms, translate_ms);
  return kernel;
}

}  // namespace

uint64_t kernel_key(const ShaderSource& source, uint32_t simd_width, uint64_t layout_hash, uint64_t variant_hash) {
  StableHasher h;
  h.add_u64(shader_hash(source)).add_u64(simd_width).add_u64(layout_hash).add_string(Jit::instance().cpu_name());
  if (variant_hash) h.add_u64(variant_hash);
  return h.finish();
}

uint64_t request_key(uint64_t key, const CompileRequest* request) {
  if (!request || !request->strict_reports) return key;
  return StableHasher().add_u64(key).add_string("strict").add_u64(request->strict_reports).finish();
}

std::shared_ptr<const CachedKernel> find_or_build_kernel(const ShaderSource& source, uint32_t simd_width, uint64_t key,
                                                         KernelCache* cache, CompileRequest* request,
                                                         const StageTranslator& translate, std::string* error) {
  const char* stage = stage_suffix(source.stage);
  CompileRequest ignored;
  if (!request) request = &ignored;
  std::shared_ptr<const CachedKernel> cached = cache ? cache->find(key) : nullptr;
  if (cached) {
    log(LogLevel::Info, "%s kernel %016llx: linked from VkPipelineCache without compiling", stage, (unsigned long long)key);
    request->origin = KernelOrigin::PipelineCache;
    return cached;
  }
  DiskCache* disk = DiskCache::process_cache();
  if (disk && (cached = disk->load(key))) {
    log(LogLevel::Info, "%s kernel %016llx: linked from the on-disk cache without compiling", stage, (unsigned long long)key);
    if (cache) cache->insert(key, cached);
    request->origin = KernelOrigin::DiskCache;
    return cached;
  }
  if (request->fail_if_compile_required) {
    request->compile_required = true;
    return nullptr;
  }
  const auto start = std::chrono::steady_clock::now();
  cached = build(source, simd_width, key, request->strict_reports, translate, error);
  if (!cached) return nullptr;
  log(LogLevel::Info, "%s kernel %016llx: compiled in %.1f ms", stage, (unsigned long long)key,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  if (cache) cache->insert(key, cached);
  if (disk) disk->store(key, cached);
  request->origin = KernelOrigin::Compiled;
  return cached;
}

void reuse_linked_kernel(uint64_t key, const std::shared_ptr<const CachedKernel>& object, KernelCache* cache,
                         CompileRequest* request) {
  KernelOrigin origin = KernelOrigin::Linked;
  if (cache) {
    if (cache->find(key)) origin = KernelOrigin::PipelineCache;
    else cache->insert(key, object);
  }
  if (request) request->origin = origin;
}

uint64_t link_kernel(const CachedKernel& kernel, std::string* error) {
  const double start = thread_cpu_ms();
  const uint64_t address = Jit::instance().load_object(kernel.object, kernel.symbol, error);
  log(LogLevel::Debug, "%s: linked in %.1f ms (thread CPU time)", kernel.symbol.c_str(), thread_cpu_ms() - start);
  return address;
}

}  // namespace kiln::compiler
