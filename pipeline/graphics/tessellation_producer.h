#pragma once
// The tessellation producer of the primitive stream (primitive_stream.h): a run of a draw's
// patches goes through vertex shading (records of the patch's control points), the tessellation
// control kernel (per patch: output control points, patch constants, tessellation levels), the
// fixed-function tessellator and the tessellation evaluation kernel (W domain points per call),
// and comes out as the evaluation stage's vertex records and the tessellator's primitives, each
// with the patch's PrimitiveId. docs/design/tessellation.md.
#include <cstdint>
#include <vector>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/primitive_stream.h"
#include "pipeline/graphics/vertex_producer.h"

namespace kiln::exec {
class ThreadPool;
}

namespace kiln::exec::gfx {

// Patches of `vertices_per_patch` control points that `vertex_count` vertices of a patch-list
// draw make (a trailing incomplete patch is dropped).
uint32_t patch_count(uint32_t vertex_count, uint32_t vertices_per_patch);

// The control points of the complete patches among `count` vertex ids of an indexed draw with
// primitive restart (primitiveTopologyPatchListRestart): each run of ids between restart cuts
// makes patches of `vertices_per_patch`, and a run's incomplete last patch is dropped. Replaces
// `out` with the patches' ids, patch after patch.
void assemble_patch_vertices(const int64_t* ids, size_t count, uint32_t vertices_per_patch, std::vector<int32_t>& out);

// The vertex and control stages' results for a run of one draw's patches: what the rest of the
// producer evaluates. The control stage runs before batches are cut so that they can be cut by
// what their patches will make (the levels are known then), not by patch count: a patch makes
// from one triangle to 8 Ki of them.
struct ShadedPatches {
  const DrawParams* params = nullptr;
  uint32_t instance = 0;
  uint32_t first = 0, count = 0;                // patches [first, first + count) of the draw's instance
  // The draw's patches' control point ids (assemble_patch_vertices), or null: patch i is the
  // draw's vertices [i * n, (i + 1) * n).
  const int32_t* patch_vertices = nullptr;
  uint32_t control_words = 0, patch_words = 0;  // per patch
  std::vector<uint32_t> control_records;  // count * control_words: each patch's output control points
  std::vector<uint32_t> patch_records;    // count * patch_words: its per-patch outputs, levels first
  std::vector<uint32_t> work;             // per patch: tessellation_work_bound (0: discarded)

  uint32_t* control_record(uint32_t i) { return control_records.data() + size_t(i) * control_words; }
  const uint32_t* control_record(uint32_t i) const { return control_records.data() + size_t(i) * control_words; }
  uint32_t* patch_record(uint32_t i) { return patch_records.data() + size_t(i) * patch_words; }
  const uint32_t* patch_record(uint32_t i) const { return patch_records.data() + size_t(i) * patch_words; }
};

// Runs the vertex stage on the control points of patches [first, first + count) of instance
// `instance` of `params` (`patch_vertices`: see ShadedPatches), then the control stage on each patch, into `out` (on the pool when
// there are many). `faults` collects the kernels' fault bits.
void shade_patches(ThreadPool& pool, const DrawContext& ctx, const DrawParams& params, uint32_t instance, uint32_t first,
                   uint32_t count, const int32_t* patch_vertices, ShadedPatches& out, uint32_t* faults);

// Fills `batch` with the tessellated primitives of patches [job.begin, job.end) of job.patches
// (ctx.kernels->tessellation is set). `faults` collects the kernels' fault bits.
void produce_tessellated_primitives(const DrawContext& ctx, const BatchJob& job, PrimitiveBatch& batch,
                                    uint32_t* faults);

}  // namespace kiln::exec::gfx
