#include "icd/descriptor_uses.h"

#include "compiler/binding_usage.h"

namespace kiln {
namespace {

VkPipelineStageFlags2 pipeline_stage_of(VkShaderStageFlagBits stage) {
  switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT;
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT;
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT;
    case VK_SHADER_STAGE_GEOMETRY_BIT: return VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT;
    case VK_SHADER_STAGE_FRAGMENT_BIT: return VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    case VK_SHADER_STAGE_COMPUTE_BIT: return VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    case VK_SHADER_STAGE_TASK_BIT_EXT: return VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT;
    case VK_SHADER_STAGE_MESH_BIT_EXT: return VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT;
    default: return 0;
  }
}

}  // namespace

std::unique_ptr<exec::DescriptorUses> make_descriptor_uses(std::span<const StageWords> stages,
                                                           const desc::PipelineLayoutDesc& layout) {
  auto out = std::make_unique<exec::DescriptorUses>();
  for (const StageWords& stage : stages) {
    for (const compiler::BindingUsage& u : compiler::binding_usage(stage.words)) {
      if (u.set >= layout.sets.size()) continue;
      const desc::SetLayoutDesc& set = layout.sets[u.set];
      const size_t index = set.index_of(u.binding);
      if (index >= set.bindings.size()) continue;
      const desc::BindingLayout& b = set.bindings[index];
      exec::DescriptorUse use;
      use.stage = pipeline_stage_of(stage.stage);
      use.set = u.set;
      use.type = b.type;
      use.offset = b.offset;
      use.count = b.count;
      use.variable_count = set.variable_last_binding && index + 1 == set.bindings.size();
      if (desc::is_dynamic_buffer(b.type)) use.dynamic_slot = layout.dynamic_slot(u.set, b, 0);
      use.read = u.read;
      use.written = u.written;
      use.atomic = u.atomic;
      out->uses.push_back(use);
    }
  }
  return out;
}

}  // namespace kiln
