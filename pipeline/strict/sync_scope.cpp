#include "pipeline/strict/sync_scope.h"

namespace kiln::exec::strict {
namespace {

constexpr Stages kPreRasterization = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT |
                                     VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT |
                                     VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT | VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT |
                                     VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT;
constexpr Stages kVertexInput = VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT;
constexpr Stages kTransfer = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT |
                             VK_PIPELINE_STAGE_2_CLEAR_BIT;
constexpr Stages kGraphics = VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | kVertexInput | kPreRasterization |
                             VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                             VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                             VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT |
                             VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT;
constexpr Stages kAll = kGraphics | kTransfer | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_HOST_BIT;

Stages expand_common(Stages s) {
  Stages out = s & kAll;
  if (s & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) out |= kAll;
  if (s & VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT) out |= kGraphics;
  if (s & VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT) out |= kVertexInput;
  if (s & VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT) out |= kTransfer;
  if (s & VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT) out |= kPreRasterization;
  return out;
}

constexpr Accesses kShaderReads =
    VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
constexpr Accesses kReads = kShaderReads | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT |
                            VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT |
                            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                            VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_HOST_READ_BIT |
                            VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT |
                            VK_ACCESS_2_CONDITIONAL_RENDERING_READ_BIT_EXT |
                            VK_ACCESS_2_COLOR_ATTACHMENT_READ_NONCOHERENT_BIT_EXT;
constexpr Accesses kWrites = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
                             VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT |
                             VK_ACCESS_2_HOST_WRITE_BIT | VK_ACCESS_2_TRANSFORM_FEEDBACK_WRITE_BIT_EXT |
                             VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT;

}  // namespace

Stages expand_src_stages(Stages s) {
  Stages out = expand_common(s);
  if (s & VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT) out |= kAll;
  return out;
}

Stages expand_dst_stages(Stages s) {
  Stages out = expand_common(s);
  if (s & VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT) out |= kAll;
  return out;
}

Accesses expand_accesses(Accesses a) {
  Accesses out = a & (kReads | kWrites);
  if (a & VK_ACCESS_2_MEMORY_READ_BIT) out |= kReads;
  if (a & VK_ACCESS_2_MEMORY_WRITE_BIT) out |= kWrites;
  // The synchronization1 meaning of SHADER_READ includes uniform buffers.
  if (a & VK_ACCESS_2_SHADER_READ_BIT) out |= kShaderReads;
  if (a & VK_ACCESS_2_SHADER_WRITE_BIT) out |= VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  return out;
}

Dependency expand_dependency(Stages src_stages, Accesses src_access, Stages dst_stages, Accesses dst_access) {
  return {expand_src_stages(src_stages), expand_dst_stages(dst_stages), expand_accesses(src_access),
          expand_accesses(dst_access)};
}

namespace {

const char* stage_name(Stages s) {
  switch (s) {
    case VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT: return "DRAW_INDIRECT";
    case VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT: return "INDEX_INPUT";
    case VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT: return "VERTEX_ATTRIBUTE_INPUT";
    case VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT: return "VERTEX_SHADER";
    case VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT: return "TESSELLATION_CONTROL_SHADER";
    case VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT: return "TESSELLATION_EVALUATION_SHADER";
    case VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT: return "GEOMETRY_SHADER";
    case VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT: return "TASK_SHADER";
    case VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT: return "MESH_SHADER";
    case VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT: return "FRAGMENT_SHADER";
    case VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT: return "EARLY_FRAGMENT_TESTS";
    case VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT: return "LATE_FRAGMENT_TESTS";
    case VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT: return "COLOR_ATTACHMENT_OUTPUT";
    case VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT: return "COMPUTE_SHADER";
    case VK_PIPELINE_STAGE_2_COPY_BIT: return "COPY";
    case VK_PIPELINE_STAGE_2_BLIT_BIT: return "BLIT";
    case VK_PIPELINE_STAGE_2_RESOLVE_BIT: return "RESOLVE";
    case VK_PIPELINE_STAGE_2_CLEAR_BIT: return "CLEAR";
    case VK_PIPELINE_STAGE_2_HOST_BIT: return "HOST";
    case VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT: return "TRANSFORM_FEEDBACK";
    case VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT: return "CONDITIONAL_RENDERING";
    default: return "?";
  }
}

}  // namespace

std::string stage_names(Stages stages) {
  if (!stages) return "IMAGE_LAYOUT_TRANSITION";
  std::string out;
  for (Stages rest = stages; rest; rest &= rest - 1) {
    if (!out.empty()) out += "|";
    out += stage_name(rest & -rest);
  }
  return out;
}

const char* access_name(Accesses a) {
  switch (a) {
    case VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT: return "INDIRECT_COMMAND_READ";
    case VK_ACCESS_2_INDEX_READ_BIT: return "INDEX_READ";
    case VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT: return "VERTEX_ATTRIBUTE_READ";
    case VK_ACCESS_2_UNIFORM_READ_BIT: return "UNIFORM_READ";
    case VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT: return "INPUT_ATTACHMENT_READ";
    case VK_ACCESS_2_SHADER_SAMPLED_READ_BIT: return "SHADER_SAMPLED_READ";
    case VK_ACCESS_2_SHADER_STORAGE_READ_BIT: return "SHADER_STORAGE_READ";
    case VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT: return "SHADER_STORAGE_WRITE";
    case VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT: return "COLOR_ATTACHMENT_READ";
    case VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT: return "COLOR_ATTACHMENT_WRITE";
    case VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT: return "DEPTH_STENCIL_ATTACHMENT_READ";
    case VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT: return "DEPTH_STENCIL_ATTACHMENT_WRITE";
    case VK_ACCESS_2_TRANSFER_READ_BIT: return "TRANSFER_READ";
    case VK_ACCESS_2_TRANSFER_WRITE_BIT: return "TRANSFER_WRITE";
    case VK_ACCESS_2_TRANSFORM_FEEDBACK_WRITE_BIT_EXT: return "TRANSFORM_FEEDBACK_WRITE";
    case VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT: return "TRANSFORM_FEEDBACK_COUNTER_READ";
    case VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT: return "TRANSFORM_FEEDBACK_COUNTER_WRITE";
    case VK_ACCESS_2_CONDITIONAL_RENDERING_READ_BIT_EXT: return "CONDITIONAL_RENDERING_READ";
    case 0: return "IMAGE_LAYOUT_TRANSITION";
    default: return "(several accesses)";
  }
}

}  // namespace kiln::exec::strict
