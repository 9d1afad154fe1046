#include "pipeline/graphics/front_end.h"

#include <immintrin.h>

#include <atomic>
#include <cstring>

#include "common/thread_local_ref.h"
#include "pipeline/draw.h"
#include "pipeline/graphics/clipping.h"
#include "pipeline/graphics/primitive_assembly.h"
#include "pipeline/graphics/setup.h"
#include "pipeline/graphics/screen_vertices_x16.h"
#include "pipeline/graphics/setup_batch.h"
#include "pipeline/graphics/vertex_stage.h"

namespace kiln::exec::gfx {
namespace {

// Distinct vertex ids of a batch, in first-use order, with each primitive vertex's slot. Table
// entries carry the batch's generation, so starting a batch does not clear the table.
struct VertexCache {
  struct Entry {
    int32_t key;
    uint32_t slot;
    uint32_t generation;
  };
  UninitializedVector<int32_t> ids;
  std::vector<Entry> table;
  uint32_t generation = 0;
  void reset(size_t max_vertices) {
    ids.clear();
    size_t size = 16;
    while (size < max_vertices * 2) size *= 2;
    if (++generation == 0 || table.size() != size) {  // new size, or the counter wrapped
      table.assign(size, Entry{0, 0, 0});
      generation = 1;
    }
  }
  // The slot of every vertex of `count` primitives (3 per primitive), after reset(). Table,
  // mask, generation and the id count live in locals: the stores into the table and the id list
  // would otherwise make the compiler reload them for every probe.
  void assign(const AssembledPrimitive* prims, uint32_t count, uint32_t* prim_slots) {
    ids.resize(size_t(count) * 3);
    int32_t* const id_list = ids.data();
    Entry* const entries = table.data();
    const size_t mask = table.size() - 1;
    const uint32_t current = generation;
    uint32_t distinct = 0;
    for (uint32_t p = 0; p < count; ++p) {
      const AssembledPrimitive& prim = prims[p];
      for (uint32_t v = 0; v < prim.vertex_count; ++v) {
        const int32_t id = prim.id[v];
        for (size_t h = (uint32_t(id) * 2654435761u) & mask;; h = (h + 1) & mask) {
          Entry& e = entries[h];
          if (e.generation != current) {
            e = Entry{id, distinct, current};
            id_list[distinct++] = id;
            prim_slots[p * 3 + v] = e.slot;
            break;
          }
          if (e.key == id) {
            prim_slots[p * 3 + v] = e.slot;
            break;
          }
        }
      }
    }
    ids.resize(distinct);
  }
};

struct FrontEndScratch {
  VertexCache cache;
  std::vector<uint32_t> prim_slots;  // 3 per primitive
  std::vector<uint32_t> vertices;    // shaded, VertexFormat stride each
  UninitializedVector<float> positions;  // their clip positions, x, y, z, w arrays (AVX-512 path)
  std::vector<uint32_t> outcodes;    // per shaded vertex, when every primitive uses viewport 0
  std::vector<ScreenVertex> screen;  // per shaded vertex inside every clip plane (viewport 0)
  std::vector<PackedScreenVertex> packed;  // ... and packed (setup_batch.h)
  PendingTriangles pending;  // unclipped triangles waiting for setup_screen_triangles
  ClipScratch clip;
  VertexIds window_ids;              // batches that assemble their own primitives: the ids they read
  PrimitiveList assembled;           // ... and the primitives
};
thread_local FrontEndScratch scratch;

int32_t as_int(uint32_t bits) { return static_cast<int32_t>(bits); }

// The primitives of a batch whose draw was not assembled up front: fetched and assembled from
// just the ids they read, while they are in cache.
const AssembledPrimitive* assemble_batch(const DrawContext& ctx, const BatchJob& job, FrontEndScratch& s) {
  const VkPrimitiveTopology topology = ctx.state->input_assembly.topology;
  const bool provoking_last = ctx.state->rasterization.provoking_vertex == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  const IdWindow window = uncut_id_window(topology, job.begin, job.end);
  DrawParams piece = *job.params;
  piece.first += uint32_t(window.first);  // the draw fits in 32 bits (DrawScene checks)
  piece.count = uint32_t(window.last - window.first);
  s.window_ids.resize(piece.count);
  fetch_vertex_ids(ctx, piece, s.window_ids.data());
  s.assembled.resize(job.end - job.begin);
  assemble_uncut_window(topology, provoking_last, s.window_ids.data(), job.begin, job.end, s.assembled.data());
  return s.assembled.data();
}

// Non-indexed lists: when the primitives' vertex ids run id0, id0 + 1, ... in order, every
// vertex is new and the reuse table would only confirm it; the slots are then the positions in
// that run (the table is left untouched). False, with nothing assigned, for anything else.
bool assign_consecutive_slots(const AssembledPrimitive* prims, uint32_t count, FrontEndScratch& s) {
  if (count == 0) return false;
  const int64_t first = prims[0].id[0];
  uint32_t k = 0;
  bool triangles = true;  // every primitive has 3 vertices: slot p * 3 + v is then vertex k itself
  for (uint32_t p = 0; p < count; ++p) {
    triangles &= prims[p].vertex_count == 3;
    for (uint32_t v = 0; v < prims[p].vertex_count; ++v, ++k)
      if (prims[p].id[v] != first + k) return false;
  }
  s.cache.ids.resize(k);
  // Locals, and counting four at a time (the compiler keeps these loops scalar at -O2).
  int32_t* const ids = s.cache.ids.data();
  uint32_t* const slots = s.prim_slots.data();
  auto count_up = [](auto* out, uint32_t n, int32_t from) {
    uint32_t i = 0;
    __m128i next = _mm_add_epi32(_mm_set1_epi32(from), _mm_setr_epi32(0, 1, 2, 3));
    for (; i + 4 <= n; i += 4, next = _mm_add_epi32(next, _mm_set1_epi32(4)))
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), next);
    for (; i < n; ++i) out[i] = from + int32_t(i);
  };
  count_up(ids, k, int32_t(first));
  if (triangles) {
    count_up(slots, k, 0);
  } else {
    k = 0;
    for (uint32_t p = 0; p < count; ++p)
      for (uint32_t v = 0; v < prims[p].vertex_count; ++v) slots[p * 3 + v] = k++;
  }
  return true;
}

}  // namespace

void run_front_end(const DrawContext& ctx, const BatchJob& job, BatchOutput& out, uint32_t* faults) {
  out.clear();
  FrontEndScratch& s = thread_local_ref(scratch);
  const AssembledPrimitive* prims = job.primitives ? job.primitives->data() + job.begin : assemble_batch(ctx, job, s);
  const uint32_t count = job.end - job.begin;
  s.prim_slots.resize(size_t(count) * 3);
  if (!assign_consecutive_slots(prims, count, s)) {
    s.cache.reset(size_t(count) * 3);
    s.cache.assign(prims, count, s.prim_slots.data());
  }
  const VertexFormat& f = ctx.vertex_format;
  s.vertices.resize(s.cache.ids.size() * f.stride);
  // One vertex shader invocation per distinct vertex of the batch (reuse within a batch is what
  // the spec's "implementation-dependent" invocation count allows).
  if (ctx.counters) ctx.counters->vertex_shader_invocations.fetch_add(s.cache.ids.size(), std::memory_order_relaxed);
  const size_t vertex_count = s.cache.ids.size();
  // Without per-primitive viewports every vertex is classified against the clip planes once.
  const bool shared_outcodes = !f.has_viewport_index;
  // ... from its position as the kernel wrote it (one array per component) with AVX-512.
  const bool x16 = shared_outcodes && front_end_avx512;
  VertexPositions positions;
  if (x16) {
    s.positions.resize(vertex_count * 4);
    positions = {s.positions.data(), s.positions.data() + vertex_count, s.positions.data() + 2 * vertex_count,
                 s.positions.data() + 3 * vertex_count};
  }
  shade_vertices(ctx, *job.params, job.instance, s.cache.ids.data(), static_cast<uint32_t>(vertex_count),
                 s.vertices.data(), faults, x16 ? &positions : nullptr);
  // Rasterizer discard drops primitives just before rasterization, after clipping: they are
  // still clipped when a query counts clipping statistics, and nothing is set up.
  const bool discard = ctx.state->rasterization.rasterizer_discard;
  if (discard && !ctx.counters) return;
  uint64_t clip_in = 0, clip_out = 0;
  if (shared_outcodes) {
    s.outcodes.resize(vertex_count);
    s.screen.resize(vertex_count);
    s.packed.resize(vertex_count);
    const bool need_screen = setup_reads_screen_vertices(ctx);
    if (x16) {
      screen_vertices_x16(ctx, ctx.viewports[0], positions, vertex_count, s.outcodes.data(), s.packed.data());
      add_user_outcodes(ctx, ctx.viewports[0], s.vertices.data(), f.stride, vertex_count, s.outcodes.data());
    } else {
      clip_outcodes(ctx, ctx.viewports[0], s.vertices.data(), f.stride, vertex_count, s.outcodes.data());
    }
    if (!x16 || need_screen)
      to_screen_vertices(ctx.viewports[0], s.vertices.data(), f.stride, s.outcodes.data(), vertex_count,
                         need_screen ? s.screen.data() : nullptr, s.packed.data());
  }
  // Unclipped triangles are set up together (setup_batch.h), before anything that follows them.
  const BatchVertices batch_vertices{s.vertices.data(), f.stride, s.screen.data(), s.packed.data()};
  s.pending.reset(count);
  auto set_up_pending = [&] {
    setup_screen_triangles(ctx, batch_vertices, s.pending, out);
    s.pending.clear();
  };
  // The common case first: triangles of a draw whose layer is the same for every primitive
  // (none written, or the multiview view) and without cull distances need only their outcodes.
  const bool fixed_layer = ctx.cmd->targets->view_mask || !f.has_layer;
  const bool quick = shared_outcodes && fixed_layer && f.cull_count == 0;
  const uint32_t quick_layer = ctx.cmd->targets->view_mask ? ctx.view_index : 0;
  uint32_t codes[3];

  const uint32_t* in[3];
  const uint32_t* clipped[kMaxClippedVertices + 2];
  for (uint32_t p = 0; p < count; ++p) {
    const AssembledPrimitive& prim = prims[p];
    if (quick && prim.vertex_count == 3) {
      const uint32_t* slots = &s.prim_slots[p * 3];
      if ((s.outcodes[slots[0]] | s.outcodes[slots[1]] | s.outcodes[slots[2]]) == 0) {
        ++clip_in, ++clip_out;  // inside every clip plane: nothing to clip
        if (!discard)
          s.pending.add(slots[0], slots[1], slots[2], slots[prim.provoking], prim.primitive_id, quick_layer);
        continue;
      }
    }
    for (uint32_t v = 0; v < prim.vertex_count; ++v) {
      const uint32_t slot = s.prim_slots[p * 3 + v];
      in[v] = s.vertices.data() + size_t(slot) * f.stride;
      if (shared_outcodes) codes[v] = s.outcodes[slot];
    }
    PrimitiveInfo info{};
    info.primitive_id = prim.primitive_id;
    info.provoking = in[prim.provoking];
    info.continues_strip = prim.continues_strip;
    if (f.has_viewport_index) {
      const int32_t vp = as_int(info.provoking[f.viewport_offset]);
      info.viewport = vp >= 0 && uint32_t(vp) < ctx.viewport_count ? uint32_t(vp) : 0;
    }
    if (ctx.cmd->targets->view_mask) {
      info.layer = ctx.view_index;
    } else if (f.has_layer) {
      const int32_t layer = as_int(info.provoking[f.layer_offset]);
      if (layer < 0 || uint32_t(layer) >= ctx.layer_count) continue;  // no such layer: nothing to draw
      info.layer = uint32_t(layer);
    }
    ++clip_in;
    if (prim.vertex_count == 3 && shared_outcodes && (codes[0] | codes[1] | codes[2]) == 0 && f.cull_count == 0) {
      // Inside every clip plane (and no cull distances): nothing to clip, and the vertices'
      // framebuffer positions are shared with the neighbouring triangles.
      ++clip_out;
      if (discard) continue;
      const uint32_t* slots = &s.prim_slots[p * 3];
      s.pending.add(slots[0], slots[1], slots[2], slots[prim.provoking], info.primitive_id, info.layer);
      continue;
    }
    const uint32_t n = clip_primitive(ctx, ctx.viewports[info.viewport], in, shared_outcodes ? codes : nullptr,
                                        prim.vertex_count, s.clip, clipped);
    if (n == 0) continue;
    ++clip_out;  // a clipped polygon is still one primitive
    if (discard) continue;
    if (s.pending.size()) set_up_pending();
    if (prim.vertex_count == 1) setup_point(ctx, info, clipped[0], out);
    else if (prim.vertex_count == 2) setup_line(ctx, info, clipped, out);
    else setup_polygon(ctx, info, clipped, n, out);
  }
  if (s.pending.size()) set_up_pending();
  if (ctx.counters) {
    ctx.counters->clipping_invocations.fetch_add(clip_in, std::memory_order_relaxed);
    ctx.counters->clipping_primitives.fetch_add(clip_out, std::memory_order_relaxed);
  }
}

}  // namespace kiln::exec::gfx
