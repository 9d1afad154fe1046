#pragma once
// Setup of a run of unclipped triangles at once: the front end collects the triangles whose three
// vertices are inside every clip plane (most of a mesh) and hands them over together, so the
// per-triangle tests (bounds, sample positions, exact facing, culling, scissor) run 16 triangles
// at a time in AVX-512 and each accepted triangle is written with a few wide stores. The output
// is exactly what setup_screen_triangle gives for each triangle in order (unit test
// SetupBatch.*); without AVX-512, or in polygon modes other than FILL, it is that loop.
#include <cstddef>
#include <cstdint>

#include "common/default_init_allocator.h"
#include "pipeline/graphics/setup.h"

namespace kiln::exec::gfx {

// Triangles of the batch waiting for setup, one array per field (the AVX-512 setup loads 16 of
// each at once): their vertices' slots (indices into the batch's shaded/screen vertex arrays),
// the provoking vertex's slot, PrimitiveId and layer. Viewport 0.
class PendingTriangles {
 public:
  // Room for `capacity` triangles; empties the list.
  void reset(size_t capacity) {
    storage_.resize(capacity * kFields);
    capacity_ = capacity;
    count_ = 0;
  }
  void add(uint32_t a, uint32_t b, uint32_t c, uint32_t provoking, uint32_t primitive_id, uint32_t layer) {
    uint32_t* at = storage_.data() + count_++;
    at[0] = a, at[capacity_] = b, at[2 * capacity_] = c;
    at[3 * capacity_] = provoking, at[4 * capacity_] = primitive_id, at[5 * capacity_] = layer;
  }
  void clear() { count_ = 0; }
  size_t size() const { return count_; }
  const uint32_t* slots(uint32_t corner) const { return field(corner); }  // corner 0, 1, 2
  const uint32_t* provoking() const { return field(3); }
  const uint32_t* primitive_id() const { return field(4); }
  const uint32_t* layer() const { return field(5); }

 private:
  static constexpr size_t kFields = 6;
  const uint32_t* field(size_t f) const { return storage_.data() + f * capacity_; }
  UninitializedVector<uint32_t> storage_;
  size_t capacity_ = 0, count_ = 0;
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
void setup_screen_triangles(const DrawContext& ctx, const BatchVertices& v, const PendingTriangles& tris, BatchOutput& out);

// The two ways setup_screen_triangles works, for tests: the one-at-a-time reference, and the
// AVX-512 one (only when setup_x16_supported(), and only for polygon mode FILL).
void setup_screen_triangles_scalar(const DrawContext& ctx, const BatchVertices& v, const PendingTriangles& tris,
                                   BatchOutput& out);
void setup_screen_triangles_x16(const DrawContext& ctx, const BatchVertices& v, const PendingTriangles& tris,
                                BatchOutput& out);
bool setup_x16_supported();

// Whether the front end uses its AVX-512 paths (setup_screen_triangles_x16 and
// screen_vertices_x16): true when this CPU runs both. Tests turn it off to compare whole draws
// with the SSE/scalar paths.
extern bool front_end_avx512;

}  // namespace kiln::exec::gfx
