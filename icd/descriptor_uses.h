#pragma once
// Strict mode's view of what a pipeline's shaders reach through descriptors (pipeline/descriptor_uses.h).
#include <vulkan/vulkan.h>

#include <memory>
#include <span>

#include "icd/pipeline_binding.h"
#include "pipeline/descriptor_uses.h"

namespace kiln {

// One stage's SPIR-V.
struct StageWords {
  VkShaderStageFlagBits stage;
  std::span<const uint32_t> words;
};

// The bindings each stage's module uses (and writes), placed in `layout`.
std::unique_ptr<exec::DescriptorUses> make_descriptor_uses(std::span<const StageWords> stages,
                                                           const desc::PipelineLayoutDesc& layout);

}  // namespace kiln
