#include "pipeline/graphics/fragment_inputs.h"

#include <cstring>

namespace kiln::exec::gfx {
namespace {

float bits_to_float(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

}  // namespace

TriangleInterpolator::TriangleInterpolator(const DrawContext& ctx, const RasterTriangle& t, const uint32_t* values,
                                           int32_t origin_x, int32_t origin_y)
    : ctx_(ctx), t_(t), origin_x_(origin_x), origin_y_(origin_y) {
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
  for (int i = 0; i < 3; ++i) inv_w_[i] = t.inv_w[i];
  perspective_ = !(t.inv_w[0] == t.inv_w[1] && t.inv_w[1] == t.inv_w[2]);

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
    for (uint32_t c = 0; c < 4; ++c)
      add_component(loc * 4 + c, v * 4 + c, f.varying_interpolation[v], (fi.centroid_mask & (1u << loc)) != 0);
  }
  // Clip and cull distances follow the varyings (smooth, at the pixel centre).
  const uint32_t base = abi::kClipCullInputSlot * 4, clip_at = f.varying_values();
  for (uint32_t i = 0; i < f.fragment_clip_values; ++i)
    add_component(base + i, clip_at + i, abi::Interpolation::Smooth, false);
  for (uint32_t i = 0; i < f.fragment_cull_values; ++i)
    add_component(base + fi.clip_distance_inputs + i, clip_at + f.clip_count + i, abi::Interpolation::Smooth, false);
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

void TriangleInterpolator::positions(const QuadBatch& batch, int32_t sample, float* px, float* py) const {
  const float sx = sample < 0 ? 0.5f : float(ctx_.sample_x[sample]) / kSubpixelOne;
  const float sy = sample < 0 ? 0.5f : float(ctx_.sample_y[sample]) / kSubpixelOne;
  for (uint32_t l = 0; l < batch.lanes(); ++l) {
    px[l] = float(batch.x(l)) + sx;
    py[l] = float(batch.y(l)) + sy;
  }
}

void TriangleInterpolator::sample_depths(const QuadBatch& batch, float* depth) const {
  // Sample by sample and quad by quad (fixed 4-lane inner loops the compiler vectorises); the
  // arithmetic per lane is the plane equation at the same coordinates as everywhere else.
  for (uint32_t s = 0; s < ctx_.samples; ++s) {
    const float sx = float(ctx_.sample_x[s]) / kSubpixelOne, sy = float(ctx_.sample_y[s]) / kSubpixelOne;
    for (uint32_t q = 0; q < batch.quads; ++q) {
      const int32_t qx = batch.quad_x[q] - origin_x_, qy = batch.quad_y[q] - origin_y_;
      for (uint32_t i = 0; i < 4; ++i) {
        const float x = float(qx + int32_t(i & 1)) + sx, y = float(qy + int32_t(i >> 1)) + sy;
        depth[(q * 4 + i) * kMaxSamples + s] = z_.at_origin + z_.dx * x + z_.dy * y;
      }
    }
  }
}

void TriangleInterpolator::weights(uint32_t lanes, const float* px, const float* py, float* b1, float* b2, float* p1,
                                   float* p2, float* inv_w) const {
  const float ox = float(origin_x_), oy = float(origin_y_);
  for (uint32_t l = 0; l < lanes; ++l) {
    const float x = px[l] - ox, y = py[l] - oy;
    b1[l] = b1_.at_origin + b1_.dx * x + b1_.dy * y;
    b2[l] = b2_.at_origin + b2_.dx * x + b2_.dy * y;
  }
  if (!perspective_) {
    // Equal 1/w at every vertex: perspective-correct weights are the screen-space ones.
    for (uint32_t l = 0; l < lanes; ++l) {
      p1[l] = b1[l];
      p2[l] = b2[l];
      inv_w[l] = inv_w_[0];
    }
    return;
  }
  for (uint32_t l = 0; l < lanes; ++l) {
    const float q0 = (1.0f - b1[l] - b2[l]) * inv_w_[0], q1 = b1[l] * inv_w_[1], q2 = b2[l] * inv_w_[2];
    const float w = q0 + q1 + q2;
    inv_w[l] = w;
    p1[l] = q1 / w;
    p2[l] = q2 / w;
  }
}

void TriangleInterpolator::fill(const QuadBatch& batch, uint32_t W, int32_t sample, float* inputs,
                                float* frag_coord, float* frag_depth, float* point_coord) const {
  constexpr uint32_t N = QuadBatch::kMaxLanes;
  if (interpolation_record_) {
    const abi::InterpolationRecord* record = &record_;
    memcpy(inputs + size_t(abi::kInterpolationInputSlot) * 4 * W, &record, sizeof record);
  }
  const abi::FragmentInterface& fi = ctx_.kernels->fragment_interface;
  const bool position_values = fi.reads_frag_coord || fi.writes_depth;  // FragDepth starts at FragCoord.z
  if (!interpolated_components_ && !position_values && t_.kind != PrimitiveKind::Point) {
    // A shader that reads no interpolated input, no FragCoord and no PointCoord (a flat colour,
    // say) needs no positions: only its flat inputs are filled.
    fill_flat(W, inputs);
    return;
  }
  float px[N], py[N], b1[N], b2[N], p1[N], p2[N], inv_w[N];
  positions(batch, sample, px, py);
  for (uint32_t l = batch.lanes(); l < W; ++l) {
    px[l] = float(origin_x_) + 0.5f;
    py[l] = float(origin_y_) + 0.5f;
  }
  if (interpolated_components_ || position_values) weights(W, px, py, b1, b2, p1, p2, inv_w);
  const float ox = float(origin_x_), oy = float(origin_y_);
  if (position_values) {
    for (uint32_t l = 0; l < W; ++l) {
      const float z = z_.at_origin + z_.dx * (px[l] - ox) + z_.dy * (py[l] - oy);
      frag_coord[0 * W + l] = px[l];
      frag_coord[1 * W + l] = py[l];
      frag_coord[2 * W + l] = z;
      frag_coord[3 * W + l] = inv_w[l];
      frag_depth[l] = z;
    }
  }
  if (t_.kind == PrimitiveKind::Point) {
    const float inv_size = 1.0f / t_.point_size;
    for (uint32_t l = 0; l < W; ++l) {
      point_coord[0 * W + l] = (px[l] - t_.point_origin[0]) * inv_size;
      point_coord[1 * W + l] = (py[l] - t_.point_origin[1]) * inv_size;
    }
  }
  // Centroid inputs of a partly covered pixel are evaluated at its first covered sample.
  float cb1[N], cb2[N], cp1[N], cp2[N], unused[N];
  const bool centroid = any_centroid_ && sample < 0;
  if (centroid) {
    const uint32_t full = (1u << ctx_.samples) - 1;
    float cx[N], cy[N];
    for (uint32_t l = 0; l < W; ++l) {
      const uint32_t cov = l < batch.lanes() ? batch.coverage[l] & full : 0;
      cx[l] = px[l];
      cy[l] = py[l];
      if (cov && cov != full) {
        const uint32_t first = uint32_t(__builtin_ctz(cov));
        cx[l] = float(batch.x(l)) + float(ctx_.sample_x[first]) / kSubpixelOne;
        cy[l] = float(batch.y(l)) + float(ctx_.sample_y[first]) / kSubpixelOne;
      }
    }
    weights(W, cx, cy, cb1, cb2, cp1, cp2, unused);
  }
  fill_flat(W, inputs);
  for (uint32_t i = 0; i < component_count_; ++i) {
    const Component& c = components_[i];
    float* out = inputs + size_t(c.location_component) * W;
    if (c.mode == abi::Interpolation::Flat) continue;  // filled by fill_flat
    const bool moved = centroid && c.centroid;
    const float* w1 = c.mode == abi::Interpolation::Smooth ? (moved ? cp1 : p1) : (moved ? cb1 : b1);
    const float* w2 = c.mode == abi::Interpolation::Smooth ? (moved ? cp2 : p2) : (moved ? cb2 : b2);
    for (uint32_t l = 0; l < W; ++l) out[l] = c.a0 + w1[l] * c.d1 + w2[l] * c.d2;
  }
}

void TriangleInterpolator::fill_flat(uint32_t W, float* inputs) const {
  for (uint32_t i = 0; i < component_count_; ++i) {
    const Component& c = components_[i];
    if (c.mode != abi::Interpolation::Flat) continue;
    float* out = inputs + size_t(c.location_component) * W;
    for (uint32_t l = 0; l < W; ++l) memcpy(&out[l], &c.flat_bits, 4);
  }
}

}  // namespace kiln::exec::gfx
