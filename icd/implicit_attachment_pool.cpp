#include "icd/implicit_attachment_pool.h"

namespace kiln {

const mem::ImageView* ImplicitAttachmentPool::acquire(exec::CommandList& list, const mem::ImageView& single,
                                                      VkSampleCountFlagBits samples) {
  for (Entry& e : entries_) {
    if (e.in_use || !mem::implicit_attachment_fits(*e.attachment, single, samples)) continue;
    e.in_use = true;
    return &e.attachment->view;
  }
  std::shared_ptr<mem::ImplicitAttachment> made = mem::make_implicit_attachment(single, samples);
  if (!made) return nullptr;
  list.hold(made);
  entries_.push_back({std::move(made), true});
  return &entries_.back().attachment->view;
}

void ImplicitAttachmentPool::release_all() {
  for (Entry& e : entries_) e.in_use = false;
}

}  // namespace kiln
