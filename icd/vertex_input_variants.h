#pragma once
// VK_EXT_vertex_input_dynamic_state. Vertex fetch is compiled into the vertex kernel (formats,
// offsets, bindings and input rates are its VertexInputKey), so a pipeline whose vertex input is
// dynamic keeps what compiling its vertex shader needs — the shader (icd/retained_shader.h) and a
// copy of the pipeline layout: the module and layout may be destroyed before the pipeline —
// and compiles one kernel per vertex input state that draws record, when the first such draw is
// recorded. The kernels live as long as the pipeline.
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "compiler/graphics_compiler.h"
#include "compiler/vertex_input_key.h"
#include "icd/pipeline_binding.h"
#include "icd/retained_shader.h"
#include "pipeline/graphics_state.h"

namespace kiln {

class VertexInputVariants {
 public:
  // `shader`: the pipeline's vertex stage; `base`: its kernels (fragment kernel and all), whose
  // vertex fields each variant replaces.
  VertexInputVariants(std::shared_ptr<const RetainedShader> shader, const desc::PipelineLayoutDesc& layout,
                      const exec::GraphicsKernels& base);

  // The kernels for vertex input `key`, compiled on first use (thread-safe: command buffers of
  // one pipeline may record on several threads). Null, with one log line, when the shader
  // cannot be compiled for it.
  const exec::GraphicsKernels* kernels_for(const compiler::VertexInputKey& key);

 private:
  struct Variant {
    compiler::VertexInputKey key;
    std::shared_ptr<const compiler::CompiledVertexKernel> kernel;
    exec::GraphicsKernels kernels;
  };
  std::shared_ptr<const RetainedShader> shader_;
  desc::PipelineLayoutDesc layout_;
  uint64_t layout_hash_ = 0;
  exec::GraphicsKernels base_;
  std::mutex mutex_;
  std::unordered_map<uint64_t, std::vector<std::unique_ptr<Variant>>> variants_;  // by VertexInputKey::hash
};

}  // namespace kiln
