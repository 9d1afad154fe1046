#pragma once
// The vertex stage: index fetch (8/16/32-bit, primitive restart, robust against index-buffer
// overrun) and running the vertex kernel over W vertices at a time, writing shaded vertices in
// VertexFormat layout.
#include <cstdint>
#include <vector>

#include "pipeline/graphics/draw_types.h"

namespace kiln::exec::gfx {

// A primitive-restart cut in a vertex-id stream.
constexpr int64_t kRestartCut = INT64_MIN;

// The VertexIndex of each vertex the draw consumes, in order (index + vertexOffset for indexed
// draws, firstVertex + n otherwise); restart indices become kRestartCut when restart is enabled.
// Indices past the end of the index buffer read as 0 (logged once).
void fetch_vertex_ids(const DrawContext& ctx, const DrawParams& params, VertexIds& ids);
// The same into ids[0 .. params.count) (a draw's ids can be fetched in pieces: params with a
// later `first` and a smaller `count` give the matching slice).
void fetch_vertex_ids(const DrawContext& ctx, const DrawParams& params, int64_t* ids);

// Shades `count` vertices with the given VertexIndex values for one instance; vertex v's data
// goes to out + v * stride (VertexFormat layout; the point size, layer and viewport index words
// only when the shader writes them). `faults` collects the kernel's fault bits.
// With `positions`, the clip positions are also written there, one array per component: x of
// all `count` vertices, then y, z, w.
void shade_vertices(const DrawContext& ctx, const DrawParams& params, uint32_t instance, const int32_t* vertex_ids,
                    uint32_t count, uint32_t* out, uint32_t* faults, float* positions = nullptr);

// The same vertices stored as whole records in the vertex kernel's own output layout
// (vertex_outputs.slot_count slots each, kernel_abi.h "Tessellation kernels"): the input
// control points of tessellation control shaders.
void shade_vertex_records(const DrawContext& ctx, const DrawParams& params, uint32_t instance, const int32_t* vertex_ids,
                          uint32_t count, uint32_t* records, uint32_t* faults);

// Describes the shaded-vertex layout of the last pre-rasterization stage feeding the fragment
// interface.
VertexFormat make_vertex_format(const GraphicsKernels& kernels);

}  // namespace kiln::exec::gfx
