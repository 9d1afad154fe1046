#pragma once
// The vertex input state a vertex kernel is compiled for (VkPipelineVertexInputStateCreateInfo
// with VkPipelineVertexInputDivisorStateCreateInfoEXT folded in). Strides are not part of it: they
// come at run time in abi::VertexBufferRecord (VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE).
// Plain C++: the translator and compiler/graphics_compiler.h both use it.
#include <cstdint>
#include <vector>

namespace kiln::compiler {

struct VertexAttributeKey {
  uint32_t location = 0;
  uint32_t binding = 0;
  uint32_t format = 0;  // VkFormat
  uint32_t offset = 0;
  bool operator==(const VertexAttributeKey&) const = default;
};
struct VertexBindingKey {
  uint32_t binding = 0;
  bool per_instance = false;  // VK_VERTEX_INPUT_RATE_INSTANCE
  uint32_t divisor = 1;       // per-instance only; 0 = every instance reads element base_instance
  bool operator==(const VertexBindingKey&) const = default;
};
struct VertexInputKey {
  std::vector<VertexAttributeKey> attributes;  // sorted by location
  std::vector<VertexBindingKey> bindings;      // sorted by binding
  // The kernel fetches nothing: Location L's four components come converted, as 32-bit values,
  // from abi::VertexInvocation::staged_attributes[L] (a fast-linked pipeline's vertex kernel,
  // whose vertex input state was not known when it was compiled; attributes and bindings empty).
  bool staged = false;
  uint64_t hash() const;
  bool operator==(const VertexInputKey&) const = default;
};

}  // namespace kiln::compiler
