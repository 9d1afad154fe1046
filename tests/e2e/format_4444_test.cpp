// VK_EXT_4444_formats: A4R4G4B4 and A4B4G4R4 (alpha in the top nibble) are read (a blit into
// RGBA8 unpacks them) and written (vkCmdClearColorImage packs them) with every channel in its
// place. The same test runs on lavapipe (KILN_TEST_DRIVER=lavapipe).
#include <cstring>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class Format4444Test : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    VkPhysicalDevice4444FormatsFeaturesEXT features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_4444_FORMATS_FEATURES_EXT};
    if (!query_extension_features(physical_device(), VK_EXT_4444_FORMATS_EXTENSION_NAME, features) ||
        !features.formatA4R4G4B4 || !features.formatA4B4G4R4) {
      EXPECT_FALSE(is_kiln()) << "Kiln offers VK_EXT_4444_formats";
      GTEST_SKIP() << "no VK_EXT_4444_formats";
    }
    device_ = create_device_with_extension(features, VK_EXT_4444_FORMATS_EXTENSION_NAME);
    ASSERT_TRUE(device_);
  }

  // Bit position of each of R, G, B, A in the 16-bit word.
  static std::array<int, 4> shifts(VkFormat format) {
    return format == VK_FORMAT_A4R4G4B4_UNORM_PACK16 ? std::array<int, 4>{8, 4, 0, 12} : std::array<int, 4>{0, 4, 8, 12};
  }

  TestDevice* device_ = nullptr;
};

constexpr VkFormat kFormats[] = {VK_FORMAT_A4R4G4B4_UNORM_PACK16, VK_FORMAT_A4B4G4R4_UNORM_PACK16};

TEST_F(Format4444Test, BlitsUnpackEveryChannelFromItsNibble) {
  TestDevice& device = *device_;
  const VkExtent3D extent{16, 1, 1};
  for (VkFormat format : kFormats) {
    SCOPED_TRACE(format);
    // Texel i: R = i, G = 15 - i, B = (i * 7) & 15, A = (i * 5 + 3) & 15.
    std::vector<uint16_t> words(16);
    const std::array<int, 4> at = shifts(format);
    for (uint32_t i = 0; i < 16; ++i) {
      const uint32_t rgba[4] = {i, 15 - i, (i * 7) & 15, (i * 5 + 3) & 15};
      for (int c = 0; c < 4; ++c) words[i] |= uint16_t(rgba[c] << at[c]);
    }
    Image src = device.create_image(VK_IMAGE_TYPE_2D, format, extent);
    Image dst = device.create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, extent);
    Buffer staging = device.create_buffer(words.size() * 2, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(staging.mapped, words.data(), words.size() * 2);
    device.run_commands([&](VkCommandBuffer cmd) {
      transition(cmd, src.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      transition(cmd, dst.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      VkBufferImageCopy copy{};
      copy.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
      copy.imageExtent = extent;
      vkCmdCopyBufferToImage(cmd, staging.buffer, src.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
      transition(cmd, src.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      VkImageBlit blit{};
      blit.srcSubresource = blit.dstSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
      blit.srcOffsets[1] = blit.dstOffsets[1] = {16, 1, 1};
      vkCmdBlitImage(cmd, src.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     1, &blit, VK_FILTER_NEAREST);
      transition(cmd, dst.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    });
    const std::vector<uint8_t> rgba8 = device.read_image(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    for (uint32_t i = 0; i < 16; ++i) {
      const uint32_t rgba[4] = {i, 15 - i, (i * 7) & 15, (i * 5 + 3) & 15};
      for (int c = 0; c < 4; ++c) EXPECT_EQ(rgba8[i * 4 + c], rgba[c] * 17) << "texel " << i << " channel " << c;
    }
  }
}

TEST_F(Format4444Test, ClearsPackEveryChannelIntoItsNibble) {
  TestDevice& device = *device_;
  for (VkFormat format : kFormats) {
    SCOPED_TRACE(format);
    Image image = device.create_image(VK_IMAGE_TYPE_2D, format, {4, 2, 1});
    const VkClearColorValue colour{{3 / 15.0f, 10 / 15.0f, 12 / 15.0f, 6 / 15.0f}};
    device.run_commands([&](VkCommandBuffer cmd) {
      transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colour, 1, &range);
      transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    });
    const std::vector<uint8_t> bytes = device.read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    ASSERT_EQ(bytes.size(), 16u);
    const std::array<int, 4> at = shifts(format);
    const uint16_t want = uint16_t(3 << at[0] | 10 << at[1] | 12 << at[2] | 6 << at[3]);
    for (size_t i = 0; i < 8; ++i) {
      uint16_t word;
      std::memcpy(&word, &bytes[i * 2], 2);
      EXPECT_EQ(word, want) << "texel " << i;
    }
  }
}

}  // namespace
}  // namespace kiln::test
