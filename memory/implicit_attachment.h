#pragma once
// Multisampled images Kiln makes itself (VK_EXT_multisampled_render_to_single_sampled): a
// single-sampled attachment rendered with N samples is drawn into an implicit N-sample image, which
// the load op fills from the attachment and the store op resolves back into it.
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <memory>

#include "memory/image_view.h"

namespace kiln::mem {

struct ImplicitAttachment {
  Image image;
  ImageView view;  // every aspect, level and layer of `image`; must not move (init_sampling)
  std::unique_ptr<uint8_t, decltype(&std::free)> memory{nullptr, &std::free};
};

// An image with `single`'s format, base-level width and height and layer count, `samples` samples,
// and a view of all of it; its memory is zeroed. Null when the memory cannot be had.
std::unique_ptr<ImplicitAttachment> make_implicit_attachment(const ImageView& single, VkSampleCountFlagBits samples);

// Whether `implicit` can stand in for `single` rendered with `samples` samples.
bool implicit_attachment_fits(const ImplicitAttachment& implicit, const ImageView& single, VkSampleCountFlagBits samples);

}  // namespace kiln::mem
