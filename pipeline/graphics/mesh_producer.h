#pragma once
// The mesh-shading producer of the primitive stream (primitive_stream.h;
// docs/design/mesh-shading.md). Task workgroups run first, on the pool, and say how many mesh
// workgroups each launches and with which payload; mesh workgroups then run batch by batch like
// any other producer, and what each wrote to its shared memory (SetMeshOutputsEXT's counts,
// vertices, primitives and their indices) becomes the consumer's vertex rows and primitives, in
// workgroup order and index order within a workgroup.
#include <cstdint>
#include <vector>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/graphics/primitive_stream.h"
#include "pipeline/graphics/vertex_producer.h"
#include "pipeline/thread_pool.h"

namespace kiln::exec::gfx {

// One grid of mesh workgroups: a draw's (no task shader) or what one task workgroup launched.
struct MeshLaunch {
  uint32_t groups[3] = {};
  const uint8_t* payload = nullptr;  // the task workgroup's payload (MeshKernels::task->payload_bytes), or null
  uint32_t draw_index = 0;
};

// Mesh workgroups per front-end batch: a few hundred primitives' worth.
uint32_t mesh_workgroups_per_batch(const MeshKernels& mk);

// Runs task workgroups [first, first + count) (linear indices into `groups`) of a draw on the pool.
// Workgroup i's launch goes to launches[i] (its grid, its payload at payloads + i * payload_bytes),
// so launches and payloads must not move until their batches have run.
void run_task_workgroups(ThreadPool& pool, const DrawContext& ctx, const uint32_t groups[3], uint32_t draw_index,
                         uint64_t first, uint32_t count, std::vector<MeshLaunch>& launches, std::vector<uint8_t>& payloads,
                         uint32_t* faults);

// Fills `batch` with the primitives of mesh workgroups [job.begin, job.end) of *job.mesh_launch.
void produce_mesh_primitives(const DrawContext& ctx, const BatchJob& job, PrimitiveBatch& batch, uint32_t* faults);

}  // namespace kiln::exec::gfx
