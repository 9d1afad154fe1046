// Strict mode's hazard rules (pipeline/strict/hazard_tracker.h): which pairs of accesses need
// which dependency, how barriers chain, what a layout transition orders, and that queues,
// semaphores/host waits and render pass attachment scopes are honoured.
#include "pipeline/strict/hazard_tracker.h"

#include <gtest/gtest.h>

#include <vector>

namespace kiln::exec::strict {
namespace {

constexpr Stages kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr Stages kCopy = VK_PIPELINE_STAGE_2_COPY_BIT;
constexpr Stages kVertex = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT;
constexpr Stages kFragment = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
constexpr Accesses kStorageWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
constexpr Accesses kStorageRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
constexpr Accesses kTransferWrite = VK_ACCESS_2_TRANSFER_WRITE_BIT;
constexpr Accesses kTransferRead = VK_ACCESS_2_TRANSFER_READ_BIT;

struct Tracker {
  HazardTracker tracker;
  // One command making one access of [begin, end); returns the hazards it found.
  std::vector<Hazard> run(uintptr_t begin, uintptr_t end, Stages stage, Accesses access, bool write, uint32_t queue = 0,
                          uint64_t scope = 0, uint64_t synchronized = 0) {
    std::vector<Hazard> out;
    AccessTag tag{nullptr, "cmd", tracker.begin_command(), queue, scope, synchronized};
    tracker.access({begin, end, stage, access, write}, tag, &out);
    return out;
  }
  void barrier(Stages src, Accesses src_access, Stages dst, Accesses dst_access, uint32_t queue = 0) {
    tracker.barrier(expand_dependency(src, src_access, dst, dst_access), queue, 0, UINTPTR_MAX);
  }
};

TEST(HazardTracker, ReadAfterWriteWithoutABarrierIsReported) {
  Tracker t;
  EXPECT_TRUE(t.run(100, 200, kCompute, kStorageWrite, true).empty());
  const auto hazards = t.run(150, 300, kVertex, kStorageRead, false);
  ASSERT_EQ(1u, hazards.size());
  EXPECT_EQ(HazardKind::ReadAfterWrite, hazards[0].kind);
  EXPECT_EQ(150u, hazards[0].begin);  // only the overlap conflicts
  EXPECT_EQ(200u, hazards[0].end);
  EXPECT_EQ(kCompute, hazards[0].prior_stage);
  EXPECT_EQ(kStorageWrite, hazards[0].prior_access);
}

TEST(HazardTracker, DisjointRangesNeverConflict) {
  Tracker t;
  t.run(0, 100, kCompute, kStorageWrite, true);
  EXPECT_TRUE(t.run(100, 200, kCompute, kStorageWrite, true).empty());
  EXPECT_TRUE(t.run(200, 300, kCompute, kStorageRead, false).empty());
}

TEST(HazardTracker, ABarrierMustCoverTheStageAndMakeTheWriteVisibleToTheRead) {
  Tracker t;
  t.run(0, 64, kCompute, kStorageWrite, true);
  t.barrier(kCompute, kStorageWrite, kFragment, kStorageRead);  // wrong destination stage
  EXPECT_EQ(1u, t.run(0, 64, kVertex, kStorageRead, false).size());

  Tracker u;
  u.run(0, 64, kCompute, kStorageWrite, true);
  u.barrier(kCompute, 0, kVertex, kStorageRead);  // execution only: not available
  EXPECT_EQ(1u, u.run(0, 64, kVertex, kStorageRead, false).size());

  Tracker v;
  v.run(0, 64, kCompute, kStorageWrite, true);
  v.barrier(kCompute, kStorageWrite, kVertex, kStorageRead);
  EXPECT_TRUE(v.run(0, 64, kVertex, kStorageRead, false).empty());

  Tracker sync1;  // synchronization1 meta flags: ALL_COMMANDS, SHADER_READ/WRITE, MEMORY_*
  sync1.run(0, 64, kCompute, kStorageWrite, true);
  sync1.barrier(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT,
                VK_ACCESS_2_SHADER_READ_BIT);
  EXPECT_TRUE(sync1.run(0, 64, kVertex, VK_ACCESS_2_UNIFORM_READ_BIT, false).empty());
}

TEST(HazardTracker, BarriersChain) {
  Tracker t;
  t.run(0, 64, kCopy, kTransferWrite, true);
  t.barrier(kCopy, kTransferWrite, kCompute, 0);          // available, ordered before compute
  t.barrier(kCompute, 0, kFragment, kStorageRead);         // chained: visible to fragment reads
  EXPECT_TRUE(t.run(0, 64, kFragment, kStorageRead, false).empty());

  Tracker u;
  u.run(0, 64, kCopy, kTransferWrite, true);
  u.barrier(kCopy, kTransferWrite, kCompute, 0);
  u.barrier(kVertex, 0, kFragment, kStorageRead);           // does not chain (vertex is not in the chain)
  EXPECT_EQ(1u, u.run(0, 64, kFragment, kStorageRead, false).size());
}

TEST(HazardTracker, WriteAfterReadNeedsOnlyAnExecutionDependency) {
  Tracker t;
  t.run(0, 64, kFragment, kStorageRead, false);
  const auto unordered = t.run(0, 64, kCopy, kTransferWrite, true);
  ASSERT_EQ(1u, unordered.size());
  EXPECT_EQ(HazardKind::WriteAfterRead, unordered[0].kind);

  Tracker u;
  u.run(0, 64, kFragment, kStorageRead, false);
  u.barrier(kFragment, 0, kCopy, 0);
  EXPECT_TRUE(u.run(0, 64, kCopy, kTransferWrite, true).empty());
}

TEST(HazardTracker, WriteAfterWriteNeedsTheFirstWriteAvailable) {
  Tracker t;
  t.run(0, 64, kCopy, kTransferWrite, true);
  const auto unordered = t.run(0, 64, kCopy, kTransferWrite, true);
  ASSERT_EQ(1u, unordered.size());
  EXPECT_EQ(HazardKind::WriteAfterWrite, unordered[0].kind);

  Tracker u;
  u.run(0, 64, kCopy, kTransferWrite, true);
  u.barrier(kCopy, 0, kCopy, 0);  // ordered but not available
  EXPECT_EQ(1u, u.run(0, 64, kCopy, kTransferWrite, true).size());

  Tracker v;
  v.run(0, 64, kCopy, kTransferWrite, true);
  v.barrier(kCopy, kTransferWrite, kCopy, kTransferWrite);
  EXPECT_TRUE(v.run(0, 64, kCopy, kTransferWrite, true).empty());
}

TEST(HazardTracker, ReadsDoNotConflictWithReads) {
  Tracker t;
  t.run(0, 64, kCopy, kTransferRead, false);
  EXPECT_TRUE(t.run(0, 64, kCompute, kStorageRead, false).empty());
  EXPECT_TRUE(t.run(0, 64, kCopy, kTransferRead, false).empty());
}

TEST(HazardTracker, OneCommandsOwnAccessesDoNotConflict) {
  HazardTracker tracker;
  std::vector<Hazard> out;
  const AccessTag tag{nullptr, "vkCmdDispatch", tracker.begin_command(), 0, 0};
  tracker.access({0, 64, kCompute, kStorageRead, false}, tag, &out);
  tracker.access({0, 64, kCompute, kStorageWrite, true}, tag, &out);
  EXPECT_TRUE(out.empty());
}

TEST(HazardTracker, LayoutTransitionsAreOrderedByTheirBarrier) {
  HazardTracker tracker;
  std::vector<Hazard> out;
  const AccessTag copy{nullptr, "copy", tracker.begin_command(), 0, 0};
  tracker.access({0, 64, kCopy, kTransferWrite, true}, copy, &out);
  // Transition with a source scope that misses the copy: the transition overwrites unordered.
  const AccessTag bad{nullptr, "barrier", tracker.begin_command(), 0, 0};
  tracker.layout_transition(expand_dependency(kCompute, kStorageWrite, kFragment, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT), bad,
                            0, 64, false, &out);
  ASSERT_EQ(1u, out.size());
  EXPECT_EQ(HazardKind::WriteAfterWrite, out[0].kind);
  out.clear();
  // The transition is visible to its destination scope only.
  const AccessTag sample{nullptr, "draw", tracker.begin_command(), 0, 0};
  tracker.access({0, 64, kFragment, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, false}, sample, &out);
  EXPECT_TRUE(out.empty());
  const AccessTag copy_out{nullptr, "copy", tracker.begin_command(), 0, 0};
  tracker.access({0, 64, kCopy, kTransferRead, false}, copy_out, &out);
  EXPECT_EQ(1u, out.size());
}

TEST(HazardTracker, ReadsOfContentsLeftUndefinedAreReportedUntilWritten) {
  HazardTracker tracker;
  std::vector<Hazard> out;
  const Dependency dep = expand_dependency(VK_PIPELINE_STAGE_2_NONE, 0, kCopy, kTransferRead | kTransferWrite);
  tracker.layout_transition(dep, {nullptr, "barrier", tracker.begin_command(), 0, 0}, 0, 64, /*discards=*/true, &out);
  EXPECT_TRUE(out.empty());
  tracker.access({0, 32, kCopy, kTransferWrite, true}, {nullptr, "copy in", tracker.begin_command(), 0, 0}, &out);
  EXPECT_TRUE(out.empty());
  const Dependency after_copy = expand_dependency(kCopy, kTransferWrite, kCopy, kTransferRead | kTransferWrite);
  tracker.barrier(after_copy, 0, 0, UINTPTR_MAX);
  tracker.access({0, 64, kCopy, kTransferRead, false}, {nullptr, "copy out", tracker.begin_command(), 0, 0}, &out);
  ASSERT_EQ(1u, out.size());
  EXPECT_EQ(HazardKind::ReadOfUndefined, out[0].kind);
  EXPECT_EQ(32u, out[0].begin) << "the written half is defined";
  EXPECT_EQ(64u, out[0].end);

  out.clear();  // a transition from another layout keeps the contents, undefined ones too
  tracker.layout_transition(after_copy, {nullptr, "barrier", tracker.begin_command(), 0, 0}, 32, 64, false, &out);
  tracker.access({32, 64, kCopy, kTransferRead, false}, {nullptr, "copy out", tracker.begin_command(), 0, 0}, &out);
  ASSERT_EQ(1u, out.size());
  EXPECT_EQ(HazardKind::ReadOfUndefined, out[0].kind);
  out.clear();
  tracker.layout_transition(dep, {nullptr, "barrier", tracker.begin_command(), 0, 0}, 64, 128, false, &out);
  tracker.access({64, 128, kCopy, kTransferRead, false}, {nullptr, "copy out", tracker.begin_command(), 0, 0}, &out);
  EXPECT_TRUE(out.empty());
}

TEST(HazardTracker, ACoarseReadIsOfUndefinedContentsOnlyWhenNothingOfItIsDefined) {
  HazardTracker tracker;
  std::vector<Hazard> out;
  const Dependency dep = expand_dependency(VK_PIPELINE_STAGE_2_NONE, 0, kCopy | kFragment,
                                           kTransferWrite | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  tracker.layout_transition(dep, {nullptr, "barrier", tracker.begin_command(), 0, 0}, 0, 128, true, &out);
  tracker.access({0, 64, kCopy, kTransferWrite, true}, {nullptr, "upload mip 0", tracker.begin_command(), 0, 0}, &out);
  tracker.barrier(expand_dependency(kCopy, kTransferWrite, kFragment, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT), 0, 0, UINTPTR_MAX);
  MemoryAccess sample{0, 128, kFragment, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, false, false, /*coarse=*/true};
  tracker.access(sample, {nullptr, "draw", tracker.begin_command(), 0, 0}, &out);
  EXPECT_TRUE(out.empty()) << "the view's other mip levels may be unread";
  sample.begin = 64;  // a view of the never-written level only
  tracker.access(sample, {nullptr, "draw", tracker.begin_command(), 0, 0}, &out);
  ASSERT_EQ(1u, out.size());
  EXPECT_EQ(HazardKind::ReadOfUndefined, out[0].kind);
}

TEST(HazardTracker, BarriersOnAnotherQueueDoNotOrderAndSemaphoresDo) {
  Tracker t;
  t.run(0, 64, kCompute, kStorageWrite, true, /*queue=*/0);
  t.barrier(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            VK_ACCESS_2_MEMORY_READ_BIT, /*queue=*/1);
  EXPECT_EQ(1u, t.run(0, 64, kCompute, kStorageRead, false, /*queue=*/1).size());

  Tracker u;
  u.run(0, 64, kCompute, kStorageWrite, true, 0);
  // The reading queue's batch waited on a semaphore signalled here.
  const uint64_t signalled = u.tracker.current_seq();
  EXPECT_TRUE(u.run(0, 64, kCompute, kStorageRead, false, 1, 0, signalled).empty());
  // Queue 0 writes again: unordered with queue 1's read and with its own first write.
  const auto hazards = u.run(0, 64, kCopy, kTransferWrite, true, 0);
  ASSERT_EQ(2u, hazards.size());
  EXPECT_EQ(HazardKind::WriteAfterRead, hazards[0].kind);
  EXPECT_EQ(1u, hazards[0].prior.queue);
  EXPECT_EQ(HazardKind::WriteAfterWrite, hazards[1].kind);
}

TEST(HazardTracker, AttachmentAccessesOfOneRenderPassInstanceAreOrdered) {
  Tracker t;
  const Stages color = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
  const Accesses write = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
  t.run(0, 64, color, write, true, 0, /*scope=*/7);
  EXPECT_TRUE(t.run(0, 64, color, write, true, 0, 7).empty());
  EXPECT_EQ(1u, t.run(0, 64, color, write, true, 0, 8).size());  // the next instance needs a dependency
}

TEST(HazardTracker, ForgottenMemoryStartsClean) {
  Tracker t;
  t.run(0, 64, kCompute, kStorageWrite, true);
  t.tracker.forget(0, 32);
  EXPECT_TRUE(t.run(0, 32, kCompute, kStorageRead, false).empty());
  EXPECT_EQ(1u, t.run(32, 64, kCompute, kStorageRead, false).size());
}

}  // namespace
}  // namespace kiln::exec::strict
