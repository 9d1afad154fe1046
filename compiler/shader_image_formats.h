#pragma once
// The formats shader code reads and writes as storage images and texel buffers: 1, 2 or 4
// components of 8, 16 or 32 bits, converted inline by compiler/translate_image.cpp. The ICD
// reports storage and texel-buffer format features for exactly these (icd/format_support.cpp).
// Plain C++ like kernel_abi.h, so icd/ can include it.
#include <spirv/unified1/spirv.hpp11>
#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace kiln::abi {

// Uscaled/Sscaled (integers read as floats) occur only in vertex formats (vertex_formats.h).
enum class Numeric { Unorm, Snorm, Uint, Sint, Float, Uscaled, Sscaled };

struct TexelFormat {
  VkFormat vk;
  spv::ImageFormat spv;
  uint32_t components;
  uint32_t bits;
  Numeric numeric;
  uint32_t bytes() const { return components * bits / 8; }
  bool integer() const { return numeric == Numeric::Uint || numeric == Numeric::Sint; }
};

inline constexpr TexelFormat kTexelFormats[] = {
    {VK_FORMAT_R32G32B32A32_SFLOAT, spv::ImageFormat::Rgba32f, 4, 32, Numeric::Float},
    {VK_FORMAT_R32G32B32A32_UINT, spv::ImageFormat::Rgba32ui, 4, 32, Numeric::Uint},
    {VK_FORMAT_R32G32B32A32_SINT, spv::ImageFormat::Rgba32i, 4, 32, Numeric::Sint},
    {VK_FORMAT_R32G32_SFLOAT, spv::ImageFormat::Rg32f, 2, 32, Numeric::Float},
    {VK_FORMAT_R32G32_UINT, spv::ImageFormat::Rg32ui, 2, 32, Numeric::Uint},
    {VK_FORMAT_R32G32_SINT, spv::ImageFormat::Rg32i, 2, 32, Numeric::Sint},
    {VK_FORMAT_R32_SFLOAT, spv::ImageFormat::R32f, 1, 32, Numeric::Float},
    {VK_FORMAT_R32_UINT, spv::ImageFormat::R32ui, 1, 32, Numeric::Uint},
    {VK_FORMAT_R32_SINT, spv::ImageFormat::R32i, 1, 32, Numeric::Sint},
    {VK_FORMAT_R16G16B16A16_SFLOAT, spv::ImageFormat::Rgba16f, 4, 16, Numeric::Float},
    {VK_FORMAT_R16G16B16A16_UNORM, spv::ImageFormat::Rgba16, 4, 16, Numeric::Unorm},
    {VK_FORMAT_R16G16B16A16_SNORM, spv::ImageFormat::Rgba16Snorm, 4, 16, Numeric::Snorm},
    {VK_FORMAT_R16G16B16A16_UINT, spv::ImageFormat::Rgba16ui, 4, 16, Numeric::Uint},
    {VK_FORMAT_R16G16B16A16_SINT, spv::ImageFormat::Rgba16i, 4, 16, Numeric::Sint},
    {VK_FORMAT_R16G16_SFLOAT, spv::ImageFormat::Rg16f, 2, 16, Numeric::Float},
    {VK_FORMAT_R16G16_UNORM, spv::ImageFormat::Rg16, 2, 16, Numeric::Unorm},
    {VK_FORMAT_R16G16_SNORM, spv::ImageFormat::Rg16Snorm, 2, 16, Numeric::Snorm},
    {VK_FORMAT_R16G16_UINT, spv::ImageFormat::Rg16ui, 2, 16, Numeric::Uint},
    {VK_FORMAT_R16G16_SINT, spv::ImageFormat::Rg16i, 2, 16, Numeric::Sint},
    {VK_FORMAT_R16_SFLOAT, spv::ImageFormat::R16f, 1, 16, Numeric::Float},
    {VK_FORMAT_R16_UNORM, spv::ImageFormat::R16, 1, 16, Numeric::Unorm},
    {VK_FORMAT_R16_SNORM, spv::ImageFormat::R16Snorm, 1, 16, Numeric::Snorm},
    {VK_FORMAT_R16_UINT, spv::ImageFormat::R16ui, 1, 16, Numeric::Uint},
    {VK_FORMAT_R16_SINT, spv::ImageFormat::R16i, 1, 16, Numeric::Sint},
    {VK_FORMAT_R8G8B8A8_UNORM, spv::ImageFormat::Rgba8, 4, 8, Numeric::Unorm},
    {VK_FORMAT_R8G8B8A8_SNORM, spv::ImageFormat::Rgba8Snorm, 4, 8, Numeric::Snorm},
    {VK_FORMAT_R8G8B8A8_UINT, spv::ImageFormat::Rgba8ui, 4, 8, Numeric::Uint},
    {VK_FORMAT_R8G8B8A8_SINT, spv::ImageFormat::Rgba8i, 4, 8, Numeric::Sint},
    {VK_FORMAT_R8G8_UNORM, spv::ImageFormat::Rg8, 2, 8, Numeric::Unorm},
    {VK_FORMAT_R8G8_SNORM, spv::ImageFormat::Rg8Snorm, 2, 8, Numeric::Snorm},
    {VK_FORMAT_R8G8_UINT, spv::ImageFormat::Rg8ui, 2, 8, Numeric::Uint},
    {VK_FORMAT_R8G8_SINT, spv::ImageFormat::Rg8i, 2, 8, Numeric::Sint},
    {VK_FORMAT_R8_UNORM, spv::ImageFormat::R8, 1, 8, Numeric::Unorm},
    {VK_FORMAT_R8_SNORM, spv::ImageFormat::R8Snorm, 1, 8, Numeric::Snorm},
    {VK_FORMAT_R8_UINT, spv::ImageFormat::R8ui, 1, 8, Numeric::Uint},
    {VK_FORMAT_R8_SINT, spv::ImageFormat::R8i, 1, 8, Numeric::Sint},
};

inline const TexelFormat* shader_texel_format(VkFormat format) {
  for (const TexelFormat& f : kTexelFormats)
    if (f.vk == format) return &f;
  return nullptr;
}

}  // namespace kiln::abi
