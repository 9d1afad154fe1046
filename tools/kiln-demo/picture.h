#pragma once
// What kiln-demo draws, described once as data: a 256×256 canvas cleared to a background colour,
// checkerboard bands along the top and bottom edges, and the letters "KILN" built from rectangles
// that show a banded orange→red gradient. record_picture.* turns this description into Vulkan
// transfer commands; render_reference() paints the same description on the CPU so the demo can
// compare every pixel the driver produced.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kiln::demo {

struct Rgba8 {
  uint8_t r, g, b, a;
  bool operator==(const Rgba8&) const = default;
  // The colour as one little-endian word, the form vkCmdFillBuffer writes.
  uint32_t packed() const;
};

struct Rect {
  uint32_t x, y, width, height;
};

inline constexpr uint32_t kCanvasSize = 256;  // width and height, VK_FORMAT_R8G8B8A8_UNORM

inline constexpr Rgba8 kBackground{24, 28, 44, 255};
inline constexpr Rgba8 kCheckerLight{228, 222, 204, 255};
inline constexpr Rgba8 kCheckerDark{70, 74, 92, 255};

// The checker tile: kCheckerTileSize² pixels, 2×2 squares, light in the top-left square.
inline constexpr uint32_t kCheckerTileSize = 32;
Rgba8 checker_tile_pixel(uint32_t x, uint32_t y);
// Canvas positions (top-left corners) where the tile is copied: the top and bottom bands.
std::vector<Rect> checker_tile_placements();

// The paint image is canvas-sized and made of kPaintBandCount horizontal bands of one colour each,
// kPaintBandHeight rows tall; letters copy their rectangles from the same coordinates of it.
inline constexpr uint32_t kPaintBandCount = 16;
inline constexpr uint32_t kPaintBandHeight = kCanvasSize / kPaintBandCount;
Rgba8 paint_band_colour(uint32_t band);

// Rectangles forming "KILN" (they may overlap; all are copied from the paint image).
std::vector<Rect> letter_rects();

// The finished picture, rows of kCanvasSize RGBA8 pixels, tightly packed.
std::vector<uint8_t> render_reference();

}  // namespace kiln::demo
