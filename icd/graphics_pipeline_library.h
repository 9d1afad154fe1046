#pragma once
// VK_EXT_graphics_pipeline_library: a graphics pipeline in four parts — vertex input interface,
// pre-rasterization shaders, fragment shader, fragment output interface — each of which may be
// created alone as a library and linked later (docs/design/pipeline-libraries.md). Which state
// belongs to which part, and how a library's part is taken over by the pipeline it links into.
#include <vulkan/vulkan.h>

#include <cstdint>

#include "icd/pipeline.h"

namespace kiln {

constexpr VkGraphicsPipelineLibraryFlagsEXT kVertexInputPart = VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kPreRasterizationPart = VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kFragmentShaderPart = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kFragmentOutputPart = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kAllParts =
    kVertexInputPart | kPreRasterizationPart | kFragmentShaderPart | kFragmentOutputPart;

// The parts `info` itself describes: VkGraphicsPipelineLibraryCreateInfoEXT's flags; none when it
// is absent from a library or a create info that links libraries; all four for a plain pipeline.
VkGraphicsPipelineLibraryFlagsEXT own_parts(const VkGraphicsPipelineCreateInfo& info);

// The dynamic states (DynamicStateBit) that belong to `parts`: a create info's other dynamic
// states are not its to set.
uint64_t dynamic_states_of(VkGraphicsPipelineLibraryFlagsEXT parts);

// Takes over into `g` the state, kernels and shaders of the parts `library` holds.
void link_library(const GraphicsPipelinePart& library, GraphicsPipelinePart* g);

}  // namespace kiln
