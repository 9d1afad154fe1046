#pragma once
// Early depth test of a whole 8x8 pixel block of a single-sample D32 depth plane, before any quad
// is gathered: 64 depths from the triangle's plane, 8 row loads, compares and masked stores. A
// block that fails entirely (what front-to-back drawing produces) costs a few dozen instructions
// instead of 16 quads of per-lane depth evaluation and testing; the quads that pass go on to the
// fragment kernel with their coverage already tested.
//
// Results are bit-identical to TriangleInterpolator::sample_depths followed by the output
// merger's D32 depth test: the same plane, the same operations in the same order (no
// multiply-add contraction), the same compare.
#include <cstdint>

#include <vulkan/vulkan_core.h>

namespace kiln::exec::gfx {

struct DepthBlock {
  uint8_t* texels = nullptr;   // depth of the block's upper-left pixel (sample 0)
  uint64_t row_pitch = 0;      // bytes between rows
  // Depth of pixel (col, row) of the block: (at + dx * (x + col)) + dy * (y + row), where x and y
  // are the block corner's sample position relative to the plane's origin.
  float at = 0.0f, dx = 0.0f, dy = 0.0f;
  float x = 0.0f, y = 0.0f;
  VkCompareOp compare = VK_COMPARE_OP_ALWAYS;
  bool write = false;  // depth writes enabled: passing pixels store their depth
};

// Whether this CPU runs test_depth_block (it needs AVX-512 F and VL).
bool depth_block_supported();

// Tests the 64 pixels of `block` and stores the depths of those that pass when writes are on.
// Returns the passing pixels, bit row * 8 + col.
uint64_t test_depth_block(const DepthBlock& block);

}  // namespace kiln::exec::gfx
