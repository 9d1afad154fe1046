#pragma once
// A pipeline stage's shader kept past pipeline creation: its SPIR-V words, entry point, stage and
// specialization, copied, because the application may destroy the module (or pass the code in
// the stage's pNext) as soon as the create call returns. Pipelines keep them where something
// compiles or reads the shader later: graphics pipeline libraries (linking recompiles the vertex
// shader for the vertex input library's state), dynamic vertex input (a vertex kernel per
// recorded state) and strict mode (which descriptors each stage touches).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/shader_source.h"

namespace kiln {

struct RetainedShader {
  VkShaderStageFlagBits vk_stage = VK_SHADER_STAGE_VERTEX_BIT;
  std::vector<uint32_t> words;
  std::string entry_point;
  ShaderStage stage = ShaderStage::Vertex;
  compiler::SpecializationInput specialization;

  // The compiler's description; it points into this object, which must outlive it.
  compiler::ShaderSource source() const;
};

std::shared_ptr<const RetainedShader> retain_shader(const compiler::ShaderSource& source, VkShaderStageFlagBits vk_stage);

}  // namespace kiln
