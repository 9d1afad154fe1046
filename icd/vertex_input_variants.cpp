#include "icd/vertex_input_variants.h"

#include "common/cpu.h"
#include "common/log.h"
#include "icd/shader_bindings.h"

namespace kiln {

VertexInputVariants::VertexInputVariants(std::shared_ptr<const RetainedShader> shader, const desc::PipelineLayoutDesc& layout,
                                         const exec::GraphicsKernels& base)
    : shader_(std::move(shader)),
      layout_(layout),
      layout_hash_(pipeline_layout_hash(layout)),
      base_(base) {}

const exec::GraphicsKernels* VertexInputVariants::kernels_for(const compiler::VertexInputKey& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::unique_ptr<Variant>>& same_hash = variants_[key.hash()];
  for (const std::unique_ptr<Variant>& v : same_hash)
    if (v->key == key) return &v->kernels;
  std::string error;
  auto kernel = compiler::compile_vertex_kernel(shader_->source(), host_simd_width(), key, binding_resolver(layout_), layout_hash_,
                                                nullptr, &error);
  if (!kernel) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdSetVertexInputEXT: the vertex shader cannot read this vertex input: %s",
                  error.c_str());
    return nullptr;
  }
  auto v = std::make_unique<Variant>();
  v->key = key;
  v->kernel = std::move(kernel);
  v->kernels = base_;
  v->kernels.vertex = v->kernel->function;
  v->kernels.vertex_fetch = nullptr;  // the variant fetches its attributes itself
  v->kernels.vertex_width = v->kernel->simd_width;
  v->kernels.vertex_outputs = v->kernel->outputs;
  same_hash.push_back(std::move(v));
  return &same_hash.back()->kernels;
}

}  // namespace kiln
