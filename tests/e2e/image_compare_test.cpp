// The comparison used by the differential tests must itself be right: images that differ beyond
// the tolerance are reported (with the PNGs written), images within it are not.
#include <gtest/gtest.h>

#include <filesystem>

#include "e2e/image_compare.h"
#include "tools/common/png_io.h"

namespace kiln::test {
namespace {

Rgba8Image gradient(uint32_t width, uint32_t height) {
  Rgba8Image image{width, height, std::vector<uint8_t>(size_t(width) * height * 4)};
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* pixel = &image.pixels[(size_t(y) * width + x) * 4];
      pixel[0] = static_cast<uint8_t>(x * 16);
      pixel[1] = static_cast<uint8_t>(y * 16);
      pixel[2] = 128;
      pixel[3] = 255;
    }
  return image;
}

std::string unique_name(const char* suffix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name() + suffix;
}

TEST(ImageCompare, IdenticalImagesAreSame) {
  const Rgba8Image a = gradient(8, 6);
  const ImageComparison result = compare_rgba8(a, a, 0);
  EXPECT_TRUE(result.same);
  EXPECT_EQ(0u, result.differing_pixels);
  EXPECT_EQ(0u, result.max_channel_difference);
}

TEST(ImageCompare, DifferenceWithinToleranceIsSame) {
  const Rgba8Image a = gradient(8, 6);
  Rgba8Image b = a;
  b.pixels[(2 * 8 + 3) * 4 + 1] += 2;  // pixel (3, 2), green +2
  const ImageComparison result = compare_rgba8(b, a, 2);
  EXPECT_TRUE(result.same) << result.describe();
  EXPECT_EQ(2u, result.max_channel_difference);
  EXPECT_FALSE(compare_rgba8(b, a, 1).same) << "a difference of 2 exceeds tolerance 1";
}

TEST(ImageCompare, DifferenceBeyondToleranceIsReportedAndSaved) {
  const Rgba8Image reference = gradient(8, 6);
  Rgba8Image kiln = reference;
  kiln.pixels[(4 * 8 + 5) * 4 + 2] = 0;    // pixel (5, 4): blue 128 → 0
  kiln.pixels[(1 * 8 + 6) * 4 + 0] += 10;  // pixel (6, 1): red +10
  const std::string name = unique_name("");
  const std::string directory = comparison_output_directory(name);
  std::filesystem::remove_all(directory);

  const ImageComparison result = compare_and_save_on_mismatch(name, kiln, reference, 3);
  EXPECT_FALSE(result.same);
  EXPECT_EQ(2u, result.differing_pixels);
  EXPECT_EQ(128u, result.max_channel_difference);
  EXPECT_EQ(6u, result.first_x);  // (6, 1) comes before (5, 4) in row-major order
  EXPECT_EQ(1u, result.first_y);

  // The three PNGs exist; kiln.png round-trips; diff.png marks exactly the two pixels in red.
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> pixels;
  ASSERT_TRUE(kiln::png::read_rgba8(directory + "/kiln.png", &width, &height, &pixels));
  EXPECT_EQ(kiln.pixels, pixels);
  ASSERT_TRUE(kiln::png::read_rgba8(directory + "/lavapipe.png", &width, &height, &pixels));
  EXPECT_EQ(reference.pixels, pixels);
  ASSERT_TRUE(kiln::png::read_rgba8(directory + "/diff.png", &width, &height, &pixels));
  ASSERT_EQ(8u, width);
  ASSERT_EQ(6u, height);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const uint8_t* pixel = &pixels[(size_t(y) * width + x) * 4];
      const bool marked = pixel[0] == 255 && pixel[1] == 0 && pixel[2] == 0;
      const bool differs = (x == 5 && y == 4) || (x == 6 && y == 1);
      EXPECT_EQ(differs, marked) << "diff.png pixel (" << x << ", " << y << ")";
    }
}

TEST(ImageCompare, MatchingImagesWriteNoFiles) {
  const Rgba8Image a = gradient(4, 4);
  const std::string name = unique_name("");
  std::filesystem::remove_all(comparison_output_directory(name));
  EXPECT_TRUE(compare_and_save_on_mismatch(name, a, a, 0).same);
  EXPECT_FALSE(std::filesystem::exists(comparison_output_directory(name)));
}

TEST(ImageCompare, DifferentSizesAreDifferent) {
  const ImageComparison result = compare_rgba8(gradient(4, 4), gradient(4, 5), 255);
  EXPECT_FALSE(result.same);
  EXPECT_TRUE(result.size_mismatch);
}

TEST(BufferCompare, ReportsFirstDifferenceAndLengthMismatch) {
  const std::vector<uint8_t> reference = {1, 2, 3, 4, 5};
  EXPECT_TRUE(compare_bytes(reference, reference, 0).same);
  std::vector<uint8_t> kiln = reference;
  kiln[3] = 7;
  BufferComparison result = compare_bytes(kiln, reference, 0);
  EXPECT_FALSE(result.same);
  EXPECT_EQ(1u, result.differing_bytes);
  EXPECT_EQ(3u, result.first_offset);
  EXPECT_TRUE(compare_bytes(kiln, reference, 3).same);
  kiln = {1, 2, 3};
  result = compare_bytes(kiln, reference, 0);
  EXPECT_FALSE(result.same);
  EXPECT_EQ(2u, result.differing_bytes);
  EXPECT_EQ(3u, result.first_offset);
}

}  // namespace
}  // namespace kiln::test
