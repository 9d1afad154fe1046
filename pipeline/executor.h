#pragma once
// Runs a recorded command list on the calling (queue submission) thread, spreading the large
// parts of each command over the device's worker pool.
#include "pipeline/command_list.h"
#include "pipeline/thread_pool.h"

namespace kiln::exec {

namespace strict {
class StrictMode;
}
struct QueueProgress;

// `strict` (KILN_STRICT) sees every command before it runs, as queue `queue`, with every command up
// to `synchronized` finished and visible (strict::AccessTag::synchronized). `progress` (the queue's,
// for the device watchdog) hears of every command as it begins; the list stops early when the
// device is lost (a command's resources carry the loss word, abi::ResourceContext::cancel).
void execute_command_list(const CommandList& list, ThreadPool& pool, strict::StrictMode* strict = nullptr, uint32_t queue = 0,
                          uint64_t synchronized = 0, QueueProgress* progress = nullptr);

}  // namespace kiln::exec
