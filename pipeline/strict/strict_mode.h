#pragma once
// KILN_STRICT=1 (docs/strict-mode.md): every command a queue runs is checked, before it runs,
// against the device's hazard tracker — its memory accesses (command_accesses.h) against what
// earlier commands did and the dependencies recorded since — and each hazard is reported once to
// the application's debug-utils messengers and the log. Barriers feed the tracker and the image
// layout tracker (layout_tracker.h); a layout transition from UNDEFINED fills the subresource with a
// poison pattern, as does every new allocation, so that code reading undefined contents sees a
// recognisable value instead of yesterday's data. The executor asks it for the shuffled order in
// which unordered dispatches run (shuffled_order).
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "common/debug_report.h"
#include "pipeline/command_list.h"
#include "pipeline/strict/command_accesses.h"
#include "pipeline/strict/hazard_tracker.h"
#include "pipeline/strict/layout_tracker.h"
#include "pipeline/sync.h"

namespace kiln::exec::strict {

// Bytes of poison, repeated from the start of each filled range: as a 32-bit word 0xEFBEADDE,
// as a float -1.18e29.
constexpr uint8_t kPoison[4] = {0xDE, 0xAD, 0xBE, 0xEF};
void fill_poison(uint8_t* data, uint64_t size);

class StrictMode {
 public:
  StrictMode(SyncHub& hub, const DebugReporter* reporter);

  // The queue thread `queue` is about to run `cmd` (not ExecuteCommands itself: its commands come
  // one by one) of a batch for which every command up to `synchronized` is finished and visible
  // (AccessTag::synchronized). Checks and records its accesses; applies barriers.
  void before_command(const Command* cmd, uint32_t queue, uint64_t synchronized, const CommandContext& context);
  // [data, data + size) is new memory: nothing earlier counts, and it starts poisoned.
  void new_memory(uint8_t* data, uint64_t size, bool poison);
  // `wait` (a vkCmdWaitEvents) waits for an event that only a later command of its list sets.
  void report_event_deadlock(const Command* wait, uint32_t queue);
  // The image is destroyed: its layouts are forgotten.
  void image_destroyed(const mem::Image* image);

  // ResourceContext::shader_fault of a strict device's pipelines (`strict`: its StrictMode): the
  // kernel's lanes in `call` accessed memory outside their buffer descriptor's range. Each
  // instruction of each kernel is reported once (KILN-strict-out-of-bounds).
  static void report_shader_fault(const void* strict, const abi::ShaderFaultCall* call);

  // The order to run `count` unordered commands in: a permutation drawn from KILN_STRICT_SEED
  // (default 1) and how many orders were drawn before, so a run is reproducible.
  std::vector<size_t> shuffled_order(size_t count);

 private:
  void apply(const DependencyInfo& deps, const AccessTag& tag, std::vector<Hazard>* hazards,
             std::vector<TrackedAccess>* hazard_accesses);
  void report(const Hazard& hazard, const TrackedAccess& access, const AccessTag& tag);
  // Layout checks of `cmd`: transitions and render pass layouts (old checked, new set), and the
  // layouts transfer commands name.
  void track_layouts(const Command* cmd, const AccessTag& tag, const CommandContext& context);
  void transition_layout(const ImageDependency& d, const AccessTag& tag, std::vector<LayoutMismatch>* out);
  void report(const LayoutMismatch& mismatch, const AccessTag& tag);
  // To the messengers (which also log it), or to the log when the device has no reporter.
  void deliver(VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* id, const std::string& text);

  SyncHub& hub_;
  const DebugReporter* reporter_;
  std::mutex mutex_;  // queues run concurrently
  HazardTracker tracker_;
  LayoutTracker layouts_;
  uint64_t attachment_scopes_ = 0;
  uint64_t seed_ = 1;
  uint64_t orders_drawn_ = 0;
  std::vector<uint64_t> queue_scope_;  // the attachment scope of each queue's render pass instance
  std::set<std::tuple<int, const void*, const void*, const void*>> reported_;
};

}  // namespace kiln::exec::strict
