#pragma once
// The implicit multisampled images one command buffer's recording made
// (icd/implicit_attachments.h), reused from one subpass to the next.
#include <memory>
#include <vector>

#include "memory/implicit_attachment.h"
#include "pipeline/command_list.h"

namespace kiln {

// The implicit images made while recording one command buffer.
class ImplicitAttachmentPool {
 public:
  // A free image fitting `single` at `samples` (made when none is free), now in use; its memory is
  // held by `list`. Null when memory cannot be had.
  const mem::ImageView* acquire(exec::CommandList& list, const mem::ImageView& single, VkSampleCountFlagBits samples);
  // Every image is free for later subpasses again.
  void release_all();

 private:
  struct Entry {
    std::shared_ptr<mem::ImplicitAttachment> attachment;
    bool in_use = false;
  };
  std::vector<Entry> entries_;
};

}  // namespace kiln
