#pragma once
// Running a compute dispatch: workgroups spread over the worker pool; within a workgroup, the
// subgroups of W invocations run one after another, or — when the shader has workgroup
// barriers — as fibers that each run until their next barrier (pipeline/fiber.h), so a barrier
// waits for every live subgroup and never deadlocks, even in non-uniform control flow.
#include <atomic>
#include <cstdint>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "pipeline/descriptor_uses.h"
#include "pipeline/thread_pool.h"

namespace kiln::exec {

struct ComputeKernel {
  abi::ComputeKernelFn function = nullptr;
  uint32_t simd_width = 8;
  uint32_t local_size[3] = {1, 1, 1};
  uint32_t shared_memory_bytes = 0;
  bool uses_barrier = false;
  const DescriptorUses* descriptor_uses = nullptr;  // strict mode only (owned by the pipeline)
};

// Runs workgroup `group` of `kernel` on the calling thread: its shared memory (the thread's own)
// is zeroed, `preload_bytes` of `preload` are copied to it at `preload_offset` (a task payload),
// then every subgroup runs (as fibers when the kernel has barriers). Returns the shared memory,
// valid until the thread runs another workgroup (task and mesh workgroups hand on what is there).
uint8_t* run_workgroup(const ComputeKernel& kernel, const abi::ComputeDispatchContext& dispatch, const uint32_t group[3],
                       const uint8_t* preload = nullptr, uint32_t preload_offset = 0, uint32_t preload_bytes = 0);

// `invocations` (may be null) gets the dispatch's invocation count added (pipeline statistics).
void run_compute_dispatch(ThreadPool& pool, const ComputeKernel& kernel, const abi::ResourceContext& resources,
                          const uint32_t base_workgroup[3], const uint32_t workgroup_count[3],
                          std::atomic<uint64_t>* invocations = nullptr);

// One dispatch of a batch.
struct DispatchJob {
  const ComputeKernel* kernel;
  const abi::ResourceContext* resources;
  uint32_t base[3];
  uint32_t count[3];
};
// Runs dispatches that no dependency orders (consecutive in a command list, nothing between
// them) as one job on the pool: their workgroups are spread over the workers together, so a
// stream of small dispatches does not wait for every worker after each one.
void run_compute_dispatches(ThreadPool& pool, const std::vector<DispatchJob>& jobs, std::atomic<uint64_t>* invocations);

}  // namespace kiln::exec
