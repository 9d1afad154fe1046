#include "pipeline/graphics/geometry_producer.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "common/thread_local_ref.h"
#include "pipeline/draw.h"
#include "pipeline/graphics/geometry_stage.h"
#include "pipeline/graphics/primitive_assembly.h"
#include "pipeline/graphics/vertex_stage.h"

namespace kiln::exec::gfx {
namespace {

// Per worker, reused from batch to batch.
struct GeometryProducerScratch {
  std::vector<int32_t> vertex_ids;      // every input primitive's vertices in gl_in order
  std::vector<uint32_t> primitive_ids;  // PrimitiveIdIn per input primitive
  std::vector<uint32_t> records;        // the vertex stage's records of those vertices
};
thread_local GeometryProducerScratch scratch;

// Output vertices a batch aims at (each is one row of the consumer's batch).
constexpr uint32_t kGeometryVerticesPerBatch = 4096;

}  // namespace

uint32_t geometry_primitives_per_batch(const GeometryKernels& gk) {
  const uint32_t per_primitive = std::max(1u, uint32_t(gk.modes.invocations) * gk.modes.output_vertices);
  return std::clamp(kGeometryVerticesPerBatch / per_primitive, 1u, 256u);
}

void produce_geometry_primitives(const DrawContext& ctx, const BatchJob& job, PrimitiveBatch& batch, uint32_t* faults) {
  GeometryProducerScratch& s = thread_local_ref(scratch);
  batch.clear();
  batch.want_positions = false;  // the geometry stage appends vertices strip by strip
  batch.single_viewport = !ctx.vertex_format.has_viewport_index;
  const uint32_t k = geometry_input_vertex_count(ctx.state->input_assembly.topology);
  const uint32_t count = job.end - job.begin;
  if (k == 0 || count == 0) return;
  const GeometryInput* inputs = job.geometry_inputs->data() + job.begin;
  s.vertex_ids.resize(size_t(count) * k);
  s.primitive_ids.resize(count);
  for (uint32_t p = 0; p < count; ++p) {
    std::copy_n(inputs[p].id, k, &s.vertex_ids[size_t(p) * k]);
    s.primitive_ids[p] = inputs[p].primitive_id;
  }
  // Every input vertex is shaded (no reuse between primitives: strips shade shared vertices again,
  // which the spec's implementation-dependent invocation count allows). The records are padded by
  // a primitive's worth of zeros: a shader declaring more input vertices than the topology gives
  // reads those.
  const uint32_t record_words = ctx.kernels->vertex_outputs.slot_count * 4;
  const size_t shaded = size_t(count) * k;
  s.records.resize((shaded + abi::kMaxGeometryInputVertices) * record_words);
  std::fill(s.records.begin() + shaded * record_words, s.records.end(), 0u);
  if (ctx.counters) ctx.counters->vertex_shader_invocations.fetch_add(shaded, std::memory_order_relaxed);
  shade_vertex_records(ctx, *job.params, job.instance, s.vertex_ids.data(), uint32_t(shaded), s.records.data(), faults);
  run_geometry_stage(ctx, {s.records.data(), record_words, k, s.primitive_ids.data(), count}, batch, faults);
}

}  // namespace kiln::exec::gfx
