#pragma once
// Conversions between texel bytes and values, for every uncompressed format of the format table:
// clears, copies between formats, blits and readbacks all go through here.
//
// The rules are the spec's: "Fixed-Point Data Conversions" (UNORM/SNORM), the Khronos Data Format
// Specification's sRGB transfer functions and 16/11/10-bit floats, "RGB to Shared Exponent
// Conversion" (E5B9G9R9), and VkClearColorValue's rules for integer and 64-bit components.
#include <vulkan/vulkan.h>

#include <cstdint>

namespace kiln::fmt {

// --- Whole texels ---------------------------------------------------------------------------

// Converts four values with VkClearColorValue semantics (float32 for UNORM/SNORM/SCALED/SFLOAT/
// UFLOAT/SRGB, int32 for SINT, uint32 for UINT) to one texel of `format` (block_bytes bytes).
// UNORM/SNORM/SCALED values are clamped and rounded to nearest (NaN -> 0); SRGB colour channels
// are encoded linear -> sRGB; floats round to nearest even with denormals, overflow to infinity,
// UFLOAT clamps negatives to 0; integers are truncated to the component width ("casting to the
// smaller type"). 64-bit components take two consecutive array elements each (R from [0..1], G from
// [2..3]); a 64-bit format's B and A cannot be given and are written as 0. Channels the format
// lacks are ignored; padding bits are written as 0.
// Returns false (writing nothing) for compressed, depth/stencil and unknown formats.
bool pack_color(VkFormat format, const VkClearColorValue& value, void* texel_out);

// vkCmdClearColorImage's value for a USCALED/SSCALED format as pack_color takes it. The CTS
// (api.image_clearing) and Mesa give clears of scaled formats as uint32/int32 — the integers to
// store — where pack_color's VkClearColorValue reading takes float32; so their integers become
// floats (exactly: scaled components have at most 16 bits). Other formats' values are unchanged.
VkClearColorValue scaled_clear_value(VkFormat format, const VkClearColorValue& value);

// The reverse: one texel -> four values of the same kinds, sRGB decoded to linear. Channels the
// format lacks read as G = B = 0, A = 1 (1.0f, or integer 1 for UINT/SINT formats); for 64-bit
// formats the result is the 64-bit view (R in [0..1], G in [2..3], missing G = 0).
bool unpack_color(VkFormat format, const void* texel, VkClearColorValue* value_out);

// The depth aspect, in Kiln's per-aspect plane storage (see aspect_texel_bytes): D16 as uint16,
// D24 as the low 24 bits of a uint32 (upper bits 0), D32 as float. UNORM depth is clamped to
// [0,1] and rounded to nearest; D32_SFLOAT is stored as given. Works for the combined
// depth/stencil formats too; false for formats without depth.
bool pack_depth(VkFormat format, float depth, void* texel_out);
bool unpack_depth(VkFormat format, const void* texel, float* depth_out);

// The stencil aspect: one byte per texel in Kiln's plane storage (S8, D16S8, D24S8, D32S8).
// Packing keeps the low 8 bits. False for formats without stencil.
bool pack_stencil(VkFormat format, uint32_t stencil, void* texel_out);
bool unpack_stencil(VkFormat format, const void* texel, uint32_t* stencil_out);

// --- One aspect as a four-component value ------------------------------------------------------
// Copies between formats, blits and (later) sampling see every aspect the same way: a colour
// texel as unpack_color gives it, depth as (D, 0, 0, 1) floats, stencil as (S, 0, 0, 1) uints.

// Which member of VkClearColorValue an aspect's values use.
enum class ValueClass : uint8_t { Float, SInt, UInt };
ValueClass value_class(VkFormat format, VkImageAspectFlagBits aspect);

// `texel` is in the aspect's plane storage (aspect_texel_bytes). False for formats without the
// aspect and for compressed formats (see memory/block_decode.h).
bool unpack_aspect(VkFormat format, VkImageAspectFlagBits aspect, const void* texel, VkClearColorValue* value_out);
bool pack_aspect(VkFormat format, VkImageAspectFlagBits aspect, const VkClearColorValue& value, void* texel_out);

// --- Single values (the building blocks above, for code that converts one channel) -------------

// UNORM of `bits` bits: clamp to [0,1], round to nearest (ties to even); NaN -> 0.
uint32_t float_to_unorm(float value, uint32_t bits);
float unorm_to_float(uint32_t code, uint32_t bits);
// SNORM of `bits` bits as two's complement in the low `bits` bits: clamp to [-1,1], round to
// nearest; -1.0 -> -(2^(bits-1) - 1). Decoding clamps the most negative code to -1.0.
uint32_t float_to_snorm(float value, uint32_t bits);
float snorm_to_float(uint32_t code, uint32_t bits);
// The sRGB transfer functions (EOTF^-1 and EOTF) on [0,1]; inputs outside are clamped, NaN -> 0.
float linear_to_srgb(float linear);
float srgb_to_linear(float encoded);
// IEEE binary16.
uint16_t float_to_half(float value);
float half_to_float(uint16_t half);
// Unsigned 11-bit (bits = 11) and 10-bit (bits = 10) floats: 5-bit exponent, no sign.
uint32_t float_to_ufloat(float value, uint32_t bits);
float ufloat_to_float(uint32_t code, uint32_t bits);
// VK_FORMAT_E5B9G9R9_UFLOAT_PACK32 texel <-> linear RGB.
uint32_t rgb_to_rgb9e5(const float rgb[3]);
void rgb9e5_to_rgb(uint32_t texel, float rgb_out[3]);

}  // namespace kiln::fmt
