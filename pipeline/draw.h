#pragma once
// Running a draw: the graphics front end (vertex kernels over batches, primitive assembly,
// clipping, viewport transform, fixed-point setup, binning into 64x64 tiles with API-order keys)
// and back end (per-tile rasterization, fragment kernels over 2x2 quads, depth/stencil tests,
// blending, attachment stores) of ARCHITECTURE.md "The execution engine".
#include <atomic>
#include <cstdint>

#include "pipeline/command_list.h"
#include "pipeline/thread_pool.h"

namespace kiln::exec {

// What draws add up while queries are active (the executor owns one per command list run and
// passes it to every draw; queries read the difference between Begin and End).
struct DrawCounters {
  std::atomic<uint64_t> samples_passed{0};  // occlusion: samples that passed every test and were not discarded
  // Pipeline statistics (VkQueryPipelineStatisticFlagBits).
  std::atomic<uint64_t> input_assembly_vertices{0}, input_assembly_primitives{0}, vertex_shader_invocations{0},
      clipping_invocations{0}, clipping_primitives{0}, fragment_shader_invocations{0};
};

// `counters` may be null (nothing counts then).
void run_draw(ThreadPool& pool, const DrawCmd& draw, DrawCounters* counters = nullptr);

}  // namespace kiln::exec
