#include "compiler/compute_compiler.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <mutex>
#include <unordered_map>

#include "compiler/jit.h"
#include "compiler/shader_dump.h"
#include "compiler/shader_hash.h"
#include "compiler/spirv_front.h"
#include "compiler/spirv_module.h"

namespace kiln::compiler {
namespace {

std::mutex cache_mutex;
std::unordered_map<uint64_t, std::shared_ptr<const CompiledComputeKernel>> kernel_cache;

}  // namespace

std::shared_ptr<const CompiledComputeKernel> compile_compute_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                    const BindingResolver& bindings, uint64_t layout_hash,
                                                                    std::string* error) {
  const uint64_t key = StableHasher().add_u64(shader_hash(source)).add_u64(simd_width).add_u64(layout_hash).finish();
  {
    std::lock_guard lock(cache_mutex);
    if (auto it = kernel_cache.find(key); it != kernel_cache.end()) return it->second;
  }
  FrontResult front = prepare_spirv(source);
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
  const std::string symbol = "kiln_compute_" + std::to_string(key);
  auto result = std::make_shared<CompiledComputeKernel>();
  result->simd_width = simd_width;
  std::unique_ptr<llvm::Module> ir = translate_compute(*module, *entry, options, *context, symbol, &result->info, error);
  if (!ir) return nullptr;
  if (dump_enabled("llvm")) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    ir->print(stream, nullptr);
    dump_text("llvm", key, stage_suffix(source.stage), stream.str());
  }
  const uint64_t address = Jit::instance().compile(std::move(context), std::move(ir), symbol, error);
  if (!address) return nullptr;
  result->function = reinterpret_cast<abi::ComputeKernelFn>(address);
  std::lock_guard lock(cache_mutex);
  return kernel_cache.emplace(key, std::move(result)).first->second;
}

}  // namespace kiln::compiler
