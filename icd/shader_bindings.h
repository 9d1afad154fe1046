#pragma once
// The pipeline layout as the compiler needs it: where each (set, binding) lives, and a stable
// hash of that for kernel cache keys. Used by every pipeline type.
#include <cstdint>

#include "compiler/translator.h"
#include "icd/pipeline_binding.h"

namespace kiln {

// Answers the translator's "where is (set, binding)?" from a pipeline layout (kept by reference:
// the layout must outlive the compile).
compiler::BindingResolver binding_resolver(const desc::PipelineLayoutDesc& layout);
uint64_t pipeline_layout_hash(const desc::PipelineLayoutDesc& layout);

}  // namespace kiln
