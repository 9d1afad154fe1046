#pragma once
// VkDevice and VkQueue.
#include <vulkan/vulkan.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "common/debug_report.h"
#include "icd/instance.h"
#include "icd/object.h"
#include "pipeline/queue_engine.h"
#include "pipeline/strict/strict_mode.h"
#include "pipeline/sync.h"
#include "pipeline/thread_pool.h"
#include "pipeline/watchdog.h"

namespace kiln {

struct Device;

struct Queue : DispatchableObject {
  // `engine_index`: the queue's number among all of the device's queues (strict mode's reports).
  Queue(Device* owner, uint32_t family, uint32_t index, VkDeviceQueueCreateFlags flags, exec::SyncHub& hub,
        exec::ThreadPool& pool, exec::strict::StrictMode* strict, uint32_t engine_index)
      : device(owner), family_index(family), queue_index(index), create_flags(flags), engine(hub, pool, strict, engine_index) {}
  Device* device;
  uint32_t family_index;
  uint32_t queue_index;
  VkDeviceQueueCreateFlags create_flags;
  exec::QueueEngine engine;
};

struct Device : DispatchableObject {
  PhysicalDevice* physical_device = nullptr;
  VkAllocationCallbacks allocator_storage{};
  const VkAllocationCallbacks* allocator = nullptr;
  uint32_t api_version = VK_API_VERSION_1_3;  // min(instance apiVersion, Kiln's)
  std::vector<std::string> enabled_extensions;
  exec::SyncHub sync_hub;
  // Declares the device lost when a queue is stuck for KILN_DEVICE_TIMEOUT_MS (docs/design/device-loss.md).
  exec::Watchdog watchdog{sync_hub, exec::device_timeout_ms()};
  exec::ThreadPool worker_pool;  // shared by all queues of the device
  std::unique_ptr<exec::strict::StrictMode> strict;  // KILN_STRICT=1, else null
  // robustBufferAccess or robustBufferAccess2 enabled: out-of-bounds buffer accesses are defined,
  // so strict mode does not report them (unless a pipeline's robustness turns them off).
  bool robust_buffer_access = false;
  bool robust_image_access = false;  // robustImageAccess or robustImageAccess2, likewise for images
  std::vector<Queue*> queues;
  std::atomic<VkDeviceSize> heap_used{0};
  std::atomic<uint32_t> allocation_count{0};
  // The instance's messengers (icd/debug_utils.h): where strict mode and debugPrintfEXT report.
  const DebugReporter* reporter = nullptr;

  // An enabled device extension, or an instance extension enabled on the device's instance
  // (VK_EXT_debug_utils has device-level commands).
  bool extension_enabled(const char* name) const;
  bool lost() const { return sync_hub.is_lost(); }
};

inline Device* device_of(VkDevice handle) { return from_handle<Device>(handle); }

}  // namespace kiln
