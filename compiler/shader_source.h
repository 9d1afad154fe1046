#pragma once
// What a pipeline stage hands the compiler: the application's SPIR-V, which entry point and stage
// to build, and the specialization-constant values. Plain C++ (no Vulkan, SPIR-V or LLVM types),
// so icd/ builds it from VkPipelineShaderStageCreateInfo (icd/shader_module.h) and everything in
// compiler/ — front end, hash, dumps, later the translator — takes the same description.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "common/abi/shader_stage.h"

namespace kiln::compiler {

// Specialization-constant values by SpecId: VkSpecializationInfo with its data already looked up,
// kept sorted by constant id so equal specializations compare and hash equal however the
// application laid out its data block.
class SpecializationInput {
 public:
  struct Value {
    uint32_t constant_id;
    uint32_t size;  // bytes the application gave: 1, 2, 4 (also VkBool32) or 8
    uint64_t bits;  // those bytes as a little-endian integer, zero-extended
  };

  // Sets constant `constant_id` to the `size` bytes at `bytes` (replacing an earlier value for
  // the same id). Returns false and changes nothing when `size` is not 1, 2, 4 or 8.
  bool set(uint32_t constant_id, const void* bytes, size_t size);

  std::span<const Value> values() const { return values_; }
  bool empty() const { return values_.empty(); }

 private:
  std::vector<Value> values_;
};

// One shader to compile. `words` is not owned: it points at the VkShaderModule's copy (or a
// test's buffer), which must outlive this description.
struct ShaderSource {
  std::span<const uint32_t> words;
  std::string_view entry_point;
  ShaderStage stage = ShaderStage::Compute;
  SpecializationInput specialization;
};

}  // namespace kiln::compiler
