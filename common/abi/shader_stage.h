#pragma once
// The one stage enum of the whole driver: icd/ maps VkShaderStageFlagBits to it, the compiler
// builds a kernel per stage (and records the stage in cached kernels), the engine runs them.
// Plain C++: no Vulkan, SPIR-V or LLVM types.
#include <cstdint>

namespace kiln {

// The stages Kiln compiles (ray-tracing stages are not supported). The values are stored in
// pipeline-cache data (compiler/kernel_cache.cpp): append, never renumber.
enum class ShaderStage : uint8_t {
  Vertex,
  TessellationControl,
  TessellationEvaluation,
  Geometry,
  Fragment,
  Compute,
  Task,  // VK_EXT_mesh_shader
  Mesh,  // VK_EXT_mesh_shader
};
constexpr uint32_t kShaderStageCount = 8;

// Short lower-case name used in file names and messages: vert, tesc, tese, geom, frag, comp,
// task, mesh (glslang's file extensions).
constexpr const char* stage_suffix(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Vertex: return "vert";
    case ShaderStage::TessellationControl: return "tesc";
    case ShaderStage::TessellationEvaluation: return "tese";
    case ShaderStage::Geometry: return "geom";
    case ShaderStage::Fragment: return "frag";
    case ShaderStage::Compute: return "comp";
    case ShaderStage::Task: return "task";
    case ShaderStage::Mesh: return "mesh";
  }
  return "unknown";
}

}  // namespace kiln
