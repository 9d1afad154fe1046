#include "pipeline/graphics/mesh_producer.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "common/log.h"
#include "common/thread_local_ref.h"
#include "pipeline/draw.h"
#include "pipeline/graphics/stage_outputs.h"

namespace kiln::exec::gfx {
namespace {

// Per worker, reused from workgroup to workgroup.
struct MeshScratch {
  std::vector<uint32_t> records;  // the workgroup's vertex records (MeshKernels::outputs slots)
  std::vector<uint32_t> record;   // a primitive's own provoking record (per-primitive words)
};
thread_local MeshScratch scratch;

// Primitives a batch aims at.
constexpr uint32_t kMeshPrimitivesPerBatch = 1024;

uint32_t read_word(const uint8_t* shared, const MeshKernels::WordCopy& w, uint32_t element) {
  uint32_t v;
  memcpy(&v, shared + w.offset + size_t(element) * w.stride, 4);
  return v;
}

uint32_t read_word(const uint8_t* shared, const abi::StageOutputAddress& a, uint32_t element, uint32_t word = 0) {
  uint32_t v;
  memcpy(&v, shared + a.offset + size_t(element) * a.stride + 4 * word, 4);
  return v;
}

void workgroup_id(uint64_t linear, const uint32_t groups[3], uint32_t out[3]) {
  out[0] = uint32_t(linear % groups[0]);
  out[1] = uint32_t(linear / groups[0] % groups[1]);
  out[2] = uint32_t(linear / (uint64_t{groups[0]} * groups[1]));
}

abi::ComputeDispatchContext dispatch_context(const DrawContext& ctx, const ComputeKernel& kernel, const uint32_t groups[3],
                                             uint32_t draw_index, uint32_t* faults) {
  abi::ComputeDispatchContext d{};
  d.resources = ctx.cmd->resources;
  d.faults = faults;
  d.draw_index = draw_index;
  d.view_index = ctx.view_index;
  for (int i = 0; i < 3; ++i) {
    d.workgroup_size[i] = kernel.local_size[i];
    d.workgroup_count[i] = groups[i];
  }
  return d;
}

uint64_t invocations_per_workgroup(const ComputeKernel& k) {
  return uint64_t{k.local_size[0]} * k.local_size[1] * k.local_size[2];
}

// Appends what one mesh workgroup left in its shared memory to the batch: its vertices as rows,
// its primitives in index order (culled ones and ones naming vertices past the count dropped).
// A primitive with per-primitive values gets its own copy of its provoking vertex carrying them:
// flat inputs are read from the provoking vertex. Returns the primitives the workgroup output.
uint32_t append_workgroup(const DrawContext& ctx, const MeshKernels& mk, const uint8_t* shared, MeshScratch& s,
                          PrimitiveBatch& batch) {
  const auto& header = *reinterpret_cast<const abi::MeshHeader*>(shared);
  uint32_t vertices = header.vertex_count, primitives = header.primitive_count;
  if (vertices > mk.max_vertices || primitives > mk.max_primitives) {
    KILN_LOG_ONCE(LogLevel::Warn, "mesh shader: SetMeshOutputsEXT counts above the shader's maximums; clamped");
    vertices = std::min(vertices, mk.max_vertices);
    primitives = std::min(primitives, mk.max_primitives);
  }
  if (primitives == 0) return 0;
  const VertexFormat& f = ctx.vertex_format;
  const uint32_t words = mk.outputs.slot_count * 4;
  s.records.assign(size_t(vertices) * words, 0u);
  for (uint32_t v = 0; v < vertices; ++v)
    for (const MeshKernels::WordCopy& at : mk.vertex_words) s.records[size_t(v) * words + at.word] = read_word(shared, at, v);
  const uint32_t first_row = batch.vertex_count;
  uint32_t* rows = batch.append_vertices(vertices, f.stride);
  for (uint32_t v = 0; v < vertices; ++v) record_to_row(f, mk.outputs, &s.records[size_t(v) * words], rows + size_t(v) * f.stride);
  const uint32_t n = mk.output;  // vertices per primitive
  const bool provoking_last = ctx.state->rasterization.provoking_vertex == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  const uint8_t provoking = uint8_t(provoking_last ? n - 1 : 0);
  for (uint32_t p = 0; p < primitives; ++p) {
    if (mk.cull.offset >= 0 && read_word(shared, mk.cull, p) != 0) continue;
    uint32_t index[3];
    bool valid = true;
    for (uint32_t k = 0; k < n; ++k) {
      index[k] = mk.indices.offset >= 0 ? read_word(shared, mk.indices, p, k) : 0;  // never written: undefined
      valid &= index[k] < vertices;
    }
    if (!valid) {
      KILN_LOG_ONCE(LogLevel::Warn, "mesh shader: a primitive names a vertex past SetMeshOutputsEXT's count; dropped");
      continue;
    }
    uint32_t slot[3];
    for (uint32_t k = 0; k < 3; ++k) slot[k] = first_row + index[std::min(k, n - 1)];
    if (!mk.primitive_words.empty()) {
      s.record.assign(s.records.begin() + size_t(index[provoking]) * words,
                      s.records.begin() + size_t(index[provoking] + 1) * words);
      for (const MeshKernels::WordCopy& at : mk.primitive_words) s.record[at.word] = read_word(shared, at, p);
      const uint32_t row = batch.vertex_count;
      record_to_row(f, mk.outputs, s.record.data(), batch.append_vertices(1, f.stride));
      for (uint32_t k = 0; k < 3; ++k)
        if (slot[k] == first_row + index[provoking]) slot[k] = row;
    }
    batch.slots.insert(batch.slots.end(), slot, slot + 3);
    PrimitiveHeader h{};
    // PrimitiveId as the fragment shader reads it: what the mesh shader wrote (the spec requires
    // it to write one when the fragment shader reads it).
    h.primitive_id = mk.primitive_id.offset >= 0 ? read_word(shared, mk.primitive_id, p) : 0;
    h.vertex_count = uint8_t(n);
    h.provoking = provoking;
    batch.headers.push_back(h);
  }
  return primitives;
}

}  // namespace

uint32_t mesh_workgroups_per_batch(const MeshKernels& mk) {
  return std::clamp(kMeshPrimitivesPerBatch / std::max(1u, mk.max_primitives), 1u, 64u);
}

void run_task_workgroups(ThreadPool& pool, const DrawContext& ctx, const uint32_t groups[3], uint32_t draw_index,
                         uint64_t first, uint32_t count, std::vector<MeshLaunch>& launches, std::vector<uint8_t>& payloads,
                         uint32_t* faults) {
  const MeshShadingKernel& task = *ctx.kernels->mesh->task;
  const abi::ComputeDispatchContext dispatch = dispatch_context(ctx, task.kernel, groups, draw_index, faults);
  launches.resize(count);
  payloads.resize(size_t(count) * task.payload_bytes);
  const size_t chunks = std::min<size_t>(count, 8 * pool.thread_count());
  pool.parallel_for(chunks, [&](size_t chunk) {
    for (uint32_t i = uint32_t(count * chunk / chunks); i < uint32_t(count * (chunk + 1) / chunks); ++i) {
      uint32_t group[3];
      workgroup_id(first + i, groups, group);
      const uint8_t* shared = run_workgroup(task.kernel, dispatch, group);
      const auto& header = *reinterpret_cast<const abi::MeshHeader*>(shared);
      MeshLaunch& launch = launches[i];
      const uint64_t total = uint64_t{header.task_count[0]} * header.task_count[1] * header.task_count[2];
      if (total > abi::kMaxMeshWorkgroupTotal) {
        KILN_LOG_ONCE(LogLevel::Warn, "task shader: EmitMeshTasksEXT launched more than maxMeshWorkGroupTotalCount "
                      "mesh workgroups; none launched");
      }
      for (int c = 0; c < 3; ++c) launch.groups[c] = total > abi::kMaxMeshWorkgroupTotal ? 0 : header.task_count[c];
      uint8_t* payload = payloads.data() + size_t(i) * task.payload_bytes;
      memcpy(payload, shared + task.payload_offset, task.payload_bytes);
      launch.payload = payload;
      launch.draw_index = draw_index;
    }
  });
  if (ctx.counters)
    ctx.counters->task_shader_invocations.fetch_add(count * invocations_per_workgroup(task.kernel), std::memory_order_relaxed);
}

void produce_mesh_primitives(const DrawContext& ctx, const BatchJob& job, PrimitiveBatch& batch, uint32_t* faults) {
  MeshScratch& s = thread_local_ref(scratch);
  batch.clear();
  batch.want_positions = false;  // rows are appended workgroup by workgroup
  batch.single_viewport = !ctx.vertex_format.has_viewport_index;
  const MeshKernels& mk = *ctx.kernels->mesh;
  const MeshLaunch& launch = *job.mesh_launch;
  const abi::ComputeDispatchContext dispatch = dispatch_context(ctx, mk.mesh.kernel, launch.groups, launch.draw_index, faults);
  const uint32_t payload_bytes = launch.payload ? std::min(mk.task->payload_bytes, mk.mesh.payload_bytes) : 0;
  uint64_t generated = 0;
  for (uint32_t g = job.begin; g < job.end; ++g) {
    uint32_t group[3];
    workgroup_id(g, launch.groups, group);
    const uint8_t* shared = run_workgroup(mk.mesh.kernel, dispatch, group, launch.payload, mk.mesh.payload_offset, payload_bytes);
    generated += append_workgroup(ctx, mk, shared, s, batch);
  }
  if (ctx.counters) {
    ctx.counters->mesh_shader_invocations.fetch_add((job.end - job.begin) * invocations_per_workgroup(mk.mesh.kernel),
                                                    std::memory_order_relaxed);
    ctx.counters->mesh_primitives_generated.fetch_add(generated, std::memory_order_relaxed);
  }
  resolve_layers_and_viewports(ctx, batch, 0);
}

}  // namespace kiln::exec::gfx
