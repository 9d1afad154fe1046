// VkImageView: creation with the checks that protect later image access (a view never reaches
// outside its image, and its format reinterprets texels of the same size only).
#include "common/log.h"
#include "icd/device.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"
#include "memory/format_table.h"
#include "memory/image_view.h"
#include "memory/transfer.h"

using namespace kiln;

namespace {

bool fail(const char* why) {
  KILN_LOG_ONCE(LogLevel::Error, "vkCreateImageView: %s", why);
  return false;
}

// The view type fits the image type and create flags, and the layer count fits the view type.
bool view_type_fits(const mem::Image& image, VkImageViewType type, const VkImageSubresourceRange& r, bool* slices_of_3d) {
  *slices_of_3d = false;
  const bool cube_compatible = image.flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  switch (image.desc.type) {
    case VK_IMAGE_TYPE_1D:
      if (type != VK_IMAGE_VIEW_TYPE_1D && type != VK_IMAGE_VIEW_TYPE_1D_ARRAY) return fail("view type does not fit a 1D image");
      break;
    case VK_IMAGE_TYPE_2D:
      if (type == VK_IMAGE_VIEW_TYPE_CUBE || type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY) {
        if (!cube_compatible) return fail("cube view of an image without CUBE_COMPATIBLE");
        if (type == VK_IMAGE_VIEW_TYPE_CUBE && r.layerCount != 6) return fail("cube view without 6 layers");
        if (type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY && r.layerCount % 6 != 0) return fail("cube array layers not a multiple of 6");
      } else if (type != VK_IMAGE_VIEW_TYPE_2D && type != VK_IMAGE_VIEW_TYPE_2D_ARRAY) {
        return fail("view type does not fit a 2D image");
      }
      break;
    case VK_IMAGE_TYPE_3D:
      if (type == VK_IMAGE_VIEW_TYPE_3D) {
        if (r.baseArrayLayer != 0 || r.layerCount != 1) return fail("3D view with array layers");
        return true;
      }
      // 2D(-array) views of one mip level's depth slices (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT),
      // or a 2D view of one slice (VK_EXT_image_2d_view_of_3d's 2D_VIEW_COMPATIBLE); both are read
      // and written like any 2D view (mem::ImageView::slices_of_3d).
      if (!((type == VK_IMAGE_VIEW_TYPE_2D || type == VK_IMAGE_VIEW_TYPE_2D_ARRAY) &&
            (image.flags & VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT)) &&
          !(type == VK_IMAGE_VIEW_TYPE_2D && (image.flags & VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT)))
        return fail("view type does not fit a 3D image");
      if (r.levelCount != 1) return fail("2D view of a 3D image with more than one mip level");
      if (r.baseArrayLayer >= mem::mip_extent(image.desc.extent, r.baseMipLevel).depth ||
          r.layerCount > mem::mip_extent(image.desc.extent, r.baseMipLevel).depth - r.baseArrayLayer)
        return fail("depth slices outside the 3D image");
      *slices_of_3d = true;
      return true;
    default: return fail("unknown image type");
  }
  if ((type == VK_IMAGE_VIEW_TYPE_1D || type == VK_IMAGE_VIEW_TYPE_2D) && r.layerCount != 1)
    return fail("non-array view with several layers");
  return true;
}

// The view format may reinterpret the image's texels only as the spec allows.
bool format_fits(const mem::Image& image, VkFormat format, const VkImageSubresourceRange& r) {
  const fmt::FormatInfo* view = fmt::format_info(format);
  const fmt::FormatInfo* base = fmt::format_info(image.desc.format);
  if (!view) return fail("unknown view format");
  if (format == image.desc.format) return true;
  if (!(image.flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT)) return fail("format differs from an image without MUTABLE_FORMAT");
  if (view->aspects != VK_IMAGE_ASPECT_COLOR_BIT || base->aspects != VK_IMAGE_ASPECT_COLOR_BIT)
    return fail("depth/stencil formats cannot be reinterpreted");
  const bool same_block = view->block_width == base->block_width && view->block_height == base->block_height;
  if (same_block && view->block_bytes == base->block_bytes) return true;
  // An uncompressed view of a compressed image: one texel per block, one mip level and layer.
  if ((image.flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) && base->is_compressed() &&
      !view->is_compressed() && view->block_bytes == base->block_bytes) {
    if (r.levelCount != 1 || r.layerCount != 1) return fail("block-texel view of more than one subresource");
    return true;
  }
  return fail("view format is not size-compatible with the image format");
}

bool aspects_fit(const mem::Image& image, VkImageAspectFlags aspects) {
  const fmt::FormatInfo* base = fmt::format_info(image.desc.format);
  if (aspects == 0 || (aspects & ~base->aspects)) return fail("aspectMask not in the image's format");
  return true;
}

VkComponentSwizzle resolve(VkComponentSwizzle s, VkComponentSwizzle identity) {
  return s == VK_COMPONENT_SWIZZLE_IDENTITY ? identity : s;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateImageView(VkDevice handle, const VkImageViewCreateInfo* pCreateInfo,
                                                               const VkAllocationCallbacks* pAllocator, VkImageView* pView) {
  Device* device = device_of(handle);
  const auto* image = from_handle<mem::Image>(pCreateInfo->image);
  const VkImageSubresourceRange range = mem::resolve_range(*image, pCreateInfo->subresourceRange);
  const auto& d = image->desc;
  bool slices_of_3d = false;
  bool ok = range.levelCount > 0 && range.layerCount > 0 && range.baseMipLevel < d.mip_levels &&
            range.levelCount <= d.mip_levels - range.baseMipLevel;
  if (!ok) fail("mip levels outside the image");
  // For 2D views of 3D images the layers are depth slices, checked by view_type_fits.
  const bool layers_are_slices = d.type == VK_IMAGE_TYPE_3D && pCreateInfo->viewType != VK_IMAGE_VIEW_TYPE_3D;
  if (ok && !layers_are_slices && (range.baseArrayLayer >= d.array_layers || range.layerCount > d.array_layers - range.baseArrayLayer))
    ok = fail("array layers outside the image");
  ok = ok && view_type_fits(*image, pCreateInfo->viewType, range, &slices_of_3d) &&
       format_fits(*image, pCreateInfo->format, range) && aspects_fit(*image, range.aspectMask);
  for (VkComponentSwizzle s : {pCreateInfo->components.r, pCreateInfo->components.g, pCreateInfo->components.b,
                               pCreateInfo->components.a})
    if (ok && (s < VK_COMPONENT_SWIZZLE_IDENTITY || s > VK_COMPONENT_SWIZZLE_A)) ok = fail("invalid component swizzle");
  VkImageUsageFlags usage = image->usage;
  if (const auto* u = find_in_chain<VkImageViewUsageCreateInfo>(pCreateInfo->pNext)) {
    if (ok && (u->usage & ~image->usage)) ok = fail("VkImageViewUsageCreateInfo usage not in the image's usage");
    usage = u->usage;
  }
  if (find_in_chain<VkSamplerYcbcrConversionInfo>(pCreateInfo->pNext)) ok = fail("YCbCr conversion is not supported");
  if (!ok) return VK_ERROR_OUT_OF_HOST_MEMORY;

  auto* view = create_object<mem::ImageView>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!view) return VK_ERROR_OUT_OF_HOST_MEMORY;
  view->image = image;
  view->type = pCreateInfo->viewType;
  view->format = pCreateInfo->format;
  const VkComponentMapping& c = pCreateInfo->components;
  view->components = {resolve(c.r, VK_COMPONENT_SWIZZLE_R), resolve(c.g, VK_COMPONENT_SWIZZLE_G),
                      resolve(c.b, VK_COMPONENT_SWIZZLE_B), resolve(c.a, VK_COMPONENT_SWIZZLE_A)};
  view->range = range;
  view->usage = usage;
  view->slices_of_3d = slices_of_3d;
  view->shader_record = mem::make_shader_record(*view);
  mem::init_sampling(*view);
  *pView = to_handle<VkImageView>(view);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyImageView(VkDevice handle, VkImageView view,
                                                            const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<mem::ImageView>(view));
}
