#pragma once
// The optional Image Operands of SPIR-V image instructions (compiler/translate_sample.cpp,
// compiler/translate_image.cpp).
#include <cstddef>
#include <cstdint>
#include <span>

#include "compiler/spirv_module.h"

namespace kiln::compiler {

using spirv::Id;

// Image operand bits (SPIR-V "Image Operands"), in operand order.
namespace image_operand {
constexpr uint32_t kBias = 0x1, kLod = 0x2, kGrad = 0x4, kConstOffset = 0x8, kOffset = 0x10, kConstOffsets = 0x20,
                   kSample = 0x40, kMinLod = 0x80, kMakeTexelAvailable = 0x100, kMakeTexelVisible = 0x200,
                   kOffsets = 0x10000;
}  // namespace image_operand

struct ImageOperands {
  Id bias = 0, lod = 0, grad_x = 0, grad_y = 0, offset = 0, offsets = 0, sample = 0, min_lod = 0;
};

// Parses the optional Image Operands starting at ops[first] (the mask, then one or two ids per set
// bit in bit order); availability/visibility scope ids are skipped.
inline ImageOperands parse_image_operands(std::span<const uint32_t> ops, size_t first) {
  using namespace image_operand;
  ImageOperands o;
  if (ops.size() <= first) return o;
  const uint32_t mask = ops[first];
  size_t i = first + 1;
  auto next = [&]() -> Id { return i < ops.size() ? ops[i++] : 0; };
  if (mask & kBias) o.bias = next();
  if (mask & kLod) o.lod = next();
  if (mask & kGrad) { o.grad_x = next(); o.grad_y = next(); }
  if (mask & kConstOffset) o.offset = next();
  if (mask & kOffset) o.offset = next();
  if (mask & kConstOffsets) o.offsets = next();
  if (mask & kSample) o.sample = next();
  if (mask & kMinLod) o.min_lod = next();
  if (mask & kMakeTexelAvailable) next();
  if (mask & kMakeTexelVisible) next();
  if (mask & kOffsets) o.offsets = next();
  return o;
}

}  // namespace kiln::compiler
