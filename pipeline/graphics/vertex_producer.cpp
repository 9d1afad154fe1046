#include "pipeline/graphics/vertex_producer.h"

#include <immintrin.h>

#include <atomic>
#include <cstring>

#include "common/thread_local_ref.h"
#include "pipeline/draw.h"
#include "pipeline/graphics/primitive_assembly.h"
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

struct VertexProducerScratch {
  VertexCache cache;
  VertexIds window_ids;    // batches that assemble their own primitives: the ids they read
  PrimitiveList assembled;  // ... and the primitives
};
thread_local VertexProducerScratch scratch;

// The primitives of a batch whose draw was not assembled up front: fetched and assembled from
// just the ids they read, while they are in cache.
const AssembledPrimitive* assemble_batch(const DrawContext& ctx, const BatchJob& job, VertexProducerScratch& s) {
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
bool assign_consecutive_slots(const AssembledPrimitive* prims, uint32_t count, VertexCache& cache, uint32_t* slots) {
  if (count == 0) return false;
  const int64_t first = prims[0].id[0];
  uint32_t k = 0;
  bool triangles = true;  // every primitive has 3 vertices: slot p * 3 + v is then vertex k itself
  for (uint32_t p = 0; p < count; ++p) {
    triangles &= prims[p].vertex_count == 3;
    for (uint32_t v = 0; v < prims[p].vertex_count; ++v, ++k)
      if (prims[p].id[v] != first + k) return false;
  }
  cache.ids.resize(k);
  // Locals, and counting four at a time (the compiler keeps these loops scalar at -O2).
  int32_t* const ids = cache.ids.data();
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

void produce_vertex_primitives(const DrawContext& ctx, const BatchJob& job, PrimitiveBatch& batch, uint32_t* faults) {
  VertexProducerScratch& s = thread_local_ref(scratch);
  const AssembledPrimitive* prims = job.primitives ? job.primitives->data() + job.begin : assemble_batch(ctx, job, s);
  const uint32_t count = job.end - job.begin;
  batch.slots.resize(size_t(count) * 3);
  if (!assign_consecutive_slots(prims, count, s.cache, batch.slots.data())) {
    s.cache.reset(size_t(count) * 3);
    s.cache.assign(prims, count, batch.slots.data());
  }
  const VertexFormat& f = ctx.vertex_format;
  const uint32_t vertex_count = uint32_t(s.cache.ids.size());
  batch.resize_vertices(vertex_count, f.stride);
  // One vertex shader invocation per distinct vertex of the batch (reuse within a batch is what
  // the spec's "implementation-dependent" invocation count allows).
  if (ctx.counters) ctx.counters->vertex_shader_invocations.fetch_add(vertex_count, std::memory_order_relaxed);
  shade_vertices(ctx, *job.params, job.instance, s.cache.ids.data(), vertex_count, batch.vertices.data(), faults,
                 batch.want_positions ? batch.positions.data() : nullptr);
  batch.single_viewport = !f.has_viewport_index;
  batch.headers.resize(count);
  PrimitiveHeader* const headers = batch.headers.data();
  for (uint32_t p = 0; p < count; ++p) {
    const AssembledPrimitive& prim = prims[p];
    PrimitiveHeader h{};
    h.primitive_id = prim.primitive_id;
    h.vertex_count = prim.vertex_count;
    h.provoking = prim.provoking;
    h.continues_strip = prim.continues_strip;
    headers[p] = h;
  }
  resolve_layers_and_viewports(ctx, batch, 0);
}

}  // namespace kiln::exec::gfx
