#pragma once
// Per-sample fixed-function work after (or, with early tests, before) the fragment kernel:
// depth bounds, stencil (two-sided, every op) and depth tests with their writes, then colour
// blending (every factor and op, clamped for normalized formats only), logic ops, write masks
// and the attachment stores. Called by the tile back end in API primitive order.
#include <cstdint>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/quad_batch.h"

namespace kiln::exec::gfx {

class OutputMerger {
 public:
  explicit OutputMerger(const DrawContext& ctx);

  // Runs depth bounds, stencil and depth tests for the covered samples of every lane of `batch`
  // (depth[lane * kMaxSamples + s] is sample s's fragment depth) and applies the stencil ops and
  // depth writes, lane by lane in order. Clears the bits of samples that fail in `coverage`.
  // `stencil_references` (FragStencilRefEXT; null: the state's) is each lane's stencil reference.
  void depth_stencil(const QuadBatch& batch, uint32_t* coverage, const float* depth, const RasterTriangle& t,
                     const uint32_t* stencil_references = nullptr) const;
  bool has_depth_stencil_work() const { return depth_or_stencil_; }
  // Only a depth test (no stencil, bounds or clamp) on a D32 plane: test_depth_block's case.
  bool depth_only_d32() const { return depth_only_ && depth_d32_; }

  // Whether single-sample RGBA8/BGRA8 attachments use the AVX-512 store paths (set from the CPU
  // at start-up; tests turn it off to compare the SSE2 paths too). Read when a merger is built.
  static bool avx512_stores;

  // Blends and stores the kernel's colour outputs (SoA, W lanes) into the samples in
  // `coverage[lane]` of every colour attachment.
  // The outputs are raw 32-bit values (float bits, or integer bits for integer attachments).
  void write_color(const QuadBatch& batch, const uint32_t* coverage, const float* outputs, uint32_t W,
                   uint32_t layer) const;

 private:
  enum class Kind : uint8_t { Float, UNorm, SNorm, Int };
  // The routine that stores an attachment's fragments (picked once per draw).
  enum class StorePath : uint8_t {
    Rgba8, Bgra8,                        // 8-bit UNORM, unblended: encode and store
    Rgba8Blended, Bgra8Blended,          // 8-bit UNORM blended in SSE2, any factors
    Rgba8SourceOver, Bgra8SourceOver,    // ... SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD
    Gathered,                            // everything else: ColorCodec + blend() per gathered lane
  };
  // The blend of an 8-bit UNORM store path: none, source over, or any factors and ops.
  enum class Unorm8Blend : uint8_t { None, SourceOver, Factors };
  struct ColorTarget {
    bool enabled = false;
    Kind kind = Kind::Float;
    bool srgb = false;
    bool logic_op = false;   // the logic op applies to this attachment
    bool blending = false;   // blend equation applies (never for integer or logic-op targets)
    uint32_t texel_bytes = 0;
    uint8_t write_bytes[32] = {};  // byte mask of the channels the write mask keeps
    bool full_write = true;        // write mask covers every bit (plain store)
    uint32_t keep_word = 0;        // write_bytes[0..3] as a word (32-bit texels)
    StorePath path = StorePath::Gathered;
    bool avx512 = false;  // RGBA8/BGRA8 paths use write_unorm8_avx512 (single sample, CPU has it)
  };
  // Lanes of one attachment's sample being written: the values to store, SoA.
  struct SampleLanes;
  uint32_t stencil_op(VkStencilOp op, uint32_t value, uint32_t reference) const;
  bool test_sample(uint32_t x, uint32_t y, uint32_t layer, uint32_t sample, float depth, const RasterTriangle& t,
                   const uint32_t* stencil_reference) const;
  void depth_only(const QuadBatch& batch, uint32_t* coverage, const float* depth, uint32_t layer) const;
  template <VkCompareOp kOp>
  void depth_only_op(const QuadBatch& batch, uint32_t* coverage, const float* depth, uint32_t layer) const;
  template <VkCompareOp kOp>
  void depth_only_quantized_op(const QuadBatch& batch, uint32_t* coverage, const float* depth, uint32_t layer) const;
  template <VkCompareOp kOp>
  void depth_only_d32_op(const QuadBatch& batch, uint32_t* coverage, const float* depth, uint32_t layer) const;
  // src1: dual-source blending's second source (SRC1_* factors), zeros when there is none.
  void blend(uint32_t index, uint32_t n, const float* const src[4], const float* const src1[4], const float* const dst[4],
             float* const out[4]) const;
  // Attachment `index` blends with the shader's second source (Location 0 Index 1): only
  // attachment 0 has one (maxFragmentDualSrcAttachments = 1).
  bool dual_source(uint32_t index) const {
    return index == 0 && ctx_.kernels->fragment_interface.writes_dual_source && targets_[0].blending;
  }
  void store_generic(uint32_t index, SampleLanes& lanes) const;
  void store_word(uint32_t index, uint8_t* texel, uint32_t word) const;
  void write_gathered(uint32_t index, const QuadBatch& batch, const uint32_t* coverage, const float* outputs,
                      uint32_t W, uint32_t layer) const;
  template <bool kBgra, bool kSourceOver>
  void write_unorm8_blended(uint32_t index, const QuadBatch& batch, const uint32_t* coverage, const float* outputs,
                            uint32_t W, uint32_t layer) const;
  // Single-sample RGBA8/BGRA8 with AVX-512 (any Unorm8Blend): 16 lanes per step in registers,
  // quad rows loaded and stored whole, masked where coverage is partial.
  template <bool kBgra, Unorm8Blend kBlend>
  void write_unorm8_avx512(uint32_t index, const QuadBatch& batch, const uint32_t* coverage, const float* outputs,
                           uint32_t W, uint32_t layer) const;
  template <bool kBgra>
  void write_unorm8_unblended(uint32_t index, const QuadBatch& batch, const uint32_t* coverage, const float* outputs,
                              uint32_t W, uint32_t layer) const;

  const DrawContext& ctx_;
  bool depth_or_stencil_ = false;
  bool depth_only_ = false;  // depth test without stencil test, bounds or clamp (any format and sample count)
  bool depth_d32_ = false;   // ... on a D32 depth plane: no codec, SSE compares
  ColorTarget targets_[abi::kMaxColorAttachments];
  uint32_t active_targets_ = 0;  // attachments write_color stores: enabled, written by the shader, not fully masked
};

}  // namespace kiln::exec::gfx
