#include "pipeline/graphics/setup.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include "memory/format_table.h"
#include "pipeline/graphics/vertex_positions_x4.h"

namespace kiln::exec::gfx {
namespace {

inline float value(const uint32_t* v, uint32_t i) {
  float f;
  memcpy(&f, &v[i], 4);
  return f;
}

// Clipping keeps positions inside the guard band; the clamp only protects the integer math from
// NaN/inf positions, which setup then rejects.
int64_t to_fixed(float v) {
  const double limit = 4.0 * kGuardBandPixels;
  const double d = std::isfinite(v) ? std::clamp(static_cast<double>(v), -limit, limit) : 0.0;
  // llround without the libm call: d comes from a float, so scaled ± 0.5 is exact in double and
  // truncation rounds half away from zero exactly like llround.
  const double scaled = d * kSubpixelOne;
  return static_cast<int64_t>(scaled >= 0.0 ? scaled + 0.5 : scaled - 0.5);
}

bool finite(const ScreenVertex& s) { return std::isfinite(s.x) && std::isfinite(s.y) && std::isfinite(s.z); }

// Twice the signed area in fixed point; > 0 when the edge functions are >= 0 inside.
int64_t area2(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c) {
  return (b.fx - a.fx) * (c.fy - a.fy) - (b.fy - a.fy) * (c.fx - a.fx);
}

// The pixel a fixed-point coordinate lies in (floor; an arithmetic shift rounds down).
int32_t pixel_of(int64_t v) { return static_cast<int32_t>(v >> kSubpixelBits); }

// The minimum resolvable depth difference r of the depth attachment (depth bias units).
float depth_bias_unit(const DrawContext& ctx, float max_abs_z) {
  switch (ctx.depth.format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: return 1.0f / 65536.0f;
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: return 1.0f / 16777216.0f;
    default: {
      // Floating point: 2^(e - 23) for the largest exponent e of the primitive's depths.
      int e = 0;
      std::frexp(max_abs_z, &e);  // max_abs_z = m * 2^e with m in [0.5, 1): exponent e - 1
      return max_abs_z > 0.0f ? std::ldexp(1.0f, e - 1 - 23) : std::ldexp(1.0f, -126);
    }
  }
}

float depth_bias(const DrawContext& ctx, const ScreenVertex* const v[3]) {
  const RasterizationState& rs = ctx.state->rasterization;
  if (!rs.depth_bias_enable) return 0.0f;
  // The depth plane's slopes from the float positions.
  const double x1 = v[1]->x - v[0]->x, y1 = v[1]->y - v[0]->y, z1 = v[1]->z - v[0]->z;
  const double x2 = v[2]->x - v[0]->x, y2 = v[2]->y - v[0]->y, z2 = v[2]->z - v[0]->z;
  const double det = x1 * y2 - x2 * y1;
  double m = 0.0;
  if (det != 0.0) {
    const double dzdx = (z1 * y2 - z2 * y1) / det, dzdy = (x1 * z2 - x2 * z1) / det;
    m = std::max(std::fabs(dzdx), std::fabs(dzdy));
  }
  const float max_z = std::max({std::fabs(v[0]->z), std::fabs(v[1]->z), std::fabs(v[2]->z)});
  float o = static_cast<float>(m * rs.depth_bias_slope + double(depth_bias_unit(ctx, max_z)) * rs.depth_bias_constant);
  if (rs.depth_bias_clamp > 0.0f) o = std::min(o, rs.depth_bias_clamp);
  else if (rs.depth_bias_clamp < 0.0f) o = std::max(o, rs.depth_bias_clamp);
  return o;
}

// Whether the fixed-point box [min_x, max_x] x [min_y, max_y] contains a sample position of some
// pixel. Small triangles of dense meshes often fall between sample positions; they cover nothing,
// and rejecting them here saves their binning and per-tile setup.
bool holds_sample_position(const DrawContext& ctx, int64_t min_x, int64_t max_x, int64_t min_y, int64_t max_y) {
  auto holds = [](int64_t lo, int64_t hi, int64_t offset) {
    const int64_t first = lo - offset;  // the first pixel whose sample is at or after lo
    const int64_t pixel = first >= 0 ? (first + kSubpixelOne - 1) / kSubpixelOne : -((-first) / kSubpixelOne);
    return pixel * kSubpixelOne + offset <= hi;
  };
  for (uint32_t s = 0; s < ctx.samples; ++s)
    if (holds(min_x, max_x, ctx.sample_x[s]) && holds(min_y, max_y, ctx.sample_y[s])) return true;
  return false;
}

// Appends a triangle whose vertices v are oriented (edge functions >= 0 inside) and whose
// fixed-point bounding box [min_x, max_x] x [min_y, max_y] holds a sample position, unless its
// pixel bounds miss the scissor.
void store_triangle(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex* const v[3], int64_t min_x,
                    int64_t max_x, int64_t min_y, int64_t max_y, PrimitiveKind kind, bool front_facing, float bias,
                    BatchOutput& out) {
  const Rect box{pixel_of(min_x), pixel_of(min_y), pixel_of(max_x) + 1, pixel_of(max_y) + 1};
  const ViewportTransform& viewport = ctx.viewports[info.viewport];
  const Rect bounds = box.intersect(kind == PrimitiveKind::Triangle ? viewport.triangle_scissor : viewport.scissor);
  if (bounds.empty()) return;
  // Written in place, field by field: a local copied in afterwards would be reloaded in wide
  // pieces right after its narrow stores (a store-forwarding stall on every triangle).
  RasterTriangle& t = out.triangles.emplace_back();  // uninitialised: every field is set below
  for (int i = 0; i < 3; ++i) {
    t.x[i] = static_cast<int32_t>(v[i]->fx);
    t.y[i] = static_cast<int32_t>(v[i]->fy);
    t.z[i] = v[i]->z;
    t.inv_w[i] = v[i]->inv_w;
  }
  t.bounds = bounds;
  t.primitive_id = info.primitive_id;
  t.layer = info.layer;
  t.viewport = static_cast<uint8_t>(info.viewport);
  t.depth_bias = bias;
  t.point_origin[0] = t.point_origin[1] = t.point_size = 0.0f;  // emit_point sets them
  t.kind = kind;
  t.front_facing = front_facing;
  t.flat_only = kind == PrimitiveKind::Point;
  t.line = kNoLineRaster;  // attach_line_raster sets it for lines with a per-pixel rule
  const uint32_t* const rows[3] = {v[0]->values, v[1]->values, v[2]->values};
  t.values = append_triangle_values(ctx, info.provoking, rows, out);
}

// Appends one triangle (any orientation; degenerate ones are dropped).
void emit_triangle(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex& a, const ScreenVertex& b,
                   const ScreenVertex& c, PrimitiveKind kind, bool front_facing, float bias, BatchOutput& out) {
  const int64_t area = area2(a, b, c);
  if (area == 0) return;
  const ScreenVertex* const v[3] = {&a, area < 0 ? &c : &b, area < 0 ? &b : &c};
  const int64_t min_x = std::min({a.fx, b.fx, c.fx}), max_x = std::max({a.fx, b.fx, c.fx});
  const int64_t min_y = std::min({a.fy, b.fy, c.fy}), max_y = std::max({a.fy, b.fy, c.fy});
  if (!holds_sample_position(ctx, min_x, max_x, min_y, max_y)) return;  // covers no sample: nothing to raster
  store_triangle(ctx, info, v, min_x, max_x, min_y, max_y, kind, front_facing, bias, out);
}

bool is_front(const DrawContext& ctx, int64_t signed_area2) {
  // Vulkan's area a = -signed_area2 / 2 (y points down); a > 0 is counter-clockwise.
  const bool ccw = signed_area2 < 0;
  return ctx.state->rasterization.front_face == VK_FRONT_FACE_COUNTER_CLOCKWISE ? ccw : !ccw;
}

// The point at parameter t of the screen segment p0 -> p1 (t < 0 or > 1 extends it), with its
// values: depth, 1/w and noperspective values are linear in screen space, smooth values are
// perspective-correct. `storage` receives the vertex record (kVaryingOffset + raster values).
// False when 1/w would not stay positive there (extreme perspective): no extension then.
constexpr uint32_t kMaxLineVertexValues = VertexFormat::kVaryingOffset + 4 * abi::kMaxVaryingLocations + 2 * abi::kMaxClipDistances;
bool extend_line(const VertexFormat& f, const ScreenVertex& p0, const ScreenVertex& p1, float t, uint32_t* storage,
                 ScreenVertex& out) {
  const float inv_w = p0.inv_w + t * (p1.inv_w - p0.inv_w);
  if (!(inv_w > 0.0f) || !std::isfinite(inv_w)) return false;
  out = p0;
  out.x = p0.x + t * (p1.x - p0.x);
  out.y = p0.y + t * (p1.y - p0.y);
  out.z = p0.z + t * (p1.z - p0.z);
  out.inv_w = inv_w;
  out.fx = to_fixed(out.x);
  out.fy = to_fixed(out.y);
  const uint32_t n = f.raster_values();
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t slot = VertexFormat::kVaryingOffset + i;
    const abi::Interpolation mode =
        i < f.varying_values() ? f.varying_interpolation[i / 4] : abi::Interpolation::Smooth;  // clip/cull: smooth
    const float a = value(p0.values, slot), b = value(p1.values, slot);
    float v = a;  // flat: emit_triangle takes the provoking vertex's value anyway
    if (mode == abi::Interpolation::NoPerspective) v = a + t * (b - a);
    else if (mode == abi::Interpolation::Smooth) v = (a * p0.inv_w + t * (b * p1.inv_w - a * p0.inv_w)) / inv_w;
    memcpy(&storage[slot], &v, 4);
  }
  out.values = storage;
  return true;
}

// The two triangles of the parallelogram p0 -> p1 whose ends are p +- (off_x, off_y).
void emit_line_parallelogram(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex& p0,
                             const ScreenVertex& p1, float off_x, float off_y, bool front_facing, float bias,
                             BatchOutput& out) {
  auto shifted = [&](const ScreenVertex& v, float sign) {
    ScreenVertex s = v;
    s.x += sign * off_x;
    s.y += sign * off_y;
    s.fx = to_fixed(s.x);
    s.fy = to_fixed(s.y);
    return s;
  };
  const ScreenVertex a0 = shifted(p0, -1.0f), b0 = shifted(p0, 1.0f);
  const ScreenVertex a1 = shifted(p1, -1.0f), b1 = shifted(p1, 1.0f);
  emit_triangle(ctx, info, a0, b0, b1, PrimitiveKind::Line, front_facing, bias, out);
  emit_triangle(ctx, info, a0, b1, a1, PrimitiveKind::Line, front_facing, bias, out);
}

// The parallelogram p0 -> p1 lengthened by `grow` pixels at each end along the line (t = grow /
// length along the major axis or the line itself) with ends offset by +-(off_x, off_y): triangles
// that only bound a line whose per-pixel rule decides coverage. The new ends' values are
// extrapolated, so interpolation inside is the same as on the unlengthened line.
void emit_line_bounds(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex& p0,
                      const ScreenVertex& p1, float t, float off_x, float off_y, bool front_facing, float bias,
                      BatchOutput& out) {
  uint32_t storage[2][kMaxLineVertexValues];
  ScreenVertex e0, e1;
  if (!extend_line(ctx.vertex_format, p0, p1, -t, storage[0], e0)) e0 = p0;
  if (!extend_line(ctx.vertex_format, p0, p1, 1.0f + t, storage[1], e1)) e1 = p1;
  emit_line_parallelogram(ctx, info, e0, e1, off_x, off_y, front_facing, bias, out);
}

// A LineRaster with the draw's stipple state and the primitive's place in its strip.
LineRaster line_raster_of(const RasterizationState& rs, const PrimitiveInfo& info) {
  LineRaster line;
  line.stipple = rs.line_stipple;
  line.stipple_factor = rs.line_stipple_factor;
  line.stipple_pattern = rs.line_stipple_pattern;
  line.continues_strip = info.continues_strip;
  return line;
}

// Records the per-pixel rule of the triangles emitted since `first_triangle` (line_raster.h).
void attach_line_raster(const LineRaster& line, size_t first_triangle, BatchOutput& out) {
  const uint16_t index = uint16_t(out.lines.size());  // < kNoLineRaster (line_raster.h)
  out.lines.push_back(line);
  for (size_t i = first_triangle; i < out.triangles.size(); ++i) out.triangles[i].line = index;
}

// Bresenham lines (diamond-exit rule, wide lines replicated along the minor axis): the rule is
// applied per pixel in the tile back end; the two triangles here only have to hold the centre of
// every pixel it can produce, so the parallelogram is widened by 1.5 pixels on each side of the
// minor axis and lengthened by 1.5 pixels along the major axis (values extrapolated).
void emit_bresenham_line(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex& p0,
                         const ScreenVertex& p1, float width, bool front_facing, float bias, BatchOutput& out) {
  LineRaster line = line_raster_of(ctx.state->rasterization, info);
  line.bresenham = true;
  line.x_major = std::llabs(p1.fx - p0.fx) >= std::llabs(p1.fy - p0.fy);
  line.width = std::max(1, int32_t(std::floor(width + 0.5f)));
  const int64_t offset = -int64_t(line.width - 1) * kSubpixelOne / 2;  // -(w-1)/2 along the minor axis
  line.ax = p0.fx + (line.x_major ? 0 : offset), line.ay = p0.fy + (line.x_major ? offset : 0);
  line.bx = p1.fx + (line.x_major ? 0 : offset), line.by = p1.fy + (line.x_major ? offset : 0);
  finish_bresenham_line(line);
  const size_t first = out.triangles.size();
  if (line.stipple_length > 0.0f) {  // produces fragments
    const float major = std::fabs(line.x_major ? p1.x - p0.x : p1.y - p0.y);
    const float half = float(line.width) / 2 + 1.5f;
    emit_line_bounds(ctx, info, p0, p1, 1.5f / major, line.x_major ? 0.0f : half, line.x_major ? half : 0.0f,
                     front_facing, bias, out);
  }
  // A stippled line that draws nothing still advances its strip's counter.
  if (out.triangles.size() > first || line.stipple) attach_line_raster(line, first, out);
}

// Smooth lines: the rectangular line's rectangle, its coverage of each pixel scaling alpha in the
// tile back end (line_raster.h). Pixels it only grazes still count, so the triangles bound the
// rectangle grown by 0.75 pixel (more than half a pixel's diagonal) on every side.
void emit_smooth_line(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex& p0, const ScreenVertex& p1,
                      float width, bool front_facing, float bias, BatchOutput& out) {
  constexpr float kGrow = 0.75f;
  const float dx = p1.x - p0.x, dy = p1.y - p0.y, length = std::sqrt(dx * dx + dy * dy);
  LineRaster line = line_raster_of(ctx.state->rasterization, info);
  line.smooth = true;
  line.origin_x = p0.x, line.origin_y = p0.y;
  line.dir_x = length > 0.0f ? dx / length : 0.0f, line.dir_y = length > 0.0f ? dy / length : 0.0f;
  line.length = length;
  line.half_width = width / 2;
  line.stipple_length = length;
  // Integer colour has no alpha to scale: there coverage only decides which pixels are fragments.
  const fmt::FormatInfo* color0 = ctx.has_color[0] ? fmt::format_info(ctx.color[0].format) : nullptr;
  const fmt::NumericKind kind = color0 ? color0->components[0].kind : fmt::NumericKind::None;
  line.scale_alpha = kind != fmt::NumericKind::UInt && kind != fmt::NumericKind::SInt;
  const size_t first = out.triangles.size();
  if (length > 0.0f) {
    const float half = width / 2 + kGrow;
    emit_line_bounds(ctx, info, p0, p1, kGrow / length, -line.dir_y * half, line.dir_x * half, front_facing, bias,
                     out);
  }
  if (out.triangles.size() > first || line.stipple) attach_line_raster(line, first, out);
}

// Lines and points from polygon mode keep the polygon's facing and depth bias.
void emit_line(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex& p0, const ScreenVertex& p1,
               bool front_facing, float bias, BatchOutput& out) {
  const RasterizationState& rs = ctx.state->rasterization;
  const float width = std::clamp(rs.line_width != rs.line_width ? 1.0f : rs.line_width, kMinLineWidth, kMaxLineWidth);
  if (rs.line_mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT) {
    emit_bresenham_line(ctx, info, p0, p1, width, front_facing, bias, out);
    return;
  }
  if (rs.line_mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT) {
    emit_smooth_line(ctx, info, p0, p1, width, front_facing, bias, out);
    return;
  }
  // Rectangular lines, and DEFAULT ones (strictLines is TRUE): a rectangle whose ends are
  // perpendicular to the line (offset along its unit normal).
  const float dx = p1.x - p0.x, dy = p1.y - p0.y, length = std::sqrt(dx * dx + dy * dy);
  float off_x = 0.0f, off_y = 0.0f;
  const size_t first = out.triangles.size();
  if (length > 0.0f) {  // a zero-length rectangle covers nothing
    off_x = -dy / length * (width / 2);
    off_y = dx / length * (width / 2);
  }
  if (off_x != 0.0f || off_y != 0.0f)
    emit_line_parallelogram(ctx, info, p0, p1, off_x, off_y, front_facing, bias, out);
  if (!rs.line_stipple) return;
  // Stipple: the counter runs along the line in pixels of its length (line_raster.h).
  LineRaster line = line_raster_of(rs, info);
  line.origin_x = p0.x, line.origin_y = p0.y;
  line.dir_x = length > 0.0f ? dx / length : 0.0f, line.dir_y = length > 0.0f ? dy / length : 0.0f;
  line.stipple_length = length;
  attach_line_raster(line, first, out);
}

void emit_point(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex& p, bool front_facing,
                float bias, BatchOutput& out) {
  const VertexFormat& f = ctx.vertex_format;
  float size = f.has_point_size ? value(p.values, f.point_size_offset) : 1.0f;
  size = std::clamp(size != size ? 1.0f : size, kMinPointSize, kMaxPointSize);
  auto corner = [&](float dx, float dy) {
    ScreenVertex s = p;
    s.x += dx;
    s.y += dy;
    s.fx = to_fixed(s.x);
    s.fy = to_fixed(s.y);
    return s;
  };
  const float h = size / 2;
  const ScreenVertex tl = corner(-h, -h), tr = corner(h, -h), br = corner(h, h), bl = corner(-h, h);
  const size_t first = out.triangles.size();
  emit_triangle(ctx, info, tl, tr, br, PrimitiveKind::Point, front_facing, bias, out);
  emit_triangle(ctx, info, tl, br, bl, PrimitiveKind::Point, front_facing, bias, out);
  for (size_t i = first; i < out.triangles.size(); ++i) {
    out.triangles[i].point_origin[0] = p.x - h;
    out.triangles[i].point_origin[1] = p.y - h;
    out.triangles[i].point_size = size;
  }
}

}  // namespace

namespace {
// The viewport transform of one vertex, written in place (a returned struct would go through a
// stack temporary whose wide reload stalls on the narrow stores just made).
inline void transform_vertex(const ViewportTransform& vp, const uint32_t* v, ScreenVertex& s) {
  const float w = value(v, 3), inv_w = 1.0f / w;
  s.x = value(v, 0) * inv_w * vp.scale[0] + vp.offset[0];
  s.y = value(v, 1) * inv_w * vp.scale[1] + vp.offset[1];
  s.z = value(v, 2) * inv_w * vp.scale[2] + vp.offset[2];
  s.inv_w = inv_w;
  s.fx = to_fixed(s.x);
  s.fy = to_fixed(s.y);
  s.values = v;
}
}  // namespace

ScreenVertex to_screen(const ViewportTransform& vp, const uint32_t* v) {
  ScreenVertex s;
  transform_vertex(vp, v, s);
  return s;
}

PackedScreenVertex pack(const ScreenVertex& s) {
  return {finite(s) ? static_cast<int32_t>(s.fx) : kNotFiniteFixed, static_cast<int32_t>(s.fy), s.z, s.inv_w};
}

namespace {

// to_fixed of four floats, exactly, in float arithmetic: after the same clamp, v * 256 is exact
// in float (|v * 256| <= 2^25), its truncation t is exact as int32 and as float, and so is the
// fraction v * 256 - t; rounding half away from zero then steps t by the fraction's sign when
// |fraction| >= 1/2 — what the scalar path's (v * 256 +- 0.5) truncated in double gives.
__attribute__((always_inline)) inline __m128i to_fixed4(__m128 v) {
  static_assert(4.0 * kGuardBandPixels * kSubpixelOne <= 2147483647.0);
  const __m128 limit = _mm_set1_ps(4.0f * kGuardBandPixels), neg_limit = _mm_set1_ps(-4.0f * kGuardBandPixels);
  const __m128 scaled = _mm_mul_ps(_mm_min_ps(_mm_max_ps(v, neg_limit), limit), _mm_set1_ps(float(kSubpixelOne)));
  const __m128i truncated = _mm_cvttps_epi32(scaled);
  const __m128 fraction = _mm_sub_ps(scaled, _mm_cvtepi32_ps(truncated));
  const __m128 abs_fraction = _mm_andnot_ps(_mm_set1_ps(-0.0f), fraction);
  const __m128i round = _mm_castps_si128(_mm_cmpge_ps(abs_fraction, _mm_set1_ps(0.5f)));
  // +1, or -1 for a negative fraction (its sign bit spread, or 1).
  const __m128i step = _mm_or_si128(_mm_srai_epi32(_mm_castps_si128(fraction), 31), _mm_set1_epi32(1));
  const __m128i fixed = _mm_add_epi32(truncated, _mm_and_si128(round, step));
  // NaN and infinities give 0 (v - v is 0 only for finite v).
  const __m128 finite = _mm_cmpeq_ps(_mm_sub_ps(v, v), _mm_setzero_ps());
  return _mm_and_si128(fixed, _mm_castps_si128(finite));
}

}  // namespace

void to_screen_vertices(const ViewportTransform& vp, const uint32_t* vertices, uint32_t stride,
                        const uint32_t* outcodes, size_t count, ScreenVertex* out, PackedScreenVertex* packed) {
  static_assert(offsetof(ScreenVertex, y) == 4 && offsetof(ScreenVertex, z) == 8 && offsetof(ScreenVertex, inv_w) == 12);
  static_assert(sizeof(PackedScreenVertex) == 16 && offsetof(PackedScreenVertex, z) == 8);
  // Four vertices at a time (transposed into x, y, z, w vectors), with transform_vertex's float
  // operations in the same order; vertices outside a clip plane are transformed too (their
  // results go unused, and vector lanes cost the same).
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 scale_x = _mm_set1_ps(vp.scale[0]), scale_y = _mm_set1_ps(vp.scale[1]), scale_z = _mm_set1_ps(vp.scale[2]);
  const __m128 offset_x = _mm_set1_ps(vp.offset[0]), offset_y = _mm_set1_ps(vp.offset[1]);
  const __m128 offset_z = _mm_set1_ps(vp.offset[2]);
  const __m128 not_finite = _mm_castsi128_ps(_mm_set1_epi32(kNotFiniteFixed));
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const uint32_t* v = vertices + i * stride;
    __m128 x, y, z, w;
    load_positions_x4(v, stride, x, y, z, w);
    __m128 inv_w = _mm_div_ps(one, w);
    __m128 sx = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(x, inv_w), scale_x), offset_x);
    __m128 sy = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(y, inv_w), scale_y), offset_y);
    __m128 sz = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(z, inv_w), scale_z), offset_z);
    const __m128i fixed_x = to_fixed4(sx), fixed_y = to_fixed4(sy);
    alignas(16) int32_t fx[4], fy[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(fx), fixed_x);
    _mm_store_si128(reinterpret_cast<__m128i*>(fy), fixed_y);
    // pack(): kNotFiniteFixed for x where x, y or z is not finite (v - v is 0 only for finite v).
    const __m128 all_finite = _mm_and_ps(_mm_and_ps(_mm_cmpeq_ps(_mm_sub_ps(sx, sx), _mm_setzero_ps()),
                                                    _mm_cmpeq_ps(_mm_sub_ps(sy, sy), _mm_setzero_ps())),
                                         _mm_cmpeq_ps(_mm_sub_ps(sz, sz), _mm_setzero_ps()));
    __m128 px = _mm_or_ps(_mm_and_ps(all_finite, _mm_castsi128_ps(fixed_x)), _mm_andnot_ps(all_finite, not_finite));
    __m128 py = _mm_castsi128_ps(fixed_y), pz = sz, pw = inv_w;
    _MM_TRANSPOSE4_PS(px, py, pz, pw);
    _mm_storeu_ps(reinterpret_cast<float*>(packed + i), px);
    _mm_storeu_ps(reinterpret_cast<float*>(packed + i + 1), py);
    _mm_storeu_ps(reinterpret_cast<float*>(packed + i + 2), pz);
    _mm_storeu_ps(reinterpret_cast<float*>(packed + i + 3), pw);
    if (!out) continue;
    _MM_TRANSPOSE4_PS(sx, sy, sz, inv_w);  // back to one (x, y, z, 1/w) row per vertex
    const __m128 rows[4] = {sx, sy, sz, inv_w};
    for (uint32_t k = 0; k < 4; ++k) {
      ScreenVertex& s = out[i + k];
      _mm_storeu_ps(&s.x, rows[k]);
      s.fx = fx[k];
      s.fy = fy[k];
      s.values = v + k * stride;
    }
  }
  for (; i < count; ++i) {
    if (outcodes[i] != 0) continue;
    ScreenVertex s;
    transform_vertex(vp, vertices + i * stride, s);
    packed[i] = pack(s);
    if (out) out[i] = s;
  }
}

void setup_polygon(const DrawContext& ctx, const PrimitiveInfo& info, const uint32_t* const* vertices, uint32_t count,
                   BatchOutput& out) {
  const ViewportTransform& vp = ctx.viewports[info.viewport];
  ScreenVertex s[kMaxSetupVertices];
  for (uint32_t i = 0; i < count; ++i) s[i] = to_screen(vp, vertices[i]);
  setup_screen_polygon(ctx, info, s, count, out);
}

void setup_screen_polygon(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex* s, uint32_t count,
                          BatchOutput& out) {
  for (uint32_t i = 0; i < count; ++i)
    if (!finite(s[i])) return;  // NaN/inf positions (clipping keeps finite ones finite) draw nothing
  // Facing from the whole polygon's exact fixed-point area (the sum over its fan).
  int64_t total = 0;
  for (uint32_t i = 1; i + 1 < count; ++i) total += area2(s[0], s[i], s[i + 1]);
  if (total == 0) return;
  const bool front = is_front(ctx, total);
  const VkCullModeFlags cull = ctx.state->rasterization.cull_mode;
  if ((cull & VK_CULL_MODE_FRONT_BIT) && front) return;
  if ((cull & VK_CULL_MODE_BACK_BIT) && !front) return;
  float bias = 0.0f;
  for (uint32_t i = 1; i + 1 < count; ++i) {
    if (area2(s[0], s[i], s[i + 1]) == 0) continue;
    const ScreenVertex* tri[3] = {&s[0], &s[i], &s[i + 1]};
    bias = depth_bias(ctx, tri);
    break;
  }
  switch (ctx.state->rasterization.polygon_mode) {
    case VK_POLYGON_MODE_LINE:
      for (uint32_t i = 0; i < count; ++i) emit_line(ctx, info, s[i], s[(i + 1) % count], front, bias, out);
      return;
    case VK_POLYGON_MODE_POINT:
      for (uint32_t i = 0; i < count; ++i) emit_point(ctx, info, s[i], front, bias, out);
      return;
    default:
      break;
  }
  for (uint32_t i = 1; i + 1 < count; ++i) {
    // Slivers whose rounded area disagrees with the polygon's orientation are dropped.
    const int64_t a = area2(s[0], s[i], s[i + 1]);
    if (a == 0 || (a > 0) != (total > 0)) continue;
    emit_triangle(ctx, info, s[0], s[i], s[i + 1], PrimitiveKind::Triangle, front, bias, out);
  }
}

void setup_screen_triangle(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex& a,
                           const ScreenVertex& b, const ScreenVertex& c, BatchOutput& out) {
  if (ctx.state->rasterization.polygon_mode != VK_POLYGON_MODE_FILL) {
    const ScreenVertex s[3] = {a, b, c};
    setup_screen_polygon(ctx, info, s, 3, out);
    return;
  }
  // Cheapest rejections first: most triangles of a dense mesh hold no sample position.
  const int64_t min_x = std::min({a.fx, b.fx, c.fx}), max_x = std::max({a.fx, b.fx, c.fx});
  const int64_t min_y = std::min({a.fy, b.fy, c.fy}), max_y = std::max({a.fy, b.fy, c.fy});
  if (!holds_sample_position(ctx, min_x, max_x, min_y, max_y)) return;
  const int64_t area = area2(a, b, c);
  if (area == 0 || !finite(a) || !finite(b) || !finite(c)) return;
  const bool front = is_front(ctx, area);
  const VkCullModeFlags cull = ctx.state->rasterization.cull_mode;
  if ((cull & VK_CULL_MODE_FRONT_BIT) && front) return;
  if ((cull & VK_CULL_MODE_BACK_BIT) && !front) return;
  const ScreenVertex* tri[3] = {&a, &b, &c};
  const float bias = depth_bias(ctx, tri);
  // emit_triangle's work without repeating the area and bounding box computed above.
  const ScreenVertex* const v[3] = {&a, area < 0 ? &c : &b, area < 0 ? &b : &c};
  store_triangle(ctx, info, v, min_x, max_x, min_y, max_y, PrimitiveKind::Triangle, front, bias, out);
}

float triangle_depth_bias(const DrawContext& ctx, const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c) {
  const ScreenVertex* const tri[3] = {&a, &b, &c};
  return depth_bias(ctx, tri);
}

uint32_t append_triangle_values(const DrawContext& ctx, const uint32_t* provoking, const uint32_t* const rows[3],
                                BatchOutput& out) {
  // Three vertices' varyings; flat ones from the provoking vertex.
  const VertexFormat& f = ctx.vertex_format;
  const uint32_t n = f.raster_values();
  const uint32_t offset = static_cast<uint32_t>(out.values.size());
  if (n == 0) return offset;
  out.values.resize(out.values.size() + 3 * size_t(n));
  uint32_t* dst = out.values.data() + offset;
  for (int i = 0; i < 3; ++i) {
    memcpy(dst + i * n, rows[i] + VertexFormat::kVaryingOffset, n * 4);
    for (uint32_t k = 0; k < f.varying_count; ++k)
      if (f.varying_interpolation[k] == abi::Interpolation::Flat)
        memcpy(dst + i * n + k * 4, provoking + VertexFormat::kVaryingOffset + k * 4, 16);
  }
  return offset;
}

void setup_line(const DrawContext& ctx, const PrimitiveInfo& info, const uint32_t* const* vertices, BatchOutput& out) {
  const ViewportTransform& vp = ctx.viewports[info.viewport];
  const ScreenVertex a = to_screen(vp, vertices[0]), b = to_screen(vp, vertices[1]);
  if (finite(a) && finite(b)) emit_line(ctx, info, a, b, true, 0.0f, out);
}

void setup_point(const DrawContext& ctx, const PrimitiveInfo& info, const uint32_t* vertex, BatchOutput& out) {
  const ScreenVertex p = to_screen(ctx.viewports[info.viewport], vertex);
  if (finite(p)) emit_point(ctx, info, p, true, 0.0f, out);
}

}  // namespace kiln::exec::gfx
