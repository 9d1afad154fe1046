#include "icd/retained_shader.h"

namespace kiln {

compiler::ShaderSource RetainedShader::source() const {
  compiler::ShaderSource s;
  s.words = words;
  s.entry_point = entry_point;
  s.stage = stage;
  s.specialization = specialization;
  return s;
}

std::shared_ptr<const RetainedShader> retain_shader(const compiler::ShaderSource& source, VkShaderStageFlagBits vk_stage) {
  auto shader = std::make_shared<RetainedShader>();
  shader->vk_stage = vk_stage;
  shader->words.assign(source.words.begin(), source.words.end());
  shader->entry_point = source.entry_point;
  shader->stage = source.stage;
  shader->specialization = source.specialization;
  return shader;
}

}  // namespace kiln
