// Texel packing and unpacking driven by the format table: a texel is walked component by
// component (memory order, LSB first) and each component goes through one scalar conversion.
#include "memory/format_pack.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "memory/format_table.h"

namespace kiln::fmt {

// Texels are read and written as little-endian bit strings, which matches both byte-addressed
// components and *_PACKn words only on a little-endian host.
static_assert(std::endian::native == std::endian::little, "format packing assumes a little-endian host");

namespace {

// --- Bits of a texel ------------------------------------------------------------------------

uint64_t low_mask(uint32_t bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

// Every component fits in the 8 bytes starting at its first byte: components wider than 32 bits
// are byte-aligned, narrower ones sit within a packed word of at most 32 bits.
uint64_t read_bits(const uint8_t* texel, uint32_t offset, uint32_t bits) {
  const uint32_t shift = offset % 8;
  uint64_t word = 0;
  std::memcpy(&word, texel + offset / 8, (shift + bits + 7) / 8);
  return (word >> shift) & low_mask(bits);
}

void write_bits(uint8_t* texel, uint32_t offset, uint32_t bits, uint64_t value) {
  const uint32_t shift = offset % 8;
  const uint32_t byte_count = (shift + bits + 7) / 8;
  uint64_t word = 0;
  std::memcpy(&word, texel + offset / 8, byte_count);
  word = (word & ~(low_mask(bits) << shift)) | ((value & low_mask(bits)) << shift);
  std::memcpy(texel + offset / 8, &word, byte_count);
}

int64_t sign_extend(uint64_t value, uint32_t bits) {
  const uint64_t sign_bit = 1ull << (bits - 1);
  return static_cast<int64_t>((value ^ sign_bit) - sign_bit);
}

// --- Rounding ---------------------------------------------------------------------------------

// Round to nearest, ties to even, independent of the thread's floating-point rounding mode
// (an application may have changed it). Exact for |x| < 2^52.
double round_to_nearest_even(double x) {
  const double floor_x = std::floor(x);
  const double fraction = x - floor_x;
  if (fraction > 0.5 || (fraction == 0.5 && std::fmod(floor_x, 2.0) != 0.0)) return floor_x + 1.0;
  return floor_x;
}

// Clamps to [lo, hi] and rounds to nearest; NaN -> 0. Used by UNORM/SNORM/SCALED encoding.
int64_t clamp_and_round(double x, double lo, double hi) {
  if (std::isnan(x)) return 0;
  return static_cast<int64_t>(round_to_nearest_even(std::clamp(x, lo, hi)));
}

// --- Fixed point (spec "Fixed-Point Data Conversions") -------------------------------------------

double unorm_max(uint32_t bits) { return static_cast<double>((1ull << bits) - 1); }
double snorm_max(uint32_t bits) { return static_cast<double>((1ull << (bits - 1)) - 1); }

// c = convertFloatToUint(clamp(f, 0, 1) * (2^b - 1)), rounding to nearest. Clamping after the
// (positive) scaling is the same; for float inputs the product is exact in double.
uint32_t encode_unorm(double value, uint32_t bits) {
  return static_cast<uint32_t>(clamp_and_round(value * unorm_max(bits), 0.0, unorm_max(bits)));
}

// --- sRGB (Khronos Data Format Specification, "sRGB EOTF" and "sRGB EOTF^-1") --------------------

double encode_srgb(double linear) {
  if (std::isnan(linear)) return 0.0;
  linear = std::clamp(linear, 0.0, 1.0);
  return linear <= 0.0031308 ? linear * 12.92 : 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
}

double decode_srgb(double encoded) {
  if (std::isnan(encoded)) return 0.0;
  encoded = std::clamp(encoded, 0.0, 1.0);
  return encoded <= 0.04045 ? encoded / 12.92 : std::pow((encoded + 0.055) / 1.055, 2.4);
}

// decode_srgb of the 256 8-bit codes, `code / 255.0` (how texels of 8-bit sRGB formats are read)
// and `double(code / 255.0f)` (what block decoders hand srgb_to_linear): the same values pow()
// gives, computed once. Reading sRGB textures and compressed sRGB blocks was pow()-bound (70% of a
// CTS texel_view_compatible ASTC sRGB case).
struct Srgb8Tables {
  float from_double[256];
  float from_float[256];
  float encoded[256];  // code / 255.0f
  Srgb8Tables() {
    for (uint32_t code = 0; code < 256; ++code) {
      encoded[code] = static_cast<float>(code) / 255.0f;
      from_double[code] = static_cast<float>(decode_srgb(code / 255.0));
      from_float[code] = static_cast<float>(decode_srgb(encoded[code]));
    }
  }
};
// Built when the library loads (nothing reads it before then), so lookups need no guard.
const Srgb8Tables kSrgb8;

// --- Small floats (16-bit, unsigned 11-bit and 10-bit) ------------------------------------------

// All three have a 5-bit exponent with bias 15; they differ in sign and mantissa width.
struct SmallFloat {
  bool has_sign;
  uint32_t mantissa_bits;
};
constexpr SmallFloat kHalf{true, 10};
constexpr uint32_t kSmallFloatBias = 15;
constexpr uint32_t kSmallFloatMaxExponentField = 31;

// IEEE-style conversion: round to nearest even, denormals kept, overflow to infinity, NaN -> quiet
// NaN; unsigned formats turn negative values (and -inf) into 0 (spec "Floating-Point Format
// Conversions").
uint32_t encode_small_float(float value, SmallFloat sf) {
  const uint32_t m = sf.mantissa_bits;
  const uint32_t infinity = kSmallFloatMaxExponentField << m;
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t magnitude = bits & 0x7fffffffu;
  const bool negative = (bits >> 31) != 0;
  const uint32_t sign = sf.has_sign && negative ? 1u << (m + 5) : 0;

  if (magnitude > 0x7f800000u) return sign | infinity | (1u << (m - 1));  // NaN stays (quiet) NaN
  if (negative && !sf.has_sign) return 0;
  if (magnitude == 0x7f800000u) return sign | infinity;

  // value = significand * 2^(exponent - 23), with the implicit bit in significand for normals.
  const uint32_t exponent_field = magnitude >> 23;
  const int exponent = exponent_field == 0 ? -126 : static_cast<int>(exponent_field) - 127;
  const uint32_t significand = (magnitude & 0x7fffffu) | (exponent_field == 0 ? 0 : 0x800000u);

  // Normal results are ((exponent + bias - 1) << m) + significand rounded to m+1 bits: the
  // implicit bit adds the missing 1 to the exponent field, and a rounding carry moves into the
  // exponent (up to infinity's encoding). Denormal results are the value in units of the
  // smallest denormal, 2^(1 - bias - m).
  const int min_normal_exponent = 1 - static_cast<int>(kSmallFloatBias);
  const int extra_shift = std::max(0, min_normal_exponent - exponent);
  const uint32_t shift = (23 - m) + static_cast<uint32_t>(extra_shift);
  uint32_t rounded = 0;
  if (shift < 32) {
    const uint32_t dropped = significand & ((1u << shift) - 1);
    const uint32_t half = 1u << (shift - 1);
    rounded = significand >> shift;
    if (dropped > half || (dropped == half && (rounded & 1u))) ++rounded;
  }
  const uint32_t base = extra_shift > 0 ? 0 : static_cast<uint32_t>(exponent - min_normal_exponent) << m;
  const uint64_t encoded = static_cast<uint64_t>(base) + rounded;
  return sign | static_cast<uint32_t>(std::min<uint64_t>(encoded, infinity));
}

float decode_small_float(uint32_t code, SmallFloat sf) {
  const uint32_t m = sf.mantissa_bits;
  const uint32_t mantissa = code & ((1u << m) - 1);
  const uint32_t exponent_field = (code >> m) & kSmallFloatMaxExponentField;
  const bool negative = sf.has_sign && ((code >> (m + 5)) & 1u);
  float magnitude;
  if (exponent_field == kSmallFloatMaxExponentField) {
    magnitude = mantissa != 0 ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else if (exponent_field == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), 1 - static_cast<int>(kSmallFloatBias + m));
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | (1u << m)),
                           static_cast<int>(exponent_field) - static_cast<int>(kSmallFloatBias + m));
  }
  return negative ? -magnitude : magnitude;
}

// The unsigned floats of B10G11R11 are 11 or 10 bits wide with a 5-bit exponent.
SmallFloat unsigned_small_float(uint32_t bits) { return SmallFloat{false, bits - 5}; }

// --- Components of a VkClearColorValue ---------------------------------------------------------

uint32_t channel_index(Channel channel) { return static_cast<uint32_t>(channel); }  // R,G,B,A = 0..3

bool is_integer_kind(NumericKind kind) { return kind == NumericKind::UInt || kind == NumericKind::SInt; }

// A 64-bit component takes two consecutive 32-bit elements of the value (the spec's
// float64[2]/int64[2]/uint64[2] view); only R and G fit.
uint64_t load_64bit_element(const VkClearColorValue& value, uint32_t index) {
  uint64_t raw = 0;
  if (index < 2) std::memcpy(&raw, &value.uint32[2 * index], sizeof(raw));
  return raw;
}

void store_64bit_element(VkClearColorValue* value, uint32_t index, uint64_t raw) {
  if (index < 2) std::memcpy(&value->uint32[2 * index], &raw, sizeof(raw));
}

// The result may have bits above the component's width; write_bits drops them, which is the
// spec's "casting to the smaller type" for integers.
uint64_t encode_component(const Component& c, const VkClearColorValue& value) {
  const uint32_t i = channel_index(c.channel);
  if (c.bits == 64) return load_64bit_element(value, i);  // UINT, SINT and SFLOAT alike: raw bits
  const float f = value.float32[i];
  switch (c.kind) {
    case NumericKind::UNorm: return encode_unorm(f, c.bits);
    case NumericKind::SRGB: return encode_unorm(encode_srgb(f), c.bits);
    case NumericKind::SNorm: return float_to_snorm(f, c.bits);
    case NumericKind::UScaled: return static_cast<uint64_t>(clamp_and_round(f, 0.0, unorm_max(c.bits)));
    case NumericKind::SScaled:
      return static_cast<uint64_t>(clamp_and_round(f, -snorm_max(c.bits) - 1.0, snorm_max(c.bits)));
    case NumericKind::UInt: return value.uint32[i];
    case NumericKind::SInt: return static_cast<uint32_t>(value.int32[i]);
    case NumericKind::SFloat: return c.bits == 16 ? float_to_half(f) : value.uint32[i];  // 32-bit: bit copy
    case NumericKind::UFloat: return encode_small_float(f, unsigned_small_float(c.bits));
    case NumericKind::None: return 0;
  }
  return 0;
}

void decode_component(const Component& c, uint64_t raw, VkClearColorValue* out) {
  const uint32_t i = channel_index(c.channel);
  if (c.bits == 64) return store_64bit_element(out, i, raw);
  const auto code = static_cast<uint32_t>(raw);
  switch (c.kind) {
    case NumericKind::UNorm: out->float32[i] = unorm_to_float(code, c.bits); break;
    case NumericKind::SRGB:
      out->float32[i] = c.bits == 8 ? kSrgb8.from_double[code & 0xFF]
                                    : static_cast<float>(decode_srgb(code / unorm_max(c.bits)));
      break;
    case NumericKind::SNorm: out->float32[i] = snorm_to_float(code, c.bits); break;
    case NumericKind::UScaled: out->float32[i] = static_cast<float>(code); break;
    case NumericKind::SScaled: out->float32[i] = static_cast<float>(sign_extend(raw, c.bits)); break;
    case NumericKind::UInt: out->uint32[i] = code; break;
    case NumericKind::SInt: out->int32[i] = static_cast<int32_t>(sign_extend(raw, c.bits)); break;
    case NumericKind::SFloat:
      if (c.bits == 16) out->float32[i] = half_to_float(static_cast<uint16_t>(code));
      else out->uint32[i] = code;  // 32-bit: bit copy, NaN payloads included
      break;
    case NumericKind::UFloat: out->float32[i] = decode_small_float(code, unsigned_small_float(c.bits)); break;
    case NumericKind::None: break;
  }
}

const FormatInfo* uncompressed_color_format(VkFormat format) {
  const FormatInfo* info = format_info(format);
  if (info == nullptr || info->is_compressed() || info->aspects != VK_IMAGE_ASPECT_COLOR_BIT) return nullptr;
  return info;
}

const Component* find_component(const FormatInfo& info, Channel channel) {
  for (uint32_t i = 0; i < info.component_count; ++i)
    if (info.components[i].channel == channel) return &info.components[i];
  return nullptr;
}

}  // namespace

// --- Public scalar conversions ------------------------------------------------------------------

uint32_t float_to_unorm(float value, uint32_t bits) { return encode_unorm(value, bits); }

float unorm_to_float(uint32_t code, uint32_t bits) { return static_cast<float>(code / unorm_max(bits)); }

uint32_t float_to_snorm(float value, uint32_t bits) {
  const int64_t c = clamp_and_round(static_cast<double>(value) * snorm_max(bits), -snorm_max(bits), snorm_max(bits));
  return static_cast<uint32_t>(static_cast<uint64_t>(c) & low_mask(bits));
}

float snorm_to_float(uint32_t code, uint32_t bits) {
  return static_cast<float>(std::max(sign_extend(code, bits) / snorm_max(bits), -1.0));
}

float linear_to_srgb(float linear) { return static_cast<float>(encode_srgb(linear)); }
float srgb_to_linear(float encoded) {
  // Most block decoders' sRGB values are 8-bit codes / 255 (ASTC, ETC2): a table lookup.
  if (encoded >= 0.0f && encoded <= 1.0f) {
    const auto code = static_cast<uint32_t>(encoded * 255.0f + 0.5f);
    if (kSrgb8.encoded[code] == encoded) return kSrgb8.from_float[code];
  }
  return static_cast<float>(decode_srgb(encoded));
}

uint16_t float_to_half(float value) { return static_cast<uint16_t>(encode_small_float(value, kHalf)); }
float half_to_float(uint16_t half) { return decode_small_float(half, kHalf); }

uint32_t float_to_ufloat(float value, uint32_t bits) { return encode_small_float(value, unsigned_small_float(bits)); }
float ufloat_to_float(uint32_t code, uint32_t bits) { return decode_small_float(code, unsigned_small_float(bits)); }

// Spec "RGB to Shared Exponent Conversion" with N = 9 mantissa bits, bias B = 15, Emax = 31.
namespace {
constexpr int kSharedMantissaBits = 9;
constexpr int kSharedExponentBias = 15;
constexpr int kSharedExponentMax = 31;
}  // namespace

uint32_t rgb_to_rgb9e5(const float rgb[3]) {
  const double sharedexp_max = std::ldexp((1 << kSharedMantissaBits) - 1.0,
                                          kSharedExponentMax - kSharedExponentBias - kSharedMantissaBits);
  double clamped[3];
  for (int i = 0; i < 3; ++i) clamped[i] = std::isnan(rgb[i]) ? 0.0 : std::clamp<double>(rgb[i], 0.0, sharedexp_max);
  const double max_clamped = std::max({clamped[0], clamped[1], clamped[2]});

  // exp' = floor(log2(max)) + B + 1 for max > 2^-(B+1), else 0. ilogb is exact.
  const int preliminary_exp = max_clamped > std::ldexp(1.0, -(kSharedExponentBias + 1))
                                  ? std::ilogb(max_clamped) + kSharedExponentBias + 1
                                  : 0;
  auto quantize = [](double v, int exp) {  // floor(v / 2^(exp - B - N) + 1/2)
    return static_cast<uint32_t>(std::floor(std::ldexp(v, kSharedExponentBias + kSharedMantissaBits - exp) + 0.5));
  };
  const bool max_overflows = quantize(max_clamped, preliminary_exp) == (1u << kSharedMantissaBits);
  const int shared_exp = preliminary_exp + (max_overflows ? 1 : 0);

  uint32_t texel = static_cast<uint32_t>(shared_exp) << (3 * kSharedMantissaBits);
  for (int i = 0; i < 3; ++i) texel |= quantize(clamped[i], shared_exp) << (i * kSharedMantissaBits);
  return texel;
}

void rgb9e5_to_rgb(uint32_t texel, float rgb_out[3]) {
  const int exp = static_cast<int>(texel >> (3 * kSharedMantissaBits));
  const uint32_t mantissa_mask = (1u << kSharedMantissaBits) - 1;
  for (int i = 0; i < 3; ++i) {
    const uint32_t mantissa = (texel >> (i * kSharedMantissaBits)) & mantissa_mask;
    rgb_out[i] = std::ldexp(static_cast<float>(mantissa), exp - kSharedExponentBias - kSharedMantissaBits);
  }
}

// --- Whole texels --------------------------------------------------------------------------------

bool pack_color(VkFormat format, const VkClearColorValue& value, void* texel_out) {
  const FormatInfo* info = uncompressed_color_format(format);
  if (info == nullptr) return false;
  auto* out = static_cast<uint8_t*>(texel_out);
  if (format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {  // the shared exponent couples the channels
    const uint32_t texel = rgb_to_rgb9e5(value.float32);
    std::memcpy(out, &texel, sizeof(texel));
    return true;
  }
  std::memset(out, 0, info->block_bytes);
  uint32_t offset = 0;
  for (uint32_t i = 0; i < info->component_count; ++i) {
    const Component& c = info->components[i];
    if (c.channel != Channel::X) write_bits(out, offset, c.bits, encode_component(c, value));
    offset += c.bits;
  }
  return true;
}

bool unpack_color(VkFormat format, const void* texel, VkClearColorValue* value_out) {
  const FormatInfo* info = uncompressed_color_format(format);
  if (info == nullptr) return false;
  const auto* in = static_cast<const uint8_t*>(texel);
  VkClearColorValue value{};
  if (format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {
    uint32_t word;
    std::memcpy(&word, in, sizeof(word));
    rgb9e5_to_rgb(word, value.float32);
    value.float32[3] = 1.0f;
    *value_out = value;
    return true;
  }
  // Channels the format lacks: G = B = 0, A = 1; the 64-bit view has no A (its slot 3 is G's).
  const Component& first = info->components[0].channel == Channel::X ? info->components[1] : info->components[0];
  if (first.bits != 64) {
    if (is_integer_kind(first.kind)) value.uint32[3] = 1;
    else value.float32[3] = 1.0f;
  }
  uint32_t offset = 0;
  for (uint32_t i = 0; i < info->component_count; ++i) {
    const Component& c = info->components[i];
    if (c.channel != Channel::X) decode_component(c, read_bits(in, offset, c.bits), &value);
    offset += c.bits;
  }
  *value_out = value;
  return true;
}

bool pack_depth(VkFormat format, float depth, void* texel_out) {
  const FormatInfo* info = format_info(format);
  const Component* d = info != nullptr ? find_component(*info, Channel::D) : nullptr;
  if (d == nullptr) return false;
  if (d->kind == NumericKind::SFloat) {
    std::memcpy(texel_out, &depth, sizeof(depth));
    return true;
  }
  const uint32_t code = encode_unorm(depth, d->bits);
  std::memcpy(texel_out, &code, aspect_texel_bytes(format, VK_IMAGE_ASPECT_DEPTH_BIT));  // little-endian
  return true;
}

bool unpack_depth(VkFormat format, const void* texel, float* depth_out) {
  const FormatInfo* info = format_info(format);
  const Component* d = info != nullptr ? find_component(*info, Channel::D) : nullptr;
  if (d == nullptr) return false;
  if (d->kind == NumericKind::SFloat) {
    std::memcpy(depth_out, texel, sizeof(float));
    return true;
  }
  uint32_t word = 0;
  std::memcpy(&word, texel, aspect_texel_bytes(format, VK_IMAGE_ASPECT_DEPTH_BIT));
  *depth_out = unorm_to_float(word & static_cast<uint32_t>(low_mask(d->bits)), d->bits);
  return true;
}

bool pack_stencil(VkFormat format, uint32_t stencil, void* texel_out) {
  const FormatInfo* info = format_info(format);
  if (info == nullptr || !info->has_stencil()) return false;
  *static_cast<uint8_t*>(texel_out) = static_cast<uint8_t>(stencil);
  return true;
}

bool unpack_stencil(VkFormat format, const void* texel, uint32_t* stencil_out) {
  const FormatInfo* info = format_info(format);
  if (info == nullptr || !info->has_stencil()) return false;
  *stencil_out = *static_cast<const uint8_t*>(texel);
  return true;
}

ValueClass value_class(VkFormat format, VkImageAspectFlagBits aspect) {
  if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT) return ValueClass::UInt;
  if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT) return ValueClass::Float;
  const FormatInfo* info = format_info(format);
  if (info == nullptr) return ValueClass::Float;
  for (uint32_t i = 0; i < info->component_count; ++i) {
    if (info->components[i].kind == NumericKind::UInt) return ValueClass::UInt;
    if (info->components[i].kind == NumericKind::SInt) return ValueClass::SInt;
  }
  return ValueClass::Float;
}

bool unpack_aspect(VkFormat format, VkImageAspectFlagBits aspect, const void* texel, VkClearColorValue* value_out) {
  VkClearColorValue v{};
  switch (aspect) {
    case VK_IMAGE_ASPECT_COLOR_BIT: return unpack_color(format, texel, value_out);
    case VK_IMAGE_ASPECT_DEPTH_BIT:
      if (!unpack_depth(format, texel, &v.float32[0])) return false;
      v.float32[3] = 1.0f;
      break;
    case VK_IMAGE_ASPECT_STENCIL_BIT:
      if (!unpack_stencil(format, texel, &v.uint32[0])) return false;
      v.uint32[3] = 1;
      break;
    default: return false;
  }
  *value_out = v;
  return true;
}

bool pack_aspect(VkFormat format, VkImageAspectFlagBits aspect, const VkClearColorValue& value, void* texel_out) {
  switch (aspect) {
    case VK_IMAGE_ASPECT_COLOR_BIT: return pack_color(format, value, texel_out);
    case VK_IMAGE_ASPECT_DEPTH_BIT: return pack_depth(format, value.float32[0], texel_out);
    case VK_IMAGE_ASPECT_STENCIL_BIT: return pack_stencil(format, value.uint32[0], texel_out);
    default: return false;
  }
}

VkClearColorValue scaled_clear_value(VkFormat format, const VkClearColorValue& value) {
  VkClearColorValue out = value;
  const FormatInfo* info = format_info(format);
  if (!info) return out;
  for (uint32_t i = 0; i < info->component_count; ++i) {
    const Component& c = info->components[i];
    if (c.channel > Channel::A) continue;
    const uint32_t ch = static_cast<uint32_t>(c.channel);
    if (c.kind == NumericKind::UScaled) out.float32[ch] = static_cast<float>(value.uint32[ch]);
    else if (c.kind == NumericKind::SScaled) out.float32[ch] = static_cast<float>(value.int32[ch]);
  }
  return out;
}

}  // namespace kiln::fmt
