#include "wsi/pixel_convert.h"

#include <bit>
#include <cstring>

namespace kiln::wsi {

ChannelOrder channel_order(VkFormat format) {
  switch (format) {
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
      return {2, 1, 0, 3};
    default:  // R8G8B8A8_UNORM / _SRGB
      return {0, 1, 2, 3};
  }
}

size_t row_bytes(const PixelLayout& layout, uint32_t width) {
  const size_t bits = size_t(width) * layout.bits_per_pixel;
  const size_t pad = layout.scanline_pad ? layout.scanline_pad : 8;
  return (bits + pad - 1) / pad * pad / 8;
}

namespace {

// Places an 8-bit channel value into the bits of `mask` (keeping its most significant bits).
struct ChannelPlacer {
  int shift = 0;  // left shift of the value after reducing it to `bits`
  int bits = 0;
  explicit ChannelPlacer(uint32_t mask) {
    if (!mask) return;
    shift = std::countr_zero(mask);
    bits = std::popcount(mask);
  }
  uint32_t place(uint8_t v) const {
    if (!bits) return 0;
    const uint32_t value = bits >= 8 ? uint32_t(v) << (bits - 8) : uint32_t(v) >> (8 - bits);
    return value << shift;
  }
};

bool is_direct_bgrx(const PixelLayout& l, const ChannelOrder& o) {
  const bool host_little = std::endian::native == std::endian::little;
  return l.bits_per_pixel == 32 && l.red_mask == 0xff0000 && l.green_mask == 0xff00 && l.blue_mask == 0xff &&
         l.opaque_mask == 0 && l.msb_first != host_little && o.r == 2 && o.g == 1 && o.b == 0;
}

}  // namespace

void convert_rows(const Frame& frame, uint32_t first_row, uint32_t row_count, const PixelLayout& layout,
                  uint8_t* dst, size_t dst_pitch) {
  const ChannelOrder order = channel_order(frame.format);
  const uint32_t width = frame.extent.width;
  if (is_direct_bgrx(layout, order)) {
    // The common case (BGRA image, 24/32-bit TrueColor visual): the bytes are already right.
    for (uint32_t y = 0; y < row_count; ++y)
      std::memcpy(dst + y * dst_pitch, frame.pixels + (first_row + y) * frame.row_pitch, size_t(width) * 4);
    return;
  }
  const ChannelPlacer red(layout.red_mask), green(layout.green_mask), blue(layout.blue_mask);
  const uint32_t bytes = layout.bits_per_pixel / 8;
  for (uint32_t y = 0; y < row_count; ++y) {
    const uint8_t* src = frame.pixels + (first_row + y) * frame.row_pitch;
    uint8_t* out = dst + y * dst_pitch;
    for (uint32_t x = 0; x < width; ++x, src += 4, out += bytes) {
      const uint32_t pixel = red.place(src[order.r]) | green.place(src[order.g]) | blue.place(src[order.b]) |
                             layout.opaque_mask;
      for (uint32_t b = 0; b < bytes; ++b) {
        const uint32_t byte_index = layout.msb_first ? bytes - 1 - b : b;
        out[byte_index] = uint8_t(pixel >> (8 * b));
      }
    }
  }
}

void to_rgb8(const Frame& frame, uint8_t* dst) {
  const ChannelOrder order = channel_order(frame.format);
  for (uint32_t y = 0; y < frame.extent.height; ++y) {
    const uint8_t* src = frame.pixels + y * frame.row_pitch;
    for (uint32_t x = 0; x < frame.extent.width; ++x, src += 4, dst += 3) {
      dst[0] = src[order.r];
      dst[1] = src[order.g];
      dst[2] = src[order.b];
    }
  }
}

}  // namespace kiln::wsi
