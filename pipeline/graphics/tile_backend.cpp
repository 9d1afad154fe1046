#include "pipeline/graphics/tile_backend.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>

#include "common/cache_aligned_allocator.h"
#include "common/log.h"
#include "common/thread_local_ref.h"
#include "memory/attachment_ops.h"
#include "pipeline/draw.h"
#include "pipeline/graphics/block_coverage.h"
#include "pipeline/graphics/depth_block.h"
#include "pipeline/graphics/edge.h"
#include "pipeline/graphics/fragment_inputs.h"
#include "pipeline/graphics/quad_batch.h"

namespace kiln::exec::gfx {
namespace {

// Per-thread buffers of a fragment-kernel call (sized for the kernel's W).
struct FragmentScratch {
  uint32_t W = 0;
  // Cache-line aligned: written and read right away as 64-byte vectors (common/cache_aligned_allocator.h).
  CacheAlignedVector<float> inputs, outputs;  // raw 32-bit values in float storage (the kernel's SoA layout)
  CacheAlignedVector<uint32_t> sample_mask_in, sample_mask_out, stencil_reference;
  CacheAlignedVector<float> frag_coord, point_coord, frag_depth;
  // The interpolation planes of merged triangles, used in turn: a batch holds quads of at most
  // kMaxLanes / 4 triangles, and the triangle being rasterized has one more.
  std::vector<std::optional<TriangleInterpolator>> interpolators;
  uint32_t next_interpolator = 0;
  void reserve(uint32_t width) {
    if (interpolators.empty()) interpolators.resize(QuadBatch::kMaxLanes / 4 + 1);
    if (W == width) return;
    W = width;
    inputs.assign(size_t(abi::kFragmentInputSlots) * 4 * W, 0.0f);
    outputs.assign(size_t(abi::kMaxColorAttachments) * 4 * W, 0.0f);
    sample_mask_in.assign(W, 0);
    sample_mask_out.assign(W, 0);
    stencil_reference.assign(W, 0);
    frag_coord.assign(4 * size_t(W), 0.0f);
    point_coord.assign(2 * size_t(W), 0.0f);
    frag_depth.assign(W, 0.0f);
  }
};
thread_local FragmentScratch tls_scratch;

// Query counts of one tile, added to the draw's DrawCounters once at the end of the tile.
struct TileCounts {
  uint64_t samples_passed = 0, fragment_invocations = 0;
};

// The triangle whose quads a batch holds, for the steps that need it: early/late depth and
// stencil (plane, facing), interpolation, smooth-line alpha and the layer. A batch of quads from
// several triangles (DrawRasterState::merge_triangles) has none: each quad has its triangle's
// interpolator instead.
struct TriangleShading {
  const RasterTriangle& t;
  const TriangleInterpolator* interpolator;
  const LineRaster* line;  // the line's per-pixel rule, or null
};

// What rasterizing and shading a triangle of one draw needs that is the same for every triangle of
// that draw: set up once per run of a tile's bin entries from one draw (bins hold long runs of
// one draw), not per triangle and tile. It owns the batch of quads waiting for the fragment kernel
// and shades it (flush).
class DrawRasterState {
 public:
  const DrawContext& ctx;
  const OutputMerger& merger;
  SampleExtent sample_extent;
  BlockSamples block_samples;      // the kept samples as lane offsets (block_coverage.h)
  BlockCoverageFn block_coverage;  // for partial blocks; null: per-pixel tests
  bool shading, early, sample_rate, coverage_changes;
  bool block_depth;  // whole covered blocks test depth before their quads are gathered
  // Early tests narrow coverage before the kernel, whose SampleMaskIn must still be the
  // primitive's (unless the shader declares PostDepthCoverage): pixel-rate MSAA shading of a
  // shader that reads it keeps the pre-test coverage.
  // (Single-sample lanes that fail are helpers; a per-sample invocation runs only for a passing sample.)
  bool pre_test_mask_in;
  // Quads of consecutive triangles share kernel calls: what the draw does with a batch depends on
  // its triangles only through per-lane values (see the constructor). Small triangles fill a quad
  // or two each, and a call per triangle left most of a 16-lane batch empty (a tessellated or
  // dense mesh: one lane of 16 per triangle).
  bool merge_triangles;
  // Merged triangles need their interpolation planes (inputs, FragCoord, FragDepth, depth or
  // stencil tests): each quad of the batch then points at its triangle's (quad_interpolator).
  bool merged_interpolation;
  uint32_t W;
  uint32_t full_mask;
  // The invocation with its per-draw fields filled; each triangle sets its own fields before its
  // kernel calls (one worker runs a tile's triangles one after the other).
  abi::FragmentInvocation inv{};

  // The batch being gathered. With merge_triangles it may hold quads of several triangles, each
  // pixel covered by at most one of them (quad_merges), and flush() shades it once they are
  // done; otherwise each triangle flushes its last quads.
  QuadBatch batch;
  uint32_t lanes_covered = 0;      // lanes of `batch` with coverage (bit per lane)
  bool batch_depth_tested = false;  // batch's quads passed test_depth_block already
  uint32_t earlier_quads = 0;       // merging: quads [0, earlier_quads) belong to earlier triangles
  uint16_t batch_layer = 0;         // merging: the layer and viewport of the batch's triangles
  uint8_t batch_viewport = 0;
  const RasterTriangle* batch_triangle = nullptr;  // merging: one of them (layer, viewport and facing they share)
  const TriangleInterpolator* quad_interpolator[QuadBatch::kMaxLanes / 4];  // merged_interpolation: per quad

  DrawRasterState(const DrawContext& draw, const OutputMerger& om, uint32_t* faults, FragmentScratch& scratch,
                  TileCounts& counts)
      : ctx(draw),
        merger(om),
        sample_extent(draw),
        block_samples(draw, ((1u << draw.samples) - 1) & draw.state->multisample.sample_mask),
        block_coverage(block_coverage_routine()),
        counts_(counts),
        scratch_(scratch) {
    const GraphicsKernels& k = *ctx.kernels;
    const abi::FragmentInterface& fi = k.fragment_interface;
    const MultisampleState& ms = ctx.state->multisample;
    shading = k.fragment != nullptr;
    W = shading ? k.fragment_width : 4;
    // Sample-rate shading: the shader reads SampleId/SamplePosition/sample inputs, or
    // minSampleShading asks for more than one invocation per pixel.
    sample_rate = shading && ctx.samples > 1 &&
                  (fi.uses_sample_rate || (ms.sample_shading && ms.min_sample_shading * float(ctx.samples) > 1.0f));
    // Tests run before shading when the shader asks for it, or when nobody could tell: the
    // shader writes no memory (those writes must happen for fragments that fail the tests
    // later), neither it nor alpha-to-coverage changes depth or coverage, and it reads the
    // depth/stencil attachment neither as an input attachment nor through a feedback loop.
    early = !shading || fi.early_fragment_tests ||
            (!fi.has_side_effects && !fi.writes_depth && !fi.can_discard && !fi.writes_sample_mask &&
             !ms.alpha_to_coverage && !fi.reads_input_attachments && !fi.writes_stencil_reference &&
             !ctx.state->depth_stencil.feedback_loop);
    full_mask = ((1u << ctx.samples) - 1) & ms.sample_mask;
    // Coverage changes after the kernel only through these; otherwise the batch's stands.
    coverage_changes = fi.writes_sample_mask || ms.alpha_to_coverage;
    // Whole covered blocks test depth before their quads are gathered (depth_block.h) when the
    // tests run early and are a plain depth test of a single-sample D32 plane.
    block_depth = early && ctx.samples == 1 && full_mask == 1 && merger.depth_only_d32() && depth_block_supported();
    pre_test_mask_in = shading && early && !sample_rate && ctx.samples > 1 && fi.reads_sample_mask_in &&
                       !fi.post_depth_coverage &&
                       merger.has_depth_stencil_work();
    // Without the per-triangle ones (InterpolateAt*'s planes, FrontFacing/PrimitiveId, subpass
    // loads, which must see the previous triangle's writes), the triangles of a draw share batches;
    // inputs, FragCoord, FragDepth and depth/stencil tests are per lane, filled per quad from its
    // triangle's interpolator. Points and lines with a per-pixel rule still flush alone
    // (PointCoord, line coverage).
    merge_triangles = shading && !fi.interpolates_at_positions && !fi.reads_primitive_builtins &&
                      !fi.reads_input_attachments;
    merged_interpolation = merge_triangles &&
                           (fi.input_location_mask != 0 || fi.clip_distance_inputs != 0 || fi.cull_distance_inputs != 0 ||
                            ctx.vertex_format.raster_values() != 0 || fi.reads_frag_coord || fi.writes_depth ||
                            merger.has_depth_stencil_work());
    if (!shading) return;
    scratch.reserve(W);
    inv.resources = ctx.cmd->resources;
    inv.faults = faults;
    // The inputs are raw 32-bit values kept in float storage (see TriangleInterpolator::fill).
    inv.inputs = reinterpret_cast<const uint32_t*>(scratch.inputs.data());
    inv.frag_coord = scratch.frag_coord.data();
    inv.view_index = ctx.view_index;
    inv.sample_mask_in = scratch.sample_mask_in.data();
    inv.outputs = reinterpret_cast<uint32_t*>(scratch.outputs.data());
    inv.frag_depth = scratch.frag_depth.data();
    inv.sample_mask_out = scratch.sample_mask_out.data();
    inv.stencil_reference_out = scratch.stencil_reference.data();
  }

  // Whether triangle `t` adds its quads to the batch of earlier ones (else it flushes them first
  // and its own at its end).
  bool merges(const RasterTriangle& t) const {
    return merge_triangles && t.kind != PrimitiveKind::Point && t.line == kNoLineRaster;
  }
  // Before a merging triangle adds quads: a batch of another layer or viewport (or facing, which
  // picks the stencil state) is shaded first.
  void begin_merged_triangle(const RasterTriangle& t) {
    if (batch.quads && (t.layer != batch_layer || t.viewport != batch_viewport ||
                        (stencil_test_ && t.front_facing != batch_triangle->front_facing)))
      flush(nullptr);
    batch_layer = t.layer;
    batch_viewport = t.viewport;
    batch_triangle = &t;
    earlier_quads = batch.quads;
  }
  // The interpolation planes of merged triangle `t`, from the thread's ring of them: a slot that
  // quads of the batch still point at is freed by shading the batch first.
  const TriangleInterpolator* merged_interpolator(const RasterTriangle& t, const uint32_t* values, int32_t x0,
                                                  int32_t y0) {
    std::optional<TriangleInterpolator>& slot = scratch_.interpolators[scratch_.next_interpolator];
    scratch_.next_interpolator = (scratch_.next_interpolator + 1) % uint32_t(scratch_.interpolators.size());
    if (slot)
      for (uint32_t q = 0; q < batch.quads; ++q)
        if (quad_interpolator[q] == &*slot) {
          flush(nullptr);
          break;
        }
    return &slot.emplace(ctx, t, values, x0, y0);
  }
  // Whether a quad at (qx, qy) covering `lanes` must wait for the next batch: an earlier
  // triangle's quad in this one covers one of its pixels (one lane per pixel keeps every step
  // after the kernel free of ordering between lanes).
  bool quad_collides(int32_t qx, int32_t qy, uint32_t lanes) const {
    for (uint32_t q = 0; q < earlier_quads; ++q)
      if (batch.quad_x[q] == qx && batch.quad_y[q] == qy && (lanes_covered >> (4 * q) & lanes)) return true;
    return false;
  }

  float* point_coord_storage() { return scratch_.point_coord.data(); }

  // Shades the batch: early tests, the kernel, late tests, the output merger. `tri` is the
  // batch's triangle; null only for a batch of merged triangles.
  void flush(const TriangleShading* tri) {
    if (batch.quads == 0) return;
    const uint32_t lanes = batch.lanes();
    if (early && merger.has_depth_stencil_work() && !batch_depth_tested) {
      if (pre_test_mask_in) memcpy(pre_test_coverage_, batch.coverage, sizeof(uint32_t) * lanes);
      sample_depths(tri);
      merger.depth_stencil(batch, batch.coverage, depth_, tri ? tri->t : *batch_triangle);
      lanes_covered = covered_lanes();
    }
    if (!shading) {
      count_passed(batch.coverage);
    } else if (sample_rate) {
      // One kernel call per sample index: each lane then covers at most that sample.
      uint32_t pixel_coverage[QuadBatch::kMaxLanes];
      memcpy(pixel_coverage, batch.coverage, sizeof(uint32_t) * lanes);
      for (uint32_t sample = 0; sample < ctx.samples; ++sample) {
        for (uint32_t l = 0; l < lanes; ++l) batch.coverage[l] = pixel_coverage[l] & (1u << sample);
        lanes_covered = covered_lanes();
        shade(int32_t(sample), tri);
      }
    } else {
      shade(-1, tri);
    }
    batch.quads = 0;
    lanes_covered = 0;
    earlier_quads = 0;
  }

 private:
  // The interpolator of every quad of a merged batch when they all have the same (the batch of a
  // bigger triangle), else null. Triangles add their quads one after the other, so the first and
  // last quads tell.
  const TriangleInterpolator* single_interpolator() const {
    return quad_interpolator[0] == quad_interpolator[batch.quads - 1] ? quad_interpolator[0] : nullptr;
  }
  // Calls fn(interpolator, first_quad, end_quad) for each run of the merged batch's quads that
  // share a triangle.
  template <class Fn>
  void for_each_triangle_run(Fn&& fn) const {
    for (uint32_t q = 0; q < batch.quads;) {
      uint32_t end = q + 1;
      while (end < batch.quads && quad_interpolator[end] == quad_interpolator[q]) ++end;
      fn(*quad_interpolator[q], q, end);
      q = end;
    }
  }
  // The depth of each lane's samples (depth_), from the batch's triangle or each quad's.
  void sample_depths(const TriangleShading* tri) {
    if (tri) return tri->interpolator->sample_depths(batch, depth_);
    if (const TriangleInterpolator* single = single_interpolator()) return single->sample_depths(batch, depth_);
    for_each_triangle_run([&](const TriangleInterpolator& ti, uint32_t first, uint32_t end) {
      ti.sample_depths(batch, depth_, first, end);
    });
  }

  // Lanes of the batch that cover a sample (recomputed after something narrowed the coverage).
  uint32_t covered_lanes() const {
    uint32_t mask = 0;
    for (uint32_t l = 0; l < batch.lanes(); ++l) mask |= uint32_t(batch.coverage[l] != 0) << l;
    return mask;
  }

  void shade(int32_t sample, const TriangleShading* tri) {
    const uint32_t lanes = batch.lanes();
    const uint32_t covered = lanes_covered;
    if (!covered) return;
    // Every lane of a quad with a covered lane: OR each nibble into its low bit, then widen.
    const uint32_t quad_mask = ((covered | covered >> 1 | covered >> 2 | covered >> 3) & 0x11111111u) * 0xFu;
    const GraphicsKernels& k = *ctx.kernels;
    const abi::FragmentInterface& fi = k.fragment_interface;
    FragmentScratch& s = scratch_;
    const uint32_t W = this->W;  // a local: stores through the scratch pointers could alias the member
    const TriangleInterpolator* whole = tri ? tri->interpolator : merged_interpolation ? single_interpolator() : nullptr;
    if (whole) {  // the usual fill of the whole batch (its fastest path)
      whole->fill(batch, W, sample, s.inputs.data(), s.frag_coord.data(), s.frag_depth.data(), s.point_coord.data());
    } else if (merged_interpolation) {
      for_each_triangle_run([&](const TriangleInterpolator& ti, uint32_t first, uint32_t end) {
        ti.fill_quads(batch, W, sample, first, end, s.inputs.data(), s.frag_coord.data(), s.frag_depth.data());
      });
    }
    uint32_t* mask_in = s.sample_mask_in.data();
    // Lanes the early tests killed are helpers (not covered) whatever their mask says.
    const uint32_t* primitive_coverage = pre_test_mask_in ? pre_test_coverage_ : batch.coverage;
    for (uint32_t l = 0; l < W; ++l) mask_in[l] = l < lanes ? primitive_coverage[l] : 0;
    if (fi.writes_sample_mask) std::fill(s.sample_mask_out.begin(), s.sample_mask_out.end(), ~0u);
    const RasterTriangle& triangle = tri ? tri->t : *batch_triangle;  // a batch with stencil tests has one facing
    if (fi.writes_stencil_reference) {
      const DepthStencilState& ds = ctx.state->depth_stencil;
      std::fill(s.stencil_reference.begin(), s.stencil_reference.end(),
                triangle.front_facing ? ds.front.reference : ds.back.reference);
    }
    inv.covered_mask = covered;
    inv.quad_mask = quad_mask;
    inv.sample_id = sample < 0 ? 0 : uint32_t(sample);
    if (ctx.counters) counts_.fragment_invocations += uint32_t(__builtin_popcount(covered));
    const uint32_t alive = k.fragment(&inv) & covered;
    const LineRaster* line = tri ? tri->line : nullptr;
    if (line && line->scale_alpha) scale_smooth_line_alpha(*line, batch, alive, s.outputs.data() + 3 * W);

    uint32_t narrowed[QuadBatch::kMaxLanes];
    uint32_t* cov = batch.coverage;  // every covered lane survived unchanged: the batch's own
    if (alive != covered || coverage_changes) {
      cov = narrowed;
      for (uint32_t l = 0; l < lanes; ++l) {
        uint32_t c = (alive & (1u << l)) ? batch.coverage[l] : 0;
        if (c && fi.writes_sample_mask) c &= s.sample_mask_out[l];
        if (c && ctx.state->multisample.alpha_to_coverage) c &= alpha_coverage(s.outputs[3 * W + l]);
        cov[l] = c;
      }
    }
    if (!early && merger.has_depth_stencil_work()) {
      if (fi.writes_depth) {
        for (uint32_t l = 0; l < lanes; ++l)
          for (uint32_t i = 0; i < ctx.samples; ++i) depth_[l * kMaxSamples + i] = s.frag_depth[l];
      } else {
        sample_depths(tri);
      }
      merger.depth_stencil(batch, cov, depth_, triangle, fi.writes_stencil_reference ? s.stencil_reference.data() : nullptr);
    }
    count_passed(cov);
    merger.write_color(batch, cov, s.outputs.data(), W, tri ? tri->t.layer : batch_layer);
  }

  // Occlusion queries count the samples that pass (only while a query is active).
  void count_passed(const uint32_t* coverage) {
    if (!ctx.counters) return;
    for (uint32_t l = 0; l < batch.lanes(); ++l) counts_.samples_passed += uint32_t(__builtin_popcount(coverage[l]));
  }

  // Alpha to coverage: the first round(alpha * samples) samples.
  uint32_t alpha_coverage(float a) const {
    if (!(a > 0.0f)) return 0;
    const float n = a * float(ctx.samples) + 0.5f;
    const uint32_t count = n >= float(ctx.samples) ? ctx.samples : uint32_t(n);
    return (1u << count) - 1;
  }

  TileCounts& counts_;
  FragmentScratch& scratch_;
  const bool stencil_test_ = ctx.has_stencil && ctx.state->depth_stencil.stencil_test;  // facing picks its state
  uint32_t pre_test_coverage_[QuadBatch::kMaxLanes];  // SampleMaskIn when pre_test_mask_in
  float depth_[QuadBatch::kMaxLanes * kMaxSamples];
};

// Rasterizes one triangle inside one tile into its draw's batch (DrawRasterState): 8x8 pixel
// blocks are classified against the three edges first, so fully covered blocks skip per-sample
// edge tests, and blocks an edge crosses get their coverage from block_coverage; covered quads
// are gathered W/4 at a time into the QuadBatch that flows through early tests, the fragment
// kernel, late tests and the output merger.
class TriangleRasterizer {
 public:
  TriangleRasterizer(DrawRasterState& draw, const RasterTriangle& t, const uint32_t* values, const LineRaster* line,
                     const Rect& tile)
      : draw_(draw), ctx_(draw.ctx), t_(t), merged_(draw.merges(t)), values_(values), tile_x0_(tile.x0),
        tile_y0_(tile.y0), edges_(t), block_coverage_(line ? nullptr : draw.block_coverage), line_(line),
        batch_(draw.batch), W_(draw.W), full_mask_(draw.full_mask) {
    if (merged_) draw.begin_merged_triangle(t);  // may shade the batch so far: before this triangle's fields
    if (draw.shading) prepare_invocation();
  }

  void run(const Rect& region) {
    constexpr int32_t kBlock = 8;
    // A small triangle whose part in the tile fits in 8x8 pixels from its first quad is one
    // block_coverage call, without block classification (block_coverage.h: kSmallTriangleExtent).
    const int32_t qx0 = region.x0 & ~1, qy0 = region.y0 & ~1;
    if (block_coverage_ && region.x1 - qx0 <= kBlock && region.y1 - qy0 <= kBlock && small_triangle(edges_)) {
      BlockEdges block_edges;
      make_block_edges(edges_, 7, qx0, qy0, &block_edges);
      add_block_lanes(block_edges, region, qx0, qy0);
    } else {
      const int32_t bx0 = region.x0 & ~(kBlock - 1), by0 = region.y0 & ~(kBlock - 1);
      for (int32_t by = by0; by < region.y1; by += kBlock)
        for (int32_t bx = bx0; bx < region.x1; bx += kBlock) {
          const Rect block = Rect{bx, by, bx + kBlock, by + kBlock}.intersect(region);
          uint32_t crossing = 0;
          switch (classify_rect(edges_, draw_.sample_extent, block, &crossing)) {
            case RectCoverage::None: break;
            case RectCoverage::Full:
              if (!line_) {
                add_block<true>(block);
                break;
              }
              [[fallthrough]];  // a line's per-pixel rule can remove pixels of a covered block
            case RectCoverage::Partial: {
              BlockEdges block_edges;
              if (block_coverage_ && make_block_edges(edges_, crossing, bx, by, &block_edges))
                add_block_lanes(block_edges, block, bx, by);
              else
                add_block<false>(block);
              break;
            }
          }
        }
    }
    if (!merged_) flush();  // merged quads wait for the next triangles (run_tile flushes the rest)
  }

 private:
  // The invocation fields of this triangle (DrawRasterState filled the draw's).
  void prepare_invocation() {
    abi::FragmentInvocation& inv = draw_.inv;
    inv.point_coord = t_.kind == PrimitiveKind::Point ? draw_.point_coord_storage() : nullptr;
    inv.front_facing = t_.front_facing ? 1 : 0;
    inv.primitive_id = t_.primitive_id;
    inv.layer = t_.layer;
    inv.viewport_index = t_.viewport;
  }

  void flush() {
    if (batch_.quads == 0) return;
    if (merged_) return draw_.flush(nullptr);  // its quads know their triangles
    const TriangleShading tri{t_, &interpolator(), line_};
    draw_.flush(&tri);
  }

  // The interpolation planes, set up when the triangle first has quads to shade or depth test:
  // most small triangles of a dense mesh cover no sample of a tile they touch, and the planes'
  // double divisions were the back end's largest per-triangle cost (tess_terrain profile).
  // A merged triangle's live in the draw's ring, since its quads may be shaded after it is done.
  const TriangleInterpolator& interpolator() {
    if (!interpolator_) {
      interpolator_ = merged_ ? draw_.merged_interpolator(t_, values_, tile_x0_, tile_y0_)
                              : &own_interpolator_.emplace(ctx_, t_, values_, tile_x0_, tile_y0_);
    }
    return *interpolator_;
  }
  // Notes quad q as this triangle's (merged batches with interpolation).
  void own_quad(uint32_t q) {
    if (merged_ && draw_.merged_interpolation) draw_.quad_interpolator[q] = interpolator_;
  }

  // A quad at (qx, qy) covering `lanes` is about to be added at index batch_.quads: makes room
  // first when a merged batch already covers one of its pixels. The quad's coverage, if already
  // written to its slot, moves with it.
  void make_room(int32_t qx, int32_t qy, uint32_t lanes, bool coverage_written) {
    if (!merged_ || !draw_.quad_collides(qx, qy, lanes)) return;
    uint32_t coverage[4];
    if (coverage_written) memcpy(coverage, &batch_.coverage[batch_.quads * 4], sizeof coverage);
    flush();
    if (coverage_written) memcpy(&batch_.coverage[0], coverage, sizeof coverage);
  }

  uint32_t sample_coverage(int32_t x, int32_t y) const {
    uint32_t mask = 0;
    for (uint32_t s = 0; s < ctx_.samples; ++s) {
      const int64_t px = (int64_t{x} << kSubpixelBits) + ctx_.sample_x[s];
      const int64_t py = (int64_t{y} << kSubpixelBits) + ctx_.sample_y[s];
      if (edges_.e[0].at(px, py) >= 0 && edges_.e[1].at(px, py) >= 0 && edges_.e[2].at(px, py) >= 0) mask |= 1u << s;
    }
    if (line_) mask = line_coverage(*line_, edges_, ctx_, x, y, mask);  // Bresenham/stipple (line_raster.h)
    return mask & full_mask_;
  }

  // Adds the block's quads (blocks are quad-aligned; pixels outside `block` cover nothing).
  template <bool kFull>
  void add_block(const Rect& block) {
    const bool whole = kFull && block.x1 - block.x0 == 8 && block.y1 - block.y0 == 8;
    if (whole && draw_.block_depth && add_depth_tested_block(block)) return;
    begin_quads(false);
    if (whole) {
      // Whole aligned block: every lane covers every sample, no per-pixel bounds checks.
      for (int32_t qy = block.y0; qy < block.y1; qy += 2)
        for (int32_t qx = block.x0; qx < block.x1; qx += 2) {
          make_room(qx, qy, 0xFu, false);
          const uint32_t q = batch_.quads++;
          own_quad(q);
          batch_.quad_x[q] = qx;
          batch_.quad_y[q] = qy;
          for (uint32_t i = 0; i < 4; ++i) batch_.coverage[q * 4 + i] = full_mask_;
          draw_.lanes_covered |= 0xFu << (4 * q);
          if (batch_.quads * 4 == W_) flush();
        }
      return;
    }
    for (int32_t qy = block.y0 & ~1; qy < block.y1; qy += 2)
      for (int32_t qx = block.x0 & ~1; qx < block.x1; qx += 2) {
        // Coverage goes straight into the next free quad (a local array reloaded as a vector
        // after four scalar stores stalled store forwarding); it is kept only if any lane covers.
        uint32_t q = batch_.quads;
        uint32_t lanes = 0;
        for (uint32_t i = 0; i < 4; ++i) {
          const int32_t x = qx + int32_t(i & 1), y = qy + int32_t(i >> 1);
          const bool inside = x >= block.x0 && x < block.x1 && y >= block.y0 && y < block.y1;
          const uint32_t c = !inside ? 0 : kFull ? full_mask_ : sample_coverage(x, y);
          batch_.coverage[q * 4 + i] = c;
          lanes |= uint32_t(c != 0) << i;
        }
        if (!lanes) continue;
        make_room(qx, qy, lanes, true);
        q = batch_.quads++;
        own_quad(q);
        batch_.quad_x[q] = qx;
        batch_.quad_y[q] = qy;
        draw_.lanes_covered |= lanes << (q * 4);
        if (batch_.quads * 4 == W_) flush();
      }
  }

  // Adds the quads of the part `rect` of the 8x8 pixels at (bx, by) (quad-aligned) whose coverage
  // block_coverage computes (16 pixels per vector): the block's covered quads are the nibbles of
  // its lane mask, copied into the batch with their coverage.
  void add_block_lanes(const BlockEdges& edges, const Rect& rect, int32_t bx, int32_t by) {
    alignas(64) uint32_t coverage[64];
    const uint64_t region = block_lanes(rect, bx, by);
    if (!region) return;
    const uint64_t covered = block_coverage_(edges, draw_.block_samples, region, coverage);
    if (!covered) return;
    begin_quads(false);
    uint64_t quads = (covered | covered >> 1 | covered >> 2 | covered >> 3) & 0x1111111111111111ull;
    do {
      const uint32_t i = uint32_t(__builtin_ctzll(quads)) / 4;  // quad i of the block: row i / 4, column i % 4
      const int32_t qx = bx + 2 * int32_t(i & 3), qy = by + 2 * int32_t(i >> 2);
      const uint32_t lanes = uint32_t(covered >> (4 * i) & 0xFu);
      make_room(qx, qy, lanes, false);
      const uint32_t q = batch_.quads++;
      own_quad(q);
      memcpy(&batch_.coverage[q * 4], &coverage[i * 4], 4 * sizeof(uint32_t));
      batch_.quad_x[q] = qx;
      batch_.quad_y[q] = qy;
      draw_.lanes_covered |= lanes << (4 * q);
      if (batch_.quads * 4 == W_) flush();
      quads &= quads - 1;
    } while (quads);
  }

  // Adds the quads of a whole 8x8 block that pass the block depth test; false when the block
  // is not inside the depth plane (the caller then gathers it the usual way).
  bool add_depth_tested_block(const Rect& block) {
    const mem::AttachmentSurface& depth = ctx_.depth;
    if (uint32_t(block.x1) > depth.width || uint32_t(block.y1) > depth.height) return false;
    DepthBlock b;
    b.texels = depth.texel(uint32_t(block.x0), uint32_t(block.y0), t_.layer, 0);
    b.row_pitch = depth.row_pitch;
    // Quads of earlier merged triangles still waiting for their depth test are tested first (this
    // triangle's own cover other pixels, and a rejected block shades nothing).
    if (draw_.earlier_quads && !draw_.batch_depth_tested) flush();
    interpolator().set_block_plane(block.x0, block.y0, b);
    b.compare = ctx_.state->depth_stencil.depth_compare;
    b.write = ctx_.state->depth_stencil.depth_write;
    const uint64_t passed = test_depth_block(b);
    if (!passed) return true;
    begin_quads(true);
    for (int32_t qy = 0; qy < 8; qy += 2)
      for (int32_t qx = 0; qx < 8; qx += 2) {
        // Lane i of a quad is pixel (i & 1, i >> 1): two bits of the quad's top row, two of its bottom.
        const uint32_t lanes = (uint32_t(passed >> (qy * 8 + qx)) & 3u) | (uint32_t(passed >> (qy * 8 + 8 + qx)) & 3u) << 2;
        if (!lanes) continue;
        make_room(block.x0 + qx, block.y0 + qy, lanes, false);
        const uint32_t q = batch_.quads++;
        own_quad(q);
        batch_.quad_x[q] = block.x0 + qx;
        batch_.quad_y[q] = block.y0 + qy;
        for (uint32_t i = 0; i < 4; ++i) batch_.coverage[q * 4 + i] = (lanes >> i) & 1u;  // full_mask_ is 1
        draw_.lanes_covered |= lanes << (4 * q);
        if (batch_.quads * 4 == W_) flush();
      }
    return true;
  }

  // The quads about to be added were (true) or were not (false) depth tested already; a batch
  // holds one kind only. A merged triangle's interpolator is set up first (that may shade the
  // batch), so the quads can point at it.
  void begin_quads(bool depth_tested) {
    if (merged_ && draw_.merged_interpolation) interpolator();
    if (draw_.batch_depth_tested == depth_tested) return;
    flush();
    draw_.batch_depth_tested = depth_tested;
  }

  DrawRasterState& draw_;
  const DrawContext& ctx_;
  const RasterTriangle& t_;
  const bool merged_;  // the quads go into a batch shared with neighbouring triangles
  const uint32_t* values_;                            // the vertices' raster values, for interpolator()
  const int32_t tile_x0_, tile_y0_;                   // the planes' origin
  const TriangleInterpolator* interpolator_ = nullptr;  // see interpolator()
  std::optional<TriangleInterpolator> own_interpolator_;  // a triangle that does not merge keeps its planes here
  TriangleEdges edges_;
  const BlockCoverageFn block_coverage_;  // partial blocks use it (null: per-pixel tests, lines)
  const LineRaster* line_;  // the line's per-pixel rule, or null
  QuadBatch& batch_;        // the draw's
  const uint32_t W_;
  const uint32_t full_mask_;
};

// Clears or resolves the part of `op` inside `tile`.
void run_attachment_op(const AttachmentOp& op, const Rect& tile) {
  const VkRect2D& rect = op.clear ? op.clear->rect : op.resolve->rect;
  const Rect r = to_rect(rect).intersect(tile);
  if (r.empty()) return;
  const VkRect2D part{{r.x0, r.y0}, {uint32_t(r.x1 - r.x0), uint32_t(r.y1 - r.y0)}};
  if (const ClearViewCmd* c = op.clear) {
    if (!mem::clear_view_rect(*c->view, c->aspects, c->value, part, c->layers))
      KILN_LOG_ONCE(LogLevel::Error, "attachment load-op clear: format %d cannot be cleared", c->view->format);
  } else if (const ResolveViewCmd* c = op.resolve) {
    if (!mem::resolve_view_rect(*c->src, *c->dst, c->aspect, c->mode, part, c->layers))
      KILN_LOG_ONCE(LogLevel::Error, "attachment resolve: format %d cannot be resolved", c->src->format);
  }
}

}  // namespace

void run_tile(const std::vector<ShadedBatch>& batches, const std::vector<AttachmentOp>& ops,
              const std::vector<BinEntry>& bin, const Rect& tile, uint32_t* faults) {
  TileCounts counts;
  FragmentScratch& scratch = thread_local_ref(tls_scratch);  // one thread-local lookup per tile
  DrawCounters* counters = nullptr;  // of the draw whose counts `counts` holds
  std::optional<DrawRasterState> draw;  // of the last triangle's draw
  // Quads merged triangles left in the draw's batch are shaded before anything else happens.
  auto finish_batch = [&] {
    if (draw) draw->flush(nullptr);
  };
  auto add_counts = [&] {
    if (!counters) return;
    counters->samples_passed.fetch_add(counts.samples_passed, std::memory_order_relaxed);
    counters->fragment_shader_invocations.fetch_add(counts.fragment_invocations, std::memory_order_relaxed);
    counts = TileCounts{};
  };
  for (size_t i = 0; i < bin.size(); ++i) {
    const BinEntry& e = bin[i];
    if (e.batch == kAttachmentOpEntry) {
      finish_batch();
      run_attachment_op(ops[e.triangle], tile);
      continue;
    }
    const ShadedBatch& batch = batches[e.batch];
    const RasterTriangle& t = batch.output->triangles[e.triangle];
    const Rect region = t.bounds.intersect(tile);
    if (region.empty()) continue;
    if (!draw || &draw->ctx != batch.ctx) {
      finish_batch();
      if (batch.ctx->counters != counters) {
        add_counts();
        counters = batch.ctx->counters;
      }
      draw.emplace(*batch.ctx, *batch.merger, faults, scratch, counts);
    } else if (!draw->merges(t)) {
      finish_batch();
    }
    const LineRaster* line = t.line == kNoLineRaster ? nullptr : &batch.output->lines[t.line];
    TriangleRasterizer r(*draw, t, batch.output->values.data() + t.values, line, tile);
    r.run(region);
  }
  finish_batch();
  add_counts();
}

}  // namespace kiln::exec::gfx
