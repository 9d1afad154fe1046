#include "pipeline/command_list.h"

#include <algorithm>

namespace kiln::exec {

void* CommandList::allocate(size_t size, size_t alignment) {
  size_t offset = (chunk_used_ + alignment - 1) / alignment * alignment;
  if (chunks_.empty() || offset + size > chunk_capacity_) {
    // Large items (big vkCmdUpdateBuffer data, many regions) get a chunk of their own size.
    chunk_capacity_ = std::max(kChunkSize, size + alignment);
    chunks_.emplace_back(new uint8_t[chunk_capacity_]);
    offset = 0;
    // new[] of uint8_t is aligned for max_align_t; larger alignments are not used by commands.
  }
  chunk_used_ = offset + size;
  return chunks_.back().get() + offset;
}

void CommandList::link(Command* cmd) {
  if (last_) last_->next = cmd;
  else first_ = cmd;
  last_ = cmd;
}

}  // namespace kiln::exec
