// vkCmdBlitImage / vkCmdBlitImage2 against a host reference written from the spec's "Image Copies
// With Scaling" rules: destination texel centres mapped into the source region, sampled with
// unnormalized coordinates and CLAMP_TO_EDGE, NEAREST or LINEAR, with format conversion (UNORM,
// sRGB linearised and re-encoded, float16, integers), flips by reversed offsets and 3D images.
// The same tests run on lavapipe (KILN_TEST_DRIVER=lavapipe), which checks the reference.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

using BlitTest = VulkanTest;
using Rgba = std::array<float, 4>;

constexpr VkImageLayout kSrcLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
constexpr VkImageLayout kDstLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;

float srgb_to_linear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }
float linear_to_srgb(float l) {
  l = std::clamp(l, 0.0f, 1.0f);
  return l <= 0.0031308f ? l * 12.92f : 1.055f * std::pow(l, 1 / 2.4f) - 0.055f;
}

float half_to_float(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const float v = e == 0 ? std::ldexp(float(m), -24) : std::ldexp(float(m | 1024), e - 25);
  return (h & 0x8000) ? -v : v;
}

// A host copy of one 2D/3D subresource of RGBA8 texels.
struct HostRgba8 {
  VkExtent3D extent;
  std::vector<uint8_t> bytes;
  const uint8_t* at(int x, int y, int z) const {
    return &bytes[((size_t(z) * extent.height + y) * extent.width + x) * 4];
  }
};

HostRgba8 pattern(VkExtent3D extent, uint32_t seed) {
  HostRgba8 image{extent, std::vector<uint8_t>(size_t(extent.width) * extent.height * extent.depth * 4)};
  for (size_t i = 0; i < image.bytes.size(); ++i) image.bytes[i] = static_cast<uint8_t>((i * 97 + seed * 31 + (i >> 5) * 13) & 0xFF);
  return image;
}

// Source value at texel (x, y, z), clamped to the image (CLAMP_TO_EDGE), as floats.
Rgba fetch(const HostRgba8& src, bool srgb, int x, int y, int z) {
  x = std::clamp<int>(x, 0, src.extent.width - 1);
  y = std::clamp<int>(y, 0, src.extent.height - 1);
  z = std::clamp<int>(z, 0, src.extent.depth - 1);
  Rgba v;
  for (int c = 0; c < 4; ++c) {
    v[c] = src.at(x, y, z)[c] / 255.0f;
    if (srgb && c < 3) v[c] = srgb_to_linear(v[c]);
  }
  return v;
}

// The spec's mapping of destination texel (x, y, z) into the source and the filtered value there.
// `nudge` moves the sample position by a hair: a NEAREST sample exactly on a texel edge may
// legitimately pick either neighbour, so the check accepts both (see check_case).
Rgba reference(const HostRgba8& src, bool srgb, const VkImageBlit& r, VkFilter filter, int x, int y, int z, bool is_3d,
               double nudge_u = 0, double nudge_v = 0) {
  auto map = [](int d, int32_t s0, int32_t s1, int32_t d0, int32_t d1) {
    return s0 + (d + 0.5 - d0) * double(s1 - s0) / double(d1 - d0);
  };
  const double u = map(x, r.srcOffsets[0].x, r.srcOffsets[1].x, r.dstOffsets[0].x, r.dstOffsets[1].x) + nudge_u;
  const double v = map(y, r.srcOffsets[0].y, r.srcOffsets[1].y, r.dstOffsets[0].y, r.dstOffsets[1].y) + nudge_v;
  const double w = map(z, r.srcOffsets[0].z, r.srcOffsets[1].z, r.dstOffsets[0].z, r.dstOffsets[1].z);
  if (filter == VK_FILTER_NEAREST)
    return fetch(src, srgb, int(std::floor(u)), int(std::floor(v)), int(std::floor(w)));
  const int i0 = int(std::floor(u - 0.5)), j0 = int(std::floor(v - 0.5)), k0 = is_3d ? int(std::floor(w - 0.5)) : int(w);
  const double a = u - 0.5 - i0, b = v - 0.5 - j0, c = is_3d ? w - 0.5 - k0 : 0.0;
  Rgba out{};
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        const double weight = (i ? a : 1 - a) * (j ? b : 1 - b) * (k ? c : 1 - c);
        if (weight == 0) continue;
        const Rgba t = fetch(src, srgb, i0 + i, j0 + j, k0 + k);
        for (int ch = 0; ch < 4; ++ch) out[ch] += float(weight * t[ch]);
      }
  return out;
}

Image upload_rgba8(TestDevice& device, VkImageType type, VkFormat format, const HostRgba8& host) {
  Image image = device.create_image(type, format, host.extent);
  Buffer staging = device.create_buffer(host.bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::memcpy(staging.mapped, host.bytes.data(), host.bytes.size());
  device.run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, kDstLayout);
    VkBufferImageCopy region{};
    region.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    region.imageExtent = host.extent;
    vkCmdCopyBufferToImage(cmd, staging.buffer, image.image, kDstLayout, 1, &region);
    transition(cmd, image.image, VK_IMAGE_ASPECT_COLOR_BIT, kDstLayout, kSrcLayout);
  });
  return image;
}

// Blits `region` from `src` into a cleared destination image and returns the destination bytes.
std::vector<uint8_t> blit(TestDevice& device, const Image& src, const Image& dst, const VkImageBlit& region,
                          VkFilter filter, bool use_blit2) {
  device.run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, dst.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, kDstLayout);
    VkClearColorValue zero{};
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, dst.image, kDstLayout, &zero, 1, &range);
    full_barrier(cmd);
    if (use_blit2) {
      VkImageBlit2 r2{.sType = VK_STRUCTURE_TYPE_IMAGE_BLIT_2};
      r2.srcSubresource = region.srcSubresource, r2.dstSubresource = region.dstSubresource;
      std::copy_n(region.srcOffsets, 2, r2.srcOffsets);
      std::copy_n(region.dstOffsets, 2, r2.dstOffsets);
      VkBlitImageInfo2 info{.sType = VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2};
      info.srcImage = src.image, info.srcImageLayout = kSrcLayout;
      info.dstImage = dst.image, info.dstImageLayout = kDstLayout;
      info.regionCount = 1, info.pRegions = &r2, info.filter = filter;
      vkCmdBlitImage2(cmd, &info);
    } else {
      vkCmdBlitImage(cmd, src.image, kSrcLayout, dst.image, kDstLayout, 1, &region, filter);
    }
    transition(cmd, dst.image, VK_IMAGE_ASPECT_COLOR_BIT, kDstLayout, kSrcLayout);
  });
  return device.read_image(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kSrcLayout);
}

bool blit_supported(VkPhysicalDevice pd, VkFormat src, VkFormat dst, VkFilter filter) {
  VkFormatProperties s, d;
  vkGetPhysicalDeviceFormatProperties(pd, src, &s);
  vkGetPhysicalDeviceFormatProperties(pd, dst, &d);
  const bool linear_ok = filter == VK_FILTER_NEAREST || (s.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
  return (s.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT) &&
         (d.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT) && linear_ok;
}

VkImageBlit region_2d(VkOffset3D s0, VkOffset3D s1, VkOffset3D d0, VkOffset3D d1) {
  VkImageBlit r{};
  r.srcSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
  r.dstSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
  r.srcOffsets[0] = s0, r.srcOffsets[1] = s1, r.dstOffsets[0] = d0, r.dstOffsets[1] = d1;
  return r;
}

struct Case {
  const char* name;
  VkFormat src_format, dst_format;
  VkFilter filter;
  VkImageBlit region;
};

// Compares every destination texel: inside the region the reference (tolerance: one 8-bit code
// for UNORM destinations, plus the spec's filtering precision), outside it the cleared zero.
void check_case(TestDevice& device, VkPhysicalDevice pd, const Case& c, bool use_blit2) {
  SCOPED_TRACE(c.name);
  if (!blit_supported(pd, c.src_format, c.dst_format, c.filter)) GTEST_FAIL() << "blit not supported";
  const VkExtent3D src_extent{12, 10, 1}, dst_extent{20, 9, 1};
  const HostRgba8 host = pattern(src_extent, 7);
  const Image src = upload_rgba8(device, VK_IMAGE_TYPE_2D, c.src_format, host);
  const Image dst = device.create_image(VK_IMAGE_TYPE_2D, c.dst_format, dst_extent);
  const std::vector<uint8_t> out = blit(device, src, dst, c.region, c.filter, use_blit2);
  const bool src_srgb = c.src_format == VK_FORMAT_R8G8B8A8_SRGB;
  const int x0 = std::min(c.region.dstOffsets[0].x, c.region.dstOffsets[1].x), x1 = std::max(c.region.dstOffsets[0].x, c.region.dstOffsets[1].x);
  const int y0 = std::min(c.region.dstOffsets[0].y, c.region.dstOffsets[1].y), y1 = std::max(c.region.dstOffsets[0].y, c.region.dstOffsets[1].y);
  int failures = 0;
  for (uint32_t y = 0; y < dst_extent.height; ++y) {
    for (uint32_t x = 0; x < dst_extent.width; ++x) {
      const bool inside = int(x) >= x0 && int(x) < x1 && int(y) >= y0 && int(y) < y1;
      // Candidate expectations: the exact reference, plus (for NEAREST) the neighbours a sample
      // lying exactly on a texel edge may choose.
      std::vector<Rgba> candidates;
      for (double du : {0.0, -1e-6, 1e-6})
        for (double dv : {0.0, -1e-6, 1e-6}) {
          if (c.filter == VK_FILTER_LINEAR && (du != 0 || dv != 0)) continue;
          candidates.push_back(inside ? reference(host, src_srgb, c.region, c.filter, x, y, 0, false, du, dv) : Rgba{});
        }
      bool matched = false;
      Rgba actual{};
      for (const Rgba& expected : candidates) {
        bool all = true;
        for (int ch = 0; ch < 4; ++ch) {
          float want = expected[ch], tolerance;
          if (c.dst_format == VK_FORMAT_R16G16B16A16_SFLOAT) {
            uint16_t h;
            std::memcpy(&h, &out[(size_t(y) * dst_extent.width + x) * 8 + ch * 2], 2);
            actual[ch] = half_to_float(h);
            tolerance = 1.5f / 1024 + (c.filter == VK_FILTER_LINEAR ? 1.0f / 255 : 0.0f);
          } else {
            actual[ch] = out[(size_t(y) * dst_extent.width + x) * 4 + ch] / 255.0f;
            if (c.dst_format == VK_FORMAT_R8G8B8A8_SRGB && ch < 3) want = linear_to_srgb(want);
            tolerance = 1.01f / 255 + (c.filter == VK_FILTER_LINEAR ? 1.0f / 255 : 0.0f);
          }
          all = all && std::fabs(actual[ch] - want) <= tolerance;
        }
        matched = matched || all;
      }
      if (!matched && failures++ < 8)
        ADD_FAILURE() << "texel (" << x << ", " << y << "): (" << actual[0] << ", " << actual[1] << ", " << actual[2]
                      << ", " << actual[3] << ") matches no reference candidate";
    }
  }
}

TEST_F(BlitTest, ScalingFlipsAndConversionsMatchTheReference) {
  const Case cases[] = {
      {"1:1 nearest", VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_NEAREST,
       region_2d({0, 0, 0}, {12, 9, 1}, {0, 0, 0}, {12, 9, 1})},
      {"magnify nearest", VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_NEAREST,
       region_2d({2, 1, 0}, {9, 8, 1}, {1, 0, 0}, {19, 9, 1})},
      {"magnify linear", VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_LINEAR,
       region_2d({2, 1, 0}, {9, 8, 1}, {1, 0, 0}, {19, 9, 1})},
      {"minify linear", VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_LINEAR,
       region_2d({0, 0, 0}, {12, 10, 1}, {3, 2, 0}, {8, 6, 1})},
      {"flip x and y", VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_NEAREST,
       region_2d({0, 0, 0}, {12, 10, 1}, {17, 9, 0}, {2, 0, 1})},
      {"flip source, linear", VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_LINEAR,
       region_2d({12, 0, 0}, {0, 10, 1}, {0, 0, 0}, {20, 9, 1})},
      {"sRGB -> UNORM linearises", VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_LINEAR,
       region_2d({0, 0, 0}, {12, 10, 1}, {0, 0, 0}, {20, 9, 1})},
      {"UNORM -> sRGB encodes", VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FILTER_NEAREST,
       region_2d({0, 0, 0}, {12, 10, 1}, {0, 0, 0}, {20, 9, 1})},
      {"UNORM -> float16", VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FILTER_LINEAR,
       region_2d({1, 1, 0}, {11, 9, 1}, {0, 0, 0}, {20, 9, 1})},
  };
  for (const Case& c : cases) check_case(device(), physical_device(), c, false);
  check_case(device(), physical_device(), cases[2], true);  // vkCmdBlitImage2
  check_case(device(), physical_device(), cases[4], true);
}

TEST_F(BlitTest, IntegerFormatsCopyValuesWithNearest) {
  // R8G8B8A8_UINT -> R16G16B16A16_UINT, scaled by 2 in x: every destination texel is its source
  // texel's integers.
  const VkExtent3D extent{6, 4, 1};
  const HostRgba8 host = pattern(extent, 3);
  const Image src = upload_rgba8(device(), VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UINT, host);
  const Image dst = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R16G16B16A16_UINT, {12, 4, 1});
  const std::vector<uint8_t> out =
      blit(device(), src, dst, region_2d({0, 0, 0}, {6, 4, 1}, {0, 0, 0}, {12, 4, 1}), VK_FILTER_NEAREST, false);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 12; ++x)
      for (int ch = 0; ch < 4; ++ch) {
        uint16_t v;
        std::memcpy(&v, &out[(y * 12 + x) * 8 + ch * 2], 2);
        ASSERT_EQ(v, host.at(x / 2, y, 0)[ch]) << x << "," << y << " ch " << ch;
      }
}

TEST_F(BlitTest, ThreeDimensionalLinearMinification) {
  // 4x4x4 -> 2x2x2 with LINEAR: each destination texel centre falls on the corner shared by eight
  // source texels, so it is their average.
  const VkExtent3D extent{4, 4, 4};
  const HostRgba8 host = pattern(extent, 11);
  const Image src = upload_rgba8(device(), VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, host);
  const Image dst = device().create_image(VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {2, 2, 2});
  VkImageBlit region = region_2d({0, 0, 0}, {4, 4, 4}, {0, 0, 0}, {2, 2, 2});
  device().run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, dst.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, kDstLayout);
    vkCmdBlitImage(cmd, src.image, kSrcLayout, dst.image, kDstLayout, 1, &region, VK_FILTER_LINEAR);
    transition(cmd, dst.image, VK_IMAGE_ASPECT_COLOR_BIT, kDstLayout, kSrcLayout);
  });
  const std::vector<uint8_t> out = device().read_image(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kSrcLayout);
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x)
        for (int ch = 0; ch < 4; ++ch) {
          float sum = 0;
          for (int k = 0; k < 8; ++k) sum += host.at(2 * x + (k & 1), 2 * y + ((k >> 1) & 1), 2 * z + (k >> 2))[ch];
          EXPECT_NEAR(out[((z * 2 + y) * 2 + x) * 4 + ch], sum / 8, 1.01f) << x << y << z << " ch " << ch;
        }
}

TEST_F(BlitTest, Bc1SourceIsDecoded) {
  // One BC1 block (colour0 red > colour1 blue, codes 0..3 along each row) blitted 1:1 into RGBA8:
  // red, blue, 2/3 red + 1/3 blue, 1/3 red + 2/3 blue.
  if (!blit_supported(physical_device(), VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_NEAREST))
    GTEST_SKIP() << "BC1 blits not supported";
  const uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
  Image src = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_BC1_RGB_UNORM_BLOCK, {4, 4, 1});
  Buffer staging = device().create_buffer(8, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::memcpy(staging.mapped, block, 8);
  device().run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, src.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, kDstLayout);
    VkBufferImageCopy region{};
    region.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    region.imageExtent = {4, 4, 1};
    vkCmdCopyBufferToImage(cmd, staging.buffer, src.image, kDstLayout, 1, &region);
    transition(cmd, src.image, VK_IMAGE_ASPECT_COLOR_BIT, kDstLayout, kSrcLayout);
  });
  const Image dst = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1});
  const std::vector<uint8_t> out =
      blit(device(), src, dst, region_2d({0, 0, 0}, {4, 4, 1}, {0, 0, 0}, {4, 4, 1}), VK_FILTER_NEAREST, false);
  const int expected[4][3] = {{255, 0, 0}, {0, 0, 255}, {170, 0, 85}, {85, 0, 170}};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      for (int ch = 0; ch < 3; ++ch) EXPECT_NEAR(out[(y * 4 + x) * 4 + ch], expected[x][ch], 1) << x << "," << y;
}

}  // namespace
}  // namespace kiln::test
