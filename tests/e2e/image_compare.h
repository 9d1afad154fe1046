#pragma once
// Comparing what Kiln produced with what a reference driver (lavapipe) produced.
//
// Images are compared per channel with a stated tolerance; on a mismatch the differential tests
// save kiln.png, lavapipe.png and diff.png (differing pixels red, the rest a dimmed grey copy of
// the reference) so a human can see what went wrong.
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::test {

// 8-bit RGBA pixels, tightly packed rows.
struct Rgba8Image {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> pixels;  // width * height * 4 bytes
};

struct ImageComparison {
  bool same = false;
  bool size_mismatch = false;
  uint64_t differing_pixels = 0;      // pixels with a channel differing by more than the tolerance
  uint32_t max_channel_difference = 0;
  uint32_t first_x = 0, first_y = 0;  // first differing pixel in row-major order
  std::string describe() const;
};

// Same when every channel of every pixel differs by at most `channel_tolerance`.
ImageComparison compare_rgba8(const Rgba8Image& kiln, const Rgba8Image& reference, uint32_t channel_tolerance);

// Red where a pixel differs beyond `channel_tolerance`, the reference at quarter brightness elsewhere.
Rgba8Image make_diff_image(const Rgba8Image& kiln, const Rgba8Image& reference, uint32_t channel_tolerance);

// Writes kiln.png, lavapipe.png and diff.png into `directory` (created if missing).
bool write_comparison_pngs(const std::string& directory, const Rgba8Image& kiln, const Rgba8Image& reference,
                           uint32_t channel_tolerance);

// compare_rgba8, and on a mismatch the PNGs in KILN_TEST_OUTPUT_DIR/<name> (name e.g. the test's).
ImageComparison compare_and_save_on_mismatch(const std::string& name, const Rgba8Image& kiln,
                                             const Rgba8Image& reference, uint32_t channel_tolerance);

// Where compare_and_save_on_mismatch puts the PNGs for `name`.
std::string comparison_output_directory(const std::string& name);

// Byte-wise comparison of two buffers' contents with a per-byte tolerance.
struct BufferComparison {
  bool same = false;
  uint64_t differing_bytes = 0;
  uint64_t first_offset = 0;
  std::string describe() const;
};
BufferComparison compare_bytes(const std::vector<uint8_t>& kiln, const std::vector<uint8_t>& reference,
                               uint32_t byte_tolerance);

}  // namespace kiln::test
