#pragma once
// VkCompareOp on scalars: the depth and stencil tests' and depth-comparison sampling's reference
// semantics (C++ comparison operators, so NaN compares false except under NOT_EQUAL). The SIMD
// tests are checked against it.
#include <vulkan/vulkan.h>

namespace kiln {

template <typename T>
inline bool compare_op(VkCompareOp op, T a, T b) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return a < b;
    case VK_COMPARE_OP_EQUAL: return a == b;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return a <= b;
    case VK_COMPARE_OP_GREATER: return a > b;
    case VK_COMPARE_OP_NOT_EQUAL: return a != b;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return a >= b;
    default: return true;  // ALWAYS
  }
}

}  // namespace kiln
