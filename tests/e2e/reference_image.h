#pragma once
// CPU references for draws into an R32G32B32A32_SFLOAT target, where every value a shader
// writes arrives exactly: the image the spec's rasterization rules give for primitives whose
// edges miss every pixel centre (rectangles on pixel boundaries, triangles checked for it),
// compared pixel by pixel with what a driver drew.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "e2e/draw_job.h"

namespace kiln::test {

using Rgba = std::array<float, 4>;

// Clip-space coordinate of a pixel-space coordinate along an axis of `size` pixels (0 → -1,
// size → +1), for viewports covering the target.
inline float clip_coordinate(float pixel, uint32_t size) { return pixel * 2.0f / float(size) - 1.0f; }

// A colour attachment's RGBA32F texels of one layer (tightly packed, 4 floats a pixel).
std::vector<float> read_rgba32f(DrawJob& job, uint32_t layer = 0);

struct PixelPoint {
  float x, y;
};

class ReferenceImage {
 public:
  ReferenceImage(uint32_t width, uint32_t height, const Rgba& clear);

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  const Rgba& at(uint32_t x, uint32_t y) const { return texels_.at(size_t{y} * width_ + x); }
  void set(uint32_t x, uint32_t y, const Rgba& color) { texels_.at(size_t{y} * width_ + x) = color; }

  // Pixels [x0, x1) x [y0, y1): a filled rectangle whose corners lie on pixel boundaries covers
  // exactly the pixels whose centres it contains.
  void fill_rect(int x0, int y0, int x1, int y1, const Rgba& color);
  // Pixels whose centre lies inside the triangle (pixel coordinates). A centre exactly on an
  // edge would leave the result to the tie-breaking rule: the test chose its triangles wrongly,
  // which is reported as a failure.
  void fill_triangle(const std::array<PixelPoint, 3>& corners, const Rgba& color);

 private:
  uint32_t width_, height_;
  std::vector<Rgba> texels_;
};

// Compares every pixel of `got` (read_rgba32f) with `want`, channel by channel, exactly; failures
// are grouped under `what` (PixelCheck).
void expect_image_eq(const std::vector<float>& got, const ReferenceImage& want, const std::string& what);

}  // namespace kiln::test
