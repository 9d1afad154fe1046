#include "pipeline/graphics/tessellation_producer.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "common/log.h"
#include "common/thread_local_ref.h"
#include "pipeline/draw.h"
#include "pipeline/fiber.h"
#include "pipeline/graphics/geometry_stage.h"
#include "pipeline/graphics/stage_outputs.h"
#include "pipeline/graphics/tessellator.h"
#include "pipeline/graphics/vertex_stage.h"
#include "pipeline/thread_pool.h"

namespace kiln::exec::gfx {
namespace {

// Per worker, reused from batch to batch.
struct TessellationScratch {
  VertexIds ids;                       // VertexIndex of every control point of the batch's patches
  std::vector<int32_t> vertex_ids;     // ... as the vertex kernel takes them
  std::vector<uint32_t> vertex_records;   // the vertex stage's records of those control points
  std::vector<abi::TessControlInvocation> control_calls;  // one per W invocations of a patch
  FiberGroup fibers;
  Tessellation tessellation;
  // What `tessellation` was made from, when it holds a kept patch's result: consecutive patches
  // mostly have the same levels and then reuse it (the tessellator and its allocations were a
  // tenth of a draw of level-2 patches).
  TessellatorState tessellated_state;
  TessLevels tessellated_levels;
  bool tessellated = false;
  std::vector<uint32_t> evaluation_outputs;  // one evaluation call's outputs
  std::vector<float> tess_coord;             // [3 * W]
  // With a geometry shader: the evaluation stage's records of a patch's domain points, and the
  // records of its primitives' vertices in primitive order (the geometry stage's input).
  std::vector<uint32_t> evaluation_records, geometry_records;
  std::vector<uint32_t> geometry_primitive_ids;
};
thread_local TessellationScratch scratch;

float float_at(const uint32_t* memory, uint32_t byte_offset) {
  float f;
  memcpy(&f, reinterpret_cast<const uint8_t*>(memory) + byte_offset, 4);
  return f;
}

TessLevels levels_of(const uint32_t* patch_record) {
  TessLevels levels;
  for (uint32_t c = 0; c < 4; ++c) levels.outer[c] = float_at(patch_record, abi::kTessLevelOuterOffset + 4 * c);
  for (uint32_t c = 0; c < 2; ++c) levels.inner[c] = float_at(patch_record, abi::kTessLevelInnerOffset + 4 * c);
  return levels;
}

// Patches a worker shades in one go: enough to fill the vertex kernel's lanes with their control
// points and to make a task worth handing to the pool.
constexpr uint32_t kPatchesPerShadingTask = 64;
// Fewer patches than this are shaded on the calling thread: handing a few hundred small patches to
// the pool cost more than shading them (tess_terrain_2's draws of 128 patches: 4% slower).
constexpr uint32_t kPatchesForPoolShading = 512;

// tessellate() into s.tessellation, or nothing when it already holds the result for the same
// state and levels (levels compared as bits: NaN levels match themselves, and -0 differs from 0
// harmlessly).
bool tessellate_patch(const TessellatorState& state, const TessLevels& levels, TessellationScratch& s) {
  if (s.tessellated && state == s.tessellated_state && memcmp(&levels, &s.tessellated_levels, sizeof levels) == 0)
    return true;
  s.tessellated_state = state;
  s.tessellated_levels = levels;
  s.tessellated = tessellate(state, levels, s.tessellation);
  return s.tessellated;
}

// The barrier of a patch whose control invocations run as one call: its lanes are in step.
void no_barrier(void*) {}

// Runs the control kernel for every output control point of one patch. Invocations beyond one
// call's W lanes run as several calls; when the shader has barriers, each call is a fiber and a
// barrier waits for the patch's other calls (as compute subgroups do in a workgroup).
void run_control_stage(const TessellationKernels& tk, const abi::TessControlInvocation& patch, TessellationScratch& s) {
  const uint32_t W = tk.control_width;
  const uint32_t calls = (tk.output_vertices + W - 1) / W;
  s.control_calls.assign(calls, patch);
  for (uint32_t c = 0; c < calls; ++c) {
    abi::TessControlInvocation& call = s.control_calls[c];
    call.invocation_base = c * W;
    call.lane_count = std::min(W, tk.output_vertices - c * W);
  }
  if (calls == 1 || !tk.control_uses_barrier) {
    for (abi::TessControlInvocation& call : s.control_calls) {
      call.barrier = &no_barrier;
      tk.control(&call);
    }
    return;
  }
  for (abi::TessControlInvocation& call : s.control_calls) {
    call.barrier = &FiberGroup::yield_current;
    call.barrier_context = &s.fibers;
  }
  s.fibers.run(calls, [&](size_t c) { tk.control(&s.control_calls[c]); });
}

// The tessellator's primitives over the patch's evaluated points (`records`, the evaluation
// stage's layout) through the geometry stage. PrimitiveIdIn is the patch's PrimitiveId.
void run_geometry_on_patch(const DrawContext& ctx, const TessellationKernels& tk, uint32_t primitive_id,
                           uint32_t* faults, TessellationScratch& s, PrimitiveBatch& batch) {
  const Tessellation& t = s.tessellation;
  const uint32_t words = tk.evaluation_outputs.slot_count * 4;
  const uint32_t k = t.vertices_per_primitive;
  const uint32_t count = t.primitive_count();
  // Padded by a primitive's worth of zeros, as the geometry producer's records are.
  s.geometry_records.assign((size_t(count) * k + abi::kMaxGeometryInputVertices) * words, 0u);
  for (size_t v = 0; v < size_t(count) * k; ++v)
    std::copy_n(&s.evaluation_records[size_t(t.indices[v]) * words], words, &s.geometry_records[v * words]);
  s.geometry_primitive_ids.assign(count, primitive_id);
  run_geometry_stage(ctx, {s.geometry_records.data(), words, k, s.geometry_primitive_ids.data(), count}, batch, faults);
}

// Evaluates the patch's domain points and appends them to the batch, with the tessellator's
// primitives over them (through the geometry stage when the pipeline has one).
void evaluate_patch(const DrawContext& ctx, const TessellationKernels& tk, const abi::TessEvalInvocation& patch,
                    uint32_t primitive_id, TessellationScratch& s, PrimitiveBatch& batch) {
  const Tessellation& t = s.tessellation;
  const VertexFormat& f = ctx.vertex_format;
  const uint32_t W = tk.evaluation_width;
  const uint32_t points = t.point_count();
  const uint32_t first_vertex = batch.vertex_count;
  const bool geometry = ctx.kernels->geometry.has_value();
  const uint32_t record_words = tk.evaluation_outputs.slot_count * 4;
  if (geometry) s.evaluation_records.resize(size_t(points) * record_words);
  uint32_t* rows = geometry ? nullptr : batch.append_vertices(points, f.stride);
  s.evaluation_outputs.resize(size_t(tk.evaluation_outputs.slot_count) * 4 * W);
  s.tess_coord.assign(size_t(3) * W, 0.0f);
  abi::TessEvalInvocation call = patch;
  call.tess_coord = s.tess_coord.data();
  call.outputs = s.evaluation_outputs.data();
  for (uint32_t base = 0; base < points; base += W) {
    const uint32_t lanes = std::min(W, points - base);
    memcpy(&s.tess_coord[0], &t.u[base], lanes * sizeof(float));
    memcpy(&s.tess_coord[W], &t.v[base], lanes * sizeof(float));
    memcpy(&s.tess_coord[2 * W], &t.w[base], lanes * sizeof(float));
    call.lane_count = lanes;
    std::fill(s.evaluation_outputs.begin(), s.evaluation_outputs.end(), 0u);
    tk.evaluation(&call);
    if (geometry)
      store_records(tk.evaluation_outputs.slot_count, W, s.evaluation_outputs.data(), lanes,
                    s.evaluation_records.data() + size_t(base) * record_words);
    else
      store_vertex_rows(f, tk.evaluation_outputs, W, s.evaluation_outputs.data(), lanes, rows + size_t(base) * f.stride,
                        nullptr, 0);
  }
  if (ctx.counters)
    ctx.counters->tessellation_evaluation_invocations.fetch_add(points, std::memory_order_relaxed);
  if (geometry) return run_geometry_on_patch(ctx, tk, primitive_id, patch.faults, s, batch);
  const uint32_t per_primitive = t.vertices_per_primitive;
  const uint32_t first_primitive = batch.primitive_count();
  const uint32_t count = t.primitive_count();
  batch.headers.resize(first_primitive + count);
  batch.slots.resize(size_t(first_primitive + count) * 3);
  for (uint32_t p = 0; p < count; ++p) {
    uint32_t* slots = &batch.slots[size_t(first_primitive + p) * 3];
    for (uint32_t v = 0; v < 3; ++v) slots[v] = first_vertex + t.indices[p * per_primitive + std::min(v, per_primitive - 1)];
    PrimitiveHeader h{};
    h.primitive_id = primitive_id;
    h.vertex_count = uint8_t(per_primitive);
    h.provoking = 0;
    batch.headers[first_primitive + p] = h;
  }
  resolve_layers_and_viewports(ctx, batch, first_primitive);
}

}  // namespace

uint32_t patch_count(uint32_t vertex_count, uint32_t vertices_per_patch) {
  return vertices_per_patch ? vertex_count / vertices_per_patch : 0;
}

namespace {

// shade_patches for patches [begin, end) of out (indices into its arrays) on this worker.
void shade_patch_range(const DrawContext& ctx, ShadedPatches& out, uint32_t begin, uint32_t end, uint32_t* faults) {
  TessellationScratch& s = thread_local_ref(scratch);
  const TessellationKernels& tk = *ctx.kernels->tessellation;
  const uint32_t n = ctx.state->input_assembly.patch_control_points;
  // The control points of the range's patches, shaded once each.
  DrawParams piece = *out.params;
  piece.first += (out.first + begin) * n;
  piece.count = (end - begin) * n;
  s.vertex_ids.resize(piece.count);
  if (out.patch_vertices) {
    std::copy_n(out.patch_vertices + size_t(out.first + begin) * n, piece.count, s.vertex_ids.begin());
  } else {  // the draw has no restart cuts (its patches are fixed runs of its vertices)
    s.ids.resize(piece.count);
    fetch_vertex_ids(ctx, piece, s.ids.data());
    for (uint32_t i = 0; i < piece.count; ++i) s.vertex_ids[i] = int32_t(s.ids[i]);
  }
  const uint32_t vertex_slots = ctx.kernels->vertex_outputs.slot_count;
  // Padded by a patch's worth: a control kernel reads gl_in[] up to its declared size (usually
  // kMaxPatchVertices) whatever PatchVertices is.
  s.vertex_records.resize(size_t(piece.count + abi::kMaxPatchVertices) * vertex_slots * 4);
  if (ctx.counters) ctx.counters->vertex_shader_invocations.fetch_add(piece.count, std::memory_order_relaxed);
  shade_vertex_records(ctx, *out.params, out.instance, s.vertex_ids.data(), piece.count, s.vertex_records.data(), faults);

  abi::TessControlInvocation control{};
  control.resources = ctx.cmd->resources;
  control.faults = faults;
  control.input_slots = vertex_slots;
  control.patch_vertices = n;
  control.view_index = ctx.view_index;
  for (uint32_t i = begin; i < end; ++i) {
    // Outputs nobody writes read as 0 (levels of 0 then discard the patch).
    uint32_t* control_record = out.control_record(i);
    uint32_t* patch_record = out.patch_record(i);
    std::fill_n(control_record, out.control_words, 0u);
    std::fill_n(patch_record, out.patch_words, 0u);
    control.inputs = s.vertex_records.data() + size_t(i - begin) * n * vertex_slots * 4;
    control.primitive_id = out.first + i;
    control.outputs = control_record;
    control.patch_outputs = patch_record;
    run_control_stage(tk, control, s);
    out.work[i] = tessellation_work_bound(tk.tessellator, levels_of(patch_record));
  }
  if (ctx.counters) ctx.counters->tessellation_control_patches.fetch_add(end - begin, std::memory_order_relaxed);
}

}  // namespace

void assemble_patch_vertices(const int64_t* ids, size_t count, uint32_t vertices_per_patch, std::vector<int32_t>& out) {
  out.clear();
  if (!vertices_per_patch) return;
  size_t run = 0;  // ids of the patch being assembled
  for (size_t i = 0; i < count; ++i) {
    if (ids[i] == kRestartCut) {
      out.resize(out.size() - run);  // an incomplete patch is dropped
      run = 0;
      continue;
    }
    out.push_back(int32_t(ids[i]));
    if (++run == vertices_per_patch) run = 0;
  }
  out.resize(out.size() - run);
}

void shade_patches(ThreadPool& pool, const DrawContext& ctx, const DrawParams& params, uint32_t instance, uint32_t first,
                   uint32_t count, const int32_t* patch_vertices, ShadedPatches& out, uint32_t* faults) {
  const TessellationKernels& tk = *ctx.kernels->tessellation;
  out.params = &params;
  out.patch_vertices = patch_vertices;
  out.instance = instance;
  out.first = first;
  out.count = count;
  out.control_words = (tk.control_vertex_bytes + 3) / 4;
  out.patch_words = (std::max(tk.control_patch_bytes, abi::kTessLevelBytes) + 3) / 4;
  out.control_records.resize(size_t(count) * out.control_words);
  out.patch_records.resize(size_t(count) * out.patch_words);
  out.work.resize(count);
  const uint32_t tasks = std::min((count + kPatchesPerShadingTask - 1) / kPatchesPerShadingTask, 8 * pool.thread_count());
  if (tasks <= 1 || count < kPatchesForPoolShading) return shade_patch_range(ctx, out, 0, count, faults);
  pool.parallel_for(tasks, [&](size_t t) {
    shade_patch_range(ctx, out, uint32_t(count * t / tasks), uint32_t(count * (t + 1) / tasks), faults);
  });
}

void produce_tessellated_primitives(const DrawContext& ctx, const BatchJob& job, PrimitiveBatch& batch,
                                    uint32_t* faults) {
  TessellationScratch& s = thread_local_ref(scratch);
  const TessellationKernels& tk = *ctx.kernels->tessellation;
  const ShadedPatches& patches = *job.patches;
  batch.clear();
  batch.want_positions = false;  // vertices are appended patch by patch
  batch.single_viewport = !ctx.vertex_format.has_viewport_index;
  // The domain origin is draw state (it may be dynamic); the rest was fixed by the shaders.
  TessellatorState tessellator = tk.tessellator;
  tessellator.origin_lower_left = ctx.state->input_assembly.tess_origin_lower_left;
  abi::TessEvalInvocation evaluation{};
  evaluation.resources = ctx.cmd->resources;
  evaluation.faults = faults;
  evaluation.patch_vertices = tk.output_vertices;
  evaluation.view_index = ctx.view_index;
  for (uint32_t primitive_id = job.begin; primitive_id < job.end; ++primitive_id) {
    const uint32_t i = primitive_id - patches.first;
    if (!patches.work[i]) continue;  // discarded
    const uint32_t* patch_record = patches.patch_record(i);
    if (!tessellate_patch(tessellator, levels_of(patch_record), s)) continue;
    evaluation.inputs = patches.control_record(i);
    evaluation.patch_inputs = patch_record;
    evaluation.primitive_id = primitive_id;
    evaluate_patch(ctx, tk, evaluation, primitive_id, s, batch);
  }
}

}  // namespace kiln::exec::gfx
