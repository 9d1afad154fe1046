#pragma once
// Checks the demo's picture: on its own (the sky where nothing is drawn, the scene where it is,
// a real rendering rather than a flat or empty image) and, when given one, against a reference
// picture of the same frame from another driver or path (lavapipe, or Kiln's other torus path).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::demo {

struct Picture {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba;  // rows top to bottom, tightly packed RGBA8
};

// How close a picture must be to a reference: at least `min_fraction` of the pixels within
// `tolerance` on every channel (drivers round, filter and place sample edges a little differently).
struct Likeness {
  uint32_t tolerance = 0;
  double min_fraction = 1.0;
};

// The default: pixels within 24/255 (edges antialiased a little differently, texture filtering
// weights rounded differently) for at least 99% of the picture.
inline constexpr Likeness kDriverLikeness{24, 0.99};

struct PictureCheck {
  std::vector<std::string> problems;  // empty: the picture passed
  std::vector<std::string> notes;     // what was measured (printed either way)
};

PictureCheck check_picture(const Picture& picture, const Picture* reference, Likeness likeness);

}  // namespace kiln::demo
