#pragma once
// Conversion of presentable images (8-bit BGRA/RGBA) into what a window system wants: an X
// visual's pixel layout (any masks, 16/24/32 bits per pixel, either byte order) or packed RGB
// for frame dumps. sRGB and UNORM formats have the same bytes, so no colour math is needed.
#include <cstddef>
#include <cstdint>

#include "wsi/surface.h"

namespace kiln::wsi {

// Byte offset of each channel inside a source texel of `format` (a presentable format).
struct ChannelOrder {
  uint8_t r, g, b, a;
};
ChannelOrder channel_order(VkFormat format);

// An X11-style packed pixel layout.
struct PixelLayout {
  uint32_t bits_per_pixel = 32;   // 16, 24 or 32
  uint32_t scanline_pad = 32;     // rows are padded to this many bits
  uint32_t red_mask = 0xff0000, green_mask = 0xff00, blue_mask = 0xff;
  uint32_t opaque_mask = 0;       // bits set to 1 in every pixel (alpha of a 32-bit-depth visual)
  bool msb_first = false;         // the server's image byte order
};

size_t row_bytes(const PixelLayout& layout, uint32_t width);
// Converts rows [first_row, first_row + row_count) of `frame` into `dst` (rows `dst_pitch` apart).
void convert_rows(const Frame& frame, uint32_t first_row, uint32_t row_count, const PixelLayout& layout,
                  uint8_t* dst, size_t dst_pitch);
// Tightly packed 8-bit RGB of the whole frame (3 * width * height bytes).
void to_rgb8(const Frame& frame, uint8_t* dst);

}  // namespace kiln::wsi
