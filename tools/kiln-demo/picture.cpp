#include "tools/kiln-demo/picture.h"

namespace kiln::demo {

uint32_t Rgba8::packed() const {
  return uint32_t(r) | uint32_t(g) << 8 | uint32_t(b) << 16 | uint32_t(a) << 24;
}

Rgba8 checker_tile_pixel(uint32_t x, uint32_t y) {
  const uint32_t half = kCheckerTileSize / 2;
  return ((x / half) + (y / half)) % 2 == 0 ? kCheckerLight : kCheckerDark;
}

std::vector<Rect> checker_tile_placements() {
  std::vector<Rect> placements;
  for (uint32_t y : {0u, kCanvasSize - kCheckerTileSize}) {
    for (uint32_t x = 0; x < kCanvasSize; x += kCheckerTileSize) {
      placements.push_back({x, y, kCheckerTileSize, kCheckerTileSize});
    }
  }
  return placements;
}

Rgba8 paint_band_colour(uint32_t band) {
  // Orange at the top fading to red at the bottom.
  return Rgba8{255, uint8_t(200 - band * 12), uint8_t(band * 4), 255};
}

namespace {

// Letters are 48×96 pixels with 12-pixel strokes; diagonals are staircases of small blocks.
constexpr uint32_t kLetterWidth = 48;
constexpr uint32_t kLetterHeight = 96;
constexpr uint32_t kStroke = 12;
constexpr uint32_t kLetterGap = 12;
constexpr uint32_t kLetterTop = 80;
constexpr uint32_t kFirstLetterLeft = (kCanvasSize - (4 * kLetterWidth + 3 * kLetterGap)) / 2;

void add_k(uint32_t left, std::vector<Rect>& rects) {
  rects.push_back({left, kLetterTop, kStroke, kLetterHeight});
  for (uint32_t step = 0; step < 4; ++step) {
    const uint32_t x = left + kStroke + step * 8;
    rects.push_back({x, kLetterTop + 36 - step * kStroke, kStroke, kStroke});  // upper arm
    rects.push_back({x, kLetterTop + 48 + step * kStroke, kStroke, kStroke});  // lower arm
  }
}

void add_i(uint32_t left, std::vector<Rect>& rects) {
  rects.push_back({left + (kLetterWidth - kStroke) / 2, kLetterTop, kStroke, kLetterHeight});
  rects.push_back({left + 6, kLetterTop, kLetterWidth - 12, kStroke});
  rects.push_back({left + 6, kLetterTop + kLetterHeight - kStroke, kLetterWidth - 12, kStroke});
}

void add_l(uint32_t left, std::vector<Rect>& rects) {
  rects.push_back({left, kLetterTop, kStroke, kLetterHeight});
  rects.push_back({left, kLetterTop + kLetterHeight - kStroke, kLetterWidth, kStroke});
}

void add_n(uint32_t left, std::vector<Rect>& rects) {
  rects.push_back({left, kLetterTop, kStroke, kLetterHeight});
  rects.push_back({left + kLetterWidth - kStroke, kLetterTop, kStroke, kLetterHeight});
  for (uint32_t step = 0; step < 8; ++step) {
    rects.push_back({left + 10 + step * 4, kLetterTop + step * kStroke, 8, kStroke});
  }
}

void put(std::vector<uint8_t>& pixels, uint32_t x, uint32_t y, Rgba8 colour) {
  uint8_t* p = &pixels[(size_t(y) * kCanvasSize + x) * 4];
  p[0] = colour.r;
  p[1] = colour.g;
  p[2] = colour.b;
  p[3] = colour.a;
}

}  // namespace

std::vector<Rect> letter_rects() {
  std::vector<Rect> rects;
  const uint32_t pitch = kLetterWidth + kLetterGap;
  add_k(kFirstLetterLeft + 0 * pitch, rects);
  add_i(kFirstLetterLeft + 1 * pitch, rects);
  add_l(kFirstLetterLeft + 2 * pitch, rects);
  add_n(kFirstLetterLeft + 3 * pitch, rects);
  return rects;
}

std::vector<uint8_t> render_reference() {
  std::vector<uint8_t> pixels(size_t(kCanvasSize) * kCanvasSize * 4);
  for (uint32_t y = 0; y < kCanvasSize; ++y) {
    for (uint32_t x = 0; x < kCanvasSize; ++x) put(pixels, x, y, kBackground);
  }
  for (const Rect& tile : checker_tile_placements()) {
    for (uint32_t y = 0; y < tile.height; ++y) {
      for (uint32_t x = 0; x < tile.width; ++x) {
        put(pixels, tile.x + x, tile.y + y, checker_tile_pixel(x, y));
      }
    }
  }
  for (const Rect& rect : letter_rects()) {
    for (uint32_t y = rect.y; y < rect.y + rect.height; ++y) {
      for (uint32_t x = rect.x; x < rect.x + rect.width; ++x) {
        put(pixels, x, y, paint_band_colour(y / kPaintBandHeight));
      }
    }
  }
  return pixels;
}

}  // namespace kiln::demo
