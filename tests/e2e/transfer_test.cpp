// Transfer commands with exact content checks: buffer copies/fills/updates, buffer↔image copies
// (row length, image height, offsets, mips, layers, 3D), image copies, colour and depth/stencil
// clears, the *2 command variants, and pipeline barriers (1 and 2) between dependent copies.
//
// Expected contents come from a small host reference of each copy (HostImage + reference_*),
// and whole subresources are compared, so bytes a command must not touch are checked too.
#include <cmath>
#include <cstring>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using TransferTest = VulkanTest;

constexpr VkBufferUsageFlags kTransferBoth = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

std::vector<uint8_t> make_pattern(size_t size, uint32_t seed) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(i * 131 + (i >> 8) * 7 + seed);
  return bytes;
}

Buffer buffer_with(TestDevice& device, const std::vector<uint8_t>& bytes) {
  Buffer buffer = device.create_buffer(bytes.size(), kTransferBoth);
  if (buffer.mapped) std::memcpy(buffer.mapped, bytes.data(), bytes.size());
  return buffer;
}

std::vector<uint8_t> contents(const Buffer& buffer) { return {buffer.mapped, buffer.mapped + buffer.size}; }

// Index of the first differing byte (or "equal"), for readable failures on large vectors.
::testing::AssertionResult same_bytes(const std::vector<uint8_t>& expected, const std::vector<uint8_t>& actual) {
  if (expected.size() != actual.size())
    return ::testing::AssertionFailure() << "size " << actual.size() << ", expected " << expected.size();
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != actual[i])
      return ::testing::AssertionFailure() << "byte " << i << " is " << int(actual[i]) << ", expected "
                                           << int(expected[i]);
  }
  return ::testing::AssertionSuccess();
}

// --- Host reference of the copies --------------------------------------------------------------

// One subresource's texels, tightly packed (x fastest, then y, then z).
struct HostImage {
  VkExtent3D extent;
  uint32_t texel;
  std::vector<uint8_t> bytes;
  HostImage(VkExtent3D extent_, uint32_t texel_, uint8_t fill = 0)
      : extent(extent_), texel(texel_), bytes(size_t(extent_.width) * extent_.height * extent_.depth * texel_, fill) {}
  HostImage(VkExtent3D extent_, uint32_t texel_, std::vector<uint8_t> bytes_)
      : extent(extent_), texel(texel_), bytes(std::move(bytes_)) {}
  uint8_t* at(uint32_t x, uint32_t y, uint32_t z) {
    return &bytes[((size_t(z) * extent.height + y) * extent.width + x) * texel];
  }
  const uint8_t* at(uint32_t x, uint32_t y, uint32_t z) const { return const_cast<HostImage*>(this)->at(x, y, z); }
};

// Byte offset in the buffer of texel (x, y, z) of `layer_in_region` for a buffer↔image region.
size_t buffer_texel_offset(const VkBufferImageCopy& region, uint32_t texel, uint32_t layer_in_region, uint32_t x,
                           uint32_t y, uint32_t z) {
  const size_t row_length = region.bufferRowLength ? region.bufferRowLength : region.imageExtent.width;
  const size_t image_height = region.bufferImageHeight ? region.bufferImageHeight : region.imageExtent.height;
  const size_t layer_size = row_length * image_height * region.imageExtent.depth * texel;
  return region.bufferOffset + layer_in_region * layer_size + ((z * image_height + y) * row_length + x) * texel;
}

void reference_buffer_to_image(const std::vector<uint8_t>& buffer, const VkBufferImageCopy& region,
                               uint32_t layer_in_region, HostImage* image) {
  const VkExtent3D& e = region.imageExtent;
  for (uint32_t z = 0; z < e.depth; ++z)
    for (uint32_t y = 0; y < e.height; ++y)
      for (uint32_t x = 0; x < e.width; ++x)
        std::memcpy(image->at(region.imageOffset.x + x, region.imageOffset.y + y, region.imageOffset.z + z),
                    &buffer[buffer_texel_offset(region, image->texel, layer_in_region, x, y, z)], image->texel);
}

void reference_image_to_buffer(const HostImage& image, const VkBufferImageCopy& region, uint32_t layer_in_region,
                               std::vector<uint8_t>* buffer) {
  const VkExtent3D& e = region.imageExtent;
  for (uint32_t z = 0; z < e.depth; ++z)
    for (uint32_t y = 0; y < e.height; ++y)
      for (uint32_t x = 0; x < e.width; ++x)
        std::memcpy(&(*buffer)[buffer_texel_offset(region, image.texel, layer_in_region, x, y, z)],
                    image.at(region.imageOffset.x + x, region.imageOffset.y + y, region.imageOffset.z + z),
                    image.texel);
}

void reference_image_copy(const HostImage& source, const VkImageCopy& region, HostImage* destination) {
  const VkExtent3D& e = region.extent;
  for (uint32_t z = 0; z < e.depth; ++z)
    for (uint32_t y = 0; y < e.height; ++y)
      for (uint32_t x = 0; x < e.width; ++x)
        std::memcpy(destination->at(region.dstOffset.x + x, region.dstOffset.y + y, region.dstOffset.z + z),
                    source.at(region.srcOffset.x + x, region.srcOffset.y + y, region.srcOffset.z + z),
                    source.texel);
}

// --- Device helpers ----------------------------------------------------------------------------

// Uploads `host` (a whole subresource) into (mip, layer) of an image in TRANSFER_DST_OPTIMAL.
void record_upload(VkCommandBuffer cmd, const Buffer& staging, const Image& image, uint32_t mip, uint32_t layer) {
  VkBufferImageCopy region{};
  region.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, mip, layer);
  region.imageExtent = mip_extent(image.info.extent, mip);
  vkCmdCopyBufferToImage(cmd, staging.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
}

// Fills every (mip, layer) of a colour image with a distinct pattern and returns the host copies,
// indexed [mip][layer]. The image ends in `final_layout`.
std::vector<std::vector<HostImage>> fill_with_patterns(TestDevice& device, const Image& image,
                                                       VkImageLayout final_layout, uint32_t seed) {
  const uint32_t texel = texel_size(image.info.format);
  const uint32_t layer_count = image.info.imageType == VK_IMAGE_TYPE_3D ? 1 : image.info.arrayLayers;
  std::vector<std::vector<HostImage>> hosts(image.info.mipLevels);
  std::vector<Buffer> staging;
  for (uint32_t mip = 0; mip < image.info.mipLevels; ++mip)
    for (uint32_t layer = 0; layer < layer_count; ++layer) {
      const VkExtent3D extent = mip_extent(image.info.extent, mip);
      HostImage host(extent, texel, make_pattern(size_t(extent.width) * extent.height * extent.depth * texel,
                                                 seed + mip * 17 + layer * 5));
      staging.push_back(buffer_with(device, host.bytes));
      hosts[mip].push_back(std::move(host));
    }
  device.run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    size_t index = 0;
    for (uint32_t mip = 0; mip < image.info.mipLevels; ++mip)
      for (uint32_t layer = 0; layer < layer_count; ++layer) record_upload(cmd, staging[index++], image, mip, layer);
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, final_layout);
  });
  return hosts;
}

// Clears a whole colour image to zero; ends in `final_layout`.
void clear_to_zero(TestDevice& device, const Image& image, VkImageLayout final_layout) {
  device.run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkClearColorValue zero{};
    const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0,
                                      VK_REMAINING_ARRAY_LAYERS};
    vkCmdClearColorImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &all);
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, final_layout);
  });
}

bool format_supports(VkPhysicalDevice physical_device, VkFormat format, VkFormatFeatureFlags wanted) {
  VkFormatProperties properties;
  vkGetPhysicalDeviceFormatProperties(physical_device, format, &properties);
  return (properties.optimalTilingFeatures & wanted) == wanted;
}

// --- Buffer commands ---------------------------------------------------------------------------

TEST_F(TransferTest, CopyBufferWithSeveralRegions) {
  const std::vector<uint8_t> source_bytes = make_pattern(1024, 1);
  Buffer source = buffer_with(device(), source_bytes);
  Buffer destination = device().create_buffer(1024, kTransferBoth, 0xFF);
  const VkBufferCopy regions[] = {{0, 512, 100}, {200, 0, 64}, {700, 900, 124}, {1020, 300, 4}};
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdCopyBuffer(cmd, source.buffer, destination.buffer, 4, regions);
    full_barrier(cmd);
  });
  std::vector<uint8_t> expected(1024, 0xFF);
  for (const VkBufferCopy& r : regions)
    std::memcpy(&expected[r.dstOffset], &source_bytes[r.srcOffset], r.size);
  EXPECT_TRUE(same_bytes(expected, contents(destination)));
}

TEST_F(TransferTest, FillBufferWholeSizeRoundsDownToWords) {
  Buffer buffer = device().create_buffer(1026, kTransferBoth, 0xAB);  // not a multiple of 4
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, buffer.buffer, 4, VK_WHOLE_SIZE, 0x01020304u);
    full_barrier(cmd);
    vkCmdFillBuffer(cmd, buffer.buffer, 64, 8, 0xDEADBEEFu);  // a bounded fill over it
    full_barrier(cmd);
  });
  std::vector<uint8_t> expected(1026, 0xAB);
  for (size_t i = 4; i < 1024; i += 4) {
    const uint32_t word = (i >= 64 && i < 72) ? 0xDEADBEEFu : 0x01020304u;
    std::memcpy(&expected[i], &word, 4);
  }
  EXPECT_TRUE(same_bytes(expected, contents(buffer)));
}

TEST_F(TransferTest, UpdateBuffer) {
  Buffer buffer = device().create_buffer(70000, kTransferBoth, 0x11);
  const std::vector<uint8_t> small = make_pattern(400, 9);
  const std::vector<uint8_t> largest = make_pattern(65536, 3);  // the maximum dataSize
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdUpdateBuffer(cmd, buffer.buffer, 16, small.size(), small.data());
    vkCmdUpdateBuffer(cmd, buffer.buffer, 4096, largest.size(), largest.data());
    full_barrier(cmd);
  });
  std::vector<uint8_t> expected(70000, 0x11);
  std::memcpy(&expected[16], small.data(), small.size());
  std::memcpy(&expected[4096], largest.data(), largest.size());
  EXPECT_TRUE(same_bytes(expected, contents(buffer)));
}

// --- Buffer ↔ image ----------------------------------------------------------------------------

TEST_F(TransferTest, CopyBufferToImageWithRowLengthImageHeightOffsetsMipAndLayer) {
  Image image = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {32, 16, 1}, 3, 4);
  clear_to_zero(device(), image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  const std::vector<uint8_t> source_bytes = make_pattern(4096, 5);
  Buffer source = buffer_with(device(), source_bytes);

  // Region A: a 9x5 rectangle at (3, 2) of mip 1 (16x8), layer 2, from rows of 12 texels.
  VkBufferImageCopy a{};
  a.bufferOffset = 64;
  a.bufferRowLength = 12;
  a.bufferImageHeight = 7;
  a.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 1, 2);
  a.imageOffset = {3, 2, 0};
  a.imageExtent = {9, 5, 1};
  // Region B: all of mip 2 (8x4) in layers 0 and 1, tightly packed, layer after layer.
  VkBufferImageCopy b{};
  b.bufferOffset = 1024;
  b.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 2, 0, 2);
  b.imageExtent = {8, 4, 1};
  // Region C: layers 2..3 of mip 0 at an offset, with row length and image height padding.
  VkBufferImageCopy c{};
  c.bufferOffset = 2048;
  c.bufferRowLength = 6;
  c.bufferImageHeight = 4;
  c.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 2);
  c.imageOffset = {26, 13, 0};
  c.imageExtent = {5, 3, 1};
  const VkBufferImageCopy regions[] = {a, b, c};
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdCopyBufferToImage(cmd, source.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 3, regions);
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });

  for (uint32_t mip = 0; mip < 3; ++mip)
    for (uint32_t layer = 0; layer < 4; ++layer) {
      HostImage expected(mip_extent(image.info.extent, mip), 4);
      for (const VkBufferImageCopy& r : regions) {
        const VkImageSubresourceLayers& s = r.imageSubresource;
        if (s.mipLevel == mip && layer >= s.baseArrayLayer && layer < s.baseArrayLayer + s.layerCount)
          reference_buffer_to_image(source_bytes, r, layer - s.baseArrayLayer, &expected);
      }
      EXPECT_TRUE(same_bytes(expected.bytes, device().read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, mip, layer,
                                                                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)))
          << "mip " << mip << " layer " << layer;
    }
}

TEST_F(TransferTest, CopyImageToBufferWithRowLengthImageHeightAndOffsets) {
  Image image = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {20, 12, 1}, 2, 3);
  const auto hosts = fill_with_patterns(device(), image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 40);
  Buffer destination = device().create_buffer(4096, kTransferBoth, 0xEE);

  VkBufferImageCopy a{};  // 7x4 rectangle of mip 0, layer 1 into rows of 10 texels at offset 128
  a.bufferOffset = 128;
  a.bufferRowLength = 10;
  a.bufferImageHeight = 6;
  a.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0, 1);
  a.imageOffset = {5, 3, 0};
  a.imageExtent = {7, 4, 1};
  VkBufferImageCopy b{};  // mip 1 (10x6), layers 1..2, 4x2 rectangle at (6, 4), padded layers
  b.bufferOffset = 1600;
  b.bufferRowLength = 5;
  b.bufferImageHeight = 3;
  b.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 2);
  b.imageOffset = {6, 4, 0};
  b.imageExtent = {4, 2, 1};
  const VkBufferImageCopy regions[] = {a, b};
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdCopyImageToBuffer(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, destination.buffer, 2, regions);
    full_barrier(cmd);
  });
  std::vector<uint8_t> expected(4096, 0xEE);  // padding between rows and layers stays untouched
  for (const VkBufferImageCopy& r : regions)
    for (uint32_t l = 0; l < r.imageSubresource.layerCount; ++l)
      reference_image_to_buffer(hosts[r.imageSubresource.mipLevel][r.imageSubresource.baseArrayLayer + l], r, l,
                                &expected);
  EXPECT_TRUE(same_bytes(expected, contents(destination)));
}

TEST_F(TransferTest, CopyBufferToImage3DWithDepthOffset) {
  Image image = device().create_image(VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {8, 6, 5}, 2, 1);
  clear_to_zero(device(), image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  const std::vector<uint8_t> source_bytes = make_pattern(2048, 77);
  Buffer source = buffer_with(device(), source_bytes);
  VkBufferImageCopy region{};
  region.bufferOffset = 8;
  region.bufferRowLength = 6;
  region.bufferImageHeight = 4;  // slice pitch of 6x4 texels
  region.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
  region.imageOffset = {2, 1, 1};
  region.imageExtent = {5, 3, 3};
  VkBufferImageCopy mip1{};  // mip 1 is 4x3x2; fill its second slice only
  mip1.bufferOffset = 1536;
  mip1.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 1);
  mip1.imageOffset = {0, 0, 1};
  mip1.imageExtent = {4, 3, 1};
  const VkBufferImageCopy regions[] = {region, mip1};
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdCopyBufferToImage(cmd, source.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, regions);
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  for (uint32_t mip = 0; mip < 2; ++mip) {
    HostImage expected(mip_extent(image.info.extent, mip), 4);
    reference_buffer_to_image(source_bytes, regions[mip], 0, &expected);
    EXPECT_TRUE(same_bytes(expected.bytes, device().read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, mip, 0,
                                                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)))
        << "mip " << mip;
  }
}

// --- Image copies ------------------------------------------------------------------------------

TEST_F(TransferTest, CopyImage2DBetweenLayersAndOffsets) {
  Image source = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {24, 16, 1}, 1, 2);
  Image destination = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {24, 16, 1}, 1, 2);
  const auto hosts = fill_with_patterns(device(), source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 3);
  clear_to_zero(device(), destination, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  VkImageCopy a{};  // layer 1 → layer 0, shifted
  a.srcSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0, 1);
  a.srcOffset = {2, 3, 0};
  a.dstSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  a.dstOffset = {10, 1, 0};
  a.extent = {6, 5, 1};
  VkImageCopy b{};  // both layers at once, to the bottom-right corner
  b.srcSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2);
  b.srcOffset = {0, 0, 0};
  b.dstSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2);
  b.dstOffset = {20, 12, 0};
  b.extent = {4, 4, 1};
  const VkImageCopy regions[] = {a, b};
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdCopyImage(cmd, source.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, destination.image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, regions);
    transition(cmd, destination.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  for (uint32_t layer = 0; layer < 2; ++layer) {
    HostImage expected(destination.info.extent, 4);
    for (const VkImageCopy& r : regions)
      for (uint32_t l = 0; l < r.dstSubresource.layerCount; ++l)
        if (r.dstSubresource.baseArrayLayer + l == layer)
          reference_image_copy(hosts[0][r.srcSubresource.baseArrayLayer + l], r, &expected);
    EXPECT_TRUE(same_bytes(expected.bytes, device().read_image(destination, VK_IMAGE_ASPECT_COLOR_BIT, 0, layer,
                                                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)))
        << "layer " << layer;
  }
}

TEST_F(TransferTest, CopyImageBetweenMipsOfOneImage) {
  Image image = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {32, 32, 1}, 2, 1);
  auto hosts = fill_with_patterns(device(), image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 60);
  VkImageCopy region{};
  region.srcSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
  region.srcOffset = {4, 4, 0};
  region.dstSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 1);
  region.dstOffset = {0, 2, 0};
  region.extent = {8, 4, 1};
  device().run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 0, 1);  // mip 0 is the source, mip 1 stays destination
    vkCmdCopyImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image.image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 1, 1);
  });
  reference_image_copy(hosts[0][0], region, &hosts[1][0]);
  for (uint32_t mip = 0; mip < 2; ++mip)
    EXPECT_TRUE(same_bytes(hosts[mip][0].bytes, device().read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, mip, 0,
                                                                     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)))
        << "mip " << mip;
}

TEST_F(TransferTest, CopyImage3D) {
  Image source = device().create_image(VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 4});
  Image destination = device().create_image(VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 4});
  const auto hosts = fill_with_patterns(device(), source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 90);
  clear_to_zero(device(), destination, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  VkImageCopy region{};
  region.srcSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
  region.srcOffset = {1, 2, 1};
  region.dstSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
  region.dstOffset = {0, 0, 2};
  region.extent = {4, 3, 2};
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdCopyImage(cmd, source.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, destination.image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    transition(cmd, destination.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  HostImage expected(destination.info.extent, 4);
  reference_image_copy(hosts[0][0], region, &expected);
  EXPECT_TRUE(same_bytes(expected.bytes, device().read_image(destination, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0,
                                                             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)));
}

// --- Clears ------------------------------------------------------------------------------------

struct ColorClearCase {
  VkFormat format;
  VkClearColorValue color;
  std::vector<uint8_t> expected_texel;  // bytes of one cleared texel
  uint32_t tolerance;                   // per byte; non-zero only where the spec allows rounding
};

template <typename T>
std::vector<uint8_t> bytes_of(std::initializer_list<T> values) {
  std::vector<uint8_t> bytes;
  for (T value : values) {
    const auto* raw = reinterpret_cast<const uint8_t*>(&value);
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
  }
  return bytes;
}

TEST_F(TransferTest, ClearColorImageFormats) {
  const std::vector<ColorClearCase> cases = {
      {VK_FORMAT_R8G8B8A8_UNORM, {.float32 = {1.0f, 0.0f, 1.0f, 0.0f}}, {255, 0, 255, 0}, 0},
      // 0.5 × 255 = 127.5: the spec allows either neighbour.
      {VK_FORMAT_R8G8B8A8_UNORM, {.float32 = {0.5f, 2.0f, -1.0f, 1.0f}}, {128, 255, 0, 255}, 1},
      {VK_FORMAT_R8G8B8A8_UINT, {.uint32 = {1, 2, 250, 255}}, {1, 2, 250, 255}, 0},
      {VK_FORMAT_R32G32B32A32_SFLOAT, {.float32 = {1.5f, -2.25f, 0.0f, 1e10f}}, bytes_of<float>({1.5f, -2.25f, 0.0f, 1e10f}), 0},
      {VK_FORMAT_R32G32B32A32_UINT, {.uint32 = {0xDEADBEEF, 0, 1, 0xFFFFFFFF}}, bytes_of<uint32_t>({0xDEADBEEF, 0, 1, 0xFFFFFFFF}), 0},
      {VK_FORMAT_R16_UINT, {.uint32 = {0xBEEF, 7, 7, 7}}, bytes_of<uint16_t>({0xBEEF}), 0},
      {VK_FORMAT_R32_UINT, {.uint32 = {0x12345678, 0, 0, 0}}, bytes_of<uint32_t>({0x12345678}), 0},
      {VK_FORMAT_R32_SFLOAT, {.float32 = {-0.125f, 0, 0, 0}}, bytes_of<float>({-0.125f}), 0},
      // Half floats: 1.0 = 0x3C00, -2.0 = 0xC000, 0.5 = 0x3800, 65504 = 0x7BFF.
      {VK_FORMAT_R16G16B16A16_SFLOAT, {.float32 = {1.0f, -2.0f, 0.5f, 65504.0f}}, bytes_of<uint16_t>({0x3C00, 0xC000, 0x3800, 0x7BFF}), 0},
      // sRGB encodes the clear colour: linear 0.5 → 187.5/255.
      {VK_FORMAT_R8G8B8A8_SRGB, {.float32 = {1.0f, 0.0f, 0.5f, 0.5f}}, {255, 0, 188, 128}, 1},
  };
  for (const ColorClearCase& c : cases) {
    SCOPED_TRACE(::testing::Message() << "format " << c.format);
    ASSERT_TRUE(format_supports(physical_device(), c.format,
                                VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT));
    Image image = device().create_image(VK_IMAGE_TYPE_2D, c.format, {7, 5, 1}, 1, 2);
    const uint32_t texel = texel_size(c.format);
    ASSERT_EQ(texel, c.expected_texel.size());
    // Layer 0 gets the colour; layer 1 is cleared to zero and must stay so.
    device().run_commands([&](VkCommandBuffer cmd) {
      transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      const VkClearColorValue zero{};
      const VkImageSubresourceRange layer0{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      const VkImageSubresourceRange layer1{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1, 1};
      vkCmdClearColorImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &layer1);
      vkCmdClearColorImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c.color, 1, &layer0);
      transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    });
    const std::vector<uint8_t> cleared =
        device().read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    ASSERT_EQ(size_t(7) * 5 * texel, cleared.size());
    for (size_t i = 0; i < cleared.size(); ++i) {
      const int difference = int(cleared[i]) - int(c.expected_texel[i % texel]);
      ASSERT_LE(std::abs(difference), int(c.tolerance))
          << "texel " << i / texel << " byte " << i % texel << " is " << int(cleared[i]);
    }
    const std::vector<uint8_t> untouched =
        device().read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    EXPECT_TRUE(same_bytes(std::vector<uint8_t>(untouched.size(), 0), untouched)) << "layer 1";
  }
}

struct DepthStencilCase {
  VkFormat format;
  bool has_stencil;
  // Checks one texel of the depth aspect as copied to a buffer (4 bytes for the formats here).
  std::function<::testing::AssertionResult(uint32_t word)> check_depth;
};

::testing::AssertionResult depth_is_float(uint32_t word, float expected) {
  float value;
  std::memcpy(&value, &word, 4);
  if (value == expected) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "depth " << value << ", expected " << expected;
}

// D24 depth copies to 32 bits with the depth in the low 24; the top 8 bits are undefined.
::testing::AssertionResult depth_is_unorm24(uint32_t word, double expected) {
  const double value = (word & 0xFFFFFFu);
  if (std::fabs(value - expected * 0xFFFFFF) <= 1.0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "depth bits 0x" << std::hex << (word & 0xFFFFFFu) << ", expected about "
                                       << std::dec << expected * 0xFFFFFF;
}

TEST_F(TransferTest, ClearDepthStencilImage) {
  const std::vector<DepthStencilCase> cases = {
      {VK_FORMAT_D32_SFLOAT, false, [](uint32_t w) { return depth_is_float(w, 0.375f); }},
      {VK_FORMAT_D24_UNORM_S8_UINT, true, [](uint32_t w) { return depth_is_unorm24(w, 0.375); }},
      {VK_FORMAT_X8_D24_UNORM_PACK32, false, [](uint32_t w) { return depth_is_unorm24(w, 0.375); }},
      {VK_FORMAT_D32_SFLOAT_S8_UINT, true, [](uint32_t w) { return depth_is_float(w, 0.375f); }},
  };
  int tested = 0;
  for (const DepthStencilCase& c : cases) {
    SCOPED_TRACE(::testing::Message() << "format " << c.format);
    if (!format_supports(physical_device(), c.format,
                         VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
      continue;  // optional formats: only those the device supports
    ++tested;
    const VkImageAspectFlags aspects =
        VK_IMAGE_ASPECT_DEPTH_BIT | (c.has_stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
    Image image = device().create_image(VK_IMAGE_TYPE_2D, c.format, {9, 6, 1}, 2, 1);
    device().run_commands([&](VkCommandBuffer cmd) {
      transition(cmd, image.image, aspects, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      const VkClearDepthStencilValue value{0.375f, 0x5A};
      const VkImageSubresourceRange range{aspects, 0, VK_REMAINING_MIP_LEVELS, 0, 1};
      vkCmdClearDepthStencilImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &range);
      if (c.has_stencil) {  // then the stencil aspect of mip 1 alone: its depth must be unchanged
        full_barrier(cmd);
        const VkClearDepthStencilValue stencil_only{1.0f, 0x33};
        const VkImageSubresourceRange stencil_range{VK_IMAGE_ASPECT_STENCIL_BIT, 1, 1, 0, 1};
        vkCmdClearDepthStencilImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &stencil_only, 1,
                                    &stencil_range);
      }
      transition(cmd, image.image, aspects, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    });
    for (uint32_t mip = 0; mip < 2; ++mip) {
      const std::vector<uint8_t> depth =
          device().read_image(image, VK_IMAGE_ASPECT_DEPTH_BIT, mip, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      const VkExtent3D extent = mip_extent(image.info.extent, mip);
      ASSERT_EQ(size_t(extent.width) * extent.height * 4, depth.size());
      for (size_t i = 0; i < depth.size(); i += 4) {
        uint32_t word;
        std::memcpy(&word, &depth[i], 4);
        ASSERT_TRUE(c.check_depth(word)) << "mip " << mip << " texel " << i / 4;
      }
      if (!c.has_stencil) continue;
      const std::vector<uint8_t> stencil =
          device().read_image(image, VK_IMAGE_ASPECT_STENCIL_BIT, mip, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      const uint8_t expected_stencil = mip == 0 ? 0x5A : 0x33;
      EXPECT_TRUE(same_bytes(std::vector<uint8_t>(size_t(extent.width) * extent.height, expected_stencil), stencil))
          << "stencil of mip " << mip;
    }
  }
  EXPECT_GE(tested, 2) << "the spec requires D32_SFLOAT or X8_D24, and D24S8 or D32S8, with transfer support";
}

// --- The *2 commands ---------------------------------------------------------------------------

// buffer →(CopyBufferToImage2) image A →(CopyImage2) image B →(CopyImageToBuffer2) buffer
// →(CopyBuffer2) buffer: the data must arrive where the regions say.
TEST_F(TransferTest, Copy2CommandsRoundTrip) {
  const VkExtent3D extent{16, 8, 1};
  const std::vector<uint8_t> source_bytes = make_pattern(16 * 8 * 4, 21);
  Buffer source = buffer_with(device(), source_bytes);
  Image a = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, extent);
  Image b = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, extent);
  Buffer readback = device().create_buffer(source_bytes.size(), kTransferBoth, 0);
  Buffer final_copy = device().create_buffer(source_bytes.size() + 64, kTransferBoth, 0x99);
  clear_to_zero(device(), b, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);

  device().run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, a.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkBufferImageCopy2 upload{.sType = VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2};
    upload.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    upload.imageExtent = extent;
    VkCopyBufferToImageInfo2 upload_info{.sType = VK_STRUCTURE_TYPE_COPY_BUFFER_TO_IMAGE_INFO_2};
    upload_info.srcBuffer = source.buffer;
    upload_info.dstImage = a.image;
    upload_info.dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    upload_info.regionCount = 1;
    upload_info.pRegions = &upload;
    vkCmdCopyBufferToImage2(cmd, &upload_info);
    transition(cmd, a.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);

    VkImageCopy2 copy{.sType = VK_STRUCTURE_TYPE_IMAGE_COPY_2};  // left half → right half
    copy.srcSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    copy.dstSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    copy.dstOffset = {8, 0, 0};
    copy.extent = {8, 8, 1};
    VkCopyImageInfo2 copy_info{.sType = VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2};
    copy_info.srcImage = a.image;
    copy_info.srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    copy_info.dstImage = b.image;
    copy_info.dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    copy_info.regionCount = 1;
    copy_info.pRegions = &copy;
    vkCmdCopyImage2(cmd, &copy_info);
    transition(cmd, b.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);

    VkBufferImageCopy2 download{.sType = VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2};
    download.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    download.imageExtent = extent;
    VkCopyImageToBufferInfo2 download_info{.sType = VK_STRUCTURE_TYPE_COPY_IMAGE_TO_BUFFER_INFO_2};
    download_info.srcImage = b.image;
    download_info.srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    download_info.dstBuffer = readback.buffer;
    download_info.regionCount = 1;
    download_info.pRegions = &download;
    vkCmdCopyImageToBuffer2(cmd, &download_info);
    full_barrier(cmd);

    VkBufferCopy2 tail{.sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2};
    tail.srcOffset = 0;
    tail.dstOffset = 64;
    tail.size = source_bytes.size();
    VkCopyBufferInfo2 tail_info{.sType = VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2};
    tail_info.srcBuffer = readback.buffer;
    tail_info.dstBuffer = final_copy.buffer;
    tail_info.regionCount = 1;
    tail_info.pRegions = &tail;
    vkCmdCopyBuffer2(cmd, &tail_info);
    full_barrier(cmd);
  });

  HostImage a_host(extent, 4, source_bytes);
  HostImage b_host(extent, 4);
  VkImageCopy reference{};
  reference.dstOffset = {8, 0, 0};
  reference.extent = {8, 8, 1};
  reference_image_copy(a_host, reference, &b_host);
  EXPECT_TRUE(same_bytes(b_host.bytes, contents(readback)));
  std::vector<uint8_t> expected(64 + b_host.bytes.size(), 0x99);  // 64 untouched bytes, then B
  std::memcpy(expected.data() + 64, b_host.bytes.data(), b_host.bytes.size());
  EXPECT_TRUE(same_bytes(expected, contents(final_copy)));
}

// --- Barriers between dependent copies ----------------------------------------------------------

// fill → copy → copy → copy over large buffers; each step reads what the previous one wrote, so
// only the buffer memory barriers between them make the final contents right.
TEST_F(TransferTest, PipelineBarrierOrdersDependentCopies) {
  const VkDeviceSize size = 4u << 20;
  Buffer chain[4] = {device().create_buffer(size, kTransferBoth), device().create_buffer(size, kTransferBoth),
                     device().create_buffer(size, kTransferBoth), device().create_buffer(size, kTransferBoth)};
  auto barrier = [&](VkCommandBuffer cmd, const Buffer& written) {
    VkBufferMemoryBarrier b{.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.buffer = written.buffer;
    b.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 1, &b,
                         0, nullptr);
  };
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, chain[0].buffer, 0, VK_WHOLE_SIZE, 0x5EED5EEDu);
    barrier(cmd, chain[0]);
    const VkBufferCopy whole{0, 0, size};
    for (int i = 0; i < 3; ++i) {
      vkCmdCopyBuffer(cmd, chain[i].buffer, chain[i + 1].buffer, 1, &whole);
      barrier(cmd, chain[i + 1]);
    }
    VkMemoryBarrier to_host{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr,
                         0, nullptr);
  });
  for (size_t i = 0; i < size; i += 4) {
    uint32_t word;
    std::memcpy(&word, chain[3].mapped + i, 4);
    ASSERT_EQ(0x5EED5EEDu, word) << "offset " << i;
  }
}

// The same dependency chain through an image, with vkCmdPipelineBarrier2: buffer → image (layout
// transitions by VkImageMemoryBarrier2) → image → buffer.
TEST_F(TransferTest, PipelineBarrier2OrdersDependentCopies) {
  REQUIRE_ON_KILN(features().v13.synchronization2, "synchronization2");
  const VkExtent3D extent{256, 256, 1};
  const std::vector<uint8_t> source_bytes = make_pattern(256 * 256 * 4, 33);
  Buffer source = buffer_with(device(), source_bytes);
  Image first = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, extent);
  Image second = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, extent);
  Buffer destination = device().create_buffer(source_bytes.size(), kTransferBoth);

  auto image_barrier = [](VkCommandBuffer cmd, VkImage image, VkPipelineStageFlags2 src_stage,
                          VkAccessFlags2 src_access, VkImageLayout from, VkImageLayout to, VkAccessFlags2 dst_access) {
    VkImageMemoryBarrier2 b{.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = src_stage;
    b.srcAccessMask = src_access;
    b.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    b.dstAccessMask = dst_access;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkDependencyInfo dependency{.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.imageMemoryBarrierCount = 1;
    dependency.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &dependency);
  };
  device().run_commands([&](VkCommandBuffer cmd) {
    VkBufferImageCopy whole{};
    whole.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    whole.imageExtent = extent;
    image_barrier(cmd, first.image, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    image_barrier(cmd, second.image, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdCopyBufferToImage(cmd, source.buffer, first.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &whole);
    image_barrier(cmd, first.image, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                  VK_ACCESS_2_TRANSFER_READ_BIT);
    VkImageCopy copy{};
    copy.srcSubresource = copy.dstSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    copy.extent = extent;
    vkCmdCopyImage(cmd, first.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, second.image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    image_barrier(cmd, second.image, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                  VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(cmd, second.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, destination.buffer, 1, &whole);
    VkMemoryBarrier2 to_host{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    to_host.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    to_host.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    to_host.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
    to_host.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
    VkDependencyInfo dependency{.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &to_host;
    vkCmdPipelineBarrier2(cmd, &dependency);
  });
  EXPECT_TRUE(same_bytes(source_bytes, contents(destination)));
}

}  // namespace
}  // namespace kiln::test
