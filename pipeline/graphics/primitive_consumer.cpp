#include "pipeline/graphics/primitive_consumer.h"

#include <atomic>
#include <vector>

#include "common/thread_local_ref.h"
#include "pipeline/draw.h"
#include "pipeline/graphics/clipping.h"
#include "pipeline/graphics/screen_vertices_x16.h"
#include "pipeline/graphics/setup.h"
#include "pipeline/graphics/setup_batch.h"

namespace kiln::exec::gfx {
namespace {

struct ConsumerScratch {
  std::vector<uint32_t> outcodes;          // per vertex, when every primitive uses viewport 0
  std::vector<ScreenVertex> screen;        // per vertex inside every clip plane (viewport 0)
  std::vector<PackedScreenVertex> packed;  // ... and packed (setup_batch.h)
  PendingTriangles pending;                // unclipped triangles waiting for setup_screen_triangles
  ClipScratch clip;
};
thread_local ConsumerScratch scratch;

}  // namespace

bool consumer_wants_positions() { return front_end_avx512; }

void consume_primitives(const DrawContext& ctx, const PrimitiveBatch& batch, BatchOutput& out) {
  // Rasterizer discard drops primitives just before rasterization, after clipping: they are
  // still clipped when a query counts clipping statistics, and nothing is set up.
  const bool discard = ctx.state->rasterization.rasterizer_discard;
  if (discard && !ctx.counters) return;
  // Only the rasterization stream is drawn; the others reach transform feedback and the stream
  // queries only. Producers other than geometry shaders emit stream 0 alone, so with another
  // stream selected (it may be dynamic state) nothing of theirs is drawn.
  const uint32_t rasterized_stream = ctx.state->rasterization.rasterization_stream;
  ConsumerScratch& s = thread_local_ref(scratch);
  const VertexFormat& f = ctx.vertex_format;
  const size_t vertex_count = batch.vertex_count;
  const uint32_t count = batch.primitive_count();
  // With one viewport every vertex is classified against the clip planes once ...
  const bool shared_outcodes = batch.single_viewport;
  // ... from its position as the kernel wrote it (one array per component) with AVX-512.
  const bool x16 = shared_outcodes && batch.want_positions;
  uint64_t clip_in = 0, clip_out = 0;
  if (shared_outcodes) {
    s.outcodes.resize(vertex_count);
    s.screen.resize(vertex_count);
    s.packed.resize(vertex_count);
    const bool need_screen = setup_reads_screen_vertices(ctx);
    if (x16) {
      screen_vertices_x16(ctx, ctx.viewports[0], batch.positions.data(), vertex_count, s.outcodes.data(), s.packed.data());
      add_user_outcodes(ctx, ctx.viewports[0], batch.vertices.data(), f.stride, vertex_count, s.outcodes.data());
    } else {
      clip_outcodes(ctx, ctx.viewports[0], batch.vertices.data(), f.stride, vertex_count, s.outcodes.data());
    }
    if (!x16 || need_screen)
      to_screen_vertices(ctx.viewports[0], batch.vertices.data(), f.stride, s.outcodes.data(), vertex_count,
                         need_screen ? s.screen.data() : nullptr, s.packed.data());
  }
  // Unclipped triangles are set up together (setup_batch.h), before anything that follows them.
  const BatchVertices batch_vertices{batch.vertices.data(), f.stride, s.screen.data(), s.packed.data()};
  s.pending.reset(count);
  auto set_up_pending = [&] {
    setup_screen_triangles(ctx, batch_vertices, s.pending, out);
    s.pending.clear();
  };
  // Triangles inside every clip plane without cull distances need only their outcodes: their
  // framebuffer positions are shared with the neighbouring triangles.
  const bool quick = shared_outcodes && f.cull_count == 0;
  const PrimitiveHeader* const headers = batch.headers.data();
  const uint32_t* const slots_of = batch.slots.data();
  const uint32_t* in[3];
  uint32_t codes[3];
  const uint32_t* clipped[kMaxClippedVertices + 2];
  for (uint32_t p = 0; p < count; ++p) {
    const PrimitiveHeader h = headers[p];
    if (h.layer == kNoLayer || h.stream != rasterized_stream) continue;  // no such layer, or not rasterized: nothing to draw
    const uint32_t* slots = slots_of + size_t(p) * 3;
    ++clip_in;
    if (quick && h.vertex_count == 3 && (s.outcodes[slots[0]] | s.outcodes[slots[1]] | s.outcodes[slots[2]]) == 0) {
      ++clip_out;
      if (!discard) s.pending.add(slots[0], slots[1], slots[2], slots[h.provoking], h.primitive_id, h.layer);
      continue;
    }
    for (uint32_t v = 0; v < h.vertex_count; ++v) {
      in[v] = batch.vertex(slots[v], f.stride);
      if (shared_outcodes) codes[v] = s.outcodes[slots[v]];
    }
    PrimitiveInfo info{};
    info.primitive_id = h.primitive_id;
    info.provoking = in[h.provoking];
    info.continues_strip = h.continues_strip;
    info.viewport = h.viewport;
    info.layer = h.layer;
    const uint32_t n = clip_primitive(ctx, ctx.viewports[info.viewport], in, shared_outcodes ? codes : nullptr,
                                      h.vertex_count, s.clip, clipped);
    if (n == 0) continue;
    ++clip_out;  // a clipped polygon is still one primitive
    if (discard) continue;
    if (s.pending.size()) set_up_pending();
    if (h.vertex_count == 1) setup_point(ctx, info, clipped[0], out);
    else if (h.vertex_count == 2) setup_line(ctx, info, clipped, out);
    else setup_polygon(ctx, info, clipped, n, out);
  }
  if (s.pending.size()) set_up_pending();
  if (ctx.counters) {
    ctx.counters->clipping_invocations.fetch_add(clip_in, std::memory_order_relaxed);
    ctx.counters->clipping_primitives.fetch_add(clip_out, std::memory_order_relaxed);
  }
}

}  // namespace kiln::exec::gfx
