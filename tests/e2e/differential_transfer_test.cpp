// The same clear + copy workload on Kiln and on lavapipe in one process; the results must be
// identical (tolerance 0: every value in the workload is exactly representable, so the spec
// leaves no rounding freedom). On a mismatch kiln.png, lavapipe.png and diff.png are saved in
// KILN_TEST_OUTPUT_DIR/<test>/<image>.
#include <cstring>

#include "e2e/image_compare.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kTolerance = 0;
constexpr uint32_t kWidth = 64, kHeight = 48;
constexpr uint32_t kUploadRowLength = 70;  // texels per row in the upload buffer (padding 6)

struct WorkloadResult {
  Rgba8Image composed;          // image A after the workload
  Rgba8Image target;            // image B, mip 0
  std::vector<uint8_t> packed;  // image B read with row padding into a pre-filled buffer
};

// A gradient, not a flat colour, so misplaced copies show.
std::vector<uint8_t> gradient_upload() {
  std::vector<uint8_t> bytes(size_t(kUploadRowLength) * kHeight * 4, 0);
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth; ++x) {
      uint8_t* texel = &bytes[(size_t(y) * kUploadRowLength + x) * 4];
      texel[0] = static_cast<uint8_t>(x * 4);
      texel[1] = static_cast<uint8_t>(y * 5);
      texel[2] = static_cast<uint8_t>((x ^ y) * 3);
      texel[3] = 255;
    }
  return bytes;
}

VkImageCopy image_copy(uint32_t src_mip, VkOffset3D from, uint32_t dst_mip, VkOffset3D to, uint32_t width,
                       uint32_t height) {
  VkImageCopy region{};
  region.srcSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, src_mip);
  region.srcOffset = from;
  region.dstSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, dst_mip);
  region.dstOffset = to;
  region.extent = {width, height, 1};
  return region;
}

void clear(VkCommandBuffer cmd, const Image& image, uint32_t mip, VkClearColorValue color) {
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, 0, 1};
  vkCmdClearColorImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
}

// Image A gets a gradient; image B's two mips are cleared to two colours; rectangles are copied
// A → B mip 0, B mip 1 → B mip 0; A is cleared and gets a rectangle of B back.
WorkloadResult run_clear_copy_workload(TestDevice& device) {
  const VkClearColorValue blue{.float32 = {0.0f, 0.0f, 1.0f, 1.0f}};
  const VkClearColorValue yellow{.float32 = {1.0f, 1.0f, 0.0f, 1.0f}};
  const VkClearColorValue red{.float32 = {1.0f, 0.0f, 0.0f, 1.0f}};
  const std::vector<uint8_t> upload_bytes = gradient_upload();
  Buffer upload = device.create_buffer(upload_bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::memcpy(upload.mapped, upload_bytes.data(), upload_bytes.size());
  Image a = device.create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kWidth, kHeight, 1});
  Image b = device.create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kWidth, kHeight, 1}, 2);
  const VkDeviceSize packed_row = 72 * 4;  // readback rows padded to 72 texels
  Buffer packed = device.create_buffer(packed_row * kHeight + 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0xCD);

  device.run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, a.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    transition(cmd, b.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkBufferImageCopy gradient{};
    gradient.bufferRowLength = kUploadRowLength;
    gradient.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    gradient.imageExtent = {kWidth, kHeight, 1};
    vkCmdCopyBufferToImage(cmd, upload.buffer, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &gradient);
    clear(cmd, b, 0, blue);
    clear(cmd, b, 1, yellow);
    full_barrier(cmd);  // the copies below write where the clears wrote
    transition(cmd, a.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    transition(cmd, b.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 1, 1);  // mip 1 becomes a source
    const VkImageCopy from_a[] = {image_copy(0, {0, 0, 0}, 0, {40, 30, 0}, 20, 16),
                                  image_copy(0, {10, 10, 0}, 0, {2, 3, 0}, 30, 12)};
    vkCmdCopyImage(cmd, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   2, from_a);
    const VkImageCopy from_mip1 = image_copy(1, {0, 0, 0}, 0, {44, 2, 0}, 16, 12);
    vkCmdCopyImage(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   1, &from_mip1);
    // A is now overwritten: red, then a rectangle of B's mip 0 copied back into it.
    transition(cmd, a.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    clear(cmd, a, 0, red);
    transition(cmd, b.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 0, 1);
    full_barrier(cmd);
    const VkImageCopy back = image_copy(0, {30, 20, 0}, 0, {5, 5, 0}, 30, 26);
    vkCmdCopyImage(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   1, &back);
    transition(cmd, a.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkBufferImageCopy padded{};
    padded.bufferOffset = 128;
    padded.bufferRowLength = 72;
    padded.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    padded.imageExtent = {kWidth, kHeight, 1};
    vkCmdCopyImageToBuffer(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, packed.buffer, 1, &padded);
    full_barrier(cmd);
  });

  WorkloadResult result;
  result.composed = {kWidth, kHeight,
                     device.read_image(a, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)};
  result.target = {kWidth, kHeight,
                   device.read_image(b, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)};
  result.packed.assign(packed.mapped, packed.mapped + packed.size);
  return result;
}

using DifferentialTransferTest = DifferentialTest;

TEST_F(DifferentialTransferTest, ClearAndCopyMatchLavapipe) {
  const WorkloadResult on_kiln = run_clear_copy_workload(kiln());
  const WorkloadResult on_lavapipe = run_clear_copy_workload(lavapipe());
  const std::string name = current_test_name();

  const ImageComparison composed =
      compare_and_save_on_mismatch(name + "/image_a", on_kiln.composed, on_lavapipe.composed, kTolerance);
  EXPECT_TRUE(composed.same) << "image A: " << composed.describe() << "; see "
                             << comparison_output_directory(name + "/image_a");
  const ImageComparison target =
      compare_and_save_on_mismatch(name + "/image_b", on_kiln.target, on_lavapipe.target, kTolerance);
  EXPECT_TRUE(target.same) << "image B: " << target.describe() << "; see "
                           << comparison_output_directory(name + "/image_b");
  const BufferComparison packed = compare_bytes(on_kiln.packed, on_lavapipe.packed, kTolerance);
  EXPECT_TRUE(packed.same) << "padded readback of B: " << packed.describe();

  // Sanity of the workload itself: B holds a copied gradient texel, A the red clear and B's blue.
  const uint8_t* b_texel = &on_lavapipe.target.pixels[(size_t(3) * kWidth + 2) * 4];  // (2,3) ← A(10,10)
  EXPECT_EQ(40, b_texel[0]);
  EXPECT_EQ(50, b_texel[1]);
  const uint8_t* a_corner = &on_lavapipe.composed.pixels[0];
  EXPECT_EQ(255, a_corner[0]);
  EXPECT_EQ(0, a_corner[2]);
}

}  // namespace
}  // namespace kiln::test
