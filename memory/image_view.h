#pragma once
// VkImageView and VkSampler as the memory side sees them: plain descriptions that copies today
// and sampling routines later read. Validation of the create infos lives in icd/image_view.cpp and
// icd/sampler.cpp; everything here has already been checked against its image.
#include <vulkan/vulkan.h>

#include <cstddef>

#include "common/abi/kernel_abi.h"
#include "memory/resources.h"
#include "memory/sampling.h"

namespace kiln::mem {

struct ImageView {
  const Image* image = nullptr;
  VkImageViewType type = VK_IMAGE_VIEW_TYPE_2D;
  // The view's format: the image's, or a compatible one for MUTABLE_FORMAT images (same texel
  // block size; an uncompressed format of a compressed image's block size for
  // BLOCK_TEXEL_VIEW_COMPATIBLE, then one texel per block).
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkComponentMapping components{};  // IDENTITY already replaced by the channel itself
  VkImageSubresourceRange range{};  // REMAINING_* resolved
  VkImageUsageFlags usage = 0;      // the image's, or the VkImageViewUsageCreateInfo subset
  // A 2D or 2D-array view of a 3D image: range's layers are depth slices of range.baseMipLevel.
  bool slices_of_3d = false;
  // What storage-image descriptors point at (abi::ImageSamplerDescriptor::image_view): the base
  // mip level's texels, filled when the view is created (the image's memory is bound by then).
  abi::ImageViewRecord shader_record{};
  // Every level and layer for sampling routines; shader_record.sampled_view points here.
  SampledView sampled{};
};

// The aspects `view` gives as a framebuffer attachment: every aspect of its format. For a
// depth/stencil image the view's aspectMask is ignored there and both aspects are used (the spec,
// VkImageViewCreateInfo); the mask only matters for descriptors (sampling, input attachments).
VkImageAspectFlags attachment_aspects(const ImageView& view);

// Fills view.sampled and the sampling fields of view.shader_record (call after make_shader_record;
// the view must not move afterwards: the record points into it).
void init_sampling(ImageView& view);

// The shader record of `view` (see abi::ImageViewRecord for the coordinate grid).
abi::ImageViewRecord make_shader_record(const ImageView& view);

// The view whose shader_record an image descriptor points at (abi::ImageSamplerDescriptor::image_view).
inline const ImageView* view_of_shader_record(const void* record) {
  return reinterpret_cast<const ImageView*>(static_cast<const char*>(record) - offsetof(ImageView, shader_record));
}

struct Sampler {
  VkFilter mag_filter = VK_FILTER_NEAREST, min_filter = VK_FILTER_NEAREST;
  VkSamplerMipmapMode mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  VkSamplerAddressMode address[3] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                     VK_SAMPLER_ADDRESS_MODE_REPEAT};
  float mip_lod_bias = 0.0f;  // clamped to +-maxSamplerLodBias
  float max_anisotropy = 1.0f;  // 1 when anisotropy is off
  bool compare_enable = false;
  VkCompareOp compare_op = VK_COMPARE_OP_NEVER;
  float min_lod = 0.0f, max_lod = 0.0f;
  VkBorderColor border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  VkClearColorValue border_value{};  // the border colour's four values (float or integer)
  bool unnormalized_coordinates = false;
  VkSamplerReductionMode reduction_mode = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
  // Cube filtering reads across face edges; false (VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT):
  // each face is addressed alone with the sampler's address modes, like a 2D image.
  bool seamless_cube = true;
};

}  // namespace kiln::mem
