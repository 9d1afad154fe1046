#pragma once
// The vertex attribute formats vertex kernels fetch and convert inline (emit_vertex.cpp,
// with the component conversion of translate_image.cpp). The ICD reports VERTEX_BUFFER_BIT for
// exactly these (icd/format_support.cpp can include this header). Plain C++ like kernel_abi.h.
#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "compiler/shader_image_formats.h"

namespace kiln::abi {

struct VertexFormat {
  VkFormat vk;
  uint32_t components;  // components present in memory (the rest read 0, 0, 1)
  uint32_t bits;        // per component (Plain, Bgra); 32 for the packed word
  Numeric numeric;
  TexelLayout layout;   // where each channel is (abi::channel_field)
  uint32_t bytes() const { return packed_layout(layout) ? 4 : components * bits / 8; }
  bool integer() const { return numeric == Numeric::Uint || numeric == Numeric::Sint; }
};

#define KILN_VF(fmt, n, bits, num) {VK_FORMAT_##fmt, n, bits, Numeric::num, TexelLayout::Plain}
#define KILN_VF_NORM_INT_SCALED(prefix, n, bits)                                                              \
  KILN_VF(prefix##_UNORM, n, bits, Unorm), KILN_VF(prefix##_SNORM, n, bits, Snorm),                            \
  KILN_VF(prefix##_UINT, n, bits, Uint), KILN_VF(prefix##_SINT, n, bits, Sint),                                \
  KILN_VF(prefix##_USCALED, n, bits, Uscaled), KILN_VF(prefix##_SSCALED, n, bits, Sscaled)

#define KILN_VF_BGRA(prefix, n)                                                                                       \
  {VK_FORMAT_##prefix##_UNORM, n, 8, Numeric::Unorm, TexelLayout::Bgra},                                              \
      {VK_FORMAT_##prefix##_SNORM, n, 8, Numeric::Snorm, TexelLayout::Bgra},                                          \
      {VK_FORMAT_##prefix##_UINT, n, 8, Numeric::Uint, TexelLayout::Bgra},                                            \
      {VK_FORMAT_##prefix##_SINT, n, 8, Numeric::Sint, TexelLayout::Bgra},                                            \
      {VK_FORMAT_##prefix##_USCALED, n, 8, Numeric::Uscaled, TexelLayout::Bgra},                                      \
      {VK_FORMAT_##prefix##_SSCALED, n, 8, Numeric::Sscaled, TexelLayout::Bgra}

inline constexpr VertexFormat kVertexFormats[] = {
    KILN_VF_NORM_INT_SCALED(R8, 1, 8),
    KILN_VF_NORM_INT_SCALED(R8G8, 2, 8),
    KILN_VF_NORM_INT_SCALED(R8G8B8, 3, 8),
    KILN_VF_NORM_INT_SCALED(R8G8B8A8, 4, 8),
    // A8B8G8R8_*_PACK32 is R8G8B8A8's byte order on a little-endian host.
    KILN_VF(A8B8G8R8_UNORM_PACK32, 4, 8, Unorm), KILN_VF(A8B8G8R8_SNORM_PACK32, 4, 8, Snorm),
    KILN_VF(A8B8G8R8_UINT_PACK32, 4, 8, Uint), KILN_VF(A8B8G8R8_SINT_PACK32, 4, 8, Sint),
    KILN_VF(A8B8G8R8_USCALED_PACK32, 4, 8, Uscaled), KILN_VF(A8B8G8R8_SSCALED_PACK32, 4, 8, Sscaled),
    // Memory order B, G, R(, A): R is the third byte.
    KILN_VF_BGRA(B8G8R8, 3), KILN_VF_BGRA(B8G8R8A8, 4),
    KILN_VF_NORM_INT_SCALED(R16, 1, 16),
    KILN_VF_NORM_INT_SCALED(R16G16, 2, 16),
    KILN_VF_NORM_INT_SCALED(R16G16B16, 3, 16),
    KILN_VF_NORM_INT_SCALED(R16G16B16A16, 4, 16),
    KILN_VF(R16_SFLOAT, 1, 16, Float), KILN_VF(R16G16_SFLOAT, 2, 16, Float),
    KILN_VF(R16G16B16_SFLOAT, 3, 16, Float), KILN_VF(R16G16B16A16_SFLOAT, 4, 16, Float),
    KILN_VF(R32_UINT, 1, 32, Uint), KILN_VF(R32_SINT, 1, 32, Sint), KILN_VF(R32_SFLOAT, 1, 32, Float),
    KILN_VF(R32G32_UINT, 2, 32, Uint), KILN_VF(R32G32_SINT, 2, 32, Sint), KILN_VF(R32G32_SFLOAT, 2, 32, Float),
    KILN_VF(R32G32B32_UINT, 3, 32, Uint), KILN_VF(R32G32B32_SINT, 3, 32, Sint), KILN_VF(R32G32B32_SFLOAT, 3, 32, Float),
    KILN_VF(R32G32B32A32_UINT, 4, 32, Uint), KILN_VF(R32G32B32A32_SINT, 4, 32, Sint),
    KILN_VF(R32G32B32A32_SFLOAT, 4, 32, Float),
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 32, Numeric::Unorm, TexelLayout::A2B10G10R10},
    {VK_FORMAT_A2B10G10R10_SNORM_PACK32, 4, 32, Numeric::Snorm, TexelLayout::A2B10G10R10},
    {VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, 32, Numeric::Uint, TexelLayout::A2B10G10R10},
    {VK_FORMAT_A2B10G10R10_SINT_PACK32, 4, 32, Numeric::Sint, TexelLayout::A2B10G10R10},
    {VK_FORMAT_A2B10G10R10_USCALED_PACK32, 4, 32, Numeric::Uscaled, TexelLayout::A2B10G10R10},
    {VK_FORMAT_A2B10G10R10_SSCALED_PACK32, 4, 32, Numeric::Sscaled, TexelLayout::A2B10G10R10},
    // BGRA order in the word (GL's 2_10_10_10_REV with BGRA: ARB_vertex_type_2_10_10_10_rev).
    {VK_FORMAT_A2R10G10B10_UNORM_PACK32, 4, 32, Numeric::Unorm, TexelLayout::A2R10G10B10},
    {VK_FORMAT_A2R10G10B10_SNORM_PACK32, 4, 32, Numeric::Snorm, TexelLayout::A2R10G10B10},
    {VK_FORMAT_A2R10G10B10_UINT_PACK32, 4, 32, Numeric::Uint, TexelLayout::A2R10G10B10},
    {VK_FORMAT_A2R10G10B10_SINT_PACK32, 4, 32, Numeric::Sint, TexelLayout::A2R10G10B10},
    {VK_FORMAT_A2R10G10B10_USCALED_PACK32, 4, 32, Numeric::Uscaled, TexelLayout::A2R10G10B10},
    {VK_FORMAT_A2R10G10B10_SSCALED_PACK32, 4, 32, Numeric::Sscaled, TexelLayout::A2R10G10B10},
    // Unsigned 11/11/10-bit floats (ARB_vertex_type_10f_11f_11f_rev).
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 3, 32, Numeric::Ufloat, TexelLayout::B10G11R11},
};

#undef KILN_VF_BGRA
#undef KILN_VF_NORM_INT_SCALED
#undef KILN_VF

inline const VertexFormat* vertex_format(VkFormat format) {
  for (const VertexFormat& f : kVertexFormats)
    if (f.vk == format) return &f;
  return nullptr;
}

}  // namespace kiln::abi
