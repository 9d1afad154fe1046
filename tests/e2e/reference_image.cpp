#include "e2e/reference_image.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "e2e/draw_scene.h"

namespace kiln::test {

std::vector<float> read_rgba32f(DrawJob& job, uint32_t layer) {
  const std::vector<uint8_t> bytes = job.read_color(0, layer);
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  return out;
}

ReferenceImage::ReferenceImage(uint32_t width, uint32_t height, const Rgba& clear)
    : width_(width), height_(height), texels_(size_t{width} * height, clear) {}

void ReferenceImage::fill_rect(int x0, int y0, int x1, int y1, const Rgba& color) {
  for (int y = std::max(y0, 0); y < std::min(y1, int(height_)); ++y)
    for (int x = std::max(x0, 0); x < std::min(x1, int(width_)); ++x) set(uint32_t(x), uint32_t(y), color);
}

void ReferenceImage::fill_triangle(const std::array<PixelPoint, 3>& c, const Rgba& color) {
  // Edge functions of the pixel centre against each edge; inside when all three share the sign
  // of the triangle's doubled area (either winding).
  auto edge = [](const PixelPoint& a, const PixelPoint& b, float x, float y) {
    return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
  };
  const float area = edge(c[0], c[1], c[2].x, c[2].y);
  for (uint32_t y = 0; y < height_; ++y)
    for (uint32_t x = 0; x < width_; ++x) {
      const float cx = float(x) + 0.5f, cy = float(y) + 0.5f;
      const float e[3] = {edge(c[0], c[1], cx, cy) * area, edge(c[1], c[2], cx, cy) * area,
                          edge(c[2], c[0], cx, cy) * area};
      const bool on_edge = (e[0] == 0 || e[1] == 0 || e[2] == 0) && e[0] >= 0 && e[1] >= 0 && e[2] >= 0;
      if (on_edge)
        ADD_FAILURE() << "reference triangle has pixel (" << x << ", " << y << ")'s centre on an edge; choose another";
      if (e[0] > 0 && e[1] > 0 && e[2] > 0) set(x, y, color);
    }
}

void expect_image_eq(const std::vector<float>& got, const ReferenceImage& want, const std::string& what) {
  const size_t pixels = size_t{want.width()} * want.height();
  ASSERT_EQ(got.size(), pixels * 4) << what << ": image size";
  static const char* const kChannels[4] = {"red", "green", "blue", "alpha"};
  PixelCheck failures(want.width(), want.height());
  for (uint32_t y = 0; y < want.height(); ++y)
    for (uint32_t x = 0; x < want.width(); ++x) {
      const size_t i = size_t{y} * want.width() + x;
      for (int c = 0; c < 4; ++c) failures.expect_eq(i, got[i * 4 + c], want.at(x, y)[c], what + " " + kChannels[c]);
    }
}

}  // namespace kiln::test
