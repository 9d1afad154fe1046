#pragma once
// VK_EXT_mesh_shader for kiln-bench: whether the device can run a scenario's task and mesh
// shaders, and the extension's draw command (the loader exports no extension entry points, so it
// is looked up on the device). The device has the extension enabled when it offers it
// (VulkanContext::mesh_shader_enabled).
#include <vulkan/vulkan.h>

#include <optional>
#include <string>

#include "tools/common/vulkan_context.h"

namespace kiln::bench {

// What a mesh scenario needs beyond meshShader. The extension's limits are not checked: every
// scenario stays within the minimums the extension guarantees (256 output vertices and
// primitives, 128 invocations a workgroup, 16 KiB of payload).
struct MeshShaderNeeds {
  bool task_shader = false;
  // Subgroup operations the task shader uses (in addition to the stage being listed in
  // subgroupSupportedStages); 0 = none.
  VkSubgroupFeatureFlags task_subgroup_operations = 0;
};

// Why this device cannot run the scenario's task and mesh shaders, or nullopt.
std::optional<std::string> missing_mesh_shader_support(const tools::VulkanContext& context,
                                                       const MeshShaderNeeds& needs);

// The extension's commands this harness uses; the device must have the extension enabled.
struct MeshShaderCommands {
  explicit MeshShaderCommands(const tools::VulkanContext& context);

  PFN_vkCmdDrawMeshTasksEXT draw = nullptr;
};

}  // namespace kiln::bench
