#include "e2e/image_compare.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "tools/common/png_io.h"

namespace kiln::test {

namespace {

uint32_t channel_difference(uint8_t a, uint8_t b) { return a > b ? a - b : b - a; }

// Largest channel difference of pixel `index`.
uint32_t pixel_difference(const Rgba8Image& a, const Rgba8Image& b, size_t index) {
  uint32_t largest = 0;
  for (size_t channel = 0; channel < 4; ++channel)
    largest = std::max(largest, channel_difference(a.pixels[index * 4 + channel], b.pixels[index * 4 + channel]));
  return largest;
}

bool well_formed(const Rgba8Image& image) {
  return image.pixels.size() == size_t(image.width) * image.height * 4;
}

bool write_png(const std::filesystem::path& path, const Rgba8Image& image) {
  return well_formed(image) &&
         kiln::png::write_rgba8(path.string(), image.width, image.height, image.pixels.data(), size_t(image.width) * 4);
}

}  // namespace

std::string ImageComparison::describe() const {
  std::ostringstream text;
  if (size_mismatch) return "the images have different sizes (or malformed pixel arrays)";
  if (same) return "images match within tolerance";
  text << differing_pixels << " pixel(s) differ, first at (" << first_x << ", " << first_y
       << "), largest channel difference " << max_channel_difference;
  return text.str();
}

ImageComparison compare_rgba8(const Rgba8Image& kiln, const Rgba8Image& reference, uint32_t channel_tolerance) {
  ImageComparison result;
  if (kiln.width != reference.width || kiln.height != reference.height || !well_formed(kiln) ||
      !well_formed(reference)) {
    result.size_mismatch = true;
    return result;
  }
  const size_t pixel_count = size_t(kiln.width) * kiln.height;
  for (size_t i = 0; i < pixel_count; ++i) {
    const uint32_t difference = pixel_difference(kiln, reference, i);
    result.max_channel_difference = std::max(result.max_channel_difference, difference);
    if (difference <= channel_tolerance) continue;
    if (result.differing_pixels == 0) {
      result.first_x = static_cast<uint32_t>(i % kiln.width);
      result.first_y = static_cast<uint32_t>(i / kiln.width);
    }
    ++result.differing_pixels;
  }
  result.same = result.differing_pixels == 0;
  return result;
}

Rgba8Image make_diff_image(const Rgba8Image& kiln, const Rgba8Image& reference, uint32_t channel_tolerance) {
  Rgba8Image diff;
  if (kiln.width != reference.width || kiln.height != reference.height || !well_formed(kiln) ||
      !well_formed(reference))
    return diff;
  diff.width = kiln.width;
  diff.height = kiln.height;
  diff.pixels.resize(reference.pixels.size());
  for (size_t i = 0; i < size_t(diff.width) * diff.height; ++i) {
    uint8_t* out = &diff.pixels[i * 4];
    if (pixel_difference(kiln, reference, i) > channel_tolerance) {
      out[0] = 255, out[1] = 0, out[2] = 0;
    } else {
      const uint8_t* in = &reference.pixels[i * 4];
      const uint8_t grey = static_cast<uint8_t>((uint32_t(in[0]) + in[1] + in[2]) / 12);  // mean / 4
      out[0] = out[1] = out[2] = grey;
    }
    out[3] = 255;
  }
  return diff;
}

bool write_comparison_pngs(const std::string& directory, const Rgba8Image& kiln, const Rgba8Image& reference,
                           uint32_t channel_tolerance) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return false;
  const std::filesystem::path base(directory);
  bool ok = write_png(base / "kiln.png", kiln);
  ok = write_png(base / "lavapipe.png", reference) && ok;
  const Rgba8Image diff = make_diff_image(kiln, reference, channel_tolerance);
  return write_png(base / "diff.png", diff) && ok;  // sizes differ: no diff.png, report failure
}

std::string comparison_output_directory(const std::string& name) {
  return (std::filesystem::path(KILN_TEST_OUTPUT_DIR) / name).string();
}

ImageComparison compare_and_save_on_mismatch(const std::string& name, const Rgba8Image& kiln,
                                             const Rgba8Image& reference, uint32_t channel_tolerance) {
  ImageComparison result = compare_rgba8(kiln, reference, channel_tolerance);
  if (!result.same) write_comparison_pngs(comparison_output_directory(name), kiln, reference, channel_tolerance);
  return result;
}

std::string BufferComparison::describe() const {
  if (same) return "buffers match within tolerance";
  std::ostringstream text;
  text << differing_bytes << " byte(s) differ, first at offset " << first_offset;
  return text.str();
}

BufferComparison compare_bytes(const std::vector<uint8_t>& kiln, const std::vector<uint8_t>& reference,
                               uint32_t byte_tolerance) {
  BufferComparison result;
  const size_t common = std::min(kiln.size(), reference.size());
  for (size_t i = 0; i < common; ++i) {
    if (channel_difference(kiln[i], reference[i]) <= byte_tolerance) continue;
    if (result.differing_bytes == 0) result.first_offset = i;
    ++result.differing_bytes;
  }
  if (kiln.size() != reference.size()) {  // the missing tail counts as differing
    if (result.differing_bytes == 0) result.first_offset = common;
    result.differing_bytes += std::max(kiln.size(), reference.size()) - common;
  }
  result.same = result.differing_bytes == 0;
  return result;
}

}  // namespace kiln::test
