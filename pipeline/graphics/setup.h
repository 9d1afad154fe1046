#pragma once
// Primitive setup: clipped vertices -> framebuffer coordinates (viewport transform) -> 8-bit
// sub-pixel fixed point -> facing (exact signed area) and culling -> RasterTriangles for the
// back end, with their scissored bounds, depth bias and values (flat varyings taken from the
// provoking vertex). Lines become parallelograms (Vulkan's non-strict lines) and points squares,
// both as triangles, so one rasterizer with one fill rule serves all three.
#include <cstdint>

#include "pipeline/graphics/draw_types.h"

namespace kiln::exec::gfx {

// What setup needs to know about the primitive besides its clipped vertices.
struct PrimitiveInfo {
  uint32_t primitive_id;
  const uint32_t* provoking;  // the provoking vertex (flat varyings, layer, viewport index)
  uint32_t viewport;          // index into DrawContext::viewports
  uint32_t layer;
  bool continues_strip;       // lines: a strip segment after the first (line stipple goes on)
};

// A vertex in framebuffer space: the viewport transform of its clip position.
struct ScreenVertex {
  float x, y, z, inv_w;
  int64_t fx, fy;  // x, y in 8-bit fixed point
  const uint32_t* values;  // the shaded vertex (VertexFormat layout)
};
ScreenVertex to_screen(const ViewportTransform& vp, const uint32_t* vertex);
// What a RasterTriangle keeps of a ScreenVertex, in its field order (x, y, z, 1/w), 16 bytes:
// the batched setup (setup_batch.h) reads one per vertex with a single load. fx is
// kNotFiniteFixed when x, y or z is not finite (setup rejects those triangles), so the fixed-point
// x alone tells it.
struct PackedScreenVertex {
  int32_t fx, fy;
  float z, inv_w;
};
constexpr int32_t kNotFiniteFixed = INT32_MIN;  // never a position: setup clamps to +-2^25
PackedScreenVertex pack(const ScreenVertex& s);
// to_screen (and pack, into `packed`) of each of `count` vertices (`stride` values apart) whose
// outcode is 0 (inside every clip plane), bit for bit (SIMD over vertices); out[i] and packed[i]
// of the others are unspecified. `out` may be null: only the packed records are written.
void to_screen_vertices(const ViewportTransform& vp, const uint32_t* vertices, uint32_t stride,
                        const uint32_t* outcodes, size_t count, ScreenVertex* out, PackedScreenVertex* packed);

constexpr uint32_t kMaxSetupVertices = 32;  // more than a clipped polygon can have

// A clipped polygon (3..18 vertices, convex, in order). Applies culling and polygon mode.
void setup_polygon(const DrawContext& ctx, const PrimitiveInfo& info, const uint32_t* const* vertices, uint32_t count,
                   BatchOutput& out);
// setup_polygon of vertices already in framebuffer space (the front end transforms a vertex
// that several unclipped triangles share once).
void setup_screen_polygon(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex* vertices,
                          uint32_t count, BatchOutput& out);
// setup_screen_polygon of one triangle (the unclipped fast path; same result).
void setup_screen_triangle(const DrawContext& ctx, const PrimitiveInfo& info, const ScreenVertex& a,
                           const ScreenVertex& b, const ScreenVertex& c, BatchOutput& out);
// The pieces of setup_screen_triangle that the batched setup (setup_batch.h) calls per accepted
// triangle. The depth bias of the triangle a, b, c (0 when the draw has none):
float triangle_depth_bias(const DrawContext& ctx, const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c);
// Appends the raster values of the oriented triangle's shaded vertices `rows` (flat varyings
// from `provoking`) to out.values; returns their offset (RasterTriangle::values).
uint32_t append_triangle_values(const DrawContext& ctx, const uint32_t* provoking, const uint32_t* const rows[3],
                                BatchOutput& out);
void setup_line(const DrawContext& ctx, const PrimitiveInfo& info, const uint32_t* const* vertices, BatchOutput& out);
void setup_point(const DrawContext& ctx, const PrimitiveInfo& info, const uint32_t* vertex, BatchOutput& out);

}  // namespace kiln::exec::gfx
