// VkSampler: the full sampler state, checked for values that would make sampling undefined in a
// way Kiln cannot absorb (unknown enums, inverted LOD ranges, unnormalized-coordinate rules).
// Out-of-range LOD bias and anisotropy are clamped to the device limits with one log line.
// VkSamplerYcbcrConversion is not supported (samplerYcbcrConversion is FALSE).
#include <algorithm>
#include <cmath>

#include "common/log.h"
#include "icd/device.h"
#include "icd/device_limits.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"
#include "memory/image_view.h"

using namespace kiln;

namespace {

bool fail(const char* why) {
  KILN_LOG_ONCE(LogLevel::Error, "vkCreateSampler: %s", why);
  return false;
}

bool valid_address_mode(VkSamplerAddressMode m) {
  return m >= VK_SAMPLER_ADDRESS_MODE_REPEAT && m <= VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
}

// The four values of a border colour: predefined, or VK_EXT_custom_border_color's (used as given:
// sampling routines replace border texels by these values before the view's swizzle).
bool border_value(const VkSamplerCreateInfo& info, VkClearColorValue* out) {
  *out = {};
  switch (info.borderColor) {
    case VK_BORDER_COLOR_FLOAT_CUSTOM_EXT:
    case VK_BORDER_COLOR_INT_CUSTOM_EXT: {
      const auto* custom = find_in_chain<VkSamplerCustomBorderColorCreateInfoEXT>(info.pNext);
      if (!custom) return false;
      *out = custom->customBorderColor;
      return true;
    }
    case VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK:
    case VK_BORDER_COLOR_INT_TRANSPARENT_BLACK: return true;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK: out->float32[3] = 1.0f; return true;
    case VK_BORDER_COLOR_INT_OPAQUE_BLACK: out->uint32[3] = 1; return true;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE: out->float32[0] = out->float32[1] = out->float32[2] = out->float32[3] = 1.0f; return true;
    case VK_BORDER_COLOR_INT_OPAQUE_WHITE: out->uint32[0] = out->uint32[1] = out->uint32[2] = out->uint32[3] = 1; return true;
    default: return false;
  }
}

bool check(const VkSamplerCreateInfo& info, mem::Sampler* s) {
  if (info.magFilter > VK_FILTER_LINEAR || info.minFilter > VK_FILTER_LINEAR) return fail("unsupported filter");
  if (info.mipmapMode > VK_SAMPLER_MIPMAP_MODE_LINEAR) return fail("invalid mipmap mode");
  if (!valid_address_mode(info.addressModeU) || !valid_address_mode(info.addressModeV) ||
      !valid_address_mode(info.addressModeW))
    return fail("invalid address mode");
  if (info.compareEnable && (info.compareOp < VK_COMPARE_OP_NEVER || info.compareOp > VK_COMPARE_OP_ALWAYS))
    return fail("invalid compare op");
  if (std::isnan(info.minLod) || std::isnan(info.maxLod) || info.minLod > info.maxLod) return fail("minLod > maxLod");
  if (!border_value(info, &s->border_value)) return fail("unsupported border colour");
  if (info.unnormalizedCoordinates) {
    // The spec's restrictions; sampling code relies on them (no mips, no wrapping).
    const bool clamp_only = [&] {
      for (VkSamplerAddressMode m : {info.addressModeU, info.addressModeV})
        if (m != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE && m != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER) return false;
      return true;
    }();
    if (info.minFilter != info.magFilter || info.mipmapMode != VK_SAMPLER_MIPMAP_MODE_NEAREST || info.minLod != 0 ||
        info.maxLod != 0 || !clamp_only || info.anisotropyEnable || info.compareEnable)
      return fail("unnormalizedCoordinates with filters, LODs, address modes, anisotropy or compare it forbids");
  }
  const VkPhysicalDeviceLimits& limits = device_limits();
  s->mag_filter = info.magFilter;
  s->min_filter = info.minFilter;
  s->mipmap_mode = info.mipmapMode;
  s->address[0] = info.addressModeU, s->address[1] = info.addressModeV, s->address[2] = info.addressModeW;
  s->mip_lod_bias = std::clamp(info.mipLodBias, -limits.maxSamplerLodBias, limits.maxSamplerLodBias);
  if (s->mip_lod_bias != info.mipLodBias) KILN_LOG_ONCE(LogLevel::Warn, "vkCreateSampler: mipLodBias clamped to the limit");
  s->max_anisotropy = info.anisotropyEnable ? std::clamp(info.maxAnisotropy, 1.0f, limits.maxSamplerAnisotropy) : 1.0f;
  s->compare_enable = info.compareEnable;
  s->compare_op = info.compareOp;
  s->min_lod = info.minLod;
  s->max_lod = info.maxLod;
  s->border_color = info.borderColor;
  s->unnormalized_coordinates = info.unnormalizedCoordinates;
  s->seamless_cube = !(info.flags & VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT);
  if (const auto* r = find_in_chain<VkSamplerReductionModeCreateInfo>(info.pNext)) {
    if (r->reductionMode > VK_SAMPLER_REDUCTION_MODE_MAX) return fail("invalid reduction mode");
    s->reduction_mode = r->reductionMode;
  }
  if (find_in_chain<VkSamplerYcbcrConversionInfo>(info.pNext)) return fail("YCbCr conversion is not supported");
  return true;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateSampler(VkDevice handle, const VkSamplerCreateInfo* pCreateInfo,
                                                             const VkAllocationCallbacks* pAllocator, VkSampler* pSampler) {
  Device* device = device_of(handle);
  mem::Sampler state;
  if (!check(*pCreateInfo, &state)) return VK_ERROR_OUT_OF_HOST_MEMORY;
  auto* sampler = create_object<mem::Sampler>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, state);
  if (!sampler) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pSampler = to_handle<VkSampler>(sampler);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroySampler(VkDevice handle, VkSampler sampler,
                                                          const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<mem::Sampler>(sampler));
}
