#include "pipeline/graphics/xfb_capture.h"

#include <atomic>
#include <cstring>

#include "pipeline/draw.h"

namespace kiln::exec::gfx {

void capture_transform_feedback(const DrawContext& ctx, const PrimitiveBatch& batch, XfbBatch& out) {
  const XfbPlan& plan = ctx.kernels->xfb;
  const VertexFormat& f = ctx.vertex_format;
  const bool provoking_last = ctx.state->rasterization.provoking_vertex == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  out.any = true;
  const uint32_t count = batch.primitive_count();
  for (uint32_t p = 0; p < count; ++p) {
    const PrimitiveHeader& h = batch.headers[p];
    ++out.primitives[h.stream];
    out.vertices_per_primitive[h.stream] = h.vertex_count;
  }
  for (uint32_t b = 0; b < abi::kMaxXfbBuffers; ++b) {
    const XfbBufferPlan& buffer = plan.buffers[b];
    if (!buffer.used()) continue;
    const uint32_t stream = buffer.stream, stride = buffer.stride;
    const uint32_t* const words = batch.vertices.data() + f.xfb_offset;  // the first row's capture words
    std::vector<uint8_t>& data = out.data[b];
    data.resize(size_t(out.primitives[stream]) * out.vertices_per_primitive[stream] * stride);
    uint8_t* at = data.data();
    for (uint32_t p = 0; p < count; ++p) {
      const PrimitiveHeader& h = batch.headers[p];
      if (h.stream != stream) continue;
      const uint32_t n = h.vertex_count;
      const uint32_t first = provoking_last ? (h.provoking + 1) % n : h.provoking;
      for (uint32_t v = 0; v < n; ++v, at += stride) {
        const uint32_t* row = words + size_t(batch.slots[size_t(p) * 3 + (first + v) % n]) * f.stride;
        for (const auto& [k, offset] : buffer.captures) memcpy(at + offset, &row[k], 4);
      }
    }
  }
}

void count_generated_primitives(const DrawContext& ctx, const PrimitiveBatch& batch) {
  uint64_t per_stream[abi::kMaxVertexStreams] = {};
  for (const PrimitiveHeader& h : batch.headers) ++per_stream[h.stream];
  for (uint32_t s = 0; s < abi::kMaxVertexStreams; ++s)
    if (per_stream[s]) ctx.counters->primitives_generated[s].fetch_add(per_stream[s], std::memory_order_relaxed);
}

}  // namespace kiln::exec::gfx
