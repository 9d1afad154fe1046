#include "pipeline/draw.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <vector>

#include "common/log.h"
#include "memory/sampling.h"
#include "pipeline/graphics/draw_context.h"
#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/edge.h"
#include "pipeline/graphics/front_end.h"
#include "pipeline/graphics/output_merge.h"
#include "pipeline/graphics/primitive_assembly.h"
#include "pipeline/graphics/tile_backend.h"

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

// A draw command and its (sub-)draws' primitives, kept until the front end has run them.
struct SceneDraw {
  DrawCmd cmd;  // a copy: the executor may pass a temporary with the render targets filled in
  std::vector<DrawParams> params;
  std::vector<PrimitiveList> primitives;  // per params
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
  std::vector<BatchOutput> outputs;
  std::vector<ScenePass*> output_pass;
  size_t output_count = 0, triangle_count = 0;
  // Line stipple counter where the last stippled segment ended (strips go on from it).
  float line_stipple_counter = 0.0f;
  // Tiles: bins[ty * tiles_x + tx] in API order; `busy` lists the non-empty bins.
  std::vector<std::vector<BinEntry>> bins;
  std::vector<uint32_t> busy;
  uint32_t tiles_x = 0, tiles_y = 0;
  std::vector<AttachmentOp> ops;  // binned as BinEntry{kAttachmentOpEntry, index}
  VertexIds ids;
  std::vector<ShadedBatch> shaded;
  // Per-draw scratch of add(), kept to spare a small-draw stream two allocations per draw.
  std::vector<uint64_t> vertex_counts;
  std::vector<uint8_t> windowed;  // per sub-draw: its batches assemble their own primitives
  std::vector<ScenePass*> views;
  alignas(std::atomic_ref<uint32_t>::required_alignment) uint32_t faults = 0;

  void add(ThreadPool& pool, const DrawCmd& cmd, DrawCounters* counters);
  void add_attachment_op(ThreadPool& pool, const AttachmentOp& op);
  void run_front_end(ThreadPool& pool);
  void render(ThreadPool& pool);
  void recycle(size_t keep_draws, size_t keep_passes);
  SceneDraw& new_draw();
  ScenePass& new_pass();
  void fit_grid(const Rect& framebuffer);
  void bin(uint32_t batch);
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

void DrawScene::Impl::add(ThreadPool& pool, const DrawCmd& cmd, DrawCounters* counters) {
  SceneDraw& draw = new_draw();
  draw.cmd = cmd;
  DrawContext base;
  if (!prepare_draw_context(draw.cmd, counters, base)) {
    --draw_count;
    return;
  }
  const VkPrimitiveTopology topology = cmd.state->input_assembly.topology;
  const bool provoking_last = cmd.state->rasterization.provoking_vertex == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  collect_draws(draw.cmd, draw.params);
  if (draw.primitives.size() < draw.params.size()) draw.primitives.resize(draw.params.size());
  vertex_counts.assign(draw.params.size(), 0);  // input-assembly vertices per instance
  windowed.assign(draw.params.size(), 0);
  for (size_t d = 0; d < draw.params.size(); ++d) {
    draw.primitives[d].clear();
    const DrawParams& params = draw.params[d];
    if (params.instance_count == 0) continue;
    // Without restart cuts most topologies make each primitive a function of its index: batches
    // then fetch and assemble their own primitives on the pool (no draw-sized id and primitive
    // arrays to write and read back: 200 MB for a 4 M-triangle indexed mesh).
    const bool cuts_possible = params.indexed && cmd.state->input_assembly.primitive_restart;
    if (!cuts_possible && assembles_in_windows(topology) && uint64_t{params.first} + params.count <= UINT32_MAX) {
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
  for (ScenePass* pass : views) {
    for (size_t d = 0; d < draw.params.size(); ++d) {
      const DrawParams& params = draw.params[d];
      const uint32_t prim_count = static_cast<uint32_t>(
          windowed[d] ? uncut_primitive_count(topology, params.count) : draw.primitives[d].size());
      const PrimitiveList* primitives = windowed[d] ? nullptr : &draw.primitives[d];
      if (counters) {  // input assembly runs for every instance (and view), primitives or not
        counters->input_assembly_vertices.fetch_add(vertex_counts[d] * params.instance_count, std::memory_order_relaxed);
        counters->input_assembly_primitives.fetch_add(uint64_t{prim_count} * params.instance_count,
                                                      std::memory_order_relaxed);
      }
      for (uint32_t inst = 0; inst < params.instance_count && prim_count; ++inst) {
        for (uint32_t begin = 0; begin < prim_count; begin += kPrimitivesPerBatch) {
          jobs.push_back({&params, primitives, inst, begin, std::min(prim_count, begin + kPrimitivesPerBatch)});
          job_pass.push_back(pass);
          if (jobs.size() < kBatchesPerRound) continue;
          run_front_end(pool);
          if (output_count >= kBatchesPerScene || triangle_count >= kTrianglesPerScene) {
            render(pool);
            recycle(1, draw_passes);  // the draw being added still has batches to queue
          }
        }
      }
    }
  }
}

// Grows the tile grid to cover `framebuffer`, moving bins already filled to their new index.
void DrawScene::Impl::fit_grid(const Rect& framebuffer) {
  if (framebuffer.empty()) return;
  const uint32_t want_x = std::max(tiles_x, (uint32_t(framebuffer.x1) + kTileSize - 1) / kTileSize);
  const uint32_t want_y = std::max(tiles_y, (uint32_t(framebuffer.y1) + kTileSize - 1) / kTileSize);
  if (want_x == tiles_x && want_y == tiles_y) return;
  std::vector<std::vector<BinEntry>> grid(size_t(want_x) * want_y);
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
  pool.parallel_for(jobs.size(), [&](size_t i) {
    BatchOutput& out = outputs[first + i];
    out.clear();
    gfx::run_front_end(job_pass[i]->ctx, jobs[i], out, &faults);
  });
  for (size_t i = 0; i < jobs.size(); ++i) {
    output_pass[first + i] = job_pass[i];
    triangle_count += outputs[first + i].triangles.size();
    resolve_line_stipple(outputs[first + i].lines, line_stipple_counter);  // needs API order, like binning
    bin(uint32_t(first + i));
  }
  jobs.clear();
  job_pass.clear();
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
          earlier.ctx.view_index != pass.ctx.view_index || outputs[e.batch].triangles[e.triangle].layer != t.layer)
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
      std::vector<BinEntry>& entries = bins[ty * tiles_x + tx];
      if (entries.empty()) busy.push_back(ty * tiles_x + tx);
      entries.push_back({kAttachmentOpEntry, index});
    }
}

void DrawScene::Impl::bin(uint32_t batch) {
  const ScenePass& pass = *output_pass[batch];
  const auto& tris = outputs[batch].triangles;
  for (uint32_t i = 0; i < tris.size(); ++i) {
    const RasterTriangle& t = tris[i];
    const Rect& r = t.bounds;  // already inside the framebuffer
    // `edges`: set when the triangle may replace earlier work in a tile it covers.
    auto bin_triangle = [&](const TriangleEdges* edges) {
      for (uint32_t ty = uint32_t(r.y0) / kTileSize; ty <= uint32_t(r.y1 - 1) / kTileSize; ++ty)
        for (uint32_t tx = uint32_t(r.x0) / kTileSize; tx <= uint32_t(r.x1 - 1) / kTileSize; ++tx) {
          const uint32_t index = ty * tiles_x + tx;
          std::vector<BinEntry>& entries = bins[index];
          if (entries.empty()) {
            busy.push_back(index);
          } else if (edges) {
            const int32_t x = int32_t(tx * kTileSize), y = int32_t(ty * kTileSize);
            const Rect tile{x, y, x + int32_t(kTileSize), y + int32_t(kTileSize)};
            if (covers_tile(pass, t, *edges, tile)) drop_replaced(entries, pass, t, tile);
          }
          entries.push_back({batch, i});
        }
    };
    // Only triangles spanning a whole tile can replace one. (No std::optional for the edges:
    // its per-triangle zeroing cost more than binning a small triangle.)
    // Lines with a per-pixel rule never replace anything.
    if (pass.overwrites && t.line == kNoLineRaster && r.x1 - r.x0 >= int32_t(kTileSize) / 2 &&
        r.y1 - r.y0 >= int32_t(kTileSize) / 2) {
      const TriangleEdges edges(t);
      bin_triangle(&edges);
    } else {
      bin_triangle(nullptr);
    }
  }
}

void DrawScene::Impl::render(ThreadPool& pool) {
  shaded.resize(output_count);
  for (size_t b = 0; b < output_count; ++b) shaded[b] = {&outputs[b], &output_pass[b]->ctx, &*output_pass[b]->merger};
  pool.parallel_for(busy.size(), [&](size_t i) {
    const uint32_t t = busy[i];
    const int32_t x = int32_t((t % tiles_x) * kTileSize), y = int32_t((t / tiles_x) * kTileSize);
    run_tile(shaded, ops, bins[t], Rect{x, y, x + int32_t(kTileSize), y + int32_t(kTileSize)}, &faults);
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

void DrawScene::add(ThreadPool& pool, const DrawCmd& draw, DrawCounters* counters) { impl_->add(pool, draw, counters); }
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
