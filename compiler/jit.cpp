#include "compiler/jit.h"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <vector>

#include "common/log.h"
#include "compiler/thread_cpu_time.h"

namespace kiln::compiler {

namespace {

// The IR passes kernels get, instead of LLVM's O2 (which was half of a cold pipeline creation).
// Translated kernels are one function, already vectorised, with no calls and no countable loops
// (loops exit on a lane-mask test), so O2's inliner, loop vectorizer, SLP vectorizer, unroller
// and most of its eight InstCombine runs find nothing to do. What the translator's IR does need:
//  - sroa: the allocas that hold masks, phis and values crossing blocks become SSA registers;
//  - early-cse, gvn: the translator re-derives built-ins, addresses and descriptor loads per use;
//  - instcombine, simplifycfg: fold the mask arithmetic and merge the block-skip tests that
//    became redundant; a second round after gvn cleans up what it exposed;
//  - licm: uniform values (push constants, descriptor records, bounds) computed inside a loop;
//  - adce: what the scalarised uniform paths left behind.
constexpr const char* kKernelPipeline =
    "function(sroa<modify-cfg>,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,"
    "loop-mssa(licm<allowspeculation>),gvn,instcombine<no-verify-fixpoint>,"
    "simplifycfg<hoist-common-insts;sink-common-insts>,adce)";

}  // namespace

struct Jit::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::optional<llvm::orc::JITTargetMachineBuilder> machine_builder;
  std::string triple, layout, cpu;
  std::atomic<uint64_t> next_dylib{0};

  // A TargetMachine (cost models, code generation) is not thread-safe, so each compile borrows
  // one of its own: compiles on several threads run at once. Pooled rather than thread_local,
  // whose destructors would run after the library is unloaded.
  std::mutex machines_mutex;
  std::vector<std::unique_ptr<llvm::TargetMachine>> idle_machines;

  std::unique_ptr<llvm::TargetMachine> borrow_machine() {
    {
      std::lock_guard lock(machines_mutex);
      if (!idle_machines.empty()) {
        auto machine = std::move(idle_machines.back());
        idle_machines.pop_back();
        return machine;
      }
    }
    auto machine = machine_builder->createTargetMachine();
    if (!machine) {
      llvm::consumeError(machine.takeError());
      return nullptr;
    }
    return std::move(*machine);
  }
  void give_back(std::unique_ptr<llvm::TargetMachine> machine) {
    std::lock_guard lock(machines_mutex);
    idle_machines.push_back(std::move(machine));
  }
};

Jit& Jit::instance() {
  // Never destroyed: a process may exit (piglit's tests call exit() as soon as they have a result)
  // while queue threads still run kernels whose code the JIT owns; destroying it at exit unmapped
  // that code under them.
  static Jit* jit = new Jit;
  return *jit;
}

Jit::Jit() : impl_(std::make_unique<Impl>()) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    log(LogLevel::Error, "JIT: cannot detect the host CPU: %s", llvm::toString(jtmb.takeError()).c_str());
    return;
  }
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);  // O2
  auto tm = jtmb->createTargetMachine();
  if (!tm) {
    log(LogLevel::Error, "JIT: %s", llvm::toString(tm.takeError()).c_str());
    return;
  }
  impl_->triple = jtmb->getTargetTriple().str();
  // The features too: a VM may hide some of a CPU's (AVX-512 on a CPU whose name implies it), and
  // object code that uses them must not be linked there.
  impl_->cpu = jtmb->getCPU() + " " + jtmb->getFeatures().getString();
  impl_->layout = (*tm)->createDataLayout().getStringRepresentation();
  impl_->give_back(std::move(*tm));
  impl_->machine_builder = *jtmb;
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit) {
    log(LogLevel::Error, "JIT: %s", llvm::toString(jit.takeError()).c_str());
    return;
  }
  impl_->jit = std::move(*jit);
}

Jit::~Jit() = default;

const std::string& Jit::target_triple() const { return impl_->triple; }
const std::string& Jit::data_layout() const { return impl_->layout; }
const std::string& Jit::cpu_name() const { return impl_->cpu; }

bool Jit::compile_to_object(std::unique_ptr<llvm::LLVMContext> context_arg, std::unique_ptr<llvm::Module> module_arg,
                            std::vector<char>* object, std::string* assembly, std::string* error) {
  // Locals, not parameters: on an early return the module must die before its context, and the
  // destruction order of parameters is up to the compiler.
  std::unique_ptr<llvm::LLVMContext> context = std::move(context_arg);
  std::unique_ptr<llvm::Module> module = std::move(module_arg);
  if (!impl_->jit) {
    *error = "the JIT could not be initialised";
    return false;
  }
  std::string verify_message;
  llvm::raw_string_ostream verify_stream(verify_message);
  if (llvm::verifyModule(*module, &verify_stream)) {
    *error = "invalid LLVM IR generated (a Kiln bug): " + verify_stream.str();
    return false;
  }
  std::unique_ptr<llvm::TargetMachine> machine = impl_->borrow_machine();
  if (!machine) {
    *error = "the host target machine could not be created";
    return false;
  }
  struct GiveBack {
    Impl* impl;
    std::unique_ptr<llvm::TargetMachine>* machine;
    ~GiveBack() { impl->give_back(std::move(*machine)); }
  } give_back{impl_.get(), &machine};
  const double optimize_start = thread_cpu_ms();
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(machine.get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  if (auto err = pb.parsePassPipeline(passes, kKernelPipeline)) {
    // Cannot happen with a fixed string and a matching LLVM; fall back rather than fail a pipeline.
    KILN_LOG_ONCE(LogLevel::Warn, "JIT: kernel pass pipeline rejected (%s); using LLVM's O2",
                  llvm::toString(std::move(err)).c_str());
    passes = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  }
  passes.run(*module, mam);
  const double codegen_start = thread_cpu_ms();

  auto emit = [&](llvm::CodeGenFileType type, llvm::SmallVectorImpl<char>& out) {
    llvm::raw_svector_ostream stream(out);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, stream, nullptr, type)) return false;
    codegen.run(*module);
    return true;
  };
  if (assembly) {
    llvm::SmallVector<char, 0> text;
    auto copy = llvm::CloneModule(*module);  // code generation consumes the module's state
    std::swap(copy, module);
    if (emit(llvm::CodeGenFileType::AssemblyFile, text)) assembly->assign(text.begin(), text.end());
    std::swap(copy, module);
  }
  llvm::SmallVector<char, 0> bytes;
  if (!emit(llvm::CodeGenFileType::ObjectFile, bytes)) {
    *error = "the host target cannot emit object code";
    return false;
  }
  object->assign(bytes.begin(), bytes.end());
  log(LogLevel::Debug, "JIT: IR optimization %.1f ms, code generation %.1f ms (thread CPU time)",
      codegen_start - optimize_start, thread_cpu_ms() - codegen_start);
  return true;
}

uint64_t Jit::load_object(const std::vector<char>& object, const std::string& symbol, std::string* error) {
  if (!impl_->jit) {
    *error = "the JIT could not be initialised";
    return 0;
  }
  // Each kernel gets its own JITDylib so its symbol names never clash with another kernel's.
  auto& es = impl_->jit->getExecutionSession();
  auto dylib = es.createJITDylib("kernel" + std::to_string(impl_->next_dylib++));
  if (!dylib) {
    *error = llvm::toString(dylib.takeError());
    return 0;
  }
  dylib->addToLinkOrder(impl_->jit->getMainJITDylib());
  // The process's own symbols (libm for double-precision math that is not inlined).
  if (auto process = impl_->jit->getProcessSymbolsJITDylib()) dylib->addToLinkOrder(*process);
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()), symbol);
  if (auto err = impl_->jit->addObjectFile(*dylib, std::move(buffer))) {
    *error = llvm::toString(std::move(err));
    return 0;
  }
  auto address = impl_->jit->lookup(*dylib, symbol);
  if (!address) {
    *error = llvm::toString(address.takeError());
    return 0;
  }
  return address->getValue();
}

}  // namespace kiln::compiler
