#include "compiler/graphics_compiler.h"

#include "compiler/kernel_build.h"
#include "compiler/shader_hash.h"

namespace kiln::compiler {
namespace {

LinkedKernels<CompiledVertexKernel> linked_vertex;
LinkedKernels<CompiledFragmentKernel> linked_fragment;

// A distinct non-zero variant for fragment kernels (they have no fixed-function key yet).
constexpr uint64_t kFragmentVariant = 0x6b696c6e66726167ull;  // "klnfrag"

}  // namespace

uint64_t VertexInputKey::hash() const {
  StableHasher h;
  for (const VertexAttributeKey& a : attributes) h.add_u64(a.location).add_u64(a.binding).add_u64(a.format).add_u64(a.offset);
  h.add_u64(~0ull);
  for (const VertexBindingKey& b : bindings) h.add_u64(b.binding).add_u64(b.per_instance).add_u64(b.divisor);
  return h.finish();
}

std::shared_ptr<const CompiledVertexKernel> compile_vertex_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                  const VertexInputKey& vertex_input,
                                                                  const BindingResolver& bindings, uint64_t layout_hash,
                                                                  KernelCache* cache, std::string* error,
                                                                  bool* compile_required) {
  if (source.stage != ShaderStage::Vertex) {
    *error = "compile_vertex_kernel needs a vertex shader";
    return nullptr;
  }
  const uint64_t key = kernel_key(source, simd_width, layout_hash, vertex_input.hash() | 1);
  if (auto kernel = linked_vertex.find(key)) return kernel;
  auto translate = [&](const spirv::Module& module, const spirv::EntryPoint& entry, llvm::LLVMContext& context,
                       CachedKernel* kernel, std::string* err) {
    TranslateOptions options;
    options.simd_width = simd_width;
    options.bindings = bindings;
    options.vertex_input = &vertex_input;
    kernel->stage = ShaderStage::Vertex;
    return translate_vertex(module, entry, options, context, kernel->symbol, &kernel->vertex_outputs, err);
  };
  auto cached = find_or_build_kernel(source, simd_width, key, cache, compile_required, translate, error);
  if (!cached) return nullptr;
  if (cached->stage != ShaderStage::Vertex) {
    *error = "pipeline cache entry is not a vertex kernel";
    return nullptr;
  }
  return linked_vertex.link(key, *cached, [](uint64_t address, const CachedKernel& c, CompiledVertexKernel* k) {
    k->function = reinterpret_cast<abi::VertexKernelFn>(address);
    k->outputs = c.vertex_outputs;
  }, error);
}

std::shared_ptr<const CompiledFragmentKernel> compile_fragment_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                      const BindingResolver& bindings, uint64_t layout_hash,
                                                                      KernelCache* cache, std::string* error,
                                                                      bool* compile_required) {
  if (source.stage != ShaderStage::Fragment) {
    *error = "compile_fragment_kernel needs a fragment shader";
    return nullptr;
  }
  const uint64_t key = kernel_key(source, simd_width, layout_hash, kFragmentVariant);
  if (auto kernel = linked_fragment.find(key)) return kernel;
  auto translate = [&](const spirv::Module& module, const spirv::EntryPoint& entry, llvm::LLVMContext& context,
                       CachedKernel* kernel, std::string* err) {
    TranslateOptions options;
    options.simd_width = simd_width;
    options.bindings = bindings;
    kernel->stage = ShaderStage::Fragment;
    return translate_fragment(module, entry, options, context, kernel->symbol, &kernel->fragment, err);
  };
  auto cached = find_or_build_kernel(source, simd_width, key, cache, compile_required, translate, error);
  if (!cached) return nullptr;
  if (cached->stage != ShaderStage::Fragment) {
    *error = "pipeline cache entry is not a fragment kernel";
    return nullptr;
  }
  return linked_fragment.link(key, *cached, [](uint64_t address, const CachedKernel& c, CompiledFragmentKernel* k) {
    k->function = reinterpret_cast<abi::FragmentKernelFn>(address);
    k->interface = c.fragment;
  }, error);
}

}  // namespace kiln::compiler
