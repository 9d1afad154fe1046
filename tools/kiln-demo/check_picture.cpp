#include "tools/kiln-demo/check_picture.h"

#include <cstdio>

#include "tools/kiln-demo/picture.h"

namespace kiln::demo {

namespace {

struct Probe {
  const char* what;
  uint32_t x, y;
  Rgba8 expected;
};

// Positions follow the layout in picture.cpp: bands of 32 rows at the top and bottom, letters
// 48×96 from y=80 starting at x=14, 60 pixels apart; paint band n (16 rows each) is
// {255, 200 - 12n, 4n, 255}.
constexpr Probe kProbes[] = {
    {"top checker band, light square", 4, 4, {228, 222, 204, 255}},
    {"top checker band, dark square", 20, 4, {70, 74, 92, 255}},
    {"bottom checker band, light square", 240, 240, {228, 222, 204, 255}},
    {"background between band and letters", 128, 50, {24, 28, 44, 255}},
    {"K stem (paint band 6)", 18, 100, {255, 128, 24, 255}},
    {"left of the I stem", 76, 128, {24, 28, 44, 255}},
    {"L foot (paint band 10)", 150, 170, {255, 80, 40, 255}},
    {"N diagonal (paint band 8)", 224, 130, {255, 104, 32, 255}},
};

Rgba8 pixel_at(const std::vector<uint8_t>& pixels, uint32_t x, uint32_t y) {
  const uint8_t* p = &pixels[(size_t(y) * kCanvasSize + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

std::string describe(const char* what, uint32_t x, uint32_t y, Rgba8 got, Rgba8 expected) {
  char line[200];
  std::snprintf(line, sizeof line, "%s at (%u,%u): got (%u,%u,%u,%u), expected (%u,%u,%u,%u)", what,
                x, y, got.r, got.g, got.b, got.a, expected.r, expected.g, expected.b, expected.a);
  return line;
}

}  // namespace

std::vector<std::string> check_picture(const std::vector<uint8_t>& pixels) {
  std::vector<std::string> problems;
  if (pixels.size() != size_t(kCanvasSize) * kCanvasSize * 4) {
    problems.push_back("read back " + std::to_string(pixels.size()) + " bytes, expected " +
                       std::to_string(kCanvasSize * kCanvasSize * 4));
    return problems;
  }
  for (const Probe& probe : kProbes) {
    const Rgba8 got = pixel_at(pixels, probe.x, probe.y);
    if (!(got == probe.expected)) problems.push_back(describe(probe.what, probe.x, probe.y, got, probe.expected));
  }

  const std::vector<uint8_t> reference = render_reference();
  constexpr size_t kReportedMismatches = 5;
  size_t mismatches = 0;
  for (uint32_t y = 0; y < kCanvasSize; ++y) {
    for (uint32_t x = 0; x < kCanvasSize; ++x) {
      const Rgba8 got = pixel_at(pixels, x, y);
      const Rgba8 expected = pixel_at(reference, x, y);
      if (got == expected) continue;
      if (++mismatches <= kReportedMismatches) problems.push_back(describe("pixel", x, y, got, expected));
    }
  }
  if (mismatches > 0) {
    problems.push_back(std::to_string(mismatches) + " of " + std::to_string(kCanvasSize * kCanvasSize) +
                       " pixels differ from the reference");
  }
  return problems;
}

}  // namespace kiln::demo
