#pragma once
// A VkQueue's execution engine: a submission thread that runs batches in submission order.
// vkQueueSubmit only enqueues; the thread waits for each batch's semaphores, executes its
// command lists, then signals its semaphores and (after the submit's last batch) its fence.
// On a lost device (SyncHub::lose) it drops what is queued: nothing more runs or is signalled.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "pipeline/command_list.h"
#include "pipeline/sync.h"
#include "pipeline/thread_pool.h"
#include "pipeline/watchdog.h"

namespace kiln::exec {
namespace strict {
class StrictMode;
}

struct SemaphoreOp {
  Semaphore* semaphore;
  uint64_t value;  // timeline value; ignored for binary semaphores
};

struct Batch {
  std::vector<SemaphoreOp> waits;
  // Held until the batch has run: the command buffers may be reset or freed meanwhile.
  std::vector<std::shared_ptr<const CommandList>> command_lists;
  // Host work that must happen in queue order after the command lists (e.g. handing a swapchain
  // image to its presentation thread for vkQueuePresentKHR); runs before the signals.
  std::function<void()> host_step;
  std::vector<SemaphoreOp> signals;
  Fence* fence = nullptr;  // signalled after this batch (set on a submit's last batch)
  uint64_t host_synchronized = 0;  // strict mode: SyncHub::synchronized when submitted
};

class QueueEngine {
 public:
  // `strict` (null unless KILN_STRICT) checks every command; `index` names the queue in its reports.
  QueueEngine(SyncHub& hub, ThreadPool& pool, strict::StrictMode* strict = nullptr, uint32_t index = 0);
  ~QueueEngine();  // finishes queued work, then stops the thread
  QueueEngine(const QueueEngine&) = delete;
  QueueEngine& operator=(const QueueEngine&) = delete;

  void submit(std::vector<Batch>&& batches);
  // Returns once everything submitted has run (or been dropped by a device loss):
  // VK_ERROR_DEVICE_LOST when the device is lost, else VK_SUCCESS.
  VkResult wait_idle();
  // For the device's watchdog.
  const QueueProgress& progress() const { return progress_; }

 private:
  void run();

  SyncHub& hub_;
  ThreadPool& pool_;
  strict::StrictMode* strict_;
  uint32_t index_;
  uint64_t synchronized_ = 0;  // queue thread only
  QueueProgress progress_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable idle_;
  std::deque<Batch> pending_;
  bool busy_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace kiln::exec
