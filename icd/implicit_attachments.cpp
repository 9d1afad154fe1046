#include "icd/implicit_attachments.h"

#include "common/log.h"
#include "icd/attachment_commands.h"

namespace kiln {

const mem::ImageView* implicit_target(CommandBuffer* cb, const mem::ImageView* single, VkSampleCountFlagBits samples) {
  RenderPassInstance& rp = cb->gfx.instance;
  for (const ImplicitTarget& t : rp.implicit)
    if (t.single == single) return t.implicit;
  const mem::ImageView* implicit = cb->gfx.implicit_pool.acquire(*cb->commands, *single, samples);
  if (!implicit) {
    KILN_LOG_ONCE(LogLevel::Error, "multisampled render to single-sampled: no memory for a %u-sample image; "
                  "the attachment is drawn single-sampled (draws at %u samples are skipped)", unsigned(samples),
                  unsigned(samples));
    return single;
  }
  rp.implicit.push_back({single, implicit});
  return implicit;
}

void record_implicit_load(CommandBuffer* cb, const mem::ImageView* implicit, VkImageAspectFlags aspects,
                          const VkRect2D& area, const mem::LayerSet& layers) {
  for (VkImageAspectFlagBits aspect : {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT})
    if (aspects & aspect)
      // A "resolve" from one sample into many writes the value into every sample.
      record_attachment_resolve(cb, {single_of(cb, implicit), implicit, aspect, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT}, area,
                                layers);
}

const mem::ImageView* single_of(const CommandBuffer* cb, const mem::ImageView* implicit) {
  for (const ImplicitTarget& t : cb->gfx.instance.implicit)
    if (t.implicit == implicit) return t.single;
  return nullptr;
}

void release_implicit_targets(CommandBuffer* cb) {
  cb->gfx.instance.implicit.clear();
  cb->gfx.implicit_pool.release_all();
}

}  // namespace kiln
