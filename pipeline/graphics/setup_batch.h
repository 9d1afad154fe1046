#pragma once
// Setup of a run of unclipped triangles at once: the front end collects the triangles whose three
// vertices are inside every clip plane (most of a mesh) and hands them over together, so the
// per-triangle tests (bounds, sample positions, exact facing, culling, scissor) run 16 triangles
// at a time in AVX-512 and each accepted triangle is written with a few wide stores. The output
// is exactly what setup_screen_triangle gives for each triangle in order (unit test
// SetupBatch.*); without AVX-512, or in polygon modes other than FILL, it is that loop.
#include <cstddef>
#include <cstdint>

#include "pipeline/graphics/setup.h"

namespace kiln::exec::gfx {

// A triangle of the batch waiting for setup: its vertices' slots (indices into the batch's
// shaded/screen vertex arrays), its provoking vertex's slot, PrimitiveId and layer. Viewport 0.
struct PendingTriangle {
  uint32_t slot[3];
  uint32_t provoking;
  uint32_t primitive_id;
  uint32_t layer;
};

// The batch's vertices as setup reads them (all indexed by slot; only vertices of pending
// triangles need valid entries).
struct BatchVertices {
  const uint32_t* shaded;              // VertexFormat rows (flat varyings of the provoking vertex)
  uint32_t stride;                     // VertexFormat::stride
  const ScreenVertex* screen;          // to_screen_vertices (null when !setup_reads_screen_vertices)
  const PackedScreenVertex* packed;    // ... and its packed records
};

// Whether setup_screen_triangles reads BatchVertices::screen for this draw: not on the AVX-512
// path without depth bias, which needs only the packed records (the front end then skips
// writing ScreenVertex records).
bool setup_reads_screen_vertices(const DrawContext& ctx);

// setup_screen_triangle of each pending triangle, in order.
void setup_screen_triangles(const DrawContext& ctx, const BatchVertices& v, const PendingTriangle* tris, size_t count,
                            BatchOutput& out);

// The two ways setup_screen_triangles works, for tests: the one-at-a-time reference, and the
// AVX-512 one (only when setup_x16_supported(), and only for polygon mode FILL).
void setup_screen_triangles_scalar(const DrawContext& ctx, const BatchVertices& v, const PendingTriangle* tris,
                                   size_t count, BatchOutput& out);
void setup_screen_triangles_x16(const DrawContext& ctx, const BatchVertices& v, const PendingTriangle* tris,
                                size_t count, BatchOutput& out);
bool setup_x16_supported();

}  // namespace kiln::exec::gfx
