// wsi/pixel_convert: presentable images into X visual pixel layouts the Xvfb tests do not reach
// (16 bits per pixel, MSB-first servers, 32-bit-depth ARGB visuals, RGBA sources).
#include "wsi/pixel_convert.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace kiln::wsi {
namespace {

// A 2x1 frame of `format` holding (r, g, b) pixels.
struct TestFrame {
  std::vector<uint8_t> bytes;
  Frame frame;
  TestFrame(VkFormat format, std::array<uint8_t, 3> p0, std::array<uint8_t, 3> p1) {
    const ChannelOrder o = channel_order(format);
    bytes.assign(8, 0);
    for (int i = 0; i < 2; ++i) {
      const auto& p = i == 0 ? p0 : p1;
      bytes[i * 4 + o.r] = p[0];
      bytes[i * 4 + o.g] = p[1];
      bytes[i * 4 + o.b] = p[2];
      bytes[i * 4 + o.a] = 0x80;  // alpha never reaches the window
    }
    frame = {bytes.data(), 8, {2, 1}, format};
  }
};

TEST(WsiPixelConvert, BgraToStandard32BitVisualIsACopy) {
  TestFrame f(VK_FORMAT_B8G8R8A8_UNORM, {0x11, 0x22, 0x33}, {0xaa, 0xbb, 0xcc});
  PixelLayout layout;  // 0xff0000/0xff00/0xff, 32 bpp, LSB first
  std::vector<uint8_t> out(8);
  convert_rows(f.frame, 0, 1, layout, out.data(), 8);
  EXPECT_EQ(f.bytes, out);
}

TEST(WsiPixelConvert, RgbaIsSwizzledForA32BitVisual) {
  TestFrame f(VK_FORMAT_R8G8B8A8_SRGB, {0x11, 0x22, 0x33}, {0xaa, 0xbb, 0xcc});
  PixelLayout layout;
  std::vector<uint8_t> out(8);
  convert_rows(f.frame, 0, 1, layout, out.data(), 8);
  EXPECT_EQ((std::vector<uint8_t>{0x33, 0x22, 0x11, 0, 0xcc, 0xbb, 0xaa, 0}), out);
}

TEST(WsiPixelConvert, Rgb565KeepsTheHighBits) {
  TestFrame f(VK_FORMAT_B8G8R8A8_UNORM, {0xff, 0x00, 0x00}, {0x08, 0x84, 0xf8});
  PixelLayout layout;
  layout.bits_per_pixel = 16;
  layout.red_mask = 0xf800;
  layout.green_mask = 0x07e0;
  layout.blue_mask = 0x001f;
  ASSERT_EQ(4u, row_bytes(layout, 2));
  std::vector<uint8_t> out(4);
  convert_rows(f.frame, 0, 1, layout, out.data(), 4);
  // (0xff,0,0) → 0xf800; (0x08,0x84,0xf8) → 1<<11 | 0x21<<5 | 0x1f = 0x0c3f; little-endian.
  EXPECT_EQ((std::vector<uint8_t>{0x00, 0xf8, 0x3f, 0x0c}), out);
}

TEST(WsiPixelConvert, MsbFirstServerGetsBigEndianPixels) {
  TestFrame f(VK_FORMAT_B8G8R8A8_UNORM, {0x11, 0x22, 0x33}, {0x44, 0x55, 0x66});
  PixelLayout layout;
  layout.msb_first = true;
  std::vector<uint8_t> out(8);
  convert_rows(f.frame, 0, 1, layout, out.data(), 8);
  EXPECT_EQ((std::vector<uint8_t>{0, 0x11, 0x22, 0x33, 0, 0x44, 0x55, 0x66}), out);
}

TEST(WsiPixelConvert, ArgbVisualIsMadeOpaque) {
  TestFrame f(VK_FORMAT_B8G8R8A8_UNORM, {0x11, 0x22, 0x33}, {0, 0, 0});
  PixelLayout layout;
  layout.opaque_mask = 0xff000000u;
  std::vector<uint8_t> out(8);
  convert_rows(f.frame, 0, 1, layout, out.data(), 8);
  EXPECT_EQ((std::vector<uint8_t>{0x33, 0x22, 0x11, 0xff, 0, 0, 0, 0xff}), out);
}

TEST(WsiPixelConvert, RowsArePaddedToTheScanlinePad) {
  PixelLayout layout;
  layout.bits_per_pixel = 16;
  EXPECT_EQ(4u, row_bytes(layout, 1));  // 2 bytes padded to 32 bits
  layout.bits_per_pixel = 24;
  EXPECT_EQ(12u, row_bytes(layout, 3));  // 9 bytes padded
}

TEST(WsiPixelConvert, RgbDumpOrder) {
  TestFrame f(VK_FORMAT_B8G8R8A8_SRGB, {1, 2, 3}, {4, 5, 6});
  std::vector<uint8_t> rgb(6);
  to_rgb8(f.frame, rgb.data());
  EXPECT_EQ((std::vector<uint8_t>{1, 2, 3, 4, 5, 6}), rgb);
}

}  // namespace
}  // namespace kiln::wsi
