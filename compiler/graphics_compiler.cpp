#include "compiler/graphics_compiler.h"

#include "compiler/shader_hash.h"

namespace kiln::compiler {

uint64_t VertexInputKey::hash() const {
  StableHasher h;
  for (const VertexAttributeKey& a : attributes) h.add_u64(a.location).add_u64(a.binding).add_u64(a.format).add_u64(a.offset);
  h.add_u64(~0ull);
  for (const VertexBindingKey& b : bindings) h.add_u64(b.binding).add_u64(b.per_instance).add_u64(b.divisor);
  return h.finish();
}

// Placeholder until the vertex/fragment translator lands: graphics pipelines fail to compile
// with an honest error instead of pretending.
std::shared_ptr<const CompiledVertexKernel> compile_vertex_kernel(const ShaderSource&, uint32_t, const VertexInputKey&,
                                                                  const BindingResolver&, uint64_t, KernelCache*,
                                                                  std::string* error, bool*) {
  *error = "vertex shaders are not supported yet";
  return nullptr;
}

std::shared_ptr<const CompiledFragmentKernel> compile_fragment_kernel(const ShaderSource&, uint32_t, const BindingResolver&,
                                                                      uint64_t, KernelCache*, std::string* error, bool*) {
  *error = "fragment shaders are not supported yet";
  return nullptr;
}

}  // namespace kiln::compiler
