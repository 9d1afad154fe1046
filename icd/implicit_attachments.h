#pragma once
// VK_EXT_multisampled_render_to_single_sampled on the recording side: a subpass or dynamic
// rendering instance that renders its single-sampled attachments with N samples draws into
// implicit N-sample images (memory/implicit_attachment.h). Its load ops clear the implicit image
// or copy the attachment into every sample; its end resolves the implicit image back. The
// multisampled contents do not outlive the subpass (the spec allows losing them there), so a
// recording reuses implicit images from one subpass to the next.
#include "icd/command_buffer.h"

namespace kiln {

// The view draws of the current subpass or instance render to for the single-sampled attachment
// `single` at `samples` samples: one implicit image per attachment view (its depth and stencil
// share it). Returns `single` itself, with one log line, when no memory can be had.
const mem::ImageView* implicit_target(CommandBuffer* cb, const mem::ImageView* single, VkSampleCountFlagBits samples);

// Records the load of `aspects` of the attachment whose implicit image is `implicit`: each pixel's
// value into every sample.
void record_implicit_load(CommandBuffer* cb, const mem::ImageView* implicit, VkImageAspectFlags aspects,
                          const VkRect2D& area, const mem::LayerSet& layers);
// The attachment `implicit` stands in for (null when it is none).
const mem::ImageView* single_of(const CommandBuffer* cb, const mem::ImageView* implicit);

// End of the subpass or instance: its implicit images may serve the next ones.
void release_implicit_targets(CommandBuffer* cb);

}  // namespace kiln
