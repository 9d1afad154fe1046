#pragma once
// The seam between the pre-rasterization stages and the rest of the front end
// (docs/design/front-end.md). Producers — vertex shading today; tessellation, geometry shading
// and mesh shading plug in the same way — turn their input into a PrimitiveBatch: the last
// stage's vertex records plus one header per primitive. The consumer (primitive_consumer.h)
// clips, sets up and hands a batch to binning without knowing which stage made it.
#include <cstdint>

#include "common/default_init_allocator.h"
#include "pipeline/graphics/draw_types.h"

namespace kiln::exec::gfx {

// PrimitiveHeader::layer of a primitive whose Layer output names no layer of the framebuffer:
// the consumer drops it (nothing to draw into).
constexpr uint16_t kNoLayer = 0xFFFF;
static_assert(kNoLayer > 2048, "maxFramebufferLayers must stay below kNoLayer");

// What the consumer needs to know of one primitive besides its vertices. The producer resolves
// layer and viewport (from the provoking vertex, a per-primitive output or the multiview view),
// so the consumer never looks for them in a vertex record.
struct PrimitiveHeader {
  uint32_t primitive_id;  // PrimitiveId as the fragment shader reads it
  uint16_t layer;         // framebuffer layer, or kNoLayer
  uint8_t viewport;       // index into DrawContext::viewports, already validated
  uint8_t vertex_count : 2;     // 1 point, 2 line, 3 triangle
  uint8_t provoking : 2;        // which of the primitive's vertices is the provoking one
  uint8_t stream : 2;           // vertex stream (geometry shaders); 0 otherwise
  uint8_t continues_strip : 1;  // a line strip's segment after its first (line stipple goes on)
};
static_assert(sizeof(PrimitiveHeader) == 8, "a header per primitive is memory traffic per primitive");

// One producer's output: vertex records in the VertexFormat of the pipeline's last
// pre-rasterization stage (DrawContext::vertex_format), and primitives over them in API order.
// Arrays, not records per primitive, so a producer can fill each one with SIMD stores (see
// ARCHITECTURE.md "Stage data between front-end steps").
struct PrimitiveBatch {
  UninitializedVector<uint32_t> vertices;  // vertex_count records, VertexFormat::stride values each
  uint32_t vertex_count = 0;
  // With want_positions (set by the producer's caller before producing): the clip positions again,
  // one array per component, x[0..vertex_count) then y, z, w, as a SIMD kernel writes them.
  bool want_positions = false;
  UninitializedVector<float> positions;
  UninitializedVector<uint32_t> slots;  // 3 per primitive: indices of its vertices in `vertices`
  UninitializedVector<PrimitiveHeader> headers;
  // Every header's viewport is 0: the consumer then classifies each vertex against the clip
  // planes once, however many primitives share it.
  bool single_viewport = true;

  uint32_t primitive_count() const { return uint32_t(headers.size()); }
  const uint32_t* vertex(uint32_t slot, uint32_t stride) const { return vertices.data() + size_t(slot) * stride; }
  // Empties the batch.
  void clear() {
    vertex_count = 0;
    vertices.clear();
    positions.clear();
    slots.clear();
    headers.clear();
    single_viewport = true;
  }
  // Room for `count` more vertex records (no positions: a producer that appends as it goes
  // leaves want_positions false); returns the first new record.
  uint32_t* append_vertices(uint32_t count, uint32_t stride) {
    vertices.resize(size_t(vertex_count + count) * stride);
    vertex_count += count;
    return vertices.data() + size_t(vertex_count - count) * stride;
  }
  // Sizes the vertex arrays for `count` vertices (contents unspecified).
  void resize_vertices(uint32_t count, uint32_t stride) {
    vertex_count = count;
    vertices.resize(size_t(count) * stride);
    if (want_positions) positions.resize(size_t(count) * 4);
  }
};

// Sets the layer and viewport of headers [first, primitive_count()) from each primitive's
// provoking vertex (the last stage's Layer and ViewportIndex outputs), or the multiview view.
// A Layer naming no framebuffer layer becomes kNoLayer; a ViewportIndex past the viewports, 0.
void resolve_layers_and_viewports(const DrawContext& ctx, PrimitiveBatch& batch, uint32_t first);

}  // namespace kiln::exec::gfx
