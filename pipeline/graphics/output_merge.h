#pragma once
// Per-sample fixed-function work after (or, with early tests, before) the fragment kernel:
// depth bounds, stencil (two-sided, every op) and depth tests with their writes, then colour
// blending (every factor and op, clamped for normalized formats only), logic ops, write masks
// and the attachment stores. Called by the tile back end in API primitive order.
#include <cstdint>

#include "pipeline/graphics/draw_types.h"

namespace kiln::exec::gfx {

class OutputMerger {
 public:
  explicit OutputMerger(const DrawContext& ctx);

  // Runs depth bounds, stencil and depth tests for the samples in `coverage` of pixel (x, y) and
  // applies the stencil ops and the depth write. `depth[s]` is sample s's fragment depth.
  // Returns the samples that passed.
  uint32_t depth_stencil(uint32_t x, uint32_t y, uint32_t layer, uint32_t coverage, const float* depth,
                         bool front_facing, uint32_t viewport) const;
  bool has_depth_stencil_work() const { return depth_or_stencil_; }

  // Blends and stores the fragment's colour outputs (kernel output layout, lane `lane` of a
  // W-wide call) into the samples in `coverage` of every colour attachment.
  void write_color(uint32_t x, uint32_t y, uint32_t layer, uint32_t coverage, const uint32_t* outputs, uint32_t W,
                   uint32_t lane) const;

 private:
  enum class Kind : uint8_t { Float, UNorm, SNorm, Int };
  struct ColorTarget {
    bool enabled = false;
    Kind kind = Kind::Float;
    bool srgb = false;
    bool logic_op = false;   // the logic op applies to this attachment
    uint32_t texel_bytes = 0;
    uint8_t write_bytes[32] = {};  // byte mask of the channels the write mask keeps
    bool full_write = true;        // write mask covers every bit (plain store)
  };
  uint32_t stencil_op(VkStencilOp op, uint32_t value, uint32_t reference) const;
  void blend(uint32_t index, const float src[4], const float dst[4], float out[4]) const;

  const DrawContext& ctx_;
  bool depth_or_stencil_ = false;
  ColorTarget targets_[abi::kMaxColorAttachments];
};

}  // namespace kiln::exec::gfx
