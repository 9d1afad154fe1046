#include "tools/kiln-bench/mesh_shading.h"

#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {

using tools::VulkanContext;

std::optional<std::string> missing_mesh_shader_support(const VulkanContext& context, const MeshShaderNeeds& needs) {
  if (!context.mesh_shader_enabled()) return "the device lacks VK_EXT_mesh_shader (meshShader)";
  if (needs.task_shader && !context.task_shader_enabled()) return "the device lacks taskShader";
  if (needs.task_subgroup_operations != 0) {
    VkPhysicalDeviceSubgroupProperties subgroups{};
    subgroups.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &subgroups;
    vkGetPhysicalDeviceProperties2(context.physical_device(), &properties);
    if (!(subgroups.supportedStages & VK_SHADER_STAGE_TASK_BIT_EXT)) {
      return "task shaders lack subgroup operations (subgroupSupportedStages)";
    }
    if ((subgroups.supportedOperations & needs.task_subgroup_operations) != needs.task_subgroup_operations) {
      return "subgroupSupportedOperations " + std::to_string(subgroups.supportedOperations) + " lack " +
             std::to_string(needs.task_subgroup_operations);
    }
  }
  return std::nullopt;
}

MeshShaderCommands::MeshShaderCommands(const VulkanContext& context)
    : draw(device_command<PFN_vkCmdDrawMeshTasksEXT>(context, "vkCmdDrawMeshTasksEXT")) {}

}  // namespace kiln::bench
