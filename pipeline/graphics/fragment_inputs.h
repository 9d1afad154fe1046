#pragma once
// Attribute interpolation for the fragment kernel: per triangle, planes for the screen-space
// barycentrics, depth and the varyings the shader reads are set up once; per quad batch they
// are evaluated for all lanes at once in vectors as wide as the CPU has (AVX-512: 16 lanes,
// AVX2: 8, else SSE: 4), straight into the kernel's SoA input layout.
// Values are interpolated relative to vertex 0 (a0 + w1 (a1 - a0) + w2 (a2 - a0)) so that a
// value equal at all vertices comes out exactly.
#include <cstdint>

#include "pipeline/graphics/depth_block.h"
#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/quad_batch.h"

namespace kiln::exec::gfx {

class TriangleInterpolator {
 public:
  // `origin_x/y`: a pixel near the triangle's fragments (the tile corner); planes are evaluated
  // relative to it in float, after an exact-enough double evaluation at the origin.
  TriangleInterpolator(const DrawContext& ctx, const RasterTriangle& t, const uint32_t* values, int32_t origin_x,
                       int32_t origin_y);

  // Depth of each covered sample of each lane of quads [first_quad, end_quad): depth[lane * kMaxSamples + s].
  void sample_depths(const QuadBatch& batch, float* depth, uint32_t first_quad = 0,
                     uint32_t end_quad = QuadBatch::kMaxLanes / 4) const;
  // The same depths for the 8x8 block at (x, y), sample 0: the plane and the block corner's
  // position relative to its origin, as test_depth_block evaluates them.
  void set_block_plane(int32_t x, int32_t y, DepthBlock& block) const {
    block.at = z_.at_origin;
    block.dx = z_.dx;
    block.dy = z_.dy;
    block.x = float(x - origin_x_) + sample_dx_[0];
    block.y = float(y - origin_y_) + sample_dy_[0];
  }

  // Fills the kernel's inputs, frag_coord (x, y, z, 1/w), frag_depth and point_coord for W lanes
  // (W a multiple of 4; quads past the batch evaluate at the origin and are masked off by the
  // caller). Positions are pixel centres (sample < 0) or sample `sample`; `centroid` inputs of
  // partly covered pixels use their first covered sample (pixel rate only).
  // `inputs` holds raw 32-bit values; it is float storage because most inputs are floats.
  //
  // Per lane the arithmetic is the scalar formulas' (same operations in the same order, no
  // fused multiply-adds): b = (at + dx x) + dy y; perspective q0 = ((1 - b1) - b2) iw0,
  // q1 = b1 iw1, q2 = b2 iw2 (iw = 1/w per vertex), 1/w = (q0 + q1) + q2, p = q / (1/w);
  // value = (a0 + p1 d1) + p2 d2.
  // tests/unit/fragment_inputs_test.cpp checks it against those formulas bit for bit.
  void fill(const QuadBatch& batch, uint32_t W, int32_t sample, float* inputs, float* frag_coord, float* frag_depth,
            float* point_coord) const;
  // fill for the lanes of quads [first_quad, end_quad) only; the other lanes keep what they hold.
  // A batch of merged triangles (tile_backend.cpp) is filled by each triangle for its own quads;
  // lanes get the same bits as from fill (the planes of every triangle of a tile share its origin).
  // No InterpolateAt* record and no PointCoord (merged batches have neither).
  void fill_quads(const QuadBatch& batch, uint32_t W, int32_t sample, uint32_t first_quad, uint32_t end_quad,
                  float* inputs, float* frag_coord, float* frag_depth) const;
  // fill (or fill_quads) with lane groups of `vector_lanes` (4, 8 or 16) instead of the widest
  // the CPU runs; for tests, which check every width gives the same bits. Returns false (nothing
  // written) when the CPU lacks that width.
  bool fill_with(uint32_t vector_lanes, const QuadBatch& batch, uint32_t W, int32_t sample, float* inputs,
                 float* frag_coord, float* frag_depth, float* point_coord, uint32_t first_quad = 0,
                 uint32_t end_quad = QuadBatch::kMaxLanes / 4) const;

 private:
  struct Plane {
    float at_origin, dx, dy;  // value = at_origin + dx * (x - origin_x) + dy * (y - origin_y)
  };
  // An input component the shader reads, with what it is interpolated from.
  struct Component {
    uint32_t location_component;  // location * 4 + component (input slot)
    abi::Interpolation mode;
    bool centroid;
    uint32_t flat_bits;           // raw value of a flat input
    float a0, d1, d2;             // vertex 0's value and the differences to vertices 1 and 2
  };
  // Lanes [begin, end) of a batch.
  struct LaneRange {
    uint32_t begin, end;
  };
  void fill_flat(uint32_t W, LaneRange range, float* inputs) const;  // the flat components' values
  bool fill_inline(uint32_t vector_lanes, const QuadBatch& batch, uint32_t W, int32_t sample, LaneRange range,
                   float* inputs, float* frag_coord, float* frag_depth, float* point_coord) const;
  // The planes above as the kernel's abi::InterpolationRecord (InterpolateAt*).
  void prepare_interpolation_record();
  // fill for lane groups of N (the vector width of the instantiation: 4, 8 or 16).
  template <uint32_t N>
  void fill_lanes(const QuadBatch& batch, uint32_t W, int32_t sample, LaneRange range, float* inputs,
                  float* frag_coord, float* frag_depth, float* point_coord) const;
  void fill_avx512(const QuadBatch& batch, uint32_t W, int32_t sample, LaneRange range, float* inputs,
                   float* frag_coord, float* frag_depth, float* point_coord) const;
  void fill_avx2(const QuadBatch& batch, uint32_t W, int32_t sample, LaneRange range, float* inputs,
                 float* frag_coord, float* frag_depth, float* point_coord) const;
  void fill_sse(const QuadBatch& batch, uint32_t W, int32_t sample, LaneRange range, float* inputs,
                float* frag_coord, float* frag_depth, float* point_coord) const;
  void fill_general(const QuadBatch& batch, uint32_t W, int32_t sample, LaneRange range, float* inputs,
                    float* frag_coord, float* frag_depth, float* point_coord) const;

  const DrawContext& ctx_;
  const RasterTriangle& t_;
  int32_t origin_x_, origin_y_;
  Plane b1_, b2_, z_;
  float inv_w_[3];
  float sample_dx_[kMaxSamples] = {}, sample_dy_[kMaxSamples] = {};  // sample positions in pixels
  bool perspective_;   // 1/w differs between the vertices
  // fill computes positions: the shader reads interpolated inputs, FragCoord or PointCoord, or
  // writes FragDepth (else only flat inputs are filled).
  bool needs_positions_ = false;
  uint32_t component_count_ = 0;
  uint32_t interpolated_components_ = 0;  // components that are not flat
  bool any_centroid_ = false;
  Component components_[abi::kFragmentInputSlots * 4];
  bool interpolation_record_ = false;  // the shader interpolates at positions of its own
  abi::InterpolationRecord record_;    // filled only then
};

}  // namespace kiln::exec::gfx
