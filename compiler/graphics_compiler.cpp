#include "compiler/graphics_compiler.h"

#include "compiler/kernel_build.h"
#include "compiler/shader_hash.h"

namespace kiln::compiler {
namespace {

LinkedKernels<CompiledVertexKernel> linked_vertex;
LinkedKernels<CompiledTessControlKernel> linked_tess_control;
LinkedKernels<CompiledTessEvalKernel> linked_tess_eval;
LinkedKernels<CompiledGeometryKernel> linked_geometry;
LinkedKernels<CompiledFragmentKernel> linked_fragment;
LinkedKernels<CompiledTaskKernel> linked_task;
LinkedKernels<CompiledMeshKernel> linked_mesh;

// A distinct non-zero variant for fragment kernels (they have no fixed-function key yet).
constexpr uint64_t kFragmentVariant = 0x6b696c6e66726167ull;  // "klnfrag"
// Evaluation kernels are keyed by their control stage's map, control kernels by the vertex
// stage's: this keeps the two apart should one shader module hold both entry points.
constexpr uint64_t kTessEvalVariant = 0x6b696c6e74657365ull;  // "klntese"
constexpr uint64_t kGeometryVariant = 0x6b696c6e67656f6dull;  // "klngeom"
constexpr uint64_t kTaskVariant = 0x6b696c6e7461736bull;      // "klntask"
constexpr uint64_t kMeshVariant = 0x6b696c6e6d657368ull;      // "klnmesh"

// The key part of what a tessellation kernel reads from the stage before it.
uint64_t map_hash(const abi::StageOutputMap& map) {
  StableHasher h;
  h.add_u64(map.vertex_count);
  const auto* addresses = &map.location[0][0];  // a StageOutputMap is an array of addresses after vertex_count
  const size_t count = (sizeof map - offsetof(abi::StageOutputMap, location)) / sizeof(abi::StageOutputAddress);
  for (size_t i = 0; i < count; ++i) h.add_u64(uint64_t(uint32_t(addresses[i].offset)) << 32 | addresses[i].stride);
  return h.finish() | 1;
}

// One stage's compile: the linked kernel for `key`, or the cache's object code, or a translation
// with `translate`; `describe` copies the stage's report into the compiled kernel.
template <typename Compiled, typename Translate, typename Describe>
std::shared_ptr<const Compiled> compile_stage(LinkedKernels<Compiled>& linked, const ShaderSource& source,
                                              TranslateOptions options, uint64_t key, KernelCache* cache,
                                              std::string* error, CompileRequest* request, Translate&& translate,
                                              Describe&& describe) {
  const ShaderStage stage = Compiled::kStage;
  key = request_key(key, request);
  options.strict_reports = request ? request->strict_reports : 0;
  if (source.stage != stage) {
    *error = std::string("expected a ") + stage_suffix(stage) + " shader";
    return nullptr;
  }
  std::shared_ptr<const CachedKernel> object;
  if (auto kernel = linked.find(key, &object)) {
    reuse_linked_kernel(key, object, cache, request);
    return kernel;
  }
  auto build = [&](const spirv::Module& module, const spirv::EntryPoint& entry, llvm::LLVMContext& context,
                   CachedKernel* kernel, std::string* err) {
    kernel->stage = stage;
    return translate(module, entry, options, context, kernel, err);
  };
  auto cached = find_or_build_kernel(source, options.simd_width, key, cache, request, build, error);
  if (!cached) return nullptr;
  if (cached->stage != stage) {
    *error = std::string("pipeline cache entry is not a ") + stage_suffix(stage) + " kernel";
    return nullptr;
  }
  return linked.link(key, cached, [&](uint64_t address, const CachedKernel& c, Compiled* k) {
    k->function = reinterpret_cast<decltype(k->function)>(address);
    describe(c, k);
  }, error);
}

}  // namespace

uint64_t VertexInputKey::hash() const {
  StableHasher h;
  for (const VertexAttributeKey& a : attributes) h.add_u64(a.location).add_u64(a.binding).add_u64(a.format).add_u64(a.offset);
  h.add_u64(~0ull);
  for (const VertexBindingKey& b : bindings) h.add_u64(b.binding).add_u64(b.per_instance).add_u64(b.divisor);
  h.add_u64(staged);
  return h.finish();
}

std::shared_ptr<const CompiledVertexKernel> compile_vertex_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                  const VertexInputKey& vertex_input,
                                                                  const BindingResolver& bindings, uint64_t layout_hash,
                                                                  KernelCache* cache, std::string* error,
                                                                  CompileRequest* request) {
  TranslateOptions options{simd_width, bindings, &vertex_input};
  return compile_stage(linked_vertex, source, options, kernel_key(source, simd_width, layout_hash, vertex_input.hash() | 1),
                       cache, error, request,
                       [](const spirv::Module& module, const spirv::EntryPoint& entry, const TranslateOptions& o,
                          llvm::LLVMContext& context, CachedKernel* k, std::string* err) {
                         return translate_vertex(module, entry, o, context, k->symbol, &k->vertex_outputs, err);
                       },
                       [](const CachedKernel& c, CompiledVertexKernel* k) { k->outputs = c.vertex_outputs; });
}

std::shared_ptr<const CompiledTessControlKernel> compile_tess_control_kernel(
    const ShaderSource& source, uint32_t simd_width, const abi::VertexOutputLayout& vertex_outputs,
    const BindingResolver& bindings, uint64_t layout_hash, KernelCache* cache, std::string* error, CompileRequest* request) {
  const abi::StageOutputMap inputs = abi::record_map(vertex_outputs);
  TranslateOptions options{simd_width, bindings, nullptr, &inputs};
  return compile_stage(linked_tess_control, source, options, kernel_key(source, simd_width, layout_hash, map_hash(inputs)),
                       cache, error, request,
                       [](const spirv::Module& module, const spirv::EntryPoint& entry, const TranslateOptions& o,
                          llvm::LLVMContext& context, CachedKernel* k, std::string* err) {
                         return translate_tess_control(module, entry, o, context, k->symbol, &k->tess_control, err);
                       },
                       [](const CachedKernel& c, CompiledTessControlKernel* k) { k->info = c.tess_control; });
}

std::shared_ptr<const CompiledTessEvalKernel> compile_tess_eval_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                       const abi::StageOutputMap& control_outputs,
                                                                       const BindingResolver& bindings, uint64_t layout_hash,
                                                                       KernelCache* cache, std::string* error,
                                                                       CompileRequest* request) {
  TranslateOptions options{simd_width, bindings, nullptr, &control_outputs};
  return compile_stage(linked_tess_eval, source, options,
                       kernel_key(source, simd_width, layout_hash, map_hash(control_outputs) ^ kTessEvalVariant), cache,
                       error, request,
                       [](const spirv::Module& module, const spirv::EntryPoint& entry, const TranslateOptions& o,
                          llvm::LLVMContext& context, CachedKernel* k, std::string* err) {
                         return translate_tess_eval(module, entry, o, context, k->symbol, &k->tess_eval, err);
                       },
                       [](const CachedKernel& c, CompiledTessEvalKernel* k) { k->info = c.tess_eval; });
}

std::shared_ptr<const CompiledGeometryKernel> compile_geometry_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                      const abi::VertexOutputLayout& previous_outputs,
                                                                      const BindingResolver& bindings, uint64_t layout_hash,
                                                                      KernelCache* cache, std::string* error,
                                                                      CompileRequest* request) {
  const abi::StageOutputMap inputs = abi::record_map(previous_outputs);
  TranslateOptions options{simd_width, bindings, nullptr, &inputs};
  return compile_stage(linked_geometry, source, options,
                       kernel_key(source, simd_width, layout_hash, map_hash(inputs) ^ kGeometryVariant), cache, error,
                       request,
                       [](const spirv::Module& module, const spirv::EntryPoint& entry, const TranslateOptions& o,
                          llvm::LLVMContext& context, CachedKernel* k, std::string* err) {
                         return translate_geometry(module, entry, o, context, k->symbol, &k->geometry, err);
                       },
                       [](const CachedKernel& c, CompiledGeometryKernel* k) { k->info = c.geometry; });
}

namespace {

// A task or mesh kernel: no stage before it to be keyed by.
template <typename Compiled>
std::shared_ptr<const Compiled> compile_mesh_shading(LinkedKernels<Compiled>& linked, uint64_t variant,
                                                     const ShaderSource& source, uint32_t simd_width,
                                                     const BindingResolver& bindings, uint64_t layout_hash,
                                                     KernelCache* cache, std::string* error, CompileRequest* request) {
  TranslateOptions options{simd_width, bindings};
  return compile_stage(linked, source, options, kernel_key(source, simd_width, layout_hash, variant), cache, error,
                       request,
                       [](const spirv::Module& module, const spirv::EntryPoint& entry, const TranslateOptions& o,
                          llvm::LLVMContext& context, CachedKernel* k, std::string* err) {
                         return Compiled::kStage == ShaderStage::Task
                                    ? translate_task(module, entry, o, context, k->symbol, &k->info, &k->mesh, err)
                                    : translate_mesh(module, entry, o, context, k->symbol, &k->info, &k->mesh, err);
                       },
                       [](const CachedKernel& c, Compiled* k) {
                         k->info = c.info;
                         k->mesh = c.mesh;
                       });
}

}  // namespace

std::shared_ptr<const CompiledTaskKernel> compile_task_kernel(const ShaderSource& source, uint32_t simd_width,
                                                              const BindingResolver& bindings, uint64_t layout_hash,
                                                              KernelCache* cache, std::string* error,
                                                              CompileRequest* request) {
  return compile_mesh_shading(linked_task, kTaskVariant, source, simd_width, bindings, layout_hash, cache, error,
                              request);
}

std::shared_ptr<const CompiledMeshKernel> compile_mesh_kernel(const ShaderSource& source, uint32_t simd_width,
                                                              const BindingResolver& bindings, uint64_t layout_hash,
                                                              KernelCache* cache, std::string* error,
                                                              CompileRequest* request) {
  return compile_mesh_shading(linked_mesh, kMeshVariant, source, simd_width, bindings, layout_hash, cache, error,
                              request);
}

std::shared_ptr<const CompiledFragmentKernel> compile_fragment_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                      const BindingResolver& bindings, uint64_t layout_hash,
                                                                      KernelCache* cache, std::string* error,
                                                                      CompileRequest* request) {
  TranslateOptions options{simd_width, bindings};
  return compile_stage(linked_fragment, source, options, kernel_key(source, simd_width, layout_hash, kFragmentVariant),
                       cache, error, request,
                       [](const spirv::Module& module, const spirv::EntryPoint& entry, const TranslateOptions& o,
                          llvm::LLVMContext& context, CachedKernel* k, std::string* err) {
                         return translate_fragment(module, entry, o, context, k->symbol, &k->fragment, err);
                       },
                       [](const CachedKernel& c, CompiledFragmentKernel* k) { k->interface = c.fragment; });
}

}  // namespace kiln::compiler
