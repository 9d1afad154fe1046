#include "pipeline/graphics/primitive_stream.h"

namespace kiln::exec::gfx {

void resolve_layers_and_viewports(const DrawContext& ctx, PrimitiveBatch& batch, uint32_t first) {
  const VertexFormat& f = ctx.vertex_format;
  const bool multiview = ctx.cmd->targets->view_mask != 0;
  const uint16_t fixed_layer = uint16_t(multiview ? ctx.view_index : 0);
  const bool per_vertex = f.has_viewport_index || (f.has_layer && !multiview);
  PrimitiveHeader* const headers = batch.headers.data();
  for (uint32_t p = first; p < batch.primitive_count(); ++p) {
    PrimitiveHeader& h = headers[p];
    h.layer = fixed_layer;
    h.viewport = 0;
    if (!per_vertex) continue;
    const uint32_t* provoking = batch.vertex(batch.slots[size_t(p) * 3 + h.provoking], f.stride);
    if (f.has_viewport_index) {
      const int32_t vp = int32_t(provoking[f.viewport_offset]);
      h.viewport = uint8_t(vp >= 0 && uint32_t(vp) < ctx.viewport_count ? vp : 0);
    }
    if (f.has_layer && !multiview) {
      const int32_t layer = int32_t(provoking[f.layer_offset]);
      h.layer = layer >= 0 && uint32_t(layer) < ctx.layer_count ? uint16_t(layer) : kNoLayer;
    }
  }
}

}  // namespace kiln::exec::gfx
