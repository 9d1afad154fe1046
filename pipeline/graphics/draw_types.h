#pragma once
// Data that flows between the steps of a draw (pipeline/graphics/*): the per-draw context, shaded
// vertices, assembled primitives and set-up raster primitives. See docs/design/front-end.md and
// docs/design/back-end.md for the overall flow.
#include <cstdint>
#include <vector>

#include "common/default_init_allocator.h"
#include "memory/attachment_access.h"
#include "pipeline/command_list.h"
#include "pipeline/graphics/line_raster.h"

namespace kiln::exec {
struct DrawCounters;
}

namespace kiln::exec::gfx {

constexpr uint32_t kTileSize = 64;     // binning tiles are kTileSize x kTileSize pixels
constexpr uint32_t kSubpixelBits = 8;  // fixed-point vertex positions: 1/256 pixel
constexpr int64_t kSubpixelOne = int64_t{1} << kSubpixelBits;
// Clipping keeps framebuffer coordinates inside +-kGuardBandPixels, so edge functions of 8-bit
// sub-pixel coordinates fit easily in int64 and only near/far/w (and user) planes usually clip.
constexpr float kGuardBandPixels = 32768.0f;
constexpr uint32_t kMaxSamples = 8;

// How one shaded vertex is stored: `stride` 32-bit values (raw patterns) per vertex.
//   [0..3] clip-space position, then 4 values per varying (the fragment shader's inputs, in
//   location order), then clip distances, cull distances, point size, layer, viewport index.
struct VertexFormat {
  uint32_t stride = 4;
  uint32_t varying_count = 0;
  uint32_t varying_location[abi::kMaxVaryingLocations] = {};
  abi::Interpolation varying_interpolation[abi::kMaxVaryingLocations] = {};
  uint32_t clip_offset = 0, clip_count = 0;
  uint32_t cull_offset = 0, cull_count = 0;
  uint32_t point_size_offset = 0, layer_offset = 0, viewport_offset = 0;
  bool has_point_size = false, has_layer = false, has_viewport_index = false;
  // Transform feedback: the last stage's captured components (abi::XfbLayout::captures order)
  // follow at xfb_offset; the rest of the front end never reads them.
  uint32_t xfb_offset = 0, xfb_count = 0;
  static constexpr uint32_t kVaryingOffset = 4;
  // Values interpolated by clipping and rasterization (position excluded): the varyings.
  uint32_t varying_values() const { return varying_count * 4; }
  // Clip/cull distances the fragment shader reads: they follow the varyings in the vertex, and
  // raster triangles carry them too (interpolated like smooth varyings).
  uint32_t fragment_clip_values = 0, fragment_cull_values = 0;
  // Values per vertex a raster triangle carries: the varyings, then the clip and cull distances
  // the fragment shader reads (whole clip block when it reads cull distances, which follow it).
  uint32_t raster_values() const {
    return varying_values() + (fragment_cull_values ? clip_count + fragment_cull_values : fragment_clip_values);
  }
};

// A pixel rectangle [x0, x1) x [y0, y1).
struct Rect {
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x0 >= x1 || y0 >= y1; }
  Rect intersect(const Rect& o) const {
    return {x0 > o.x0 ? x0 : o.x0, y0 > o.y0 ? y0 : o.y0, x1 < o.x1 ? x1 : o.x1, y1 < o.y1 ? y1 : o.y1};
  }
};

// `r` as a Rect, its far corner clamped to INT32_MAX.
inline Rect to_rect(const VkRect2D& r) {
  const int64_t x1 = int64_t(r.offset.x) + r.extent.width, y1 = int64_t(r.offset.y) + r.extent.height;
  return {r.offset.x, r.offset.y, int32_t(x1 < INT32_MAX ? x1 : INT32_MAX), int32_t(y1 < INT32_MAX ? y1 : INT32_MAX)};
}

struct ViewportTransform {
  float scale[3], offset[3];  // framebuffer = ndc * scale + offset (z: depth range)
  float min_depth, max_depth;  // ordered (min <= max), for depth clamp
  float guard_lo[2], guard_hi[2];  // NDC x/y limits that keep framebuffer coordinates in the guard band
  Rect scissor;                // scissor ∩ render area ∩ attachments
  // scissor ∩ the pixels the viewport's rectangle touches: where triangles may draw. Clipping
  // keeps triangles inside a guard band, not the view volume's x/y planes, so this stands in for
  // those planes (a scissor larger than the viewport must not show triangle parts outside it).
  // Lines and points use `scissor`: their width may reach past the viewport.
  Rect triangle_scissor;
  bool near_at_minus_w;        // the near clip plane is z = -w (ViewportState::negative_one_to_one), not z = 0
};

// Everything the steps of one draw command share; built once per DrawCmd.
struct DrawContext {
  const DrawCmd* cmd = nullptr;
  const GraphicsState* state = nullptr;
  const GraphicsKernels* kernels = nullptr;
  VertexFormat vertex_format;
  uint32_t viewport_count = 1;
  ViewportTransform viewports[kMaxViewports];
  uint32_t samples = 1;
  // Sample positions in 1/256 pixel units (kSubpixelBits), relative to the pixel's corner.
  int32_t sample_x[kMaxSamples] = {}, sample_y[kMaxSamples] = {};
  mem::AttachmentSurface color[abi::kMaxColorAttachments];
  mem::ColorCodec color_codec[abi::kMaxColorAttachments];
  bool has_color[abi::kMaxColorAttachments] = {};
  mem::AttachmentSurface depth, stencil;
  mem::DepthCodec depth_codec;
  bool has_depth = false, has_stencil = false;
  uint32_t layer_count = 1;        // layers a Layer output may select
  uint32_t attachment_layers = 1;  // layers every attachment view has (multiview bound)
  uint32_t view_index = 0;  // the multiview pass being run
  Rect framebuffer;         // render area ∩ attachment extents
  DrawCounters* counters = nullptr;  // pipeline/draw.h; null when no query is active
  bool xfb_active = false;           // transform feedback captures this draw (XfbBatch)
};

// One (sub-)draw: a direct draw, or one record of an indirect draw.
struct DrawParams {
  bool indexed = false;
  uint32_t count = 0, instance_count = 0, first = 0, first_instance = 0;
  int32_t vertex_offset = 0;
  uint32_t draw_index = 0;
  uint32_t groups[3] = {};  // mesh-task draws: the workgroup grid
};

// A primitive as vertex ids (VertexIndex values) after primitive assembly; adjacency dropped.
struct AssembledPrimitive {
  int32_t id[3];
  uint8_t vertex_count;  // 1 point, 2 line, 3 triangle
  uint8_t provoking;     // which of id[] is the provoking vertex
  uint32_t primitive_id; // PrimitiveId: index of the primitive in the draw
  bool continues_strip;  // a line strip's segment after its first (the line stipple counter goes on)
};

// A primitive as a geometry shader reads it: its vertex ids in gl_in order, adjacent vertices
// included (1, 2, 4, 3 or 6 of them: geometry_input_vertex_count).
struct GeometryInput {
  int32_t id[6];
  uint32_t primitive_id;  // PrimitiveIdIn: index of the primitive in the draw
};

// Big per-draw buffers that are filled right after they are sized (no zeroing first).
using VertexIds = UninitializedVector<int64_t>;  // VertexIndex values or kRestartCut
using PrimitiveList = UninitializedVector<AssembledPrimitive>;
using GeometryInputList = UninitializedVector<GeometryInput>;

enum class PrimitiveKind : uint8_t { Triangle, Line, Point };

// A triangle ready for the tile back end (lines and points are expanded to triangles too).
// Vertices are oriented so that the edge functions are >= 0 inside.
// 96 bytes: a scene holds tens of thousands, written by the front end and read by binning and
// the back end, so its size is memory traffic per triangle.
struct RasterTriangle {
  int32_t x[3], y[3];  // framebuffer position, 8-bit fixed point (|v| <= 2^25: setup clamps)
  float z[3];          // framebuffer depth (viewport-transformed)
  float inv_w[3];      // 1 / clip w
  Rect bounds;         // pixels that may be covered: bounding box ∩ scissor ∩ framebuffer
  uint32_t values;     // offset of 3 * varying_values() raw values in the batch's value pool
  uint32_t primitive_id;
  float depth_bias;    // added to every sample's depth (VkPipelineRasterizationStateCreateInfo)
  float point_origin[2], point_size;  // points: the sprite's upper-left corner and size (PointCoord)
  uint8_t viewport;    // index into DrawContext::viewports (depth clamp range)
  PrimitiveKind kind;
  bool front_facing;
  bool flat_only;      // points: every value comes from vertex 0 unchanged
  uint16_t layer;      // < maxFramebufferLayers (2048) or the view count
  uint16_t line;       // lines with a per-pixel rule: index into BatchOutput::lines; else kNoLineRaster
};
static_assert(kMaxViewports <= 256, "RasterTriangle::viewport is a byte");
static_assert(sizeof(RasterTriangle) == 96);

// Transform feedback of one batch, captured by the worker that ran its front end: per vertex
// stream, its primitives in API order, and per buffer the bytes of their vertices (each vertex a
// stride-sized record with the captured components at their offsets; other bytes are never
// copied to the buffer). The queue thread then gives each batch its place in the buffers in API
// order (pipeline/draw.cpp).
struct XfbBatch {
  uint32_t primitives[abi::kMaxVertexStreams] = {};           // captured or not (primitives needed)
  uint32_t vertices_per_primitive[abi::kMaxVertexStreams] = {};
  std::vector<uint8_t> data[abi::kMaxXfbBuffers];
  bool any = false;
  void clear() {
    if (!any) return;
    for (uint32_t& p : primitives) p = 0;
    for (auto& d : data) d.clear();
    any = false;
  }
};

// The front end's output for one batch: raster triangles in API order and their values.
// Both grow element by element and every element is written in full as it is added, so they
// skip value-initialisation (zeroing a triangle cost a `rep stos` per triangle).
struct BatchOutput {
  UninitializedVector<RasterTriangle> triangles;
  UninitializedVector<uint32_t> values;
  std::vector<LineRaster> lines;  // Bresenham and stippled lines (line_raster.h)
  XfbBatch xfb;                   // transform feedback: what the batch captures (xfb_capture.h)
  void clear() { triangles.clear(); values.clear(); lines.clear(); xfb.clear(); }
};

// A reference from a tile's bin to a triangle; bins hold them in API order.
struct BinEntry {
  uint32_t batch, triangle;
};

}  // namespace kiln::exec::gfx
