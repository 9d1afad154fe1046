#pragma once
// Stage and access masks as the hazard tracker compares them: every meta flag (ALL_COMMANDS,
// ALL_GRAPHICS, TRANSFER, VERTEX_INPUT, PRE_RASTERIZATION_SHADERS, MEMORY_READ, SHADER_WRITE, ...)
// replaced by the individual synchronization2 bits it stands for, and TOP/BOTTOM_OF_PIPE given the
// meaning the spec gives them on each side of a dependency.
#include <vulkan/vulkan.h>

#include <string>

namespace kiln::exec::strict {

using Stages = VkPipelineStageFlags2;
using Accesses = VkAccessFlags2;

// One side of a dependency: the stages it names (source side: BOTTOM_OF_PIPE is every stage,
// TOP_OF_PIPE none; destination side the reverse).
Stages expand_src_stages(Stages stages);
Stages expand_dst_stages(Stages stages);
Accesses expand_accesses(Accesses accesses);

// A dependency with both sides expanded: what a barrier, event wait or subpass dependency orders.
struct Dependency {
  Stages src_stages = 0, dst_stages = 0;
  Accesses src_access = 0, dst_access = 0;
};
Dependency expand_dependency(Stages src_stages, Accesses src_access, Stages dst_stages, Accesses dst_access);

// Readable names for reports: "EARLY_FRAGMENT_TESTS|LATE_FRAGMENT_TESTS", "SHADER_STORAGE_WRITE".
std::string stage_names(Stages stages);
const char* access_name(Accesses single_access);

}  // namespace kiln::exec::strict
