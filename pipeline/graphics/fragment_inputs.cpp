#include "pipeline/graphics/fragment_inputs.h"

#include <algorithm>
#include <cstring>

namespace kiln::exec::gfx {
namespace {

float bits_to_float(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

// Lane vectors of N floats / ints (GCC vector extensions: the same source compiles to SSE, AVX2 or
// AVX-512 in the functions below that enable them).
template <uint32_t N>
struct Lanes {
  using F [[gnu::vector_size(4 * N)]] = float;
  using I [[gnu::vector_size(4 * N)]] = int32_t;
};

template <class V>
__attribute__((always_inline)) inline void store(float* at, const V& v) {
  memcpy(at, &v, sizeof v);
}

// All ones for the first kMaxLanes entries, then zeros: the lane masks of partial stores are
// loaded from it (masks computed from lane compares let GCC turn the blend below into a branch or
// a conditional load per lane, which cost more than the rest of a fill).
alignas(64) constexpr int32_t kLeadingOnes[2 * QuadBatch::kMaxLanes] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

// A vector whose first `count` lanes (clamped to [0, kMaxLanes]) are all ones, the rest zero.
template <class M>
__attribute__((always_inline)) inline M first_lanes(int32_t count) {
  const int32_t n = count < 0 ? 0 : count > int32_t(QuadBatch::kMaxLanes) ? int32_t(QuadBatch::kMaxLanes) : count;
  M m;
  memcpy(&m, &kLeadingOnes[QuadBatch::kMaxLanes - n], sizeof m);
  return m;
}

// Stores the lanes of `v` that `keep` selects (all ones), the others keep what `at` holds.
template <class V, class M>
__attribute__((always_inline)) inline void store_lanes(float* at, const V& v, const M& keep) {
  M old, value;
  memcpy(&old, at, sizeof old);
  memcpy(&value, &v, sizeof value);
  const M merged = (value & keep) | (old & ~keep);
  memcpy(at, &merged, sizeof merged);
}

const bool kHasAvx512 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}();
const bool kHasAvx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}();

}  // namespace

TriangleInterpolator::TriangleInterpolator(const DrawContext& ctx, const RasterTriangle& t, const uint32_t* values,
                                           int32_t origin_x, int32_t origin_y)
    : ctx_(ctx), t_(t), origin_x_(origin_x), origin_y_(origin_y) {
  const VertexFormat& f = ctx.vertex_format;
  const abi::FragmentInterface& fi = ctx.kernels->fragment_interface;
  const uint32_t n = f.raster_values();
  auto add_component = [&](uint32_t slot_component, uint32_t at, abi::Interpolation mode, bool centroid) {
    Component& comp = components_[component_count_++];
    comp.location_component = slot_component;
    comp.mode = t.flat_only ? abi::Interpolation::Flat : mode;
    comp.centroid = centroid;
    comp.flat_bits = values[at];
    comp.a0 = bits_to_float(values[at]);
    comp.d1 = bits_to_float(values[n + at]) - comp.a0;
    comp.d2 = bits_to_float(values[2 * n + at]) - comp.a0;
    any_centroid_ |= comp.centroid && comp.mode != abi::Interpolation::Flat;
    if (comp.mode != abi::Interpolation::Flat) ++interpolated_components_;
  };
  for (uint32_t v = 0; v < f.varying_count; ++v) {
    const uint32_t loc = f.varying_location[v];
    for (uint32_t c = 0; c < 4; ++c)  // components the shader does not declare are never read
      if (fi.input_components[loc] & (1u << c))
        add_component(loc * 4 + c, v * 4 + c, f.varying_interpolation[v], (fi.centroid_mask & (1u << loc)) != 0);
  }
  // Clip and cull distances follow the varyings (smooth, at the pixel centre).
  const uint32_t base = abi::kClipCullInputSlot * 4, clip_at = f.varying_values();
  for (uint32_t i = 0; i < f.fragment_clip_values; ++i)
    add_component(base + i, clip_at + i, abi::Interpolation::Smooth, false);
  for (uint32_t i = 0; i < f.fragment_cull_values; ++i)
    add_component(base + fi.clip_distance_inputs + i, clip_at + f.clip_count + i, abi::Interpolation::Smooth, false);

  for (uint32_t s = 0; s < ctx.samples && s < kMaxSamples; ++s) {
    sample_dx_[s] = float(ctx.sample_x[s]) / kSubpixelOne;
    sample_dy_[s] = float(ctx.sample_y[s]) / kSubpixelOne;
  }
  needs_positions_ = interpolated_components_ || fi.reads_frag_coord || fi.writes_depth || t.kind == PrimitiveKind::Point;
  for (int i = 0; i < 3; ++i) inv_w_[i] = t.inv_w[i];
  perspective_ = !(t.inv_w[0] == t.inv_w[1] && t.inv_w[1] == t.inv_w[2]);
  // The planes (double divisions: most of this constructor's time) serve interpolated inputs,
  // FragCoord/FragDepth, PointCoord, the shader's own interpolation and sample depths. A draw
  // that needs none of them (a flat colour without depth or stencil) skips them; depth or
  // stencil attachments count as needing depths whether or not tests are enabled.
  const bool needs_planes = interpolated_components_ || fi.reads_frag_coord || fi.writes_depth ||
                            t.kind == PrimitiveKind::Point || fi.interpolates_at_positions || ctx.has_depth ||
                            ctx.has_stencil;
  if (!needs_planes) {
    b1_ = b2_ = z_ = Plane{0.0f, 0.0f, 0.0f};
    return;
  }
  // Screen-space barycentrics b1, b2 (b0 = 1 - b1 - b2) in pixel units, in double relative to
  // vertex 0, then as float planes around the origin.
  double X[3], Y[3];
  for (int i = 0; i < 3; ++i) {
    X[i] = double(t.x[i]) / kSubpixelOne;
    Y[i] = double(t.y[i]) / kSubpixelOne;
  }
  const double area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
  const double ox = origin_x - X[0], oy = origin_y - Y[0];
  auto plane = [&](int i, double* dx, double* dy, double* at) {
    // b_i is the edge function of the edge opposite vertex i, normalised by the area.
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    *dx = -(Y[k] - Y[j]) / area;
    *dy = (X[k] - X[j]) / area;
    const double c = ((Y[k] - Y[j]) * (X[j] - X[0]) - (X[k] - X[j]) * (Y[j] - Y[0])) / area;
    *at = *dx * ox + *dy * oy + c;
  };
  double dx1, dy1, at1, dx2, dy2, at2;
  plane(1, &dx1, &dy1, &at1);
  plane(2, &dx2, &dy2, &at2);
  b1_ = {float(at1), float(dx1), float(dy1)};
  b2_ = {float(at2), float(dx2), float(dy2)};
  // Screen-linear depth plus bias, relative to vertex 0 so a constant depth stays exact.
  const double z1 = double(t.z[1]) - t.z[0], z2 = double(t.z[2]) - t.z[0];
  z_ = {float(double(t.z[0]) + at1 * z1 + at2 * z2 + t.depth_bias), float(dx1 * z1 + dx2 * z2),
        float(dy1 * z1 + dy2 * z2)};
  if (fi.interpolates_at_positions) prepare_interpolation_record();
}

void TriangleInterpolator::prepare_interpolation_record() {
  static_assert(abi::kMaxInterpolationSamples == kMaxSamples);
  interpolation_record_ = true;
  abi::InterpolationRecord& r = record_;
  memset(&r, 0, sizeof r);  // components the vertex stage does not write read 0
  r.origin[0] = float(origin_x_);
  r.origin[1] = float(origin_y_);
  const Plane* planes[2] = {&b1_, &b2_};
  float* out[2] = {r.b1, r.b2};
  for (int i = 0; i < 2; ++i) {
    out[i][0] = planes[i]->at_origin;
    out[i][1] = planes[i]->dx;
    out[i][2] = planes[i]->dy;
  }
  for (int i = 0; i < 3; ++i) r.inv_w[i] = inv_w_[i];
  r.perspective = perspective_ ? 1 : 0;
  r.samples = ctx_.samples;
  for (uint32_t s = 0; s < ctx_.samples; ++s) {
    r.sample_position[s][0] = float(ctx_.sample_x[s]) / kSubpixelOne;
    r.sample_position[s][1] = float(ctx_.sample_y[s]) / kSubpixelOne;
  }
  for (uint32_t i = 0; i < component_count_; ++i) {
    const Component& c = components_[i];
    if (c.location_component >= abi::kMaxVaryingLocations * 4) continue;  // clip/cull distances
    // Flat components (points make every component flat) keep vertex 0's value anywhere.
    const bool flat = c.mode == abi::Interpolation::Flat;
    r.component[c.location_component][0] = c.a0;
    r.component[c.location_component][1] = flat ? 0.0f : c.d1;
    r.component[c.location_component][2] = flat ? 0.0f : c.d2;
  }
}

void TriangleInterpolator::sample_depths(const QuadBatch& batch, float* depth, uint32_t first_quad,
                                         uint32_t end_quad) const {
  // Per quad and lane: positions relative to the origin (exact small integers plus the sample
  // offsets set up once per triangle), then the depth plane, four lanes at a time. The plane is
  // copied to locals: stores through `depth` could otherwise alias it and force reloads.
  using F = Lanes<4>::F;
  const float at = z_.at_origin, dx = z_.dx, dy = z_.dy;
  const F lane_x = {0.0f, 1.0f, 0.0f, 1.0f}, lane_y = {0.0f, 0.0f, 1.0f, 1.0f};
  const uint32_t samples = ctx_.samples;
  for (uint32_t q = first_quad; q < std::min(end_quad, batch.quads); ++q) {
    const F rx = float(batch.quad_x[q] - origin_x_) + lane_x, ry = float(batch.quad_y[q] - origin_y_) + lane_y;
    float* out = depth + q * 4 * kMaxSamples;
    for (uint32_t s = 0; s < samples; ++s) {
      const F z = (at + dx * (rx + sample_dx_[s])) + dy * (ry + sample_dy_[s]);
      for (uint32_t i = 0; i < 4; ++i) out[i * kMaxSamples + s] = z[i];
    }
  }
}

template <uint32_t N>
__attribute__((always_inline)) inline void TriangleInterpolator::fill_lanes(const QuadBatch& batch, uint32_t W,
                                                                           int32_t sample, LaneRange range,
                                                                           float* inputs, float* frag_coord,
                                                                           float* frag_depth, float* point_coord) const {
  using F = typename Lanes<N>::F;
  using I = typename Lanes<N>::I;
  const abi::FragmentInterface& fi = ctx_.kernels->fragment_interface;
  const bool position_values = fi.reads_frag_coord || fi.writes_depth;  // FragDepth starts at FragCoord.z
  const bool point = t_.kind == PrimitiveKind::Point;
  const bool centroid = any_centroid_ && sample < 0;
  // Lane offsets inside a quad plus the sample position. Pixel coordinates and sample offsets
  // (multiples of 1/256) are exact in float, so positions relative to the origin are exact however
  // they are summed.
  const float sx = sample < 0 ? 0.5f : sample_dx_[sample];
  const float sy = sample < 0 ? 0.5f : sample_dy_[sample];
  F lane_x, lane_y;
  I lane_quad;
  for (uint32_t l = 0; l < N; ++l) {
    lane_x[l] = (l & 1) ? 1.0f + sx : sx;
    lane_y[l] = (l & 2) ? 1.0f + sy : sy;
    lane_quad[l] = int32_t(l / 4);
  }
  // Perspective-correct barycentrics p (Smooth) and screen-space ones b (NoPerspective), at the
  // lanes' positions and (when centroid inputs need it) at their centroids.
  struct Weights {
    F b1, b2, p1, p2, inv_w;
  };
  auto weights_at = [&](F x, F y) __attribute__((always_inline)) {
    Weights w;
    w.b1 = (b1_.at_origin + b1_.dx * x) + b1_.dy * y;
    w.b2 = (b2_.at_origin + b2_.dx * x) + b2_.dy * y;
    if (!perspective_) {
      // Equal 1/w at every vertex: perspective-correct weights are the screen-space ones.
      w.p1 = w.b1;
      w.p2 = w.b2;
      w.inv_w = F{} + inv_w_[0];
      return w;
    }
    const F q0 = ((1.0f - w.b1) - w.b2) * inv_w_[0], q1 = w.b1 * inv_w_[1], q2 = w.b2 * inv_w_[2];
    w.inv_w = (q0 + q1) + q2;
    w.p1 = q1 / w.inv_w;
    w.p2 = q2 / w.inv_w;
    return w;
  };
  // One group of N lanes at a time, from positions to every component, so the weights stay in
  // registers (weights kept in per-group arrays for a later loop over the components were reloaded
  // as 64-byte vectors right after being stored: store-forwarding stalls).
  // Only the lanes of `range` are written: a group that it covers partly blends its values in.
  const uint32_t group_end = (std::min(range.end, W) + N - 1) / N;
  for (uint32_t g = range.begin / N; g < group_end; ++g) {
    const bool partial = g * N < range.begin || (g + 1) * N > range.end;
    const int32_t first_lane = int32_t(g * N);
    const I keep = first_lanes<I>(int32_t(range.end) - first_lane) & ~first_lanes<I>(int32_t(range.begin) - first_lane);
    auto put = [&](float* at, const F& v) __attribute__((always_inline)) {
      if (partial)
        store_lanes(at, v, keep);
      else
        store(at, v);
    };
    // The corners of the group's quads (quads past the batch sit at the origin), each broadcast
    // over its four lanes. One scalar load per quad: the rasterizer has just stored them one by one,
    // and a vector load of those stores would wait for them to reach the cache (a store-forwarding
    // stall that cost more than the rest of this function).
    I qx = I{} + origin_x_, qy = I{} + origin_y_;
    for (uint32_t k = 0; k < N / 4 && g * N / 4 + k < batch.quads; ++k) {
      const I mine = lane_quad == int32_t(k);
      qx = mine ? I{} + batch.quad_x[g * N / 4 + k] : qx;
      qy = mine ? I{} + batch.quad_y[g * N / 4 + k] : qy;
    }
    const F x = __builtin_convertvector(qx - origin_x_, F) + lane_x;
    const F y = __builtin_convertvector(qy - origin_y_, F) + lane_y;
    const Weights weights = weights_at(x, y);
    // The interpolated components: each from `w`, or from `*cw` (centroid weights) if it is a
    // centroid input. Two instantiations (cw null or not) rather than one choosing between two
    // weight structs at run time, which kept both in memory and reloaded them per component.
    auto components = [&](const Weights& w, const Weights* cw) __attribute__((always_inline)) {
      for (uint32_t i = 0; i < component_count_; ++i) {
        const Component& c = components_[i];
        if (c.mode == abi::Interpolation::Flat) continue;  // filled by fill_flat
        const bool smooth = c.mode == abi::Interpolation::Smooth;
        F w1 = smooth ? w.p1 : w.b1, w2 = smooth ? w.p2 : w.b2;
        if (cw && c.centroid) {
          w1 = smooth ? cw->p1 : cw->b1;
          w2 = smooth ? cw->p2 : cw->b2;
        }
        put(inputs + size_t(c.location_component) * W + g * N, F((c.a0 + w1 * c.d1) + w2 * c.d2));
      }
    };
    if (!centroid) {
      components(weights, nullptr);
    } else {
      // Partly covered pixels move to their first covered sample (rare: a scalar lane loop).
      const uint32_t full = (1u << ctx_.samples) - 1;
      F cx = x, cy = y;
      bool moved = false;
      for (uint32_t l = 0; l < N; ++l) {
        const uint32_t lane = g * N + l;
        const uint32_t cov = lane < batch.lanes() ? batch.coverage[lane] & full : 0;
        if (!cov || cov == full) continue;
        const uint32_t s = uint32_t(__builtin_ctz(cov));
        cx[l] = float(batch.x(lane) - origin_x_) + sample_dx_[s];
        cy[l] = float(batch.y(lane) - origin_y_) + sample_dy_[s];
        moved = true;
      }
      const Weights centroid_weights = moved ? weights_at(cx, cy) : weights;
      components(weights, &centroid_weights);
    }
    const F px = __builtin_convertvector(qx, F) + lane_x, py = __builtin_convertvector(qy, F) + lane_y;
    if (position_values) {
      const F z = (z_.at_origin + z_.dx * x) + z_.dy * y;
      put(frag_coord + 0 * W + g * N, px);
      put(frag_coord + 1 * W + g * N, py);
      put(frag_coord + 2 * W + g * N, z);
      put(frag_coord + 3 * W + g * N, weights.inv_w);
      put(frag_depth + g * N, z);
    }
    if (point) {
      const float inv_size = 1.0f / t_.point_size;
      put(point_coord + 0 * W + g * N, F((px - t_.point_origin[0]) * inv_size));
      put(point_coord + 1 * W + g * N, F((py - t_.point_origin[1]) * inv_size));
    }
  }
}

__attribute__((target("avx512f"))) void TriangleInterpolator::fill_avx512(const QuadBatch& batch, uint32_t W,
                                                                          int32_t sample, LaneRange range, float* inputs,
                                                                          float* frag_coord, float* frag_depth,
                                                                          float* point_coord) const {
  fill_lanes<16>(batch, W, sample, range, inputs, frag_coord, frag_depth, point_coord);
}

// Out of line like the others, so fill, which runs per batch, stays a few checks and a jump.
__attribute__((noinline)) void TriangleInterpolator::fill_sse(const QuadBatch& batch, uint32_t W, int32_t sample, LaneRange range,
                                                             float* inputs, float* frag_coord, float* frag_depth,
                                                             float* point_coord) const {
  fill_lanes<4>(batch, W, sample, range, inputs, frag_coord, frag_depth, point_coord);
}

__attribute__((target("avx2"))) void TriangleInterpolator::fill_avx2(const QuadBatch& batch, uint32_t W,
                                                                     int32_t sample, LaneRange range, float* inputs, float* frag_coord,
                                                                     float* frag_depth, float* point_coord) const {
  fill_lanes<8>(batch, W, sample, range, inputs, frag_coord, frag_depth, point_coord);
}

bool TriangleInterpolator::fill_with(uint32_t vector_lanes, const QuadBatch& batch, uint32_t W, int32_t sample,
                                     float* inputs, float* frag_coord, float* frag_depth, float* point_coord,
                                     uint32_t first_quad, uint32_t end_quad) const {
  const LaneRange range{4 * first_quad, std::min(4 * end_quad, W)};
  return fill_inline(vector_lanes, batch, W, sample, range, inputs, frag_coord, frag_depth, point_coord);
}

// fill_with's body, inlined into fill too: one call per batch fewer (this runs once per 16 pixels).
__attribute__((always_inline)) inline bool TriangleInterpolator::fill_inline(uint32_t vector_lanes,
                                                                            const QuadBatch& batch, uint32_t W,
                                                                            int32_t sample, LaneRange range,
                                                                            float* inputs, float* frag_coord,
                                                                            float* frag_depth,
                                                                            float* point_coord) const {
  if (W > QuadBatch::kMaxLanes || vector_lanes > W || W % vector_lanes) return false;
  if ((vector_lanes == 16 && !kHasAvx512) || (vector_lanes == 8 && !kHasAvx2)) return false;
  if (component_count_ != interpolated_components_) fill_flat(W, range, inputs);
  // A shader that reads no interpolated input, no FragCoord and no PointCoord (a flat colour,
  // say) needs no positions.
  if (!needs_positions_) return true;
  switch (vector_lanes) {
    case 16: fill_avx512(batch, W, sample, range, inputs, frag_coord, frag_depth, point_coord); break;
    case 8: fill_avx2(batch, W, sample, range, inputs, frag_coord, frag_depth, point_coord); break;
    case 4: fill_sse(batch, W, sample, range, inputs, frag_coord, frag_depth, point_coord); break;
    default: return false;
  }
  return true;
}

void TriangleInterpolator::fill(const QuadBatch& batch, uint32_t W, int32_t sample, float* inputs,
                                float* frag_coord, float* frag_depth, float* point_coord) const {
  if (interpolation_record_) {  // InterpolateAt*: the kernel finds the planes through this slot
    const abi::InterpolationRecord* record = &record_;
    memcpy(inputs + size_t(abi::kInterpolationInputSlot) * 4 * W, &record, sizeof record);
  }
  // The usual call (16 lanes on AVX-512, no flat inputs) goes straight to the vector code: fill
  // runs once per batch, and fill_inline's general checks cost a division and a frame.
  const LaneRange all{0, W};
  if (W == 16 && kHasAvx512 && component_count_ == interpolated_components_ && needs_positions_) {
    fill_avx512(batch, W, sample, all, inputs, frag_coord, frag_depth, point_coord);
    return;
  }
  fill_general(batch, W, sample, all, inputs, frag_coord, frag_depth, point_coord);
}

void TriangleInterpolator::fill_quads(const QuadBatch& batch, uint32_t W, int32_t sample, uint32_t first_quad,
                                      uint32_t end_quad, float* inputs, float* frag_coord, float* frag_depth) const {
  // Merged batches hold triangles and lines without InterpolateAt* or PointCoord (DrawRasterState).
  fill_general(batch, W, sample, {4 * first_quad, std::min(4 * end_quad, W)}, inputs, frag_coord, frag_depth, nullptr);
}

// fill for other widths, CPUs, shaders with flat inputs and parts of batches (out of line: see fill).
__attribute__((noinline)) void TriangleInterpolator::fill_general(const QuadBatch& batch, uint32_t W, int32_t sample,
                                                                 LaneRange range, float* inputs, float* frag_coord,
                                                                 float* frag_depth, float* point_coord) const {
  const uint32_t lanes = W % 16 == 0 && kHasAvx512 ? 16 : W % 8 == 0 && kHasAvx2 ? 8 : 4;
  fill_inline(lanes, batch, W, sample, range, inputs, frag_coord, frag_depth, point_coord);
}

void TriangleInterpolator::fill_flat(uint32_t W, LaneRange range, float* inputs) const {
  if (component_count_ == interpolated_components_) return;
  for (uint32_t i = 0; i < component_count_; ++i) {
    const Component& c = components_[i];
    if (c.mode != abi::Interpolation::Flat) continue;
    float* out = inputs + size_t(c.location_component) * W;
    for (uint32_t l = range.begin; l < std::min(range.end, W); ++l) memcpy(&out[l], &c.flat_bits, 4);
  }
}

}  // namespace kiln::exec::gfx
