// VkPrivateDataSlot and vkSet/GetPrivateData (see icd/private_data.h).
#include "icd/private_data.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "icd/device.h"
#include "kiln_entrypoints.h"

namespace kiln {
namespace {

// A slot is an identity only: its values are in the table below.
struct PrivateDataSlot {
  uint8_t unused = 0;
};

struct SlotValue {
  const PrivateDataSlot* slot;
  uint64_t value;
};

// Object address -> the values slots hold for it (usually one or two, so a short vector).
struct PrivateDataTable {
  std::mutex mutex;
  std::unordered_map<uint64_t, std::vector<SlotValue>> values;
  std::atomic<bool> empty{true};
};

PrivateDataTable& table() {
  static PrivateDataTable t;
  return t;
}

}  // namespace

void forget_private_data(const void* object) {
  PrivateDataTable& t = table();
  if (t.empty.load(std::memory_order_acquire)) return;
  std::lock_guard lock(t.mutex);
  t.values.erase(reinterpret_cast<uint64_t>(object));
  t.empty.store(t.values.empty(), std::memory_order_release);
}

void reserve_private_data(uint32_t count) {
  PrivateDataTable& t = table();
  std::lock_guard lock(t.mutex);
  try {
    t.values.reserve(t.values.size() + count);
  } catch (const std::bad_alloc&) {
    // A reservation is a promise we could not keep up front; vkSetPrivateData reports failures itself.
  }
}

}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreatePrivateDataSlot(VkDevice handle, const VkPrivateDataSlotCreateInfo*,
                                                                     const VkAllocationCallbacks* pAllocator,
                                                                     VkPrivateDataSlot* pPrivateDataSlot) {
  auto* slot = create_object<PrivateDataSlot>(choose_allocator(pAllocator, device_of(handle)->allocator),
                                              VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!slot) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pPrivateDataSlot = to_handle<VkPrivateDataSlot>(slot);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyPrivateDataSlot(VkDevice handle, VkPrivateDataSlot privateDataSlot,
                                                                  const VkAllocationCallbacks* pAllocator) {
  auto* slot = from_handle<PrivateDataSlot>(privateDataSlot);
  if (!slot) return;
  {
    PrivateDataTable& t = table();
    std::lock_guard lock(t.mutex);
    for (auto it = t.values.begin(); it != t.values.end();) {
      std::erase_if(it->second, [&](const SlotValue& v) { return v.slot == slot; });
      it = it->second.empty() ? t.values.erase(it) : std::next(it);
    }
    t.empty.store(t.values.empty(), std::memory_order_release);
  }
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), slot);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_SetPrivateData(VkDevice, VkObjectType, uint64_t objectHandle,
                                                              VkPrivateDataSlot privateDataSlot, uint64_t data) {
  const auto* slot = from_handle<PrivateDataSlot>(privateDataSlot);
  PrivateDataTable& t = table();
  std::lock_guard lock(t.mutex);
  try {
    std::vector<SlotValue>& values = t.values[objectHandle];
    auto it = std::find_if(values.begin(), values.end(), [&](const SlotValue& v) { return v.slot == slot; });
    if (it != values.end()) it->value = data;
    else values.push_back({slot, data});
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  t.empty.store(false, std::memory_order_release);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPrivateData(VkDevice, VkObjectType, uint64_t objectHandle,
                                                          VkPrivateDataSlot privateDataSlot, uint64_t* pData) {
  const auto* slot = from_handle<PrivateDataSlot>(privateDataSlot);
  PrivateDataTable& t = table();
  std::lock_guard lock(t.mutex);
  *pData = 0;  // never set: 0
  auto found = t.values.find(objectHandle);
  if (found == t.values.end()) return;
  for (const SlotValue& v : found->second)
    if (v.slot == slot) *pData = v.value;
}
