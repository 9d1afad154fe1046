#pragma once
// Running draws: the graphics front end (vertex kernels over batches, primitive assembly,
// clipping, viewport transform, fixed-point setup, binning into 64x64 tiles with API-order keys)
// and back end (per-tile rasterization, fragment kernels over 2x2 quads, depth/stencil tests,
// blending, attachment stores) of ARCHITECTURE.md "The execution engine".
#include <atomic>
#include <cstdint>
#include <memory>

#include "common/abi/kernel_abi.h"
#include "pipeline/command_list.h"
#include "pipeline/thread_pool.h"

namespace kiln::exec {

// What draws add up while queries are active (the executor owns one per command list run and
// passes it to every draw; queries read the difference between Begin and End).
struct XfbState;

struct DrawCounters {
  std::atomic<uint64_t> samples_passed{0};  // occlusion: samples that passed every test and were not discarded
  // Pipeline statistics (VkQueryPipelineStatisticFlagBits).
  std::atomic<uint64_t> input_assembly_vertices{0}, input_assembly_primitives{0}, vertex_shader_invocations{0},
      clipping_invocations{0}, clipping_primitives{0}, fragment_shader_invocations{0},
      tessellation_control_patches{0}, tessellation_evaluation_invocations{0}, geometry_shader_invocations{0},
      geometry_shader_primitives{0}, task_shader_invocations{0}, mesh_shader_invocations{0};
  // VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT: primitives mesh workgroups output.
  std::atomic<uint64_t> mesh_primitives_generated{0};
  // Per vertex stream: primitives the last pre-rasterization stage produced (PRIMITIVES_GENERATED),
  // and transform feedback's written and needed primitives (TRANSFORM_FEEDBACK_STREAM).
  std::atomic<uint64_t> primitives_generated[abi::kMaxVertexStreams] = {}, xfb_written[abi::kMaxVertexStreams] = {},
                        xfb_needed[abi::kMaxVertexStreams] = {};
};

// Consecutive draws rendered together. Each draw's front end bins its triangles into the
// scene's tiles in API order; the back end then runs each tile through every draw of the scene
// while the tile's pixels stay in cache (draw by draw, a full-screen draw would sweep the whole
// target through memory each time). A triangle that replaces every colour sample of a tile
// drops the earlier work there whose only effect was colour writes (overdraw removal).
// The executor adds the load-op clears, draws and resolves of a run of commands and flushes before any
// other command, so every other command still sees all earlier ones finished.
class DrawScene {
 public:
  DrawScene();
  ~DrawScene();
  DrawScene(const DrawScene&) = delete;
  DrawScene& operator=(const DrawScene&) = delete;

  // Queues `draw`; what it points to must stay alive until flush(). `counters` may be null
  // (nothing counts then). Renders part of the scene when it grows too big to keep.
  // `xfb`: the execution's transform feedback state while capture is active, else null.
  void add(ThreadPool& pool, const DrawCmd& draw, DrawCounters* counters, XfbState* xfb = nullptr);
  // Queues a load-op clear (it must stay alive until flush()): binned like a draw, so a tile is
  // cleared while in cache right before the draws that follow, or not at all when one replaces it.
  void add_clear(ThreadPool& pool, const ClearViewCmd& clear);
  // Queues an end-of-subpass resolve (alive until flush()), binned like a clear: a tile is
  // resolved right after its draws, while its samples are in cache.
  void add_resolve(ThreadPool& pool, const ResolveViewCmd& resolve);
  // Renders everything queued.
  void flush(ThreadPool& pool);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One draw on its own (a scene of one).
void run_draw(ThreadPool& pool, const DrawCmd& draw, DrawCounters* counters = nullptr);

}  // namespace kiln::exec
