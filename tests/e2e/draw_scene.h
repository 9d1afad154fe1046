#pragma once
// Small pieces shared by the draw tests: coloured vertices (draw_colored.vert/.frag), rectangles
// made of them, vertex buffers, drawing them, and PixelCheck/check_rgba8, which group mismatching
// pixels per check.
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/grouped_failures.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {

struct ColoredVertex {
  float x, y, z;
  float r, g, b, a;
};

// draw_colored.vert/.frag with a ColoredVertex buffer at binding 0.
inline DrawJobOptions colored_options() {
  DrawJobOptions o;
  o.vertex_shader = "draw_colored.vert";
  o.fragment_shader = "draw_colored.frag";
  o.vertex_bindings = {{0, sizeof(ColoredVertex), VK_VERTEX_INPUT_RATE_VERTEX}};
  o.vertex_attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                         {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(ColoredVertex, r)}};
  return o;
}

// Two triangles covering [x0, x1] x [y0, y1] (clip space) at depth z, in one colour.
inline std::vector<ColoredVertex> rect(float x0, float y0, float x1, float y1, float z, std::array<float, 4> color) {
  auto v = [&](float x, float y) { return ColoredVertex{x, y, z, color[0], color[1], color[2], color[3]}; };
  return {v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y0), v(x1, y1), v(x0, y1)};
}

template <typename Vertex>
Buffer vertex_buffer(TestDevice& device, const std::vector<Vertex>& vertices) {
  Buffer b = device.create_buffer(sizeof(Vertex) * vertices.size(), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  std::memcpy(b.mapped, vertices.data(), sizeof(Vertex) * vertices.size());
  return b;
}

inline void bind_vertices(VkCommandBuffer cb, const Buffer& buffer) {
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
}

// Mismatching pixels grouped by what was checked, reported once per check when the test ends.
class PixelCheck {
 public:
  PixelCheck(uint32_t width, uint32_t height)
      : pixels_(size_t{width} * height), failures_([width](size_t i) {
          return "pixel (" + std::to_string(i % width) + ", " + std::to_string(i / width) + ")";
        }) {}
  ~PixelCheck() { failures_.report(pixels_); }
  template <typename T>
  void expect_eq(size_t pixel, T got, T want, const std::string& what) {
    if (!(got == want)) failures_.add(what, pixel, std::to_string(+got), std::to_string(+want));
  }
  void expect_near(size_t pixel, int got, int want, int tolerance, const std::string& what) {
    if (std::abs(got - want) > tolerance) failures_.add(what, pixel, std::to_string(got), std::to_string(want));
  }
  void expect_near(size_t pixel, float got, float want, float tolerance, const std::string& what) {
    if (!(std::abs(got - want) <= tolerance)) failures_.add(what, pixel, std::to_string(got), std::to_string(want));
  }

 private:
  size_t pixels_;
  GroupedFailures failures_;
};

constexpr VkClearColorValue kBlack{.float32 = {0, 0, 0, 0}};

// Clears the job's colour target to black and draws the first `vertex_count` vertices of `vb`.
inline void draw_vertices(DrawJob& job, const Buffer& vb, uint32_t vertex_count) {
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, vertex_count, 1, 0, 0);
  });
}

// Compares a width x height RGBA8 target with expected(x, y) (four channel values), each channel
// within `tolerance`.
template <typename Expected>
void check_rgba8(const std::vector<uint8_t>& pixels, const std::string& what, Expected expected, int tolerance = 0,
                 uint32_t width = 64, uint32_t height = 64) {
  PixelCheck failures(width, height);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const size_t i = size_t{y} * width + x;
      const auto want = expected(x, y);
      for (int c = 0; c < 4; ++c)
        failures.expect_near(i, int{pixels[i * 4 + c]}, int(want[c]), tolerance, what + " channel " + std::to_string(c));
    }
}

}  // namespace kiln::test
