#pragma once
// Homogeneous clipping of shaded vertices (VertexFormat layout) before the perspective divide:
// near/far (0 <= z <= w, unless depth clip is off), w > 0, user clip distances, and a guard band
// on x/y so that clipping against the viewport's sides is almost never needed; cull distances
// discard whole primitives. Attributes are interpolated linearly in clip space, which is
// perspective-correct; NoPerspective values are clipped as value*w so they stay linear on screen.
#include <cstddef>
#include <cstdint>

#include "pipeline/graphics/draw_types.h"

namespace kiln::exec::gfx {

// A triangle clipped against 7 fixed planes and 8 clip distances has at most 3 + 15 vertices.
constexpr uint32_t kMaxClipPlanes = 7 + abi::kMaxClipDistances;
constexpr uint32_t kMaxClippedVertices = 3 + kMaxClipPlanes;

// Scratch storage for clipping one primitive (reused across primitives by one thread).
struct ClipScratch {
  std::vector<float> storage;  // new vertices, `stride` values each
};

// Clips a primitive of `count` (1, 2 or 3) vertices. Returns the number of output vertices
// (0: discarded; a point stays 1, a line 2, a triangle becomes a convex polygon of 3..18) and
// points out[i] at either an input vertex or a vertex in `scratch`.
// `outcodes`: each vertex's clip_outcode for this viewport when the caller has them (vertices
// shared by several primitives are classified once), else null.
uint32_t clip_primitive(const DrawContext& ctx, const ViewportTransform& viewport, const uint32_t* const* in,
                        const uint32_t* outcodes, uint32_t count, ClipScratch& scratch, const uint32_t** out);

// The planes (bit per plane) a shaded vertex lies outside of, for clip_primitive.
uint32_t clip_outcode(const DrawContext& ctx, const ViewportTransform& viewport, const uint32_t* vertex);
// clip_outcode of `count` vertices `stride` values apart (SIMD over vertices; same results).
void clip_outcodes(const DrawContext& ctx, const ViewportTransform& viewport, const uint32_t* vertices, uint32_t stride,
                   size_t count, uint32_t* out);
// ORs the user clip planes' bits of clip_outcode into out[i] (for outcodes of the fixed planes
// computed elsewhere: screen_vertices_x16.h); nothing without clip distances.
void add_user_outcodes(const DrawContext& ctx, const ViewportTransform& viewport, const uint32_t* vertices,
                       uint32_t stride, size_t count, uint32_t* out);

}  // namespace kiln::exec::gfx
