#include "pipeline/draw.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "common/log.h"
#include "common/thread_local_ref.h"
#include "memory/sampling.h"
#include "pipeline/graphics/draw_context.h"
#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/edge.h"
#include "pipeline/graphics/front_end.h"
#include "pipeline/graphics/geometry_producer.h"
#include "pipeline/graphics/mesh_producer.h"
#include "pipeline/graphics/output_merge.h"
#include "pipeline/graphics/primitive_assembly.h"
#include "pipeline/graphics/tessellation_producer.h"
#include "pipeline/graphics/tile_backend.h"
#include "pipeline/graphics/vertex_stage.h"
#include "pipeline/xfb_state.h"

namespace kiln::exec {
namespace {

using namespace gfx;

// Primitives per front-end batch: large enough to amortise a vertex-kernel call over W
// vertices and to reuse vertices, small enough to spread a draw over the pool.
constexpr uint32_t kPrimitivesPerBatch = 256;
static_assert(kPrimitivesPerBatch % 2 == 0, "batches that assemble their own strips start at even primitives");
// Batches run through the front end together (one parallel_for).
constexpr size_t kBatchesPerRound = 256;
// Binned batches kept before the back end must run, bounding the scene's memory: a few
// thousand small draws, or one round of a big one (which gains nothing from waiting).
constexpr size_t kBatchesPerScene = 1024;
constexpr size_t kTrianglesPerScene = size_t(kBatchesPerRound) * kPrimitivesPerBatch;
// Tessellation amplifies: a patch may become thousands of triangles (8 Ki for a quad at level
// 64). Patches are shaded up to the control stage this many at a time, then cut into batches of
// about kTessellatedWorkPerBatch domain points plus primitives (tessellation_work_bound; a batch
// holds at least one patch): 100-odd patches at level 2, one at level 64. A round of batches
// then makes at most about half a million triangles, whatever the levels.
constexpr uint32_t kPatchesPerShading = 1024;
constexpr uint32_t kTessellatedWorkPerBatch = 2048;
constexpr size_t kTessellatedBatchesPerRound = 64;
// Geometry shaders amplify too: their batches are sized by output (geometry_primitives_per_batch),
// and a round holds fewer of them.
constexpr size_t kGeometryBatchesPerRound = 64;
// Mesh shading: batches of a few mesh workgroups (mesh_workgroups_per_batch), rounds like geometry
// shading's; task workgroups run this many at a time, their launches and payloads kept until the
// front end has run the mesh workgroups they launched.
constexpr size_t kMeshBatchesPerRound = 64;
constexpr uint32_t kTaskWorkgroupsPerRound = 1024;

// Input-assembly vertices of a draw's fetched ids: every id but the restart cuts.
uint64_t assembled_vertex_count(const VertexIds& ids) {
  return uint64_t(std::count_if(ids.begin(), ids.end(), [](int64_t id) { return id != kRestartCut; }));
}

// A tile's entries gathered from the batches' bins (per worker, reused from tile to tile).
thread_local std::vector<BinEntry> tls_tile_entries;

// A draw command and its (sub-)draws' primitives, kept until the front end has run them.
struct SceneDraw {
  DrawCmd cmd;  // a copy: the executor may pass a temporary with the render targets filled in
  std::vector<DrawParams> params;
  std::vector<PrimitiveList> primitives;  // per params
  std::vector<GeometryInputList> geometry_inputs;  // per params, for a geometry shader without tessellation
  // Per params, for tessellated draws whose index buffer may hold restart cuts: the control points of
  // their complete patches (assemble_patch_vertices).
  std::vector<std::vector<int32_t>> patch_vertices;
  std::deque<MeshLaunch> mesh_launches;  // mesh-shading draws without a task shader: per (view, params); stable addresses
};

// A draw, or one view of a multiview draw: what its batches are shaded and merged with.
struct ScenePass {
  DrawContext ctx;
  std::optional<OutputMerger> merger;
  std::optional<SampleExtent> sample_extent;
  // Colour writes are its only effect (no depth/stencil work, memory writes or query counts):
  // a later triangle that replaces every colour sample of a tile may drop its work there.
  bool droppable = false;
  // Its triangles replace every colour sample they cover: no blending, logic op or partial
  // write mask, every colour attachment written, nothing discarded, no tests that could fail, and
  // nothing of the earlier values read (input attachments).
  bool overwrites = false;
};

bool is_droppable(const DrawContext& ctx, const OutputMerger& merger) {
  const abi::FragmentInterface& fi = ctx.kernels->fragment_interface;
  return !ctx.counters && !merger.has_depth_stencil_work() && !(ctx.kernels->fragment && fi.has_side_effects);
}

bool overwrites_colour(const DrawContext& ctx, const OutputMerger& merger) {
  if (!ctx.kernels->fragment || merger.has_depth_stencil_work()) return false;
  const abi::FragmentInterface& fi = ctx.kernels->fragment_interface;
  const MultisampleState& ms = ctx.state->multisample;
  const uint32_t all_samples = (1u << ctx.samples) - 1;
  // A shader that reads input attachments reads what the earlier work wrote.
  if (fi.can_discard || fi.writes_sample_mask || fi.reads_input_attachments || ms.alpha_to_coverage ||
      (ms.sample_mask & all_samples) != all_samples)
    return false;
  const ColorBlendState& cb = ctx.state->color_blend;
  if (cb.logic_op_enable) return false;
  for (uint32_t i = 0; i < abi::kMaxColorAttachments; ++i) {
    if (!ctx.has_color[i]) continue;
    if (!(fi.output_location_mask & (1u << i))) return false;  // left as it was (or undefined)
    if (i < cb.attachment_count &&
        (cb.attachments[i].blendEnable || (cb.attachments[i].colorWriteMask & 0xF) != 0xF))
      return false;
  }
  return true;
}

// One batch's triangles grouped by the tiles they touch, built by the worker that ran the batch's
// front end (a counting sort, stable: each tile's triangles stay in API order). The scene's tiles
// then list (batch, run) pairs, so the queue thread's share of binning is one entry per batch and
// tile instead of one per triangle and tile.
struct BatchBins {
  struct Run {
    uint32_t tile;         // index into the scene's grid when binned (the grid may grow later)
    uint32_t begin, end;   // range of `entries`
  };
  std::vector<Run> runs;          // in the order the batch first touches the tiles
  std::vector<uint32_t> entries;  // triangle index, | kCoversTile when it covers the whole tile
};

// Per-worker counts of the batch being binned: one per tile of the grid, all zero between
// batches (a batch resets just the tiles it touched, however far apart they lie).
thread_local std::vector<uint32_t> tls_tile_counts;

// The tiles a triangle's bounds touch (inclusive ranges).
struct TileSpan {
  uint32_t x0, y0, x1, y1;
  explicit TileSpan(const Rect& r)
      : x0(uint32_t(r.x0) / kTileSize), y0(uint32_t(r.y0) / kTileSize), x1(uint32_t(r.x1 - 1) / kTileSize),
        y1(uint32_t(r.y1 - 1) / kTileSize) {}
};

// The triangle covers every sample of the tile and its pass overwrites colour: the tile's earlier
// work it replaces may be dropped (DrawScene::Impl::drop_replaced).
constexpr uint32_t kCoversTile = 1u << 31;

// A batch's front-end output and its bins, on cache lines of their own: neighbouring batches run
// on different workers at once, and the front end grows `output`'s vectors triangle by triangle
// (shared lines made every append a cache-line transfer between cores).
struct alignas(64) SceneBatch {
  BatchOutput output;
  BatchBins bins;
};

// A tile's work, in API order: run `run` of batch `batch`'s BatchBins, or (batch ==
// kAttachmentOpEntry) the scene's attachment op `run`.
struct TileWork {
  uint32_t batch, run;
};

// The device is lost (docs/design/device-loss.md): the draw's remaining batches and tiles are
// skipped, so a huge draw ends soon after the watchdog's verdict.
const uint32_t* loss_word(const gfx::DrawContext& ctx) {
  return ctx.cmd && ctx.cmd->resources ? ctx.cmd->resources->cancel : &abi::kNeverCancelled;
}
bool device_lost(const uint32_t* loss_word) { return __atomic_load_n(loss_word, __ATOMIC_RELAXED) != 0; }

}  // namespace

struct DrawScene::Impl {
  // Draws and passes are reused from scene to scene (their vectors keep their capacity: a big
  // draw would otherwise fault in fresh pages for its primitives every time).
  std::vector<std::unique_ptr<SceneDraw>> draws;
  size_t draw_count = 0;
  std::vector<std::unique_ptr<ScenePass>> passes;
  size_t pass_count = 0;
  // Batches waiting for the front end, and the pass of each.
  std::vector<BatchJob> jobs;
  std::vector<ScenePass*> job_pass;
  // Binned front-end outputs, and the pass of each.
  std::vector<SceneBatch> outputs;
  std::vector<ScenePass*> output_pass;
  size_t output_count = 0, triangle_count = 0;
  // Line stipple counter where the last stippled segment ended (strips go on from it).
  float line_stipple_counter = 0.0f;
  // Tiles: bins[ty * tiles_x + tx] in API order; `busy` lists the non-empty bins.
  std::vector<std::vector<TileWork>> bins;
  std::vector<uint32_t> busy;
  uint32_t tiles_x = 0, tiles_y = 0;
  std::vector<AttachmentOp> ops;  // binned as TileWork{kAttachmentOpEntry, index}
  VertexIds ids;
  std::vector<ShadedBatch> shaded;
  // Per-draw scratch of add(), kept to spare a small-draw stream two allocations per draw.
  std::vector<uint64_t> vertex_counts;
  std::vector<uint8_t> windowed;  // per sub-draw: its batches assemble their own primitives
  std::vector<ScenePass*> views;
  std::vector<MeshLaunch> task_launches;  // the task workgroups of the round being drawn
  // Shaded patches of tessellated draws, reused: [0, shaded_patches_used) are read by queued batches
  // or (shading_patches) being cut into batches.
  std::vector<std::unique_ptr<gfx::ShadedPatches>> shaded_patches;
  size_t shaded_patches_used = 0;
  const gfx::ShadedPatches* shading_patches = nullptr;
  std::vector<uint8_t> task_payloads;
  XfbState* xfb = nullptr;          // the scene's transform feedback state while capture is active
  std::vector<XfbCopy> xfb_copies;  // per round: captured bytes to copy into the buffers
  alignas(std::atomic_ref<uint32_t>::required_alignment) uint32_t faults = 0;

  void add(ThreadPool& pool, const DrawCmd& cmd, DrawCounters* counters, XfbState* xfb);
  void add_attachment_op(ThreadPool& pool, const AttachmentOp& op);
  void queue(ThreadPool& pool, const BatchJob& job, ScenePass* pass, size_t per_round, size_t draw_passes);
  void queue_mesh_draws(ThreadPool& pool, SceneDraw& draw, size_t draw_passes);
  void queue_tessellated_draw(ThreadPool& pool, const DrawParams& params, uint32_t instance, uint32_t patches,
                              const int32_t* patch_vertices, ScenePass* pass, size_t draw_passes);
  gfx::ShadedPatches& new_shaded_patches();
  void recycle_shaded_patches();
  void queue_mesh_launch(ThreadPool& pool, const DrawParams& params, const MeshLaunch& launch, ScenePass& pass,
                         size_t draw_passes);
  void run_front_end(ThreadPool& pool);
  void render(ThreadPool& pool);
  void recycle(size_t keep_draws, size_t keep_passes);
  SceneDraw& new_draw();
  ScenePass& new_pass();
  void fit_grid(const Rect& framebuffer);
  void bin(const ScenePass& pass, const BatchOutput& out, BatchBins& sorted) const;
  void gather_tile(const std::vector<TileWork>& work, const Rect& tile, std::vector<BinEntry>& entries) const;
  bool covers_tile(const ScenePass& pass, const RasterTriangle& t, const TriangleEdges& edges, const Rect& tile) const;
  void drop_replaced(std::vector<BinEntry>& bin, const ScenePass& pass, const RasterTriangle& t, const Rect& tile) const;
  bool replaces_clear(const ClearViewCmd& clear, const ScenePass& pass, const RasterTriangle& t, const Rect& tile) const;
};

SceneDraw& DrawScene::Impl::new_draw() {
  if (draw_count == draws.size()) draws.push_back(std::make_unique<SceneDraw>());
  return *draws[draw_count++];
}

ScenePass& DrawScene::Impl::new_pass() {
  if (pass_count == passes.size()) passes.push_back(std::make_unique<ScenePass>());
  ScenePass& pass = *passes[pass_count++];
  pass.merger.reset();
  return pass;
}

// Keeps the last `keep_draws` draws and `keep_passes` passes (the draw being added) at the front.
void DrawScene::Impl::recycle(size_t keep_draws, size_t keep_passes) {
  std::rotate(draws.begin(), draws.begin() + (draw_count - keep_draws), draws.begin() + draw_count);
  draw_count = keep_draws;
  std::rotate(passes.begin(), passes.begin() + (pass_count - keep_passes), passes.begin() + pass_count);
  pass_count = keep_passes;
}

void DrawScene::Impl::add(ThreadPool& pool, const DrawCmd& cmd, DrawCounters* counters, XfbState* xfb_state) {
  SceneDraw& draw = new_draw();
  draw.cmd = cmd;
  DrawContext base;
  if (!prepare_draw_context(draw.cmd, counters, base)) {
    --draw_count;
    return;
  }
  // Transform feedback is active only between Begin and End, which flush the scene: every
  // batch of a scene shares one state.
  xfb = xfb_state;
  base.xfb_active = xfb_state && base.kernels->xfb.captures;
  const VkPrimitiveTopology topology = cmd.state->input_assembly.topology;
  const bool tessellated = base.kernels->tessellation.has_value();
  // A geometry shader after tessellation reads the tessellation producer's primitives.
  const bool geometry_inputs = base.kernels->geometry && !tessellated;
  const uint32_t per_batch = geometry_inputs ? geometry_primitives_per_batch(*base.kernels->geometry)
                                             : kPrimitivesPerBatch;  // tessellated draws: by output (below)
  const size_t per_round = tessellated ? kTessellatedBatchesPerRound
                           : geometry_inputs ? kGeometryBatchesPerRound
                                             : kBatchesPerRound;
  const bool provoking_last = cmd.state->rasterization.provoking_vertex == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  collect_draws(draw.cmd, draw.params);
  const bool mesh_shading = base.kernels->mesh.has_value();
  draw.mesh_launches.clear();
  if (draw.primitives.size() < draw.params.size()) draw.primitives.resize(draw.params.size());
  if (geometry_inputs && draw.geometry_inputs.size() < draw.params.size()) draw.geometry_inputs.resize(draw.params.size());
  if (tessellated && draw.patch_vertices.size() < draw.params.size()) draw.patch_vertices.resize(draw.params.size());
  const uint32_t patch_size = cmd.state->input_assembly.patch_control_points;
  vertex_counts.assign(draw.params.size(), 0);  // input-assembly vertices per instance
  windowed.assign(draw.params.size(), 0);
  for (size_t d = 0; d < draw.params.size(); ++d) {
    draw.primitives[d].clear();
    const DrawParams& params = draw.params[d];
    if (params.instance_count == 0 || mesh_shading) continue;
    // Without restart cuts most topologies make each primitive a function of its index: batches
    // then fetch and assemble their own primitives on the pool (no draw-sized id and primitive
    // arrays to write and read back: 200 MB for a 4 M-triangle indexed mesh).
    // Patches without restart are fixed runs of ids: their batches fetch their own.
    const bool cuts_possible = params.indexed && cmd.state->input_assembly.primitive_restart;
    if (tessellated && cuts_possible) {  // patches between the cuts, assembled here, whole
      fetch_vertex_ids(base, params, ids);
      assemble_patch_vertices(ids.data(), ids.size(), patch_size, draw.patch_vertices[d]);
      vertex_counts[d] = assembled_vertex_count(ids);
      continue;
    }
    if (geometry_inputs) {  // the geometry shader reads adjacent vertices too: assembled here, whole
      fetch_vertex_ids(base, params, ids);
      draw.geometry_inputs[d].clear();
      assemble_geometry_inputs(topology, ids.data(), ids.size(), draw.geometry_inputs[d]);
      vertex_counts[d] = assembled_vertex_count(ids);
      continue;
    }
    if (tessellated ||
        (!cuts_possible && assembles_in_windows(topology) && uint64_t{params.first} + params.count <= UINT32_MAX)) {
      windowed[d] = 1;
      vertex_counts[d] = params.count;
      continue;
    }
    vertex_counts[d] = assemble_draw(pool, base, params, topology, provoking_last, ids, draw.primitives[d]);
  }
  // Multiview repeats the draw for each view, rendering into the layer of the same index.
  const uint32_t view_mask = cmd.targets->view_mask ? cmd.targets->view_mask : 1u;
  views.clear();
  for (uint32_t view = 0; view < 32; ++view) {
    if (!(view_mask & (1u << view))) continue;
    if (cmd.targets->view_mask && view >= base.attachment_layers) {
      KILN_LOG_ONCE(LogLevel::Warn, "draw: view %u has no attachment layer; skipped", view);
      continue;
    }
    ScenePass& pass = new_pass();
    pass.ctx = base;
    pass.ctx.view_index = cmd.targets->view_mask ? view : 0;
    pass.merger.emplace(pass.ctx);
    pass.sample_extent.emplace(pass.ctx);
    pass.droppable = is_droppable(pass.ctx, *pass.merger);
    pass.overwrites = overwrites_colour(pass.ctx, *pass.merger);
    fit_grid(pass.ctx.framebuffer);
    views.push_back(&pass);
  }
  const size_t draw_passes = views.size();
  if (mesh_shading) {
    queue_mesh_draws(pool, draw, draw_passes);
    return;
  }
  for (ScenePass* pass : views) {
    for (size_t d = 0; d < draw.params.size(); ++d) {
      const DrawParams& params = draw.params[d];
      const uint32_t prim_count = static_cast<uint32_t>(
          tessellated       ? (windowed[d] ? patch_count(params.count, patch_size)
                                           : uint32_t(draw.patch_vertices[d].size() / std::max(1u, patch_size)))
          : geometry_inputs ? draw.geometry_inputs[d].size()
          : windowed[d]     ? uncut_primitive_count(topology, params.count)
                            : draw.primitives[d].size());
      const PrimitiveList* primitives = windowed[d] ? nullptr : &draw.primitives[d];
      const GeometryInputList* geometry = geometry_inputs ? &draw.geometry_inputs[d] : nullptr;
      if (counters) {  // input assembly runs for every instance (and view), primitives or not
        counters->input_assembly_vertices.fetch_add(vertex_counts[d] * params.instance_count, std::memory_order_relaxed);
        counters->input_assembly_primitives.fetch_add(uint64_t{prim_count} * params.instance_count,
                                                      std::memory_order_relaxed);
      }
      for (uint32_t inst = 0; inst < params.instance_count && prim_count; ++inst) {
        if (tessellated) {
          queue_tessellated_draw(pool, params, inst, prim_count, windowed[d] ? nullptr : draw.patch_vertices[d].data(),
                                 pass, draw_passes);
          continue;
        }
        for (uint32_t begin = 0; begin < prim_count; begin += per_batch) {
          queue(pool, {&params, primitives, inst, begin, std::min(prim_count, begin + per_batch), geometry}, pass,
                per_round, draw_passes);
        }
      }
    }
  }
}

// Queues one batch of the draw being added: the front end runs when a round is full, the back end
// when the scene is.
void DrawScene::Impl::queue(ThreadPool& pool, const BatchJob& job, ScenePass* pass, size_t per_round, size_t draw_passes) {
  jobs.push_back(job);
  job_pass.push_back(pass);
  if (jobs.size() < per_round) return;
  run_front_end(pool);
  if (output_count >= kBatchesPerScene || triangle_count >= kTrianglesPerScene) {
    render(pool);
    recycle(1, draw_passes);  // the draw being added still has batches to queue
  }
}

// A tessellated draw's batches for one instance and pass: its patches shaded up to the control
// stage, kPatchesPerShading at a time, then cut into batches by what they will make.
void DrawScene::Impl::queue_tessellated_draw(ThreadPool& pool, const DrawParams& params, uint32_t instance,
                                             uint32_t patches, const int32_t* patch_vertices, ScenePass* pass,
                                             size_t draw_passes) {
  for (uint32_t first = 0; first < patches && !device_lost(loss_word(pass->ctx)); first += kPatchesPerShading) {
    gfx::ShadedPatches& shaded = new_shaded_patches();
    shading_patches = &shaded;
    const uint32_t end = std::min(patches, first + kPatchesPerShading);
    gfx::shade_patches(pool, pass->ctx, params, instance, first, end - first, patch_vertices, shaded, &faults);
    uint32_t begin = first;
    uint64_t work = 0;
    auto queue_patches = [&](uint32_t until) {
      if (work) {  // batches of discarded patches only make nothing
        BatchJob job{&params, nullptr, instance, begin, until};
        job.patches = &shaded;
        queue(pool, job, pass, kTessellatedBatchesPerRound, draw_passes);
      }
      begin = until;
      work = 0;
    };
    for (uint32_t p = first; p < end; ++p) {
      const uint32_t w = shaded.work[p - first];
      if (work && work + w > kTessellatedWorkPerBatch) queue_patches(p);
      work += w;
    }
    queue_patches(end);
    shading_patches = nullptr;
  }
}

gfx::ShadedPatches& DrawScene::Impl::new_shaded_patches() {
  if (shaded_patches_used == shaded_patches.size()) shaded_patches.push_back(std::make_unique<gfx::ShadedPatches>());
  return *shaded_patches[shaded_patches_used++];
}

// After the front end ran every queued batch: only the patches still being cut into batches are
// kept (at the front).
void DrawScene::Impl::recycle_shaded_patches() {
  size_t kept = 0;
  for (size_t i = 0; i < shaded_patches_used; ++i)
    if (shaded_patches[i].get() == shading_patches) std::swap(shaded_patches[i], shaded_patches[kept++]);
  shaded_patches_used = kept;
}

// A mesh-shading draw's batches (docs/design/mesh-shading.md): per draw record, its grid of mesh
// workgroups, or its task workgroups round by round and then, in task order, the mesh workgroups
// each launched. Mesh workgroups run once per multiview view (`views`); task workgroups once for
// all views (the spec counts task invocations once, and ViewIndex is not a task shader input).
void DrawScene::Impl::queue_mesh_draws(ThreadPool& pool, SceneDraw& draw, size_t draw_passes) {
  if (views.empty()) return;
  const MeshKernels& mk = *views[0]->ctx.kernels->mesh;
  for (const DrawParams& params : draw.params) {
    const uint64_t total = uint64_t{params.groups[0]} * params.groups[1] * params.groups[2];
    if (total == 0) continue;
    if (total > abi::kMaxMeshWorkgroupTotal) {
      KILN_LOG_ONCE(LogLevel::Error, "vkCmdDrawMeshTasks*EXT: more workgroups than maxTaskWorkGroupTotalCount; skipped");
      continue;
    }
    if (!mk.task) {
      draw.mesh_launches.push_back({{params.groups[0], params.groups[1], params.groups[2]}, nullptr, params.draw_index});
      for (ScenePass* pass : views) queue_mesh_launch(pool, params, draw.mesh_launches.back(), *pass, draw_passes);
      continue;
    }
    for (uint64_t first = 0; first < total; first += kTaskWorkgroupsPerRound) {
      // Queued batches may still point at the previous round's launches and payloads.
      run_front_end(pool);
      const uint32_t count = uint32_t(std::min<uint64_t>(kTaskWorkgroupsPerRound, total - first));
      run_task_workgroups(pool, views[0]->ctx, params.groups, params.draw_index, first, count, task_launches,
                          task_payloads, &faults);
      for (ScenePass* pass : views)
        for (uint32_t i = 0; i < count; ++i) queue_mesh_launch(pool, params, task_launches[i], *pass, draw_passes);
    }
  }
}

void DrawScene::Impl::queue_mesh_launch(ThreadPool& pool, const DrawParams& params, const MeshLaunch& launch,
                                        ScenePass& pass, size_t draw_passes) {
  const uint32_t per_batch = mesh_workgroups_per_batch(*pass.ctx.kernels->mesh);
  const uint32_t total = launch.groups[0] * launch.groups[1] * launch.groups[2];  // launches are bounded by 2^22
  for (uint32_t begin = 0; begin < total; begin += per_batch) {
    BatchJob job{&params, nullptr, 0, begin, std::min(total, begin + per_batch)};
    job.mesh_launch = &launch;
    queue(pool, job, &pass, kMeshBatchesPerRound, draw_passes);
  }
}

// Grows the tile grid to cover `framebuffer`, moving bins already filled to their new index.
void DrawScene::Impl::fit_grid(const Rect& framebuffer) {
  if (framebuffer.empty()) return;
  const uint32_t want_x = std::max(tiles_x, (uint32_t(framebuffer.x1) + kTileSize - 1) / kTileSize);
  const uint32_t want_y = std::max(tiles_y, (uint32_t(framebuffer.y1) + kTileSize - 1) / kTileSize);
  if (want_x == tiles_x && want_y == tiles_y) return;
  std::vector<std::vector<TileWork>> grid(size_t(want_x) * want_y);
  for (uint32_t& t : busy) {
    const uint32_t tx = t % tiles_x, ty = t / tiles_x;
    const uint32_t moved = ty * want_x + tx;
    grid[moved] = std::move(bins[t]);
    t = moved;
  }
  bins = std::move(grid);
  tiles_x = want_x;
  tiles_y = want_y;
}

void DrawScene::Impl::run_front_end(ThreadPool& pool) {
  if (jobs.empty()) return;
  mem::advance_sampling_epoch();  // sampled images may have changed since the last command
  const size_t first = output_count;
  output_count += jobs.size();
  if (outputs.size() < output_count) outputs.resize(output_count);
  output_pass.resize(output_count);
  // Each batch is binned by the worker that ran it (the grid fits every queued pass already).
  pool.parallel_for(jobs.size(), [&](size_t i) {
    SceneBatch& batch = outputs[first + i];
    batch.output.clear();
    if (!device_lost(loss_word(job_pass[i]->ctx))) gfx::run_front_end(job_pass[i]->ctx, jobs[i], batch.output, &faults);
    bin(*job_pass[i], batch.output, batch.bins);
  });
  xfb_copies.clear();
  for (size_t i = 0; i < jobs.size(); ++i) {
    const uint32_t batch = uint32_t(first + i);
    output_pass[batch] = job_pass[i];
    if (outputs[batch].output.xfb.any)  // offsets in API order
      place_transform_feedback(*xfb, job_pass[i]->ctx.kernels->xfb, outputs[batch].output.xfb, job_pass[i]->ctx.counters,
                               xfb_copies);
    triangle_count += outputs[batch].output.triangles.size();
    resolve_line_stipple(outputs[batch].output.lines, line_stipple_counter);  // needs API order
    const std::vector<BatchBins::Run>& runs = outputs[batch].bins.runs;
    for (uint32_t r = 0; r < runs.size(); ++r) {
      std::vector<TileWork>& work = bins[runs[r].tile];
      if (work.empty()) busy.push_back(runs[r].tile);
      work.push_back({batch, r});
    }
  }
  // Each copy has its own place in the buffers: they run in parallel.
  if (!xfb_copies.empty())
    pool.parallel_for(xfb_copies.size(), [&](size_t i) { copy_transform_feedback(xfb_copies[i]); });
  jobs.clear();
  job_pass.clear();
  recycle_shaded_patches();
}

bool DrawScene::Impl::covers_tile(const ScenePass& pass, const RasterTriangle& t, const TriangleEdges& edges,
                                  const Rect& tile) const {
  const Rect region = tile.intersect(pass.ctx.framebuffer);
  const Rect& b = t.bounds;
  if (region.empty() || b.x0 > region.x0 || b.y0 > region.y0 || b.x1 < region.x1 || b.y1 < region.y1) return false;
  return classify_rect(edges, *pass.sample_extent, region) == RectCoverage::Full;
}

// Drops the bin's last entries that `t` (covering the whole tile) replaces: colour-only work of
// the same render targets, view and layer.
void DrawScene::Impl::drop_replaced(std::vector<BinEntry>& bin, const ScenePass& pass, const RasterTriangle& t,
                                    const Rect& tile) const {
  while (!bin.empty()) {
    const BinEntry& e = bin.back();
    if (e.batch == kAttachmentOpEntry) {
      const ClearViewCmd* clear = ops[e.triangle].clear;
      if (!clear || !replaces_clear(*clear, pass, t, tile)) return;
    } else {
      const ScenePass& earlier = *output_pass[e.batch];
      if (!earlier.droppable || earlier.ctx.cmd->targets != pass.ctx.cmd->targets ||
          earlier.ctx.view_index != pass.ctx.view_index || outputs[e.batch].output.triangles[e.triangle].layer != t.layer)
        return;
    }
    bin.pop_back();
  }
}

// Whether `t` of `pass`, covering the whole tile, rewrites everything the clear writes there: a
// colour clear of one layer (no multiview) of an attachment the pass writes, inside the
// framebuffer.
bool DrawScene::Impl::replaces_clear(const ClearViewCmd& clear, const ScenePass& pass, const RasterTriangle& t,
                                     const Rect& tile) const {
  const RenderTargets& targets = *pass.ctx.cmd->targets;
  if (clear.aspects != VK_IMAGE_ASPECT_COLOR_BIT || clear.layers.view_mask || targets.view_mask ||
      clear.layers.count != 1 || clear.layers.base != t.layer)
    return false;
  const Rect part = to_rect(clear.rect).intersect(tile);
  const Rect& fb = pass.ctx.framebuffer;
  if (part.x0 < fb.x0 || part.y0 < fb.y0 || part.x1 > fb.x1 || part.y1 > fb.y1) return false;
  for (uint32_t i = 0; i < targets.color_count && i < abi::kMaxColorAttachments; ++i)
    if (targets.color[i] == clear.view && pass.ctx.has_color[i]) return true;
  return false;
}

void DrawScene::Impl::add_attachment_op(ThreadPool& pool, const AttachmentOp& op) {
  const mem::ImageView* view = op.clear ? op.clear->view : op.resolve->src;
  if (!view || !view->image) return;
  run_front_end(pool);  // queued draws bin first: API order
  const VkExtent3D& extent = view->image->desc.extent;
  const uint32_t level = view->range.baseMipLevel;
  const Rect view_area{0, 0, int32_t(std::max(1u, extent.width >> level)), int32_t(std::max(1u, extent.height >> level))};
  const Rect r = to_rect(op.clear ? op.clear->rect : op.resolve->rect).intersect(view_area);
  if (r.empty()) return;
  fit_grid(r);
  const uint32_t index = uint32_t(ops.size());
  ops.push_back(op);
  for (uint32_t ty = uint32_t(r.y0) / kTileSize; ty <= uint32_t(r.y1 - 1) / kTileSize; ++ty)
    for (uint32_t tx = uint32_t(r.x0) / kTileSize; tx <= uint32_t(r.x1 - 1) / kTileSize; ++tx) {
      std::vector<TileWork>& work = bins[ty * tiles_x + tx];
      if (work.empty()) busy.push_back(ty * tiles_x + tx);
      work.push_back({kAttachmentOpEntry, index});
    }
}

// Groups the batch's triangles by tile (on the worker that ran the batch).
void DrawScene::Impl::bin(const ScenePass& pass, const BatchOutput& out, BatchBins& sorted) const {
  sorted.runs.clear();
  sorted.entries.clear();
  const auto& tris = out.triangles;
  std::vector<uint32_t>& counts = thread_local_ref(tls_tile_counts);
  if (counts.size() < size_t(tiles_x) * tiles_y) counts.resize(size_t(tiles_x) * tiles_y, 0);
  // Triangles per tile, listing each tile as the batch first touches it.
  for (const RasterTriangle& t : tris) {
    const TileSpan s(t.bounds);  // bounds are already inside the framebuffer
    for (uint32_t ty = s.y0; ty <= s.y1; ++ty)
      for (uint32_t tx = s.x0; tx <= s.x1; ++tx)
        if (counts[ty * tiles_x + tx]++ == 0) sorted.runs.push_back({ty * tiles_x + tx, 0, 0});
  }
  // Each tile's range of entries; its count becomes where its next entry goes.
  uint32_t next = 0;
  for (BatchBins::Run& run : sorted.runs) {
    run.begin = next;
    next += counts[run.tile];
    run.end = next;
    counts[run.tile] = run.begin;
  }
  sorted.entries.resize(next);
  // Only triangles spanning a whole tile can cover one, and lines with a per-pixel rule never
  // replace anything.
  auto may_cover = [&](const RasterTriangle& t) {
    const Rect& r = t.bounds;
    return pass.overwrites && t.line == kNoLineRaster && r.x1 - r.x0 >= int32_t(kTileSize) / 2 &&
           r.y1 - r.y0 >= int32_t(kTileSize) / 2;
  };
  bool any_may_cover = false;
  for (uint32_t i = 0; i < tris.size(); ++i) {
    const TileSpan s(tris[i].bounds);
    for (uint32_t ty = s.y0; ty <= s.y1; ++ty)
      for (uint32_t tx = s.x0; tx <= s.x1; ++tx) sorted.entries[counts[ty * tiles_x + tx]++] = i;
    any_may_cover |= may_cover(tris[i]);
  }
  for (const BatchBins::Run& run : sorted.runs) counts[run.tile] = 0;
  if (!any_may_cover) return;
  // Flag the triangles that cover a whole tile.
  for (const BatchBins::Run& run : sorted.runs) {
    const int32_t x = int32_t(run.tile % tiles_x * kTileSize), y = int32_t(run.tile / tiles_x * kTileSize);
    const Rect tile{x, y, x + int32_t(kTileSize), y + int32_t(kTileSize)};
    for (uint32_t e = run.begin; e < run.end; ++e) {
      const RasterTriangle& t = tris[sorted.entries[e]];
      if (may_cover(t) && covers_tile(pass, t, TriangleEdges(t), tile)) sorted.entries[e] |= kCoversTile;
    }
  }
}

// The tile's entries in API order, with the overdraw removal applied: before each triangle that
// covers the tile, the trailing entries it replaces are dropped (on the worker that owns the tile).
void DrawScene::Impl::gather_tile(const std::vector<TileWork>& work, const Rect& tile,
                                  std::vector<BinEntry>& entries) const {
  entries.clear();
  for (const TileWork& w : work) {
    if (w.batch == kAttachmentOpEntry) {
      entries.push_back({kAttachmentOpEntry, w.run});
      continue;
    }
    const BatchBins& sorted = outputs[w.batch].bins;
    const BatchBins::Run& run = sorted.runs[w.run];
    for (uint32_t e = run.begin; e < run.end; ++e) {
      const uint32_t triangle = sorted.entries[e] & ~kCoversTile;
      if ((sorted.entries[e] & kCoversTile) && !entries.empty())
        drop_replaced(entries, *output_pass[w.batch], outputs[w.batch].output.triangles[triangle], tile);
      entries.push_back({w.batch, triangle});
    }
  }
}

void DrawScene::Impl::render(ThreadPool& pool) {
  shaded.resize(output_count);
  for (size_t b = 0; b < output_count; ++b) shaded[b] = {&outputs[b].output, &output_pass[b]->ctx, &*output_pass[b]->merger};
  const uint32_t* lost = output_count ? loss_word(output_pass[0]->ctx) : &abi::kNeverCancelled;
  pool.parallel_for(busy.size(), [&](size_t i) {
    if (device_lost(lost)) return;
    const uint32_t t = busy[i];
    const int32_t x = int32_t((t % tiles_x) * kTileSize), y = int32_t((t / tiles_x) * kTileSize);
    const Rect tile{x, y, x + int32_t(kTileSize), y + int32_t(kTileSize)};
    std::vector<BinEntry>& entries = thread_local_ref(tls_tile_entries);
    gather_tile(bins[t], tile, entries);
    run_tile(shaded, ops, entries, tile, &faults);
  });
  for (uint32_t t : busy) bins[t].clear();
  busy.clear();
  ops.clear();
  output_count = 0;
  triangle_count = 0;
  if (std::atomic_ref<uint32_t>(faults).exchange(0) & abi::kFaultDescriptorIndex)
    KILN_LOG_ONCE(LogLevel::Warn, "draw: a shader indexed a descriptor array past its end; those accesses read zero "
                  "and write nothing");
}

DrawScene::DrawScene() : impl_(std::make_unique<Impl>()) {}
DrawScene::~DrawScene() = default;

void DrawScene::add(ThreadPool& pool, const DrawCmd& draw, DrawCounters* counters, XfbState* xfb) {
  impl_->add(pool, draw, counters, xfb);
}
void DrawScene::add_clear(ThreadPool& pool, const ClearViewCmd& clear) { impl_->add_attachment_op(pool, {&clear, nullptr}); }
void DrawScene::add_resolve(ThreadPool& pool, const ResolveViewCmd& resolve) {
  impl_->add_attachment_op(pool, {nullptr, &resolve});
}

void DrawScene::flush(ThreadPool& pool) {
  Impl& s = *impl_;
  s.run_front_end(pool);
  // Also when nothing was binned (every triangle culled): render() resets the outputs, which
  // must not outlive the passes recycled below.
  if (s.output_count || !s.busy.empty()) s.render(pool);
  s.recycle(0, 0);
}

void run_draw(ThreadPool& pool, const DrawCmd& draw, DrawCounters* counters) {
  DrawScene scene;
  scene.add(pool, draw, counters);
  scene.flush(pool);
}

}  // namespace kiln::exec
