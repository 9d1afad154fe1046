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
};

// A clipped polygon (3..18 vertices, convex, in order). Applies culling and polygon mode.
void setup_polygon(const DrawContext& ctx, const PrimitiveInfo& info, const uint32_t* const* vertices, uint32_t count,
                   BatchOutput& out);
void setup_line(const DrawContext& ctx, const PrimitiveInfo& info, const uint32_t* const* vertices, BatchOutput& out);
void setup_point(const DrawContext& ctx, const PrimitiveInfo& info, const uint32_t* vertex, BatchOutput& out);

}  // namespace kiln::exec::gfx
