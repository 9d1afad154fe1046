#pragma once
// Strict mode's memory hazard detection (docs/strict-mode.md, docs/design/execution-and-sync.md). Memory is tracked by address
// range, so buffers, image subresources and aliases of the same memory are one thing. Per range
// the tracker keeps the last write and the reads since, each with the dependency chain that has
// grown after it (the destination stages of every barrier that orders it, and for a write whether
// it was made available and to which accesses it is visible). A new access is checked against
// them as the spec's rules say:
//   read after write  needs the write in an execution dependency chain reaching the read's stage
//                     and made visible to the read's access;
//   write after write needs the first write ordered and made available;
//   write after read  needs an execution dependency only.
// Barriers act on the accesses of their own queue. Semaphore waits and host waits (fences,
// vkQueueWaitIdle) make everything before their signal safe for the work after the wait
// (AccessTag::synchronized).
#include <cstdint>
#include <map>
#include <vector>

#include "pipeline/strict/sync_scope.h"

namespace kiln::exec::strict {

// Who made an access: one command execution (one `seq` for all its accesses).
struct AccessTag {
  const void* command = nullptr;  // for reports and de-duplication
  const char* command_name = "";  // "vkCmdDispatch"
  uint64_t seq = 0;               // HazardTracker::begin_command
  uint32_t queue = 0;
  // Accesses to attachments of one render pass instance are ordered among themselves by
  // rasterization order and subpass dependencies: same nonzero scope, no hazard between them.
  uint64_t attachment_scope = 0;
  // Every command up to this sequence number happened-before this one and its writes are visible
  // (the semaphores this command's batch waited for, host waits before it was submitted).
  uint64_t synchronized = 0;
};

struct MemoryAccess {
  uintptr_t begin = 0, end = 0;
  Stages stage = 0;      // its stage; several bits: it happens in one of them (a dependency on any orders it)
  Accesses access = 0;   // one access bit
  bool write = false;
  // Atomic read-modify-writes: two atomic accesses never race with each other.
  bool atomic = false;
  // The range is what the command may touch, not what it does (a shader's whole storage binding):
  // two such writes are not reported (commands often fill disjoint parts of one buffer).
  bool coarse = false;
};

// ReadOfUndefined: a read of memory whose last "write" was a layout transition from UNDEFINED
// (its contents are undefined, and strict mode has poisoned them).
enum class HazardKind { ReadAfterWrite, WriteAfterRead, WriteAfterWrite, ReadOfUndefined };
const char* hazard_name(HazardKind kind);

struct Hazard {
  HazardKind kind;
  AccessTag prior;
  Stages prior_stage;
  Accesses prior_access;
  uintptr_t begin, end;  // the part of the access that conflicts
  bool prior_coarse = false;  // the earlier access was coarse (MemoryAccess::coarse)
};

class HazardTracker {
 public:
  // A new command starts: returns its sequence number for AccessTag::seq.
  uint64_t begin_command() { return ++seq_; }
  uint64_t current_seq() const { return seq_; }

  // Checks `access` by `tag` against earlier accesses (hazards appended to `out`, one per earlier
  // command and kind) and records it.
  void access(const MemoryAccess& access, const AccessTag& tag, std::vector<Hazard>* out);
  // A pipeline barrier / event wait / subpass dependency on `queue`, for memory [begin, end)
  // (a global memory barrier: begin 0, end UINTPTR_MAX).
  void barrier(const Dependency& dep, uint32_t queue, uintptr_t begin, uintptr_t end);
  // An image layout transition of [begin, end) inside a barrier: a write ordered after the
  // barrier's source scope and before its destination scope; from UNDEFINED (`discards`) it
  // leaves the contents undefined until something writes them.
  void layout_transition(const Dependency& dep, const AccessTag& tag, uintptr_t begin, uintptr_t end, bool discards,
                         std::vector<Hazard>* out);
  // [begin, end) is new memory (an allocation): nothing before counts.
  void forget(uintptr_t begin, uintptr_t end);

 private:
  struct Write {
    bool valid = false;
    AccessTag tag;
    Stages stage = 0;
    Accesses access = 0;
    Stages chain = 0;       // stages ordered after the write
    bool available = false;
    Accesses visible = 0;   // accesses it is visible to (in the chained stages)
    bool atomic = false, coarse = false;
    bool undefined = false;  // a transition from UNDEFINED
  };
  struct Read {
    AccessTag tag;
    Stages stage = 0;
    Accesses access = 0;
    Stages chain = 0;       // stages ordered after the read
    bool atomic = false, coarse = false;
  };
  struct Segment {
    uintptr_t end = 0;
    Write write;
    std::vector<Read> reads;
  };

  bool settled(const AccessTag& prior, const AccessTag& now) const;
  // Splits segments so that [begin, end) is covered by whole segments (gaps filled when `fill`),
  // then calls fn(segment_begin, segment).
  template <typename Fn>
  void for_range(uintptr_t begin, uintptr_t end, bool fill, Fn&& fn);
  void split_at(uintptr_t at);
  static void add_hazard(std::vector<Hazard>* out, HazardKind kind, const AccessTag& prior, Stages stage,
                         Accesses access, uintptr_t begin, uintptr_t end, bool prior_coarse = false);

  std::map<uintptr_t, Segment> segments_;  // keyed by begin, disjoint
  uint64_t seq_ = 0;
};

}  // namespace kiln::exec::strict
