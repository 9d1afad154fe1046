// memory/transfer against hand-computed expectations.
#include "memory/transfer.h"

#include "memory/blit.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>
#include <vector>

namespace kiln::mem {
namespace {

struct TestImage {
  Image image;
  std::vector<uint8_t> storage;
  TestImage(VkFormat format, VkExtent3D extent, uint32_t mips = 1, uint32_t layers = 1,
            VkImageType type = VK_IMAGE_TYPE_2D) {
    image.desc.type = type;
    image.desc.format = format;
    image.desc.extent = extent;
    image.desc.mip_levels = mips;
    image.desc.array_layers = layers;
    EXPECT_TRUE(image.layout.init(image.desc));
    storage.assign(image.layout.total_size(), 0xCD);
    image.data = storage.data();
  }
};

struct TestBuffer {
  Buffer buffer;
  std::vector<uint8_t> storage;
  explicit TestBuffer(size_t size, uint8_t fill = 0) : storage(size, fill) {
    buffer.size = size;
    buffer.data = storage.data();
  }
};

VkImageSubresourceLayers color_layers(uint32_t mip = 0, uint32_t layer = 0, uint32_t count = 1) {
  return {VK_IMAGE_ASPECT_COLOR_BIT, mip, layer, count};
}

TEST(Transfer, FillBufferRepeatsTheWord) {
  TestBuffer b(16);
  fill_buffer(b.buffer, 4, 8, 0x11223344u);
  uint32_t words[4];
  memcpy(words, b.storage.data(), 16);
  EXPECT_EQ(words[0], 0u);
  EXPECT_EQ(words[1], 0x11223344u);
  EXPECT_EQ(words[2], 0x11223344u);
  EXPECT_EQ(words[3], 0u);
}

// Fills big enough to stream past the caches (a megabyte or more per part), at offsets that are
// not 16-byte aligned and with byte patterns or not: every word of the range holds the word, in
// phase, and nothing around it changes.
TEST(Transfer, LargeFillsStreamTheWordInPhase) {
  constexpr size_t kBytes = (3u << 20) + 64;
  for (uint32_t data : {0x11223344u, 0xABABABABu}) {
    for (VkDeviceSize offset : {VkDeviceSize{4}, VkDeviceSize{12}, VkDeviceSize{64}}) {
      TestBuffer b(kBytes, 0x5A);
      const VkDeviceSize size = kBytes - 32 - offset;  // a multiple of 4
      for (uint32_t part = 0; part < 2; ++part) fill_buffer(b.buffer, offset, size, data, {part, 2});
      for (size_t at = 0; at < kBytes; at += 4) {
        uint32_t word;
        memcpy(&word, &b.storage[at], 4);
        const bool inside = at >= offset && at < offset + size;
        ASSERT_EQ(word, inside ? data : 0x5A5A5A5Au) << "byte " << at << " offset " << offset << " data " << data;
      }
    }
  }
}

TEST(Transfer, BufferToImageHonoursRowLengthAndOffsets) {
  TestImage img(VK_FORMAT_R8_UINT, {8, 8, 1});
  TestBuffer buf(64);
  std::iota(buf.storage.begin(), buf.storage.end(), 0);
  VkBufferImageCopy2 r{VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2};
  r.bufferOffset = 1;
  r.bufferRowLength = 10;  // texels between buffer rows
  r.imageSubresource = color_layers();
  r.imageOffset = {2, 3, 0};
  r.imageExtent = {3, 2, 1};
  ASSERT_TRUE(buffer_image_copy_in_bounds(buf.buffer, img.image, r));
  copy_buffer_image(buf.buffer, img.image, r, CopyDirection::BufferToImage);
  auto at = [&](int x, int y) { return img.storage[y * 8 + x]; };
  EXPECT_EQ(at(2, 3), 1);
  EXPECT_EQ(at(4, 3), 3);
  EXPECT_EQ(at(2, 4), 11);
  EXPECT_EQ(at(4, 4), 13);
  EXPECT_EQ(at(5, 3), 0xCD);  // untouched outside the region
  EXPECT_EQ(at(1, 3), 0xCD);
}

TEST(Transfer, ImageToBufferReadsTheRightMipAndLayer) {
  TestImage img(VK_FORMAT_R32_UINT, {4, 4, 1}, 2, 3);
  SubresourceAddress a = img.image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 1, 2);
  uint32_t values[4] = {7, 8, 9, 10};
  memcpy(img.storage.data() + a.offset, values, sizeof values);  // 2x2 level 1, layer 2
  TestBuffer buf(16);
  VkBufferImageCopy2 r{VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2};
  r.imageSubresource = color_layers(1, 2);
  r.imageExtent = {2, 2, 1};
  copy_buffer_image(buf.buffer, img.image, r, CopyDirection::ImageToBuffer);
  EXPECT_EQ(0, memcmp(buf.storage.data(), values, sizeof values));
}

TEST(Transfer, PartsTogetherDoTheWholeCopyOrClear) {
  TestImage whole(VK_FORMAT_R16G16_UINT, {7, 5, 1}, 2, 3), split(VK_FORMAT_R16G16_UINT, {7, 5, 1}, 2, 3);
  TestBuffer buf(7 * 5 * 3 * 4);
  std::iota(buf.storage.begin(), buf.storage.end(), 0);
  VkBufferImageCopy2 r{VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2};
  r.imageSubresource = color_layers(0, 0, 3);
  r.imageExtent = {7, 5, 1};
  copy_buffer_image(buf.buffer, whole.image, r, CopyDirection::BufferToImage);
  for (uint32_t i = 0; i < 4; ++i) copy_buffer_image(buf.buffer, split.image, r, CopyDirection::BufferToImage, {i, 4});
  EXPECT_EQ(whole.storage, split.storage);
  // The copy happened at all: the last texel of the last layer holds the buffer's last bytes.
  const SubresourceAddress copied = split.image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, 2);
  EXPECT_EQ(0, memcmp(split.storage.data() + copied.offset + copied.size - 4, buf.storage.data() + buf.storage.size() - 4, 4));

  VkClearColorValue c{};
  c.uint32[0] = 0x1234;
  c.uint32[1] = 0xBEEF;
  const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 0, 3};
  ASSERT_TRUE(clear_color_image(whole.image, c, all));
  for (uint32_t i = 0; i < 5; ++i) ASSERT_TRUE(clear_color_image(split.image, c, all, {i, 5}));
  EXPECT_EQ(whole.storage, split.storage);
  SubresourceAddress last = whole.image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 1, 2);
  uint16_t texel[2];
  memcpy(texel, whole.storage.data() + last.offset + last.size - 4, 4);
  EXPECT_EQ(texel[0], 0x1234);
  EXPECT_EQ(texel[1], 0xBEEF);

  TestBuffer a(1000, 1), b(1000, 1);
  fill_buffer(a.buffer, 8, 900, 0xA0B0C0D0u);
  for (uint32_t i = 0; i < 3; ++i) fill_buffer(b.buffer, 8, 900, 0xA0B0C0D0u, {i, 3});
  EXPECT_EQ(a.storage, b.storage);
  // The fill happened at all, in its range only.
  uint32_t first_word = 0, last_word = 0;
  memcpy(&first_word, b.storage.data() + 8, 4);
  memcpy(&last_word, b.storage.data() + 904, 4);
  EXPECT_EQ(first_word, 0xA0B0C0D0u);
  EXPECT_EQ(last_word, 0xA0B0C0D0u);
  EXPECT_EQ(b.storage[7], 1);
  EXPECT_EQ(b.storage[908], 1);
}

TEST(Transfer, OutOfBoundsRegionsAreDetected) {
  TestImage img(VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1});
  TestBuffer small(63);
  VkBufferImageCopy2 r{VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2};
  r.imageSubresource = color_layers();
  r.imageExtent = {4, 4, 1};
  EXPECT_FALSE(buffer_image_copy_in_bounds(small.buffer, img.image, r));  // needs 64 bytes
  TestBuffer enough(64);
  EXPECT_TRUE(buffer_image_copy_in_bounds(enough.buffer, img.image, r));
  r.imageOffset = {1, 0, 0};
  EXPECT_FALSE(buffer_image_copy_in_bounds(enough.buffer, img.image, r));  // runs past the image
  r.imageOffset = {0, 0, 0};
  r.imageSubresource.mipLevel = 1;
  EXPECT_FALSE(buffer_image_copy_in_bounds(enough.buffer, img.image, r));  // no such mip

  VkBufferCopy2 c{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 60, 0, 8};
  EXPECT_FALSE(buffer_copy_in_bounds(enough.buffer, small.buffer, c));
  c.srcOffset = 56;
  EXPECT_TRUE(buffer_copy_in_bounds(enough.buffer, small.buffer, c));
}

TEST(Transfer, CopyImageBetweenArrayLayersAnd3DSlices) {
  TestImage array(VK_FORMAT_R8_UINT, {2, 2, 1}, 1, 3);
  for (uint32_t layer = 0; layer < 3; ++layer) {
    SubresourceAddress a = array.image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, layer);
    memset(array.storage.data() + a.offset, 10 + layer, a.size);
  }
  TestImage volume(VK_FORMAT_R8_UINT, {2, 2, 3}, 1, 1, VK_IMAGE_TYPE_3D);
  VkImageCopy2 r{VK_STRUCTURE_TYPE_IMAGE_COPY_2};
  r.srcSubresource = color_layers(0, 0, 3);
  r.dstSubresource = color_layers(0, 0, 1);
  r.extent = {2, 2, 3};
  ASSERT_TRUE(image_copy_in_bounds(array.image, volume.image, r));
  copy_image(array.image, volume.image, r);
  for (uint32_t z = 0; z < 3; ++z)
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(volume.storage[z * 4 + i], 10 + z) << "slice " << z;
}

TEST(Transfer, ClearColorPacksOnceAndFillsTheRange) {
  TestImage img(VK_FORMAT_R8G8B8A8_UNORM, {3, 2, 1}, 2, 2);
  VkClearColorValue red{};
  red.float32[0] = 1.0f;
  red.float32[3] = 0.5f;
  ASSERT_TRUE(clear_color_image(img.image, red, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1, 1}));
  SubresourceAddress cleared = img.image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, 1);
  for (uint32_t t = 0; t < 6; ++t) {
    const uint8_t* p = img.storage.data() + cleared.offset + t * 4;
    EXPECT_EQ(p[0], 255);
    EXPECT_EQ(p[1], 0);
    EXPECT_EQ(p[2], 0);
    EXPECT_EQ(p[3], 128);
  }
  SubresourceAddress other = img.image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  EXPECT_EQ(img.storage[other.offset], 0xCD);
  SubresourceAddress mip1 = img.image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 1, 1);
  EXPECT_EQ(img.storage[mip1.offset], 0xCD);
}

TEST(Transfer, ClearDepthStencilWritesEachPlane) {
  TestImage img(VK_FORMAT_D24_UNORM_S8_UINT, {2, 2, 1});
  ASSERT_TRUE(clear_depth_stencil_image(img.image, {1.0f, 0x5A},
                                        {VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, 1}));
  SubresourceAddress d = img.image.layout.address(VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0);
  SubresourceAddress s = img.image.layout.address(VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0);
  uint32_t depth;
  memcpy(&depth, img.storage.data() + d.offset + 12, 4);
  EXPECT_EQ(depth & 0xFFFFFF, 0xFFFFFFu);
  EXPECT_EQ(img.storage[s.offset + 3], 0x5A);
}


// memory/blit.cpp's fast path for 8-bit four-channel UNORM 2D images against its general path: the
// same blit between 3D images of depth 1 (which the fast path leaves to the general code) must give
// the same bytes — scaling down and up, mirrored, nearest and linear, split into parts.
TEST(Transfer, BlitFastPathEqualsTheGeneralPath) {
  std::mt19937 rng(8);
  int compared = 0;
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM}) {
    TestImage src2d(format, {37, 23, 1}), src3d(format, {37, 23, 1}, 1, 1, VK_IMAGE_TYPE_3D);
    for (size_t i = 0; i < src2d.storage.size(); ++i) src2d.storage[i] = src3d.storage[i] = uint8_t(rng());
    struct Case {
      VkOffset3D src[2], dst[2];
    };
    const Case cases[] = {
        {{{0, 0, 0}, {37, 23, 1}}, {{0, 0, 0}, {20, 31, 1}}},  // down in x, up in y
        {{{3, 2, 0}, {30, 21, 1}}, {{19, 30, 0}, {1, 2, 1}}},  // mirrored both ways
        {{{36, 0, 0}, {0, 23, 1}}, {{0, 0, 0}, {20, 13, 1}}},  // source mirrored in x
    };
    for (const Case& c : cases)
      for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR}) {
        TestImage dst2d(format, {20, 31, 1}), dst3d(format, {20, 31, 1}, 1, 1, VK_IMAGE_TYPE_3D);
        VkImageBlit2 r{VK_STRUCTURE_TYPE_IMAGE_BLIT_2};
        r.srcSubresource = r.dstSubresource = color_layers();
        std::memcpy(r.srcOffsets, c.src, sizeof(c.src));
        std::memcpy(r.dstOffsets, c.dst, sizeof(c.dst));
        ASSERT_TRUE(blit_region_valid(src2d.image, dst2d.image, r, filter));
        for (uint32_t part = 0; part < 3; ++part) {
          blit_image(src2d.image, dst2d.image, r, filter, {part, 3});
          blit_image(src3d.image, dst3d.image, r, filter, {part, 3});
        }
        ASSERT_EQ(dst2d.storage, dst3d.storage) << "format " << format << " filter " << filter << " case " << compared;
        // The blit wrote something: the 0xCD fill is gone from the destination rectangle's first texel.
        const int32_t x = std::min(c.dst[0].x, c.dst[1].x), y = std::min(c.dst[0].y, c.dst[1].y);
        uint32_t texel;
        std::memcpy(&texel, &dst2d.storage[(size_t(y) * 20 + x) * 4], 4);
        EXPECT_NE(texel, 0xCDCDCDCDu);
        ++compared;
      }
  }
  EXPECT_EQ(compared, 2 * 3 * 2);
}

}  // namespace
}  // namespace kiln::mem
