#pragma once
// The memory each recorded command reads and writes, as strict mode's hazard tracker sees it:
// address ranges with the pipeline stage and access type the spec assigns to that use (copies at
// COPY with TRANSFER_READ/WRITE, vertex fetch at VERTEX_ATTRIBUTE_INPUT, a storage buffer a
// compute shader writes at COMPUTE_SHADER with SHADER_STORAGE_WRITE, ...). Each access names its
// resource for the report.
#include <cstdint>
#include <vector>

#include "pipeline/command_list.h"
#include "pipeline/strict/hazard_tracker.h"

namespace kiln::exec::strict {

struct TrackedAccess {
  MemoryAccess memory;
  const void* resource = nullptr;  // mem::Buffer* or mem::Image* (for the report)
  bool image = false;
  uint64_t resource_offset = 0;    // of memory.begin within the resource's memory
  bool attachment = false;         // an attachment of the current render pass instance
  // Nonzero: the accesses of one coarse read of several subresources (a sampled view's mip
  // levels): its contents are undefined only when every one of them is.
  uint32_t group = 0;
};

// What commands that draw into "the current render pass instance" need from the executor.
struct CommandContext {
  const RenderTargets* targets = nullptr;
};

// Appends the accesses of `cmd` (not of the commands of an ExecuteCommands: they come one by one).
void collect_accesses(const Command* cmd, const CommandContext& context, std::vector<TrackedAccess>* out);

// An image used by a transfer command in the layout the command names.
struct LayoutUse {
  const mem::Image* image;
  VkImageSubresourceRange range;
  VkImageLayout layout;
};
void collect_layout_uses(const Command* cmd, std::vector<LayoutUse>* out);

// The bytes [offset, offset + size) of `buffer` (size VK_WHOLE_SIZE or past the end: to its end)
// as [*begin, *end); false when the buffer has no memory or offset is past its end.
bool buffer_bytes(const mem::Buffer* buffer, VkDeviceSize offset, VkDeviceSize size, uintptr_t* begin, uintptr_t* end);

// The memory of each subresource of `range` (REMAINING_* allowed), one [begin, end) per
// (aspect, mip level, array layer).
void subresource_ranges(const mem::Image& image, const VkImageSubresourceRange& range,
                        std::vector<std::pair<uintptr_t, uintptr_t>>* out);

// The name vkCmd* of a command type, for reports.
const char* command_name(CommandType type);

}  // namespace kiln::exec::strict
