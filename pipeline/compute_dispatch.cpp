#include "pipeline/compute_dispatch.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

#include "common/log.h"
#include "memory/sampling.h"
#include "pipeline/fiber.h"

namespace kiln::exec {
namespace {

// Per worker thread: the workgroup's shared memory and the fibers, reused across workgroups.
struct WorkerScratch {
  std::unique_ptr<uint8_t[]> shared;
  size_t shared_size = 0;
  FiberGroup fibers;
  uint8_t* shared_memory(size_t bytes) {
    if (bytes > shared_size) {
      shared.reset(new uint8_t[bytes]);
      shared_size = bytes;
    }
    return shared.get();
  }
};

thread_local WorkerScratch scratch;

}  // namespace

uint8_t* run_workgroup(const ComputeKernel& kernel, const abi::ComputeDispatchContext& dispatch, const uint32_t group[3],
                       const uint8_t* preload, uint32_t preload_offset, uint32_t preload_bytes) {
  const uint32_t invocations = kernel.local_size[0] * kernel.local_size[1] * kernel.local_size[2];
  const uint32_t subgroups = (invocations + kernel.simd_width - 1) / kernel.simd_width;
  abi::ComputeInvocation invocation{};
  invocation.dispatch = &dispatch;
  for (int i = 0; i < 3; ++i) invocation.workgroup_id[i] = group[i];
  invocation.subgroup_count = subgroups;
  // Shared memory starts zeroed: deterministic results for shaders that read before writing.
  invocation.shared_memory = scratch.shared_memory(std::max<uint32_t>(kernel.shared_memory_bytes, 16));
  memset(invocation.shared_memory, 0, kernel.shared_memory_bytes);
  if (preload_bytes) memcpy(invocation.shared_memory + preload_offset, preload, preload_bytes);
  if (!kernel.uses_barrier) {
    for (uint32_t s = 0; s < subgroups; ++s) {
      invocation.subgroup_id = s;
      kernel.function(&invocation);
    }
    return invocation.shared_memory;
  }
  // Each subgroup gets its own invocation record (its subgroup id) and fiber.
  std::vector<abi::ComputeInvocation> records(subgroups, invocation);
  FiberGroup& fibers = scratch.fibers;
  for (uint32_t s = 0; s < subgroups; ++s) {
    records[s].subgroup_id = s;
    records[s].workgroup_barrier = &FiberGroup::yield_current;
    records[s].barrier_context = &fibers;
  }
  fibers.run(subgroups, [&](size_t s) { kernel.function(&records[s]); });
  return invocation.shared_memory;
}

void run_compute_dispatch(ThreadPool& pool, const ComputeKernel& kernel, const abi::ResourceContext& resources,
                          const uint32_t base_workgroup[3], const uint32_t workgroup_count[3],
                          std::atomic<uint64_t>* invocations) {
  DispatchJob job{&kernel, &resources, {}, {}};
  for (int i = 0; i < 3; ++i) job.base[i] = base_workgroup[i], job.count[i] = workgroup_count[i];
  run_compute_dispatches(pool, {job}, invocations);
}

void run_compute_dispatches(ThreadPool& pool, const std::vector<DispatchJob>& jobs, std::atomic<uint64_t>* invocations) {
  mem::advance_sampling_epoch();  // sampled images may have changed since the last command
  std::vector<abi::ComputeDispatchContext> contexts(jobs.size());
  std::vector<uint64_t> first_group(jobs.size() + 1, 0);  // of each job in the batch's numbering
  struct alignas(std::atomic_ref<uint32_t>::required_alignment) Fault {
    uint32_t bits = 0;
  };
  std::vector<Fault> faults(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) {
    const DispatchJob& job = jobs[j];
    abi::ComputeDispatchContext& dispatch = contexts[j];
    dispatch.resources = job.resources;
    dispatch.faults = &faults[j].bits;
    for (int i = 0; i < 3; ++i) {
      dispatch.workgroup_size[i] = job.kernel->local_size[i];
      dispatch.workgroup_count[i] = job.count[i];
      dispatch.base_workgroup[i] = job.base[i];
    }
    const uint64_t groups = uint64_t{job.count[0]} * job.count[1] * job.count[2];
    first_group[j + 1] = first_group[j] + groups;
    // Every invocation of every workgroup runs (partial subgroups' extra lanes are not invocations).
    if (invocations)
      invocations->fetch_add(groups * job.kernel->local_size[0] * job.kernel->local_size[1] * job.kernel->local_size[2],
                             std::memory_order_relaxed);
  }
  const uint64_t total = first_group.back();
  if (total == 0) return;
  // Hand out workgroups in chunks: enough chunks to balance load, few enough to keep hand-off cheap.
  const uint64_t chunks = std::min<uint64_t>(total, 8ull * pool.thread_count());
  pool.parallel_for(chunks, [&](size_t chunk) {
    const uint64_t first = total * chunk / chunks, last = total * (chunk + 1) / chunks;
    size_t j = std::upper_bound(first_group.begin(), first_group.end(), first) - first_group.begin() - 1;
    for (uint64_t g = first; g < last; ++g) {
      while (g >= first_group[j + 1]) ++j;
      const DispatchJob& job = jobs[j];
      // A lost device (docs/design/device-loss.md) runs no more workgroups.
      if (job.resources && __atomic_load_n(job.resources->cancel, __ATOMIC_RELAXED)) return;
      const uint64_t local = g - first_group[j];
      const uint32_t group[3] = {job.base[0] + static_cast<uint32_t>(local % job.count[0]),
                                 job.base[1] + static_cast<uint32_t>((local / job.count[0]) % job.count[1]),
                                 job.base[2] + static_cast<uint32_t>(local / (uint64_t{job.count[0]} * job.count[1]))};
      run_workgroup(*job.kernel, contexts[j], group);
    }
  });
  for (Fault& fault : faults)
    if (std::atomic_ref<uint32_t>(fault.bits).load() & abi::kFaultDescriptorIndex)
      KILN_LOG_ONCE(LogLevel::Warn, "compute dispatch: a shader indexed a descriptor array past its end (or past the "
                    "set's variable descriptor count); those accesses read zero and write nothing");
}

}  // namespace kiln::exec
