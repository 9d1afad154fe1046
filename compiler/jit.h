#pragma once
// The JIT: one ORC LLJIT per process, configured for the host CPU, that turns translated LLVM
// modules into callable kernels. IR is optimized with Kiln's pass list (jit.cpp, kKernelPipeline)
// and the host's TargetMachine, then code is generated at O2. Kernels reach the driver only
// through function pointers in their context structs (common/abi/kernel_abi.h), so no driver
// symbols need registering; libm comes from the process.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace kiln::compiler {

class Jit {
 public:
  // The process-wide JIT (created on first use). Thread-safe.
  static Jit& instance();

  // Optimizes `module` (created in `context`; both consumed) and emits host object code
  // into `object` — the form kernels are cached and persisted in. With `assembly`, also the
  // assembly text (KILN_DUMP=asm). False with `error` set on failure.
  bool compile_to_object(std::unique_ptr<llvm::LLVMContext> context, std::unique_ptr<llvm::Module> module,
                         std::vector<char>* object, std::string* assembly, std::string* error);

  // Links object code from compile_to_object (this process's or a pipeline cache's) and returns
  // the address of `symbol`, or 0 with `error` set. No LLVM optimization or codegen runs here.
  uint64_t load_object(const std::vector<char>& object, const std::string& symbol, std::string* error);

  // The host's target triple and data layout, for creating modules.
  const std::string& target_triple() const;
  const std::string& data_layout() const;
  // Host CPU name and features (part of cache keys: object code is only valid on the same CPU).
  const std::string& cpu_name() const;

  struct Impl;

 private:
  Jit();
  ~Jit();
  std::unique_ptr<Impl> impl_;
};

}  // namespace kiln::compiler
