#include "icd/format_support.h"

#include <algorithm>

#include "compiler/shader_image_formats.h"
#include "compiler/vertex_formats.h"
#include "icd/device_limits.h"
#include "memory/block_decode.h"
#include "memory/format_pack.h"
#include "memory/format_table.h"
#include "memory/sampling.h"

namespace kiln {

namespace {

// Compressed formats Kiln can decode (BC, ETC2/EAC, ASTC LDR; not ASTC HDR).
bool decodable(VkFormat format) {
  float texels[fmt::kMaxBlockTexels][4];
  const uint8_t block[16] = {};
  return fmt::decode_block(format, block, texels);
}

}  // namespace

FormatSupport format_support(VkFormat format) {
  FormatSupport s;
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (!info) return s;
  const VkFormatFeatureFlags2 transfer =
      VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
  // Blits read any format through unpack/decode and write any uncompressed one
  // (memory/blit.cpp); LINEAR filtering only for float-valued colour formats. Attachments are
  // not reported until rasterization lands.
  const bool float_color = !(info->has_depth() || info->has_stencil()) &&
                           fmt::value_class(format, VK_IMAGE_ASPECT_COLOR_BIT) == fmt::ValueClass::Float;
  const VkFormatFeatureFlags2 linear_blit = float_color ? VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT : 0;
  if (info->is_compressed()) {
    // Compressed images are copied as blocks and decoded when blitted from or sampled (the block
    // decoder routine of memory/sampling.cpp); optimal tiling only.
    if (decodable(format))
      s.optimal = transfer | VK_FORMAT_FEATURE_2_BLIT_SRC_BIT | linear_blit | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
    return s;
  }
  // SCALED and 64-bit formats are left out: the spec does not require blits of them and Kiln's
  // conversions for them do not match the CTS yet.
  bool blittable = true;
  for (uint32_t i = 0; i < info->component_count; ++i) {
    const fmt::Component& c = info->components[i];
    if (c.kind == fmt::NumericKind::UScaled || c.kind == fmt::NumericKind::SScaled || c.bits == 64) blittable = false;
  }
  const VkFormatFeatureFlags2 blit =
      blittable ? VK_FORMAT_FEATURE_2_BLIT_SRC_BIT | VK_FORMAT_FEATURE_2_BLIT_DST_BIT | linear_blit : 0;
  // Storage images and texel buffers: the formats shaders convert inline, with and without a
  // format in the shader for texel-buffer fetches (compiler/shader_image_formats.h); some only
  // for uniform texel buffers (TexelFormat::storage); atomics on 32-bit integers and floats
  // (shaderImageFloat32Atomics).
  VkFormatFeatureFlags2 storage = 0;
  if (const abi::TexelFormat* texel = abi::shader_texel_format(format)) {
    s.buffer = VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT;
    if (texel->storage) {
      // With or without a format in the shader (the kernel picks the view's at run time).
      const VkFormatFeatureFlags2 without_format =
          VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT | VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
      storage = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT | without_format;
      s.buffer |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT | without_format;
    }
    if (format == VK_FORMAT_R32_UINT || format == VK_FORMAT_R32_SINT || format == VK_FORMAT_R32_SFLOAT) {
      storage |= VK_FORMAT_FEATURE_2_STORAGE_IMAGE_ATOMIC_BIT;
      s.buffer |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
    }
  }
  // Attachments: load/store ops, clears and resolves go through format_pack like transfers do
  // (memory/attachment_ops.cpp).
  VkFormatFeatureFlags2 attachment = 0;
  if (info->has_depth() || info->has_stencil()) attachment = VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
  else if (blittable && format != VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) attachment = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
  // The output merger blends every colour format whose values are floats (UNORM, SNORM, SRGB,
  // SFLOAT, packed), clamping for the normalized ones (pipeline/graphics/output_merge.cpp).
  if (attachment == VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT && float_color)
    attachment |= VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;
  // Vertex kernels fetch and convert these inline (compiler/vertex_formats.h).
  if (abi::vertex_format(format)) s.buffer |= VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT;
  // Sampling: the formats memory/sampling.cpp decodes (tests/unit/sampling_test.cpp checks each),
  // linear filtering for float-valued ones and depth.
  VkFormatFeatureFlags2 sampled = 0;
  if (mem::sampleable_format(format)) {
    sampled = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
    // MINMAX: min/max reduction of the linear footprint (samplerFilterMinmax).
    if (mem::linear_filterable_format(format))
      sampled |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_MINMAX_BIT;
    if (info->has_depth()) sampled |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
  }
  s.optimal = transfer | blit | storage | attachment | sampled;
  // Depth/stencil images are optimal-tiling only, as on GPUs (Kiln stores each aspect in its own plane).
  if (!(info->has_depth() || info->has_stencil())) s.linear = transfer | blit | storage | attachment | sampled;
  return s;
}

namespace {
// The spec's rules for VkImageFormatProperties::sampleCounts: only 2D, optimally tiled, non-cube
// images of a format that can be an attachment may be multisampled; storage usage limits them to
// storageImageSampleCounts. (Multisampled images must also have one mip level: the application's
// create info is checked for that, not these properties.)
// The features of every format `format`'s views may have (uncompressed colour formats of the same
// texel size: the spec's "Compatible Formats"; for a block-compressed format with
// VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT, those whose texel is the size of its block), which
// an image created with VK_IMAGE_CREATE_EXTENDED_USAGE_BIT may have usages of through such views.
VkFormatFeatureFlags2 compatibility_class_features(VkFormat format, VkImageTiling tiling, VkImageCreateFlags flags) {
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (!info || info->aspects != VK_IMAGE_ASPECT_COLOR_BIT) return 0;
  if (info->is_compressed() && !(flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT)) return 0;
  VkFormatFeatureFlags2 features = 0;
  for (const fmt::FormatInfo* f = fmt::format_table_begin(); f != fmt::format_table_end(); ++f) {
    if (f->is_compressed() || f->aspects != VK_IMAGE_ASPECT_COLOR_BIT || f->block_bytes != info->block_bytes) continue;
    const FormatSupport s = format_support(f->format);
    features |= tiling == VK_IMAGE_TILING_LINEAR ? s.linear : s.optimal;
  }
  return features;
}

VkSampleCountFlags image_sample_counts(VkFormatFeatureFlags2 features, VkImageType type, VkImageTiling tiling,
                                       VkImageUsageFlags usage, VkImageCreateFlags flags) {
  const VkFormatFeatureFlags2 attachment =
      VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
  if (tiling != VK_IMAGE_TILING_OPTIMAL || type != VK_IMAGE_TYPE_2D || (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) ||
      !(features & attachment))
    return VK_SAMPLE_COUNT_1_BIT;
  if (usage & VK_IMAGE_USAGE_STORAGE_BIT) return device_limits().storageImageSampleCounts;
  return kSupportedSampleCounts;
}
}  // namespace

VkResult image_format_properties(VkFormat format, VkImageType type, VkImageTiling tiling,
                                 VkImageUsageFlags usage, VkImageCreateFlags flags,
                                 VkImageFormatProperties* out) {
  *out = {};
  const FormatSupport support = format_support(format);
  VkFormatFeatureFlags2 features;
  if (tiling == VK_IMAGE_TILING_LINEAR) features = support.linear;
  else if (tiling == VK_IMAGE_TILING_OPTIMAL) features = support.optimal;
  else return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if (!features) return VK_ERROR_FORMAT_NOT_SUPPORTED;

  // Every usage needs its format feature — of the format, or with EXTENDED_USAGE of any format a
  // view may take (MUTABLE_FORMAT: the compatibility class).
  const VkFormatFeatureFlags2 own_features = features;
  if ((flags & VK_IMAGE_CREATE_EXTENDED_USAGE_BIT) && (flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
    features |= compatibility_class_features(format, tiling, flags);
  const VkImageUsageFlags supported_usage =
      ((features & VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT) ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0) |
      ((features & VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT) ? VK_IMAGE_USAGE_TRANSFER_DST_BIT : 0) |
      ((features & VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT) ? VK_IMAGE_USAGE_STORAGE_BIT : 0) |
      ((features & VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT)
           ? VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT : 0) |
      ((features & VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)
           ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT : 0) |
      // The spec ties INPUT_ATTACHMENT usage to either attachment feature.
      ((features & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT))
           ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT : 0) |
      ((features & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT) ? VK_IMAGE_USAGE_SAMPLED_BIT : 0) |
      // The usage bit of VK_EXT_attachment_feedback_loop_layout changes nothing about a Kiln image,
      // so formats that can be attachments and sampled accept it. (Mesa 22.3's zink asks for the
      // bit on every render target even before Kiln offered the extension; refusing it left every
      // zink framebuffer incomplete: glmark2 drew nothing.)
      ((features & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)) &&
               (features & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT)
           ? VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT : 0);
  if (usage & ~supported_usage) return VK_ERROR_FORMAT_NOT_SUPPORTED;

  const VkImageCreateFlags supported_flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT |
                                             VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT |
                                             VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT |
                                             VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT |
                                             VK_IMAGE_CREATE_EXTENDED_USAGE_BIT | VK_IMAGE_CREATE_ALIAS_BIT |
                                             VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT |
                                             VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT;
  if (flags & ~supported_flags) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  // Rendered with more samples through an implicit multisampled image of the same format
  // (icd/implicit_attachments.h): only what can be a multisampled attachment.
  if ((flags & VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT) &&
      (type != VK_IMAGE_TYPE_2D || tiling != VK_IMAGE_TILING_OPTIMAL ||
       !(features & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT))))
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if ((flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) && type != VK_IMAGE_TYPE_2D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if ((flags & (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT)) && type != VK_IMAGE_TYPE_3D)
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  // Block-compressed images are 2D or 3D: a 3D image is slices of blocks (every block is one texel
  // deep), which the layout, copies and sampling address like any 3D image's slices.
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (info && info->is_compressed() && type == VK_IMAGE_TYPE_1D) return VK_ERROR_FORMAT_NOT_SUPPORTED;

  const VkPhysicalDeviceLimits& L = device_limits();
  uint32_t max_dim = 0;
  switch (type) {
    case VK_IMAGE_TYPE_1D: out->maxExtent = {L.maxImageDimension1D, 1, 1}; max_dim = L.maxImageDimension1D; break;
    case VK_IMAGE_TYPE_2D:
      max_dim = (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) ? L.maxImageDimensionCube : L.maxImageDimension2D;
      out->maxExtent = {max_dim, max_dim, 1};
      break;
    case VK_IMAGE_TYPE_3D: out->maxExtent = {L.maxImageDimension3D, L.maxImageDimension3D, L.maxImageDimension3D}; max_dim = L.maxImageDimension3D; break;
    default: return VK_ERROR_FORMAT_NOT_SUPPORTED;
  }
  uint32_t mips = 1;
  while ((max_dim >> mips) > 0) ++mips;
  out->maxMipLevels = mips;
  out->maxArrayLayers = type == VK_IMAGE_TYPE_3D ? 1 : L.maxImageArrayLayers;
  out->sampleCounts = image_sample_counts(own_features, type, tiling, usage, flags);
  // Linear images have every level and layer optimal ones have: Kiln lays both out the same way
  // (memory/image_layout.h), and vkGetImageSubresourceLayout reports each subresource.
  out->maxResourceSize = kMaxResourceSize;
  return VK_SUCCESS;
}

}  // namespace kiln
