#include "pipeline/graphics/front_end.h"

#include "common/thread_local_ref.h"
#include "pipeline/graphics/geometry_producer.h"
#include "pipeline/graphics/mesh_producer.h"
#include "pipeline/graphics/primitive_consumer.h"
#include "pipeline/graphics/xfb_capture.h"
#include "pipeline/graphics/tessellation_producer.h"

namespace kiln::exec::gfx {
namespace {

thread_local PrimitiveBatch tls_batch;  // reused batch to batch: its arrays keep their capacity

}  // namespace

void run_front_end(const DrawContext& ctx, const BatchJob& job, BatchOutput& out, uint32_t* faults) {
  out.clear();
  PrimitiveBatch& batch = thread_local_ref(tls_batch);
  batch.want_positions = consumer_wants_positions();
  if (ctx.kernels->mesh) produce_mesh_primitives(ctx, job, batch, faults);
  else if (ctx.kernels->tessellation) produce_tessellated_primitives(ctx, job, batch, faults);
  else if (ctx.kernels->geometry) produce_geometry_primitives(ctx, job, batch, faults);
  else produce_vertex_primitives(ctx, job, batch, faults);
  if (ctx.counters) count_generated_primitives(ctx, batch);
  if (ctx.xfb_active) capture_transform_feedback(ctx, batch, out.xfb);
  consume_primitives(ctx, batch, out);
}

}  // namespace kiln::exec::gfx
