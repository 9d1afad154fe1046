#include "memory/image_layout.h"

#include <gtest/gtest.h>

namespace kiln::mem {
namespace {

ImageDesc desc2d(VkFormat format, uint32_t w, uint32_t h, uint32_t mips = 1, uint32_t layers = 1) {
  ImageDesc d;
  d.type = VK_IMAGE_TYPE_2D;
  d.format = format;
  d.extent = {w, h, 1};
  d.mip_levels = mips;
  d.array_layers = layers;
  return d;
}

TEST(ImageLayout, MipChainOfRgba8IsTightRowsWithAlignedLevels) {
  ImageLayout layout;
  ASSERT_TRUE(layout.init(desc2d(VK_FORMAT_R8G8B8A8_UNORM, 16, 8, 3, 2)));
  SubresourceAddress m0l0 = layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  EXPECT_EQ(m0l0.offset, 0u);
  EXPECT_EQ(m0l0.row_pitch, 64u);
  EXPECT_EQ(m0l0.layer_pitch, 16u * 8 * 4);
  SubresourceAddress m0l1 = layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, 1);
  EXPECT_EQ(m0l1.offset, 512u);
  SubresourceAddress m1l0 = layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 1, 0);
  EXPECT_EQ(m1l0.offset, 1024u);  // after two 512-byte layers of level 0
  EXPECT_EQ(m1l0.extent.width, 8u);
  EXPECT_EQ(m1l0.extent.height, 4u);
  SubresourceAddress m2l1 = layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 2, 1);
  EXPECT_EQ(m2l1.extent.width, 4u);
  EXPECT_EQ(layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 2, 0).offset % 64, 0u);  // levels start on cache lines
  EXPECT_EQ(m2l1.offset, layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 2, 0).offset + 4 * 2 * 4);
  EXPECT_GE(layout.total_size(), m2l1.offset + m2l1.size);
  EXPECT_EQ(layout.total_size() % 64, 0u);
}

TEST(ImageLayout, DepthStencilAspectsLiveInSeparatePlanes) {
  ImageLayout layout;
  ASSERT_TRUE(layout.init(desc2d(VK_FORMAT_D24_UNORM_S8_UINT, 10, 10)));
  SubresourceAddress depth = layout.address(VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0);
  SubresourceAddress stencil = layout.address(VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0);
  EXPECT_EQ(depth.texel_bytes, 4u);
  EXPECT_EQ(stencil.texel_bytes, 1u);
  EXPECT_EQ(depth.offset, 0u);
  EXPECT_GE(stencil.offset, depth.size);
  EXPECT_EQ(stencil.offset % 64, 0u);
  EXPECT_EQ(stencil.row_pitch, 10u);
}

TEST(ImageLayout, CompressedFormatsAddressBlocks) {
  ImageLayout layout;
  ASSERT_TRUE(layout.init(desc2d(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 10, 6)));
  SubresourceAddress a = layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  EXPECT_EQ(a.extent_blocks.width, 3u);
  EXPECT_EQ(a.extent_blocks.height, 2u);
  EXPECT_EQ(a.row_pitch, 3u * 8);
  EXPECT_EQ(a.size, 3u * 2 * 8);
}

TEST(ImageLayout, ThreeDImagesStackSlices) {
  ImageDesc d = desc2d(VK_FORMAT_R32_SFLOAT, 4, 4);
  d.type = VK_IMAGE_TYPE_3D;
  d.extent.depth = 5;
  ImageLayout layout;
  ASSERT_TRUE(layout.init(d));
  SubresourceAddress a = layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  EXPECT_EQ(a.slice_pitch, 64u);
  EXPECT_EQ(a.size, 5u * 64);
}

TEST(ImageLayout, UnknownFormatIsRejected) {
  ImageLayout layout;
  EXPECT_FALSE(layout.init(desc2d(VK_FORMAT_UNDEFINED, 4, 4)));
}

}  // namespace
}  // namespace kiln::mem
