#pragma once
// Private data (VK_EXT_private_data, core 1.3): 64-bit values applications attach to any object
// through a VkPrivateDataSlot. Values live in one process-wide table keyed by object address,
// so objects need no field for them; freeing an object's memory drops its values (host_free
// calls forget_private_data), so a later object at the same address starts with none.
#include <cstdint>

namespace kiln {

// Drops every value stored for the object whose memory starts at `object`. Cheap when no value
// is stored anywhere (one atomic load).
void forget_private_data(const void* object);

// VkDevicePrivateDataCreateInfo: makes room up front for `count` slots' values (one object each).
void reserve_private_data(uint32_t count);

}  // namespace kiln
