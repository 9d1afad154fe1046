#include "memory/implicit_attachment.h"

#include <cstring>

#include "memory/format_table.h"
#include "memory/image_layout.h"

namespace kiln::mem {
namespace {

// 64-byte aligned like every image Kiln binds (the SIMD kernels' stores).
constexpr size_t kAlignment = 64;

ImageDesc implicit_desc(const ImageView& single, VkSampleCountFlagBits samples) {
  const VkExtent3D base = mip_extent(single.image->desc.extent, single.range.baseMipLevel);
  ImageDesc d;
  d.type = VK_IMAGE_TYPE_2D;
  d.format = single.format;
  d.extent = {base.width, base.height, 1};
  d.array_layers = single.range.layerCount;
  d.samples = samples;
  return d;
}

}  // namespace

std::unique_ptr<ImplicitAttachment> make_implicit_attachment(const ImageView& single, VkSampleCountFlagBits samples) {
  auto implicit = std::make_unique<ImplicitAttachment>();
  Image& image = implicit->image;
  image.desc = implicit_desc(single, samples);
  if (!image.layout.init(image.desc)) return nullptr;
  const size_t size = (image.layout.total_size() + kAlignment - 1) / kAlignment * kAlignment;
  implicit->memory.reset(static_cast<uint8_t*>(std::aligned_alloc(kAlignment, size)));
  if (!implicit->memory) return nullptr;
  std::memset(implicit->memory.get(), 0, size);
  image.data = implicit->memory.get();
  image.usage = single.usage;
  image.internal = true;
  ImageView& view = implicit->view;
  view.image = &image;
  view.type = image.desc.array_layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  view.format = image.desc.format;
  view.components = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_A};
  const fmt::FormatInfo* info = fmt::format_info(view.format);
  view.range = {info ? info->aspects : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT), 0, 1, 0, image.desc.array_layers};
  view.usage = image.usage;
  view.shader_record = make_shader_record(view);
  init_sampling(view);
  return implicit;
}

bool implicit_attachment_fits(const ImplicitAttachment& implicit, const ImageView& single, VkSampleCountFlagBits samples) {
  const ImageDesc want = implicit_desc(single, samples), &have = implicit.image.desc;
  return have.format == want.format && have.extent.width == want.extent.width &&
         have.extent.height == want.extent.height && have.array_layers == want.array_layers && have.samples == want.samples;
}

}  // namespace kiln::mem
