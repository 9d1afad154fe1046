// Compute kernels (abi::ComputeKernelFn): the workgroup part (emit_workgroup.h) plus the shared
// memory limit, and the one stage whose float arithmetic may contract.
#include <string>

#include "compiler/emit_workgroup.h"

namespace kiln::compiler {
namespace {

class ComputeEmitter final : public WorkgroupEmitter {
 public:
  using WorkgroupEmitter::WorkgroupEmitter;

  bool prologue() override {
    if (shared_bytes_ > abi::kMaxComputeSharedMemoryBytes) {
      t_.error_ = "Workgroup variables of " + std::to_string(shared_bytes_) + " bytes exceed maxComputeSharedMemorySize (" +
                  std::to_string(abi::kMaxComputeSharedMemoryBytes) + ")";
      return false;
    }
    return true;
  }
  // Graphics stages do not contract: an `invariant` output must come out bit-identical in every
  // pipeline that computes it the same way, and LLVM's fusion depends on surrounding code.
  bool contracts_float_arithmetic() const override { return true; }
};

}  // namespace

std::unique_ptr<StageEmitter> make_compute_emitter(Translator& t) { return std::make_unique<ComputeEmitter>(t); }

std::unique_ptr<llvm::Module> translate_compute(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                const TranslateOptions& options, llvm::LLVMContext& context,
                                                const std::string& symbol, ComputeKernelInfo* info, std::string* error) {
  if (!entry_point_is(entry, spv::ExecutionModel::GLCompute, "compute", error)) return nullptr;
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (ir) *info = static_cast<const ComputeEmitter&>(t.stage()).info();
  return ir;
}

}  // namespace kiln::compiler
