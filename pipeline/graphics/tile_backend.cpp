#include "pipeline/graphics/tile_backend.h"

#include <atomic>
#include <cstring>

#include "pipeline/draw.h"

namespace kiln::exec::gfx {
namespace {

// Edge function E(p) = a*px + b*py + c over fixed-point positions; a pixel sample is inside
// when E(p) + bias >= 0 for all three edges (bias -1 on edges that are not top or left).
struct Edge {
  int64_t a, b, c, bias;
  int64_t at(int64_t px, int64_t py) const { return a * px + b * py + c + bias; }
};

Edge make_edge(int64_t xi, int64_t yi, int64_t xj, int64_t yj) {
  const int64_t dx = xj - xi, dy = yj - yi;
  Edge e;
  e.a = -dy;
  e.b = dx;
  e.c = dy * xi - dx * yi;
  // With y pointing down and the interior on the side where E >= 0, a top edge is horizontal
  // going right and a left edge goes up.
  const bool top_left = dy < 0 || (dy == 0 && dx > 0);
  e.bias = top_left ? 0 : -1;
  return e;
}

// Barycentric planes of a triangle in float pixel coordinates relative to vertex 0.
struct Barycentrics {
  double x0, y0;
  double dx[3], dy[3], c[3];
  void init(const RasterTriangle& t) {
    const double X[3] = {double(t.x[0]) / kSubpixelOne, double(t.x[1]) / kSubpixelOne, double(t.x[2]) / kSubpixelOne};
    const double Y[3] = {double(t.y[0]) / kSubpixelOne, double(t.y[1]) / kSubpixelOne, double(t.y[2]) / kSubpixelOne};
    x0 = X[0];
    y0 = Y[0];
    const double area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
    // b_i is the edge function of the edge opposite vertex i, normalised by the area.
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      dx[i] = -(Y[k] - Y[j]) / area;
      dy[i] = (X[k] - X[j]) / area;
      c[i] = ((Y[k] - Y[j]) * (X[j] - x0) - (X[k] - X[j]) * (Y[j] - y0)) / area;
    }
  }
  void at(double px, double py, float out[3]) const {
    px -= x0;
    py -= y0;
    for (int i = 0; i < 3; ++i) out[i] = static_cast<float>(dx[i] * px + dy[i] * py + c[i]);
  }
};

// Per-thread buffers of a fragment-kernel call (sized for the kernel's W).
struct FragmentScratch {
  uint32_t W = 0;
  std::vector<uint32_t> inputs, outputs, sample_mask_in, sample_mask_out;
  std::vector<float> frag_coord, point_coord, frag_depth;
  void reserve(uint32_t width) {
    if (W == width) return;
    W = width;
    inputs.assign(size_t(abi::kMaxVaryingLocations) * 4 * W, 0);
    outputs.assign(size_t(abi::kMaxColorAttachments) * 4 * W, 0);
    sample_mask_in.assign(W, 0);
    sample_mask_out.assign(W, 0);
    frag_coord.assign(4 * size_t(W), 0.0f);
    point_coord.assign(2 * size_t(W), 0.0f);
    frag_depth.assign(W, 0.0f);
  }
};
thread_local FragmentScratch scratch;

constexpr uint32_t kMaxLanes = 64;

// Query counts of one tile, added to the draw's DrawCounters once at the end of the tile.
struct TileCounts {
  uint64_t samples_passed = 0, fragment_invocations = 0;
};

// Rasterizes one triangle inside one tile and shades its fragments.
class TriangleRasterizer {
 public:
  TriangleRasterizer(const DrawContext& ctx, const OutputMerger& merger, const RasterTriangle& t, const uint32_t* values,
                     uint32_t* faults, TileCounts& counts)
      : ctx_(ctx), merger_(merger), t_(t), values_(values), faults_(faults), counts_(counts) {
    for (int i = 0; i < 3; ++i) edges_[i] = make_edge(t.x[i], t.y[i], t.x[(i + 1) % 3], t.y[(i + 1) % 3]);
    bary_.init(t);
    const GraphicsKernels& k = *ctx.kernels;
    shading_ = k.fragment != nullptr;
    W_ = shading_ ? k.fragment_width : 4;
    if (shading_) scratch.reserve(W_);
    const abi::FragmentInterface& fi = k.fragment_interface;
    // Sample-rate shading: the shader reads SampleId/SamplePosition/sample inputs, or
    // minSampleShading asks for more than one invocation per pixel.
    const MultisampleState& ms = ctx.state->multisample;
    sample_rate_ = shading_ && ctx.samples > 1 &&
                   (fi.uses_sample_rate || (ms.sample_shading && ms.min_sample_shading * float(ctx.samples) > 1.0f));
    // Tests run before shading when the shader asks for it, or when nobody could tell: the
    // shader writes no memory (those writes must happen for fragments that fail the tests
    // later), and neither it nor alpha-to-coverage changes depth or coverage.
    early_ = !shading_ || fi.early_fragment_tests ||
             (!fi.has_side_effects && !fi.writes_depth && !fi.can_discard && !fi.writes_sample_mask &&
              !ms.alpha_to_coverage);
  }

  void run(const Rect& region) {
    const int32_t qx0 = region.x0 & ~1, qy0 = region.y0 & ~1;
    for (int32_t qy = qy0; qy < region.y1; qy += 2)
      for (int32_t qx = qx0; qx < region.x1; qx += 2) add_quad(qx, qy, region);
    flush();
  }

 private:
  uint32_t sample_coverage(int32_t x, int32_t y) const {
    uint32_t mask = 0;
    for (uint32_t s = 0; s < ctx_.samples; ++s) {
      const int64_t px = (int64_t{x} << kSubpixelBits) + ctx_.sample_x[s];
      const int64_t py = (int64_t{y} << kSubpixelBits) + ctx_.sample_y[s];
      if (edges_[0].at(px, py) >= 0 && edges_[1].at(px, py) >= 0 && edges_[2].at(px, py) >= 0) mask |= 1u << s;
    }
    return mask & ctx_.state->multisample.sample_mask;
  }

  void add_quad(int32_t qx, int32_t qy, const Rect& region) {
    uint32_t cov[4];
    bool any = false;
    for (uint32_t i = 0; i < 4; ++i) {
      const int32_t x = qx + int32_t(i & 1), y = qy + int32_t(i >> 1);
      const bool inside = x >= region.x0 && x < region.x1 && y >= region.y0 && y < region.y1;
      cov[i] = inside ? sample_coverage(x, y) : 0;
      any |= cov[i] != 0;
    }
    if (!any) return;
    const uint32_t q = quads_++;
    quad_x_[q] = qx;
    quad_y_[q] = qy;
    for (uint32_t i = 0; i < 4; ++i) coverage_[q * 4 + i] = cov[i];
    if (quads_ * 4 == W_) flush();
  }

  // Depth of each covered sample of the lane's pixel (interpolated, plus depth bias).
  void sample_depths(uint32_t lane, float* depth) const {
    const int32_t x = quad_x_[lane / 4] + int32_t(lane & 1), y = quad_y_[lane / 4] + int32_t((lane >> 1) & 1);
    for (uint32_t s = 0; s < ctx_.samples; ++s) {
      float b[3];
      bary_.at(x + double(ctx_.sample_x[s]) / kSubpixelOne, y + double(ctx_.sample_y[s]) / kSubpixelOne, b);
      depth[s] = interpolate_depth(b);
    }
  }

  // Screen-linear depth plus bias, relative to vertex 0 so a constant depth stays exact.
  float interpolate_depth(const float b[3]) const {
    return t_.z[0] + b[1] * (t_.z[1] - t_.z[0]) + b[2] * (t_.z[2] - t_.z[0]) + t_.depth_bias;
  }

  uint32_t pixel_x(uint32_t lane) const { return uint32_t(quad_x_[lane / 4] + int32_t(lane & 1)); }
  uint32_t pixel_y(uint32_t lane) const { return uint32_t(quad_y_[lane / 4] + int32_t((lane >> 1) & 1)); }

  void flush() {
    if (quads_ == 0) return;
    const uint32_t lanes = quads_ * 4;
    float depth[kMaxSamples];
    if (early_ && merger_.has_depth_stencil_work()) {
      for (uint32_t l = 0; l < lanes; ++l) {
        if (!coverage_[l]) continue;
        sample_depths(l, depth);
        coverage_[l] = merger_.depth_stencil(pixel_x(l), pixel_y(l), t_.layer, coverage_[l], depth, t_.front_facing,
                                             t_.viewport);
      }
    }
    if (!shading_) {
      for (uint32_t l = 0; l < lanes; ++l) counts_.samples_passed += uint32_t(__builtin_popcount(coverage_[l]));
    } else {
      if (sample_rate_) {
        // One kernel call per sample index: each lane then covers at most that sample.
        uint32_t pixel_coverage[kMaxLanes];
        memcpy(pixel_coverage, coverage_, sizeof(uint32_t) * lanes);
        for (uint32_t sample = 0; sample < ctx_.samples; ++sample) {
          for (uint32_t l = 0; l < lanes; ++l) coverage_[l] = pixel_coverage[l] & (1u << sample);
          shade_covered(lanes, int32_t(sample));
        }
      } else {
        shade_covered(lanes, -1);
      }
    }
    quads_ = 0;
  }

  void shade_covered(uint32_t lanes, int32_t sample) {
    uint32_t covered = 0, quad_mask = 0;
    for (uint32_t l = 0; l < lanes; ++l)
      if (coverage_[l]) covered |= 1u << l;
    for (uint32_t q = 0; q < quads_; ++q)
      if (covered & (0xFu << (4 * q))) quad_mask |= 0xFu << (4 * q);
    if (covered) shade(lanes, covered, quad_mask, sample);
  }

  // Where lane l's inputs are evaluated: the pixel centre, or sample `sample` (sample rate).
  void lane_position(uint32_t l, int32_t sample, float* px, float* py) const {
    const float x = float(pixel_x(l)), y = float(pixel_y(l));
    if (sample < 0) {
      *px = x + 0.5f;
      *py = y + 0.5f;
    } else {
      *px = x + float(ctx_.sample_x[sample]) / kSubpixelOne;
      *py = y + float(ctx_.sample_y[sample]) / kSubpixelOne;
    }
  }

  // Perspective-correct weights from screen-space barycentrics.
  void perspective_weights(const float b[3], float p[3], float* inv_w) const {
    const float q[3] = {b[0] * t_.inv_w[0], b[1] * t_.inv_w[1], b[2] * t_.inv_w[2]};
    *inv_w = q[0] + q[1] + q[2];
    for (int i = 0; i < 3; ++i) p[i] = q[i] / *inv_w;
  }

  void shade(uint32_t lanes, uint32_t covered, uint32_t quad_mask, int32_t sample) {
    const GraphicsKernels& k = *ctx_.kernels;
    const abi::FragmentInterface& fi = k.fragment_interface;
    const VertexFormat& f = ctx_.vertex_format;
    FragmentScratch& s = scratch;
    const uint32_t W = W_, n = f.varying_values();
    const uint32_t full = (1u << ctx_.samples) - 1;
    for (uint32_t l = 0; l < W; ++l) {
      const bool live = l < lanes;
      float px = 0.0f, py = 0.0f;
      if (live) lane_position(l, sample, &px, &py);
      float b[3], p[3], inv_w;
      bary_.at(px, py, b);
      perspective_weights(b, p, &inv_w);
      const float z = interpolate_depth(b);
      // Centroid inputs of a partly covered pixel use its first covered sample (pixel rate only).
      float cb[3], cp[3];
      bool centroid_moved = false;
      if (live && sample < 0 && fi.centroid_mask && coverage_[l] && (coverage_[l] & full) != full) {
        const uint32_t first = uint32_t(__builtin_ctz(coverage_[l]));
        bary_.at(pixel_x(l) + double(ctx_.sample_x[first]) / kSubpixelOne,
                 pixel_y(l) + double(ctx_.sample_y[first]) / kSubpixelOne, cb);
        float unused;
        perspective_weights(cb, cp, &unused);
        centroid_moved = true;
      }
      s.frag_coord[0 * W + l] = px;
      s.frag_coord[1 * W + l] = py;
      s.frag_coord[2 * W + l] = z;
      s.frag_coord[3 * W + l] = inv_w;
      s.frag_depth[l] = z;
      s.sample_mask_in[l] = live ? coverage_[l] : 0;
      s.sample_mask_out[l] = ~0u;
      if (t_.kind == PrimitiveKind::Point) {
        s.point_coord[0 * W + l] = (px - t_.point_origin[0]) / t_.point_size;
        s.point_coord[1 * W + l] = (py - t_.point_origin[1]) / t_.point_size;
      }
      for (uint32_t v = 0; v < f.varying_count; ++v) {
        const uint32_t loc = f.varying_location[v];
        const abi::Interpolation mode = t_.flat_only ? abi::Interpolation::Flat : f.varying_interpolation[v];
        const bool centroid = centroid_moved && (fi.centroid_mask & (1u << loc));
        const float* w = mode == abi::Interpolation::Smooth ? (centroid ? cp : p) : (centroid ? cb : b);
        for (uint32_t c = 0; c < 4; ++c) {
          const uint32_t at = v * 4 + c;
          uint32_t out;
          if (mode == abi::Interpolation::Flat) {
            out = values_[at];
          } else {
            float a[3];
            for (int i = 0; i < 3; ++i) memcpy(&a[i], &values_[i * n + at], 4);
            // Relative to vertex 0, so a value equal at all vertices interpolates exactly.
            const float r = a[0] + w[1] * (a[1] - a[0]) + w[2] * (a[2] - a[0]);
            memcpy(&out, &r, 4);
          }
          s.inputs[(loc * 4 + c) * W + l] = out;
        }
      }
    }
    abi::FragmentInvocation inv{};
    inv.resources = ctx_.cmd->resources;
    inv.faults = faults_;
    inv.inputs = s.inputs.data();
    inv.frag_coord = s.frag_coord.data();
    inv.point_coord = t_.kind == PrimitiveKind::Point ? s.point_coord.data() : nullptr;
    inv.covered_mask = covered;
    inv.quad_mask = quad_mask;
    inv.front_facing = t_.front_facing ? 1 : 0;
    inv.primitive_id = t_.primitive_id;
    inv.layer = t_.layer;
    inv.view_index = ctx_.view_index;
    inv.sample_id = sample < 0 ? 0 : uint32_t(sample);
    inv.sample_mask_in = s.sample_mask_in.data();
    inv.outputs = s.outputs.data();
    inv.frag_depth = s.frag_depth.data();
    inv.sample_mask_out = s.sample_mask_out.data();
    counts_.fragment_invocations += uint32_t(__builtin_popcount(covered));
    const uint32_t alive = k.fragment(&inv) & covered;
    float depth[kMaxSamples];
    for (uint32_t l = 0; l < lanes; ++l) {
      if (!(alive & (1u << l))) continue;
      uint32_t cov = coverage_[l];
      if (fi.writes_sample_mask) cov &= s.sample_mask_out[l];
      if (ctx_.state->multisample.alpha_to_coverage) cov &= alpha_coverage(s.outputs[3 * W + l]);
      if (!early_ && cov) {
        if (fi.writes_depth) {
          for (uint32_t i = 0; i < ctx_.samples; ++i) depth[i] = s.frag_depth[l];
        } else {
          sample_depths(l, depth);
        }
        cov = merger_.depth_stencil(pixel_x(l), pixel_y(l), t_.layer, cov, depth, t_.front_facing, t_.viewport);
      }
      counts_.samples_passed += uint32_t(__builtin_popcount(cov));
      if (cov) merger_.write_color(pixel_x(l), pixel_y(l), t_.layer, cov, s.outputs.data(), W, l);
    }
  }

  // Alpha to coverage: the first round(alpha * samples) samples.
  uint32_t alpha_coverage(uint32_t alpha_bits) const {
    float a;
    memcpy(&a, &alpha_bits, 4);
    if (!(a > 0.0f)) return 0;
    const float n = a * float(ctx_.samples) + 0.5f;
    const uint32_t count = n >= float(ctx_.samples) ? ctx_.samples : uint32_t(n);
    return (1u << count) - 1;
  }

  const DrawContext& ctx_;
  const OutputMerger& merger_;
  const RasterTriangle& t_;
  const uint32_t* values_;
  uint32_t* faults_;
  TileCounts& counts_;
  Edge edges_[3];
  Barycentrics bary_;
  bool shading_ = false, early_ = true, sample_rate_ = false;
  uint32_t W_ = 4;
  uint32_t quads_ = 0;
  int32_t quad_x_[kMaxLanes / 4], quad_y_[kMaxLanes / 4];
  uint32_t coverage_[kMaxLanes];
};

}  // namespace

void run_tile(const DrawContext& ctx, const OutputMerger& merger, const std::vector<BatchOutput>& batches,
              const std::vector<BinEntry>& bin, const Rect& tile, uint32_t* faults) {
  TileCounts counts;
  for (const BinEntry& e : bin) {
    const BatchOutput& batch = batches[e.batch];
    const RasterTriangle& t = batch.triangles[e.triangle];
    const Rect region = t.bounds.intersect(tile);
    if (region.empty()) continue;
    TriangleRasterizer r(ctx, merger, t, batch.values.data() + t.values, faults, counts);
    r.run(region);
  }
  if (ctx.counters) {
    ctx.counters->samples_passed.fetch_add(counts.samples_passed, std::memory_order_relaxed);
    ctx.counters->fragment_shader_invocations.fetch_add(counts.fragment_invocations, std::memory_order_relaxed);
  }
}

}  // namespace kiln::exec::gfx
