// memory/attachment_ops (load-op clears, vkCmdClearAttachments, resolves) against hand-computed
// texels. Multisampled images cannot be created through the API yet, so resolves are tested here.
#include "memory/attachment_ops.h"

#include "memory/format_pack.h"
#include "memory/format_table.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace kiln::mem {
namespace {

struct TestImage {
  Image image;
  std::vector<uint8_t> storage;
  ImageView view;
  TestImage(VkFormat format, uint32_t w, uint32_t h, uint32_t layers, VkSampleCountFlagBits samples,
            VkImageAspectFlags aspects = VK_IMAGE_ASPECT_COLOR_BIT) {
    image.desc.format = format;
    image.desc.extent = {w, h, 1};
    image.desc.array_layers = layers;
    image.desc.samples = samples;
    EXPECT_TRUE(image.layout.init(image.desc));
    storage.assign(image.layout.total_size(), 0);
    image.data = storage.data();
    view.image = &image;
    view.format = format;
    view.type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    view.range = {aspects, 0, 1, 0, layers};
  }
  uint8_t* texel(VkImageAspectFlagBits aspect, uint32_t layer, uint32_t x, uint32_t y, uint32_t sample = 0) {
    const SubresourceAddress a = image.layout.address(aspect, 0, layer);
    return image.data + a.offset + y * a.row_pitch + x * a.texel_bytes + sample * (a.texel_bytes / image.desc.samples);
  }
};

TEST(AttachmentOps, ClearRectWritesOnlyTheRectOfTheChosenLayers) {
  TestImage t(VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 3, VK_SAMPLE_COUNT_1_BIT);
  VkClearValue v{};
  v.color = {{1.0f, 0.0f, 0.5f, 1.0f}};
  ASSERT_TRUE(clear_view_rect(t.view, VK_IMAGE_ASPECT_COLOR_BIT, v, {{1, 1}, {2, 5}}, {1, 1, 0}));
  for (uint32_t layer = 0; layer < 3; ++layer)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 4; ++x) {
        const bool in = layer == 1 && x >= 1 && x < 3 && y >= 1;  // the rect is clipped at the bottom
        const uint8_t want[4] = {uint8_t(in ? 255 : 0), 0, uint8_t(in ? 128 : 0), uint8_t(in ? 255 : 0)};
        EXPECT_EQ(0, memcmp(t.texel(VK_IMAGE_ASPECT_COLOR_BIT, layer, x, y), want, 4)) << layer << " " << x << "," << y;
      }
}

TEST(AttachmentOps, MultiviewClearsTheMaskedLayersAndEverySample) {
  TestImage t(VK_FORMAT_R32_UINT, 2, 2, 4, VK_SAMPLE_COUNT_4_BIT);
  VkClearValue v{};
  v.color.uint32[0] = 0xABCD1234u;
  ASSERT_TRUE(clear_view_rect(t.view, VK_IMAGE_ASPECT_COLOR_BIT, v, {{0, 0}, {2, 2}}, {0, 0, 0b1010}));
  for (uint32_t layer = 0; layer < 4; ++layer)
    for (uint32_t s = 0; s < 4; ++s) {
      uint32_t got;
      memcpy(&got, t.texel(VK_IMAGE_ASPECT_COLOR_BIT, layer, 1, 1, s), 4);
      EXPECT_EQ(got, (layer == 1 || layer == 3) ? 0xABCD1234u : 0u) << layer << " sample " << s;
    }
}

TEST(AttachmentOps, DepthStencilClearHonoursTheAspects) {
  TestImage t(VK_FORMAT_D32_SFLOAT_S8_UINT, 2, 2, 1, VK_SAMPLE_COUNT_1_BIT,
              VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
  VkClearValue v{};
  v.depthStencil = {0.5f, 9};
  ASSERT_TRUE(clear_view_rect(t.view, VK_IMAGE_ASPECT_STENCIL_BIT, v, {{0, 0}, {2, 2}}, {0, 1, 0}));
  float depth;
  memcpy(&depth, t.texel(VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0), 4);
  EXPECT_EQ(depth, 0.0f);
  EXPECT_EQ(*t.texel(VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0), 9);
}

TEST(AttachmentOps, ColourResolveAveragesFloatsAndTakesSampleZeroOfIntegers) {
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 2, 1, 1, VK_SAMPLE_COUNT_4_BIT);
  TestImage dst(VK_FORMAT_R8G8B8A8_UNORM, 2, 1, 1, VK_SAMPLE_COUNT_1_BIT);
  const uint8_t samples[4][4] = {{0, 255, 10, 255}, {255, 255, 20, 255}, {0, 0, 30, 255}, {255, 0, 40, 255}};
  for (uint32_t s = 0; s < 4; ++s) memcpy(src.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, s), samples[s], 4);
  EXPECT_EQ(color_resolve_mode(VK_FORMAT_R8G8B8A8_UNORM), VK_RESOLVE_MODE_AVERAGE_BIT);
  ASSERT_TRUE(resolve_view_rect(src.view, dst.view, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_AVERAGE_BIT,
                                {{1, 0}, {1, 1}}, {0, 1, 0}));
  const uint8_t want[4] = {128, 128, 25, 255};  // (0+255+0+255)/4 = 127.5 -> 128
  EXPECT_EQ(0, memcmp(dst.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0), want, 4));
  const uint8_t untouched[4] = {0, 0, 0, 0};
  EXPECT_EQ(0, memcmp(dst.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 0), untouched, 4));

  TestImage isrc(VK_FORMAT_R32_SINT, 1, 1, 1, VK_SAMPLE_COUNT_4_BIT);
  TestImage idst(VK_FORMAT_R32_SINT, 1, 1, 1, VK_SAMPLE_COUNT_1_BIT);
  const int32_t values[4] = {-7, 100, 3, 4};
  memcpy(isrc.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 0), values, 16);
  EXPECT_EQ(color_resolve_mode(VK_FORMAT_R32_SINT), VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
  ASSERT_TRUE(resolve_view_rect(isrc.view, idst.view, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_AVERAGE_BIT,
                                {{0, 0}, {1, 1}}, {0, 1, 0}));
  int32_t got;
  memcpy(&got, idst.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 0), 4);
  EXPECT_EQ(got, -7);
  ASSERT_TRUE(resolve_view_rect(isrc.view, idst.view, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_MAX_BIT,
                                {{0, 0}, {1, 1}}, {0, 1, 0}));
  memcpy(&got, idst.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 0), 4);
  EXPECT_EQ(got, 100);
}

TEST(AttachmentOps, DepthResolveModes) {
  const VkImageAspectFlags ds = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
  TestImage src(VK_FORMAT_D32_SFLOAT_S8_UINT, 1, 1, 1, VK_SAMPLE_COUNT_4_BIT, ds);
  TestImage dst(VK_FORMAT_D32_SFLOAT_S8_UINT, 1, 1, 1, VK_SAMPLE_COUNT_1_BIT, ds);
  const float depths[4] = {0.5f, 0.25f, 1.0f, 0.75f};
  memcpy(src.texel(VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 0), depths, 16);
  const uint8_t stencils[4] = {4, 9, 1, 7};
  memcpy(src.texel(VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 0), stencils, 4);
  float depth;
  const struct {
    VkResolveModeFlagBits mode;
    float depth;
    uint8_t stencil;
  } cases[] = {{VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, 0.5f, 4}, {VK_RESOLVE_MODE_AVERAGE_BIT, 0.625f, 4},
               {VK_RESOLVE_MODE_MIN_BIT, 0.25f, 1}, {VK_RESOLVE_MODE_MAX_BIT, 1.0f, 9}};
  for (const auto& c : cases) {
    ASSERT_TRUE(resolve_view_rect(src.view, dst.view, VK_IMAGE_ASPECT_DEPTH_BIT, c.mode, {{0, 0}, {1, 1}}, {0, 1, 0}));
    memcpy(&depth, dst.texel(VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 0), 4);
    EXPECT_EQ(depth, c.depth) << c.mode;
    // Stencil has no AVERAGE; a request for it takes sample 0.
    ASSERT_TRUE(resolve_view_rect(src.view, dst.view, VK_IMAGE_ASPECT_STENCIL_BIT, c.mode, {{0, 0}, {1, 1}}, {0, 1, 0}));
    EXPECT_EQ(*dst.texel(VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 0), c.stencil) << c.mode;
  }
}

// The byte-wise AVERAGE resolve of 8-bit UNORM formats and the copy of texels whose samples agree
// against the reference arithmetic (unpack_color, float sum in sample order, divide, pack_color),
// over pseudo-random texels with 2, 4 and 8 samples (every fourth texel has equal samples).
TEST(AttachmentOps, Unorm8AverageResolveMatchesTheReferenceArithmetic) {
  constexpr uint32_t kWidth = 64, kHeight = 16;
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                          VK_FORMAT_R16G16B16A16_SFLOAT}) {
    for (VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_2_BIT, VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_8_BIT}) {
      TestImage src(format, kWidth, kHeight, 1, samples);
      TestImage dst(format, kWidth, kHeight, 1, VK_SAMPLE_COUNT_1_BIT);
      const uint32_t sample_bytes = fmt::aspect_texel_bytes(format, VK_IMAGE_ASPECT_COLOR_BIT);
      uint32_t state = 12345u + samples;
      auto next_byte = [&] { return uint8_t((state = state * 1664525u + 1013904223u) >> 24); };
      for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
          const bool agree = (x + y) % 4 == 0;
          for (uint32_t s = 0; s < uint32_t(samples); ++s)
            for (uint32_t b = 0; b < sample_bytes; ++b) {
              uint8_t* texel = src.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, x, y, s);
              // Half floats: keep the exponent small so every value is finite.
              const uint8_t v = next_byte();
              texel[b] = agree && s > 0 ? src.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, x, y, 0)[b]
                         : format == VK_FORMAT_R16G16B16A16_SFLOAT && b % 2 == 1 ? uint8_t(v & 0x3B) : v;
            }
        }
      ASSERT_TRUE(resolve_view_rect(src.view, dst.view, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_AVERAGE_BIT,
                                    {{0, 0}, {kWidth, kHeight}}, {0, 1, 0}));
      for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
          VkClearColorValue sum{}, v{};
          fmt::unpack_color(format, src.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, x, y, 0), &sum);
          for (uint32_t s = 1; s < uint32_t(samples); ++s) {
            fmt::unpack_color(format, src.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, x, y, s), &v);
            for (int c = 0; c < 4; ++c) sum.float32[c] += v.float32[c];
          }
          for (int c = 0; c < 4; ++c) sum.float32[c] /= float(samples);
          uint8_t want[16] = {};
          fmt::pack_color(format, sum, want);
          ASSERT_EQ(0, memcmp(dst.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, x, y), want, sample_bytes))
              << fmt::format_info(format)->name << " samples " << samples << " at " << x << "," << y;
        }
    }
  }
}

}  // namespace
}  // namespace kiln::mem
