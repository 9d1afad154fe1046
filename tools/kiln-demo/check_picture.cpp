#include "tools/kiln-demo/check_picture.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_set>

#include "tools/kiln-demo/camera.h"

namespace kiln::demo {
namespace {

std::string format(const char* pattern, double a, double b = 0, double c = 0, double d = 0) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, a, b, c, d);
  return text;
}

uint32_t largest_channel_difference(const uint8_t* a, const uint8_t* b) {
  uint32_t largest = 0;
  for (int c = 0; c < 4; ++c) largest = std::max<uint32_t>(largest, uint32_t(std::abs(int(a[c]) - int(b[c]))));
  return largest;
}

const uint8_t* pixel(const Picture& picture, uint32_t x, uint32_t y) {
  return &picture.rgba[(size_t(y) * picture.width + x) * 4];
}

}  // namespace

PictureCheck check_picture(const Picture& picture, const Picture* reference, Likeness likeness) {
  PictureCheck check;
  const uint8_t sky[4] = {uint8_t(kSkyRgba8), uint8_t(kSkyRgba8 >> 8), uint8_t(kSkyRgba8 >> 16), 255};
  // The camera looks down at the scene from above: the top corners see only sky, and the middle of
  // the bottom edge sees the terrain in front of the camera.
  for (uint32_t x : {2u, picture.width - 3}) {
    if (largest_channel_difference(pixel(picture, x, 2), sky) > 1) {
      check.problems.push_back(format("pixel (%.0f, 2) is not the sky's colour", x));
    }
  }
  const uint8_t* ground = pixel(picture, picture.width / 2, picture.height - 3);
  if (!(ground[1] > ground[2] + 20 && largest_channel_difference(ground, sky) > 40)) {
    check.problems.push_back(format("the bottom edge's middle pixel (%.0f, %.0f, %.0f) is not grass", ground[0],
                                    ground[1], ground[2]));
  }
  std::unordered_set<uint32_t> colours;
  size_t sky_pixels = 0;
  for (size_t i = 0; i < picture.rgba.size(); i += 4) {
    const uint8_t* p = &picture.rgba[i];
    colours.insert(uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16);
    if (largest_channel_difference(p, sky) == 0) ++sky_pixels;
  }
  const double pixels = double(picture.width) * picture.height;
  check.notes.push_back(format("%.0f distinct colours, %.1f%% of the picture is sky", double(colours.size()),
                               100.0 * double(sky_pixels) / pixels));
  if (colours.size() < 5000) check.problems.push_back("fewer than 5000 distinct colours: not a lit, textured scene");
  if (sky_pixels > pixels * 0.6) check.problems.push_back("more than 60% of the picture is empty sky");

  if (reference) {
    if (reference->width != picture.width || reference->height != picture.height) {
      check.problems.push_back(format("the reference is %.0fx%.0f, the picture %.0fx%.0f", reference->width,
                                      reference->height, picture.width, picture.height));
      return check;
    }
    size_t within = 0;
    uint32_t largest = 0;
    for (size_t i = 0; i < picture.rgba.size(); i += 4) {
      const uint32_t difference = largest_channel_difference(&picture.rgba[i], &reference->rgba[i]);
      largest = std::max(largest, difference);
      if (difference <= likeness.tolerance) ++within;
    }
    const double fraction = double(within) / pixels;
    check.notes.push_back(format("%.3f%% of pixels within %.0f/255 of the reference (largest difference %.0f)",
                                 100.0 * fraction, likeness.tolerance, largest));
    if (fraction < likeness.min_fraction) {
      check.problems.push_back(format("only %.3f%% of pixels within %.0f/255 of the reference (need %.1f%%)",
                                      100.0 * fraction, likeness.tolerance, 100.0 * likeness.min_fraction));
    }
  }
  return check;
}

}  // namespace kiln::demo
