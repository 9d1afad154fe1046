// Multisampling end to end: multisampled images at 2, 4 and 8 samples rendered into, resolved (by
// the render pass and by vkCmdResolveImage), read per sample with texelFetch on a sampler2DMS,
// cleared, copied, and shaded per sample (SampleId, SamplePosition), against a CPU reference of
// the standard sample locations and the top-left rule.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/descriptor_pipeline.h"
#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/grouped_failures.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 64;  // every target is kSize x kSize

// draw_colored.vert/.frag into a kSize x kSize target with `samples` samples.
DrawJobOptions colored_options(VkSampleCountFlagBits samples) {
  DrawJobOptions o = kiln::test::colored_options();
  o.width = o.height = kSize;
  o.samples = samples;
  return o;
}

// The test triangle in framebuffer pixels: multiples of 1/8 pixel, so they are exact in the 8
// sub-pixel bits of both Kiln and lavapipe, with edges of several slopes.
constexpr double kTriangleX[3] = {4.25, 60.75, 15.5}, kTriangleY[3] = {3.5, 20.125, 61.0};

std::vector<ColoredVertex> triangle(std::array<float, 4> color) {
  std::vector<ColoredVertex> v;
  for (int i = 0; i < 3; ++i)
    v.push_back({float(kTriangleX[i] / (kSize / 2) - 1), float(kTriangleY[i] / (kSize / 2) - 1), 0.5f, color[0],
                 color[1], color[2], color[3]});
  return v;
}

void draw_vertices(DrawJob& job, TestDevice& device, const std::vector<ColoredVertex>& vertices,
                   const VkClearColorValue& clear, const std::function<void(VkCommandBuffer)>& extra = {}) {
  Buffer vb = vertex_buffer(device, vertices);
  job.draw(clear, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
    if (extra) extra(cb);
  });
}

// Vulkan's standard sample locations ("Multisampling"), in 1/16 pixel.
std::vector<std::pair<int, int>> standard_locations(uint32_t samples) {
  switch (samples) {
    case 1: return {{8, 8}};
    case 2: return {{12, 12}, {4, 4}};
    case 4: return {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
    case 8: return {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}};
    default: return {};
  }
}

// Which samples of pixel (px, py) the test triangle covers: exact edge functions in 1/256 pixel,
// with the top-left rule for samples on an edge (y down: a top edge is horizontal with the inside
// below, a left edge has the inside to its right).
uint32_t expected_coverage(uint32_t samples, uint32_t px, uint32_t py) {
  int64_t x[3], y[3];
  for (int i = 0; i < 3; ++i) x[i] = std::llround(kTriangleX[i] * 256), y[i] = std::llround(kTriangleY[i] * 256);
  if ((x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]) < 0) std::swap(x[1], x[2]), std::swap(y[1], y[2]);
  uint32_t mask = 0;
  const auto locations = standard_locations(samples);
  for (uint32_t s = 0; s < locations.size(); ++s) {
    const int64_t sx = int64_t{px} * 256 + locations[s].first * 16, sy = int64_t{py} * 256 + locations[s].second * 16;
    bool inside = true;
    for (int e = 0; e < 3; ++e) {
      const int64_t ax = x[e], ay = y[e], dx = x[(e + 1) % 3] - ax, dy = y[(e + 1) % 3] - ay;
      const int64_t f = dx * (sy - ay) - dy * (sx - ax);
      const bool top_left = (dy == 0 && dx > 0) || dy < 0;
      inside = inside && (f > 0 || (f == 0 && top_left));
    }
    if (inside) mask |= 1u << s;
  }
  return mask;
}

// Every sample of a multisampled image as read by texelFetch in msaa_fetch.comp.
struct FetchedSamples {
  uint32_t width = 0, height = 0, samples = 0;  // what textureSize / textureSamples answered
  std::vector<std::array<float, 4>> texels;     // [(y * width + x) * samples + s]
  const std::array<float, 4>& at(uint32_t x, uint32_t y, uint32_t s) const { return texels[(y * width + x) * samples + s]; }
};

// Reads `image` (kSize x kSize, `samples` samples, currently in `layout`) through a compute shader;
// the image is left in SHADER_READ_ONLY_OPTIMAL.
FetchedSamples fetch_samples(TestDevice& device, VkImage image, VkImageView view, VkImageLayout layout, uint32_t samples) {
  VkDevice d = device.handle();
  const VkDescriptorSetLayoutBinding bindings[2] = {compute_binding(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1),
                                                    compute_binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)};
  VkDescriptorSetLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  layout_info.bindingCount = 2;
  layout_info.pBindings = bindings;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkCreateDescriptorSetLayout(d, &layout_info, nullptr, &set_layout));
  const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 2;
  pool_info.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkCreateDescriptorPool(d, &pool_info, nullptr, &pool));
  VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkSampler sampler = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkCreateSampler(d, &sampler_info, nullptr, &sampler));
  device.defer_destroy([=] {
    vkDestroySampler(d, sampler, nullptr);
    vkDestroyDescriptorPool(d, pool, nullptr);
    vkDestroyDescriptorSetLayout(d, set_layout, nullptr);
  });
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  EXPECT_EQ(VK_SUCCESS, vkAllocateDescriptorSets(d, &alloc, &set));

  const VkDeviceSize bytes = 16 + VkDeviceSize{kSize} * kSize * samples * 16;
  Buffer result = device.create_buffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  const VkDescriptorImageInfo image_info{sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = &image_info;
  vkUpdateDescriptorSets(d, 1, &write, 0, nullptr);
  write_buffers(d, set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{result.buffer, 0, VK_WHOLE_SIZE}});

  SetsPipeline pipeline(device, "msaa_fetch.comp", {set_layout});
  device.run_commands([&](VkCommandBuffer cb) {
    transition(cb, image, VK_IMAGE_ASPECT_COLOR_BIT, layout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    pipeline.record_dispatch(cb, {set}, (kSize * kSize + 63) / 64);
    shader_writes_to_host_barrier(cb);
  });
  FetchedSamples out;
  const uint32_t* info = mapped_as<uint32_t>(result);
  out.width = info[0], out.height = info[1], out.samples = info[2];
  out.texels.resize(size_t{kSize} * kSize * samples);
  std::memcpy(out.texels.data(), mapped_as<uint8_t>(result) + 16, out.texels.size() * 16);
  out.width = std::min(out.width, kSize), out.height = std::min(out.height, kSize);
  out.samples = out.samples == samples ? samples : 0;  // a wrong count is reported by the caller's check
  return out;
}

class MsaaTest : public VulkanTest {
 protected:
  // Whether the device can make kSize x kSize multisampled images of `format` with `usage`.
  bool supports(VkFormat format, VkImageUsageFlags usage, VkSampleCountFlagBits samples) {
    VkImageFormatProperties p{};
    if (vkGetPhysicalDeviceImageFormatProperties(physical_device(), format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                 usage, 0, &p) != VK_SUCCESS)
      return false;
    return (p.sampleCounts & samples) && (properties().limits.framebufferColorSampleCounts & samples);
  }
  static constexpr VkImageUsageFlags kTargetUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

  // A kSize x kSize multisampled colour image (usage kTargetUsage) and its view.
  std::pair<Image, VkImageView> make_target(TestDevice& device, VkFormat format, VkSampleCountFlagBits samples) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {kSize, kSize, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = samples;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = kTargetUsage;
    Image image = device.create_image(info);
    VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view_info.image = image.image;
    view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view_info.format = format;
    view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &view_info, nullptr, &view));
    VkDevice d = device.handle();
    device.defer_destroy([=] { vkDestroyImageView(d, view, nullptr); });
    return {image, view};
  }
};

// Resolved white-on-black coverage must be (covered samples / samples) * 255 (±1 for rounding),
// so edge pixels show the fractional averages; returns how many pixels were fractional.
uint32_t check_resolved_coverage(const std::vector<uint8_t>& rgba, uint32_t samples, uint32_t x_shift = 0) {
  GroupedFailures failures([](size_t i) { return "pixel (" + std::to_string(i % kSize) + ", " + std::to_string(i / kSize) + ")"; });
  uint32_t fractional = 0;
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t covered = uint32_t(__builtin_popcount(expected_coverage(samples, (x + x_shift) % kSize, y)));
      const int want = int(std::lround(255.0 * covered / samples));
      const int got = rgba.size() >= size_t{kSize} * kSize * 4 ? rgba[(y * kSize + x) * 4] : -1;
      if (covered != 0 && covered != samples) ++fractional;
      if (std::abs(got - want) > 1)
        failures.add("resolved red", y * kSize + x, std::to_string(got), std::to_string(want) + " (" + std::to_string(covered) + " samples)");
    }
  }
  failures.report(size_t{kSize} * kSize);
  return fractional;
}

class MsaaSamplesTest : public MsaaTest, public ::testing::WithParamInterface<VkSampleCountFlagBits> {};

std::string samples_name(const ::testing::TestParamInfo<VkSampleCountFlagBits>& info) {
  return "x" + std::to_string(uint32_t(info.param));
}

TEST_F(MsaaTest, ImageFormatPropertiesOfferSampleCounts) {
  VkImageFormatProperties p{};
  const VkImageUsageFlags color = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceImageFormatProperties(physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                                 VK_IMAGE_TILING_OPTIMAL, color, 0, &p));
  EXPECT_TRUE(p.sampleCounts & VK_SAMPLE_COUNT_4_BIT);
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceImageFormatProperties(physical_device(), VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D,
                                                                 VK_IMAGE_TILING_OPTIMAL,
                                                                 VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, &p));
  EXPECT_TRUE(p.sampleCounts & VK_SAMPLE_COUNT_4_BIT);
  // Linear tiling and cube-compatible images are single-sampled (the spec's rule).
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceImageFormatProperties(physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                                 VK_IMAGE_TILING_LINEAR, VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 0, &p));
  EXPECT_EQ(p.sampleCounts, VkSampleCountFlags(VK_SAMPLE_COUNT_1_BIT));
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceImageFormatProperties(physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                                 VK_IMAGE_TILING_OPTIMAL, color,
                                                                 VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT, &p));
  EXPECT_EQ(p.sampleCounts, VkSampleCountFlags(VK_SAMPLE_COUNT_1_BIT));
  KILN_ONLY();
  // Kiln: 1, 2, 4 and 8 everywhere an attachment can be multisampled, and for storage images.
  const VkSampleCountFlags all = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceImageFormatProperties(physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                                 VK_IMAGE_TILING_OPTIMAL, color, 0, &p));
  EXPECT_EQ(p.sampleCounts, all);
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceImageFormatProperties(physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                                 VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT, 0, &p));
  EXPECT_EQ(p.sampleCounts, all);
  const VkPhysicalDeviceLimits& l = properties().limits;
  EXPECT_EQ(l.framebufferColorSampleCounts, all);
  EXPECT_EQ(l.framebufferDepthSampleCounts, all);
  EXPECT_EQ(l.sampledImageColorSampleCounts, all);
  EXPECT_EQ(l.storageImageSampleCounts, all);
}

// The render pass's resolve attachment averages the samples the triangle covers.
TEST_P(MsaaSamplesTest, TriangleResolvesToCoverageAverageInRenderPass) {
  const VkSampleCountFlagBits samples = GetParam();
  REQUIRE_ON_KILN(supports(VK_FORMAT_R8G8B8A8_UNORM, kTargetUsage, samples), std::to_string(samples) + " samples");
  DrawJob job(device(), colored_options(samples));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  draw_vertices(job, device(), triangle({1, 1, 1, 1}), {{0, 0, 0, 1}});
  EXPECT_GT(check_resolved_coverage(job.read_color(), samples), 40u);
}

// vkCmdResolveImage does the same; two regions with swapped halves check the offsets.
TEST_P(MsaaSamplesTest, ResolveImageAveragesCoverage) {
  const VkSampleCountFlagBits samples = GetParam();
  REQUIRE_ON_KILN(supports(VK_FORMAT_R8G8B8A8_UNORM, kTargetUsage, samples), std::to_string(samples) + " samples");
  DrawJobOptions o = colored_options(samples);
  o.resolve_attachment = false;
  DrawJob job(device(), o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  draw_vertices(job, device(), triangle({1, 1, 1, 1}), {{0, 0, 0, 1}});
  Image resolved = device().create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kSize, kSize, 1});
  device().run_commands([&](VkCommandBuffer cb) {
    transition(cb, resolved.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkImageSubresourceLayers sub = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    const VkImageResolve regions[2] = {{sub, {0, 0, 0}, sub, {kSize / 2, 0, 0}, {kSize / 2, kSize, 1}},
                                       {sub, {kSize / 2, 0, 0}, sub, {0, 0, 0}, {kSize / 2, kSize, 1}}};
    vkCmdResolveImage(cb, job.color_image().image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, resolved.image,
                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, regions);
    transition(cb, resolved.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  const auto rgba = device().read_image(resolved, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  EXPECT_GT(check_resolved_coverage(rgba, samples, kSize / 2), 40u);
}

// texelFetch(sampler2DMS, p, s) sees exactly the samples the triangle covers (CPU reference), and
// vkCmdCopyImage into another multisampled image copies every sample.
TEST_P(MsaaSamplesTest, TexelFetchReadsEachCoveredSampleAndCopyImageKeepsThem) {
  const VkSampleCountFlagBits samples = GetParam();
  REQUIRE_ON_KILN(supports(VK_FORMAT_R8G8B8A8_UNORM, kTargetUsage, samples), std::to_string(samples) + " samples");
  DrawJob job(device(), colored_options(samples));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  draw_vertices(job, device(), triangle({1, 0.6f, 0, 1}), {{0, 0, 1, 1}});
  auto [copy, copy_view] = make_target(device(), VK_FORMAT_R8G8B8A8_UNORM, samples);
  device().run_commands([&](VkCommandBuffer cb) {
    transition(cb, copy.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkImageSubresourceLayers sub = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
    const VkImageCopy region{sub, {0, 0, 0}, sub, {0, 0, 0}, {kSize, kSize, 1}};
    vkCmdCopyImage(cb, job.color_image().image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copy.image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  });
  const FetchedSamples drawn = fetch_samples(device(), job.color_image().image, job.color_view(),
                                             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, samples);
  const FetchedSamples copied = fetch_samples(device(), copy.image, copy_view, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, samples);
  EXPECT_EQ(drawn.width, kSize);
  EXPECT_EQ(drawn.height, kSize);
  ASSERT_EQ(drawn.samples, uint32_t(samples)) << "textureSamples";
  ASSERT_EQ(copied.samples, uint32_t(samples));
  GroupedFailures failures([](size_t i) { return "pixel (" + std::to_string(i % kSize) + ", " + std::to_string(i / kSize) + ")"; });
  uint32_t partly = 0;
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t mask = expected_coverage(samples, x, y);
      if (mask != 0 && mask != (1u << samples) - 1) ++partly;
      for (uint32_t s = 0; s < samples; ++s) {
        const bool covered = mask & (1u << s);
        const std::array<float, 4> want = covered ? std::array<float, 4>{1, 153 / 255.0f, 0, 1} : std::array<float, 4>{0, 0, 1, 1};
        const auto& got = drawn.at(x, y, s);
        const std::string what = "sample " + std::to_string(s);
        if (std::fabs(got[0] - want[0]) > 1e-6f || std::fabs(got[1] - want[1]) > 1e-6f || std::fabs(got[2] - want[2]) > 1e-6f)
          failures.add(what + " drawn", y * kSize + x, std::to_string(got[0]) + "," + std::to_string(got[1]) + "," + std::to_string(got[2]),
                       covered ? "covered" : "not covered");
        if (copied.at(x, y, s) != got) failures.add(what + " copied", y * kSize + x, "differs", "the drawn sample");
      }
    }
  }
  failures.report(size_t{kSize} * kSize);
  EXPECT_GT(partly, 40u);
}

// Per-sample shading: SampleId and SamplePosition give each sample its own colour; the resolve is
// their average (needs sampleRateShading; the kernel side is also unit-tested:
// FragmentKernel.SampleIdAndSamplePosition, DrawOutput's per-sample shading tests).
TEST_P(MsaaSamplesTest, SampleShadingColoursEachSample) {
  const VkSampleCountFlagBits samples = GetParam();
  if (!features().core.features.sampleRateShading) GTEST_SKIP() << "sampleRateShading is not supported";
  REQUIRE_ON_KILN(supports(VK_FORMAT_R32G32B32A32_SFLOAT, kTargetUsage, samples), std::to_string(samples) + " float samples");
  DeviceFeatures enabled;
  enabled.core.features.sampleRateShading = VK_TRUE;
  TestDevice* device = create_device(enabled);
  ASSERT_NE(device, nullptr);
  DrawJobOptions o = colored_options(samples);
  o.fragment_shader = "msaa_sample_id.frag";
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  DrawJob job(*device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const std::vector<ColoredVertex> quad = {{-1, -1, 0.5f, 0, 0, 0, 1}, {3, -1, 0.5f, 0, 0, 0, 1}, {-1, 3, 0.5f, 0, 0, 0, 1}};
  draw_vertices(job, *device, quad, {{0, 0, 0, 0}});
  const std::vector<uint8_t> resolved = job.read_color();
  ASSERT_EQ(resolved.size(), size_t{kSize} * kSize * 16);
  const FetchedSamples fetched = fetch_samples(*device, job.color_image().image, job.color_view(),
                                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, samples);
  ASSERT_EQ(fetched.samples, uint32_t(samples));
  const auto locations = standard_locations(samples);
  GroupedFailures failures([](size_t i) { return "pixel (" + std::to_string(i % kSize) + ", " + std::to_string(i / kSize) + ")"; });
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      for (uint32_t s = 0; s < samples; ++s) {
        const std::array<float, 4> want{float(s), locations[s].first / 16.0f, locations[s].second / 16.0f, 1};
        if (fetched.at(x, y, s) != want)
          failures.add("sample " + std::to_string(s) + " (id, position)", y * kSize + x,
                       std::to_string(fetched.at(x, y, s)[0]) + "," + std::to_string(fetched.at(x, y, s)[1]) + "," +
                           std::to_string(fetched.at(x, y, s)[2]),
                       std::to_string(want[0]) + "," + std::to_string(want[1]) + "," + std::to_string(want[2]));
      }
      float r[4];
      std::memcpy(r, &resolved[(y * kSize + x) * 16], 16);
      // Standard locations are centred on the pixel, so positions average to 0.5.
      if (std::fabs(r[0] - (samples - 1) / 2.0f) > 1e-5f || std::fabs(r[1] - 0.5f) > 1e-5f || std::fabs(r[2] - 0.5f) > 1e-5f)
        failures.add("resolved (mean id, mean position)", y * kSize + x,
                     std::to_string(r[0]) + "," + std::to_string(r[1]) + "," + std::to_string(r[2]),
                     std::to_string((samples - 1) / 2.0f) + ",0.5,0.5");
    }
  }
  failures.report(size_t{kSize} * kSize);
}

// ---------------------------------------------------------------------------------------------
// Sample shading and InterpolateAt* (interpolate_at.vert): a triangle whose vertices carry their
// clip w in the colour's alpha, so smooth inputs are perspective-correct and noperspective ones
// screen-linear, checked per sample against a CPU evaluation of the same planes.
// ---------------------------------------------------------------------------------------------

// A triangle over the whole target (pixels (0,0), (128,0), (0,128)) with red 1 at the second
// vertex and green 1 at the third; clip w 1, 2 and 4 (`perspective`) or 1 everywhere.
std::vector<ColoredVertex> full_triangle(bool perspective) {
  const float w1 = perspective ? 2 : 1, w2 = perspective ? 4 : 1;
  return {{-1, -1, 0.5f, 0, 0, 0, 1}, {3, -1, 0.5f, 1, 0, 0, w1}, {-1, 3, 0.5f, 0, 1, 0, w2}};
}

// (red, green) of full_triangle(perspective) at framebuffer position (x, y): interpolated
// perspective-correctly (`smooth`) or screen-linearly.
std::array<double, 2> full_triangle_at(double x, double y, bool perspective, bool smooth) {
  const double b1 = x / 128, b2 = y / 128, b0 = 1 - b1 - b2;
  if (!smooth || !perspective) return {b1, b2};
  const double q0 = b0 / 1, q1 = b1 / 2, q2 = b2 / 4, sum = q0 + q1 + q2;
  return {q1 / sum, q2 / sum};
}

// Whether the perspective variants run: lavapipe evaluates InterpolateAt* from derivatives, which
// under perspective is off by up to ~1e-4 (and NaN for some noperspective offsets), so only Kiln
// is held to the exact planes there; the affine variants hold every driver to them.
bool exact_perspective(bool is_kiln, bool perspective) { return is_kiln || !perspective; }

DrawJobOptions interpolate_options(VkSampleCountFlagBits samples, const char* fragment_shader) {
  DrawJobOptions o = colored_options(samples);
  o.vertex_shader = "interpolate_at.vert";
  o.fragment_shader = fragment_shader;
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  return o;
}

class SampleShadingTest : public MsaaTest, public ::testing::WithParamInterface<VkSampleCountFlagBits> {
 protected:
  // A device with sampleRateShading, or nullptr (the test is then skipped) where another driver
  // or its float target lacks it; Kiln must have both.
  TestDevice* sample_shading_device(VkSampleCountFlagBits samples) {
    if (!features().core.features.sampleRateShading || !supports(VK_FORMAT_R32G32B32A32_SFLOAT, kTargetUsage, samples)) {
      if (is_kiln()) ADD_FAILURE() << "Kiln must support sampleRateShading with " << samples << " float samples";
      return nullptr;
    }
    DeviceFeatures enabled;
    enabled.core.features.sampleRateShading = VK_TRUE;
    enabled.core.features.fragmentStoresAndAtomics = features().core.features.fragmentStoresAndAtomics;
    return create_device(enabled);
  }
  // Draws `vertices` and reads every sample back.
  FetchedSamples draw(TestDevice& device, const DrawJobOptions& o, const std::vector<ColoredVertex>& vertices,
                      int32_t push = -1) {
    DrawJob job(device, o);
    EXPECT_EQ(job.pipeline_result(), VK_SUCCESS);
    Buffer vb = vertex_buffer(device, vertices);
    job.draw({{0, 0, 0, 0}}, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      if (push >= 0) vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, 4, &push);
      vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
    });
    return fetch_samples(device, job.color_image().image, job.color_view(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         o.samples);
  }
  // Every sample of every pixel against `want(x, y, s)` (red, green, blue, alpha; within `tolerance`).
  void check(const FetchedSamples& got, uint32_t samples, const std::function<std::array<double, 4>(uint32_t, uint32_t, uint32_t)>& want,
             double tolerance = 2e-5) {
    ASSERT_EQ(got.samples, samples);
    GroupedFailures failures([](size_t i) { return "pixel (" + std::to_string(i % kSize) + ", " + std::to_string(i / kSize) + ")"; });
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x)
        for (uint32_t s = 0; s < samples; ++s) {
          const std::array<double, 4> w = want(x, y, s);
          const std::array<float, 4>& g = got.at(x, y, s);
          for (int c = 0; c < 4; ++c)
            if (!(std::fabs(g[c] - w[c]) <= tolerance)) {
              failures.add("sample " + std::to_string(s) + " component " + std::to_string(c), y * kSize + x,
                           std::to_string(g[c]), std::to_string(w[c]));
              break;
            }
        }
    failures.report(size_t{kSize} * kSize);
  }
  // draw() of full_triangle() with `o` (push constant `push`) and check() against
  // want(x, y, s, perspective), for the affine triangle and — where the driver is exact there —
  // the perspective one.
  void check_each_projection(TestDevice& device, const DrawJobOptions& o, uint32_t samples, int32_t push,
                             const std::function<std::array<double, 4>(uint32_t, uint32_t, uint32_t, bool)>& want) {
    for (bool perspective : {false, true}) {
      if (!exact_perspective(is_kiln(), perspective)) continue;
      SCOPED_TRACE(perspective ? "perspective" : "affine");
      const FetchedSamples got = draw(device, o, full_triangle(perspective), push);
      check(got, samples, [&](uint32_t x, uint32_t y, uint32_t s) { return want(x, y, s, perspective); });
    }
  }
};

// With sampleRateShading the interpolation offset limits must reach the spec's minimums
// (minInterpolationOffset <= -0.5, maxInterpolationOffset >= 0.5 - 2^-subPixelInterpolationOffsetBits,
// subPixelInterpolationOffsetBits >= 4).
TEST_F(MsaaTest, SampleRateShadingInterpolationLimits) {
  if (!features().core.features.sampleRateShading) GTEST_SKIP() << "sampleRateShading is not supported";
  const VkPhysicalDeviceLimits& l = properties().limits;
  EXPECT_LE(l.minInterpolationOffset, -0.5f);
  EXPECT_GE(l.subPixelInterpolationOffsetBits, 4u);
  EXPECT_GE(l.maxInterpolationOffset, 0.5f - std::ldexp(1.0f, -int(l.subPixelInterpolationOffsetBits)));
}

// interpolateAtSample(smooth, gl_SampleID ^ 1) and interpolateAtOffset(noperspective, (0.25, -0.375)).
TEST_P(SampleShadingTest, InterpolateAtSampleAndOffset) {
  const VkSampleCountFlagBits samples = GetParam();
  TestDevice* device = sample_shading_device(samples);
  if (!device) GTEST_SKIP() << "sampleRateShading or " << samples << " float samples are not supported";
  const auto locations = standard_locations(samples);
  check_each_projection(*device, interpolate_options(samples, "interpolate_at_sample.frag"), samples, -1,
                        [&](uint32_t x, uint32_t y, uint32_t s, bool perspective) {
                          const auto at_sample = full_triangle_at(x + locations[s ^ 1].first / 16.0,
                                                                  y + locations[s ^ 1].second / 16.0, perspective, true);
                          const auto at_offset = full_triangle_at(x + 0.75, y + 0.125, perspective, false);
                          return std::array<double, 4>{at_sample[0], at_sample[1], at_offset[0], at_offset[1]};
                        });
}

// `sample in` inputs (smooth and noperspective) hold their values at each sample's location.
TEST_P(SampleShadingTest, SampleQualifiedInputs) {
  const VkSampleCountFlagBits samples = GetParam();
  TestDevice* device = sample_shading_device(samples);
  if (!device) GTEST_SKIP() << "sampleRateShading or " << samples << " float samples are not supported";
  const auto locations = standard_locations(samples);
  check_each_projection(*device, interpolate_options(samples, "interpolate_sample_inputs.frag"), samples, -1,
                        [&](uint32_t x, uint32_t y, uint32_t s, bool perspective) {
                          const double sx = x + locations[s].first / 16.0, sy = y + locations[s].second / 16.0;
                          const auto smooth = full_triangle_at(sx, sy, perspective, true);
                          const auto linear = full_triangle_at(sx, sy, perspective, false);
                          return std::array<double, 4>{smooth[0], smooth[1], linear[0], linear[1]};
                        });
}

// interpolateAtOffset through a dynamically indexed input array, at the offset limits
// (minInterpolationOffset -0.5, maxInterpolationOffset 0.4375), per pixel.
TEST_P(SampleShadingTest, InterpolateAtOffsetOfDynamicallyIndexedInput) {
  const VkSampleCountFlagBits samples = GetParam();
  TestDevice* device = sample_shading_device(samples);
  if (!device) GTEST_SKIP() << "sampleRateShading or " << samples << " float samples are not supported";
  DrawJobOptions o = interpolate_options(samples, "interpolate_at_dynamic.frag");
  o.push_constant_bytes = 4;
  for (int32_t index : {0, 1}) {
    SCOPED_TRACE("v_inputs[" + std::to_string(index) + "]");
    check_each_projection(*device, o, samples, index, [&](uint32_t x, uint32_t y, uint32_t, bool perspective) {
      const auto v = full_triangle_at(x + 0.0, y + 0.9375, perspective, true);  // both Locations are smooth here
      return std::array<double, 4>{v[0], v[1], 0, 1};
    });
  }
}

// Per pixel, interpolateAtCentroid of a plain input equals the centroid-qualified input: the pixel
// centre when every sample is covered, else a covered sample's location (Vulkan allows any point
// of the pixel inside the primitive; Kiln and lavapipe take a covered sample). The test triangle
// has partly covered pixels along its edges; its colour is its framebuffer position / 64.
TEST_P(SampleShadingTest, InterpolateAtCentroidMatchesCentroidInput) {
  const VkSampleCountFlagBits samples = GetParam();
  TestDevice* device = sample_shading_device(samples);
  if (!device) GTEST_SKIP() << "sampleRateShading or " << samples << " float samples are not supported";
  std::vector<ColoredVertex> vertices;
  for (int i = 0; i < 3; ++i)
    vertices.push_back({float(kTriangleX[i] / (kSize / 2) - 1), float(kTriangleY[i] / (kSize / 2) - 1), 0.5f,
                        float(kTriangleX[i] / kSize), float(kTriangleY[i] / kSize), 0, 1});
  const FetchedSamples got = draw(*device, interpolate_options(samples, "interpolate_at_centroid.frag"), vertices);
  ASSERT_EQ(got.samples, uint32_t(samples));
  const auto locations = standard_locations(samples);
  GroupedFailures failures([](size_t i) { return "pixel (" + std::to_string(i % kSize) + ", " + std::to_string(i / kSize) + ")"; });
  uint32_t partly = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t mask = expected_coverage(samples, x, y);
      if (!mask) continue;
      const bool full = mask == (1u << samples) - 1;
      partly += !full;
      for (uint32_t s = 0; s < samples; ++s) {
        if (!(mask & (1u << s))) continue;
        const std::array<float, 4>& g = got.at(x, y, s);
        // Where both values are, in pixels.
        const double ax = g[0] * kSize, ay = g[1] * kSize, cx = g[2] * kSize, cy = g[3] * kSize;
        if (std::fabs(ax - cx) > 1e-3 || std::fabs(ay - cy) > 1e-3)
          failures.add("interpolateAtCentroid vs centroid input", y * kSize + x,
                       std::to_string(ax) + "," + std::to_string(ay), std::to_string(cx) + "," + std::to_string(cy));
        bool placed = false;
        if (full) {
          placed = std::fabs(ax - (x + 0.5)) < 1e-3 && std::fabs(ay - (y + 0.5)) < 1e-3;
        } else {
          for (uint32_t t = 0; t < samples; ++t)
            placed |= (mask & (1u << t)) && std::fabs(ax - (x + locations[t].first / 16.0)) < 1e-3 &&
                      std::fabs(ay - (y + locations[t].second / 16.0)) < 1e-3;
        }
        if (!placed)
          failures.add(full ? "centroid of a covered pixel (its centre)" : "centroid of a partly covered pixel (a covered sample)",
                       y * kSize + x, std::to_string(ax) + "," + std::to_string(ay), "mask " + std::to_string(mask));
      }
    }
  failures.report(size_t{kSize} * kSize);
  EXPECT_GT(partly, 40u);
}

// minSampleShading: at least ceil(minSampleShading * samples) invocations per covered pixel
// (Kiln may run more, never fewer; min_sample_shading.frag counts them with an atomic per pixel),
// and every sample's plain smooth input is the colour of a point inside its pixel.
TEST_P(SampleShadingTest, MinSampleShadingRunsEnoughInvocations) {
  const VkSampleCountFlagBits samples = GetParam();
  if (!features().core.features.fragmentStoresAndAtomics) GTEST_SKIP() << "fragmentStoresAndAtomics is not supported";
  TestDevice* device = sample_shading_device(samples);
  if (!device) GTEST_SKIP() << "sampleRateShading or " << samples << " float samples are not supported";
  // Screen-linear colour (w = 1): red = x / 128, green = y / 128.
  const std::vector<ColoredVertex> screen_linear = {{-1, -1, 0.5f, 0, 0, 0, 1}, {3, -1, 0.5f, 1, 0, 0, 1}, {-1, 3, 0.5f, 0, 1, 0, 1}};
  for (float min : {1.0f, 0.5f, 0.25f}) {
    SCOPED_TRACE("minSampleShading " + std::to_string(min));
    DrawJobOptions o = interpolate_options(samples, "min_sample_shading.frag");
    o.sample_shading = true;
    o.min_sample_shading = min;
    o.bindings = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    o.push_constant_bytes = 4;
    DrawJob job(*device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    Buffer counts = device->create_buffer(size_t{kSize} * kSize * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    job.bind_buffer(0, counts);
    Buffer vb = vertex_buffer(*device, screen_linear);
    job.draw({{0, 0, 0, 0}}, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, 4, &kSize);
      vkCmdDraw(cb, 3, 1, 0, 0);
    });
    const FetchedSamples got =
        fetch_samples(*device, job.color_image().image, job.color_view(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, samples);
    ASSERT_EQ(got.samples, uint32_t(samples));
    const uint32_t wanted = uint32_t(std::ceil(min * samples));
    const uint32_t* invocations = mapped_as<uint32_t>(counts);
    GroupedFailures failures([](size_t i) { return "pixel (" + std::to_string(i % kSize) + ", " + std::to_string(i / kSize) + ")"; });
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const uint32_t n = invocations[y * kSize + x];
        if (n < wanted || n > uint32_t(samples))
          failures.add("invocations", y * kSize + x, std::to_string(n), std::to_string(wanted) + ".." + std::to_string(samples));
        for (uint32_t s = 0; s < samples; ++s) {
          const std::array<float, 4>& g = got.at(x, y, s);
          const double px = g[0] * 128, py = g[1] * 128;
          if (!(px >= x - 1e-3 && px <= x + 1 + 1e-3 && py >= y - 1e-3 && py <= y + 1 + 1e-3))
            failures.add("sample " + std::to_string(s) + " colour's position", y * kSize + x,
                         std::to_string(px) + "," + std::to_string(py), "inside the pixel");
        }
      }
    failures.report(size_t{kSize} * kSize);
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, SampleShadingTest,
                         ::testing::Values(VK_SAMPLE_COUNT_2_BIT, VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_8_BIT), samples_name);

INSTANTIATE_TEST_SUITE_P(Samples, MsaaSamplesTest,
                         ::testing::Values(VK_SAMPLE_COUNT_2_BIT, VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_8_BIT), samples_name);

// vkCmdClearColorImage writes every sample of a multisampled image.
// The SampleMaskIn scene: `fragment_shader` (red = bits in SampleMaskIn / 4, green = 1) draws the
// test triangle at depth 0.2 and then one triangle over the whole 4x target at 0.5 (a
// two-triangle quad would split the pixels on its diagonal), depth test LESS; returns the resolved
// image. Where the test triangle hides n of a pixel's 4 samples, the resolved red is
// (n * n/4 + (4 - n) * m/4) / 4 with m the big triangle's SampleMaskIn bits: 4 before the depth
// test (>= 0.75), 4 - n after it (0.5 at n = 2).
std::vector<uint8_t> draw_sample_mask_in_scene(TestDevice& device, const char* fragment_shader) {
  DrawJobOptions o = colored_options(VK_SAMPLE_COUNT_4_BIT);
  o.fragment_shader = fragment_shader;
  o.depth_format = VK_FORMAT_D32_SFLOAT;
  o.depth_stencil.depthTestEnable = VK_TRUE;
  o.depth_stencil.depthWriteEnable = VK_TRUE;
  o.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  DrawJob job(device, o);
  EXPECT_EQ(job.pipeline_result(), VK_SUCCESS);
  if (job.pipeline_result() != VK_SUCCESS) return {};
  std::vector<ColoredVertex> vertices = triangle({0, 0, 0, 1});
  for (ColoredVertex& v : vertices) v.z = 0.2f;
  for (const auto& [x, y] : {std::pair{-1.0f, -1.0f}, std::pair{3.0f, -1.0f}, std::pair{-1.0f, 3.0f}})
    vertices.push_back({x, y, 0.5f, 0, 0, 0, 1});
  Buffer vb = vertex_buffer(device, vertices);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, uint32_t(vertices.size()), 1, 0, 0);
  }, 1.0f);
  return job.read_color();
}

// Without PostDepthCoverage, SampleMaskIn is the primitive's coverage even when the depth test
// runs before the shader (pixel-rate shading): every resolved red >= 0.75.
TEST_F(MsaaTest, SampleMaskInIsCoverageBeforeEarlyDepthTests) {
  const std::vector<uint8_t> pixels = draw_sample_mask_in_scene(device(), "sample_mask_in_count.frag");
  ASSERT_EQ(pixels.size(), size_t{kSize} * kSize * 4);
  PixelCheck failures(kSize, kSize);
  uint32_t partial = 0;
  for (size_t i = 0; i < size_t{kSize} * kSize; ++i) {
    failures.expect_eq(i, pixels[i * 4 + 1], uint8_t(255), "green");
    // Lavapipe clips the full-screen triangle into two along the target's diagonal, each with its
    // own coverage there; Kiln keeps it one primitive.
    if (!is_kiln() && i % kSize == i / kSize) continue;
    // 0.75 resolves to 191; coverage after the test would give 159 or 127 at partly hidden pixels.
    failures.expect_eq(i, pixels[i * 4] >= 190, true, "red >= 0.75");
    partial += pixels[i * 4] < 255;
  }
  EXPECT_GT(partial, 40u) << "the triangle's edges should hide some but not all samples of many pixels";
}

// VK_EXT_post_depth_coverage: with PostDepthCoverage the big triangle's SampleMaskIn holds only the
// samples that passed the test, so partly hidden pixels resolve to 0.625 or 0.5 (159, 127).
TEST_F(MsaaTest, PostDepthCoverageSampleMaskInIsCoverageAfterTheTests) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_EXT_POST_DEPTH_COVERAGE_EXTENSION_NAME),
                  "VK_EXT_post_depth_coverage");
  DeviceFeatures enabled;
  TestDevice& device = *create_device(enabled, {VK_EXT_POST_DEPTH_COVERAGE_EXTENSION_NAME});
  const std::vector<uint8_t> pixels = draw_sample_mask_in_scene(device, "sample_mask_in_post_depth.frag");
  ASSERT_EQ(pixels.size(), size_t{kSize} * kSize * 4);
  PixelCheck failures(kSize, kSize);
  uint32_t partial = 0;
  for (size_t i = 0; i < size_t{kSize} * kSize; ++i) {
    failures.expect_eq(i, pixels[i * 4 + 1], uint8_t(255), "green");
    if (!is_kiln() && i % kSize == i / kSize) continue;  // lavapipe's diagonal split, as above
    const uint8_t red = pixels[i * 4];
    failures.expect_eq(i, red == 255 || (red >= 126 && red <= 160), true, "red 1, 0.625 or 0.5");
    partial += red < 255;
  }
  EXPECT_GT(partial, 40u) << "the triangle's edges should hide some but not all samples of many pixels";
}

TEST_F(MsaaTest, ClearColorImageWritesEverySample) {
  REQUIRE_ON_KILN(supports(VK_FORMAT_R8G8B8A8_UNORM, kTargetUsage, VK_SAMPLE_COUNT_4_BIT), "4 samples");
  auto [image, view] = make_target(device(), VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_4_BIT);
  device().run_commands([&](VkCommandBuffer cb) {
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkClearColorValue color{{0.2f, 0.4f, 0.6f, 0.8f}};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
  });
  const FetchedSamples fetched = fetch_samples(device(), image.image, view, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 4);
  ASSERT_EQ(fetched.samples, 4u);
  const std::array<float, 4> want{51 / 255.0f, 102 / 255.0f, 153 / 255.0f, 204 / 255.0f};
  uint32_t wrong = 0;
  for (const auto& t : fetched.texels)
    for (int c = 0; c < 4; ++c) wrong += std::fabs(t[c] - want[c]) > 1e-6f;
  EXPECT_EQ(wrong, 0u);
}

// A load-op clear and vkCmdClearAttachments (a rectangle, inside the pass) clear every sample:
// the resolve gives exactly the clear colours.
TEST_F(MsaaTest, LoadOpClearAndClearAttachmentsWriteEverySample) {
  REQUIRE_ON_KILN(supports(VK_FORMAT_R8G8B8A8_UNORM, kTargetUsage, VK_SAMPLE_COUNT_4_BIT), "4 samples");
  DrawJob job(device(), colored_options(VK_SAMPLE_COUNT_4_BIT));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const VkRect2D rect{{8, 16}, {20, 30}};
  draw_vertices(job, device(), triangle({1, 1, 1, 1}), {{1, 0, 0, 1}}, [&](VkCommandBuffer cb) {
    const VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {{{0, 1, 0, 1}}}};
    const VkClearRect clear_rect{rect, 0, 1};
    vkCmdClearAttachments(cb, 1, &clear, 1, &clear_rect);
  });
  const std::vector<uint8_t> rgba = job.read_color();
  ASSERT_EQ(rgba.size(), size_t{kSize} * kSize * 4);
  GroupedFailures failures([](size_t i) { return "pixel (" + std::to_string(i % kSize) + ", " + std::to_string(i / kSize) + ")"; });
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      const bool in_rect = int(x) >= rect.offset.x && x < rect.offset.x + rect.extent.width && int(y) >= rect.offset.y &&
                           y < rect.offset.y + rect.extent.height;
      const uint32_t covered = uint32_t(__builtin_popcount(expected_coverage(4, x, y)));
      if (!in_rect && covered != 0) continue;  // the triangle's pixels are checked elsewhere
      const uint8_t* p = &rgba[(y * kSize + x) * 4];
      const std::array<uint8_t, 4> want = in_rect ? std::array<uint8_t, 4>{0, 255, 0, 255} : std::array<uint8_t, 4>{255, 0, 0, 255};
      if (!std::equal(want.begin(), want.end(), p))
        failures.add(in_rect ? "cleared by vkCmdClearAttachments" : "cleared by the load op", y * kSize + x,
                     std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]), in_rect ? "0,255,0" : "255,0,0");
    }
  }
  failures.report(size_t{kSize} * kSize);
}

// Depth/stencil resolve attachments (render pass 2): SAMPLE_ZERO, MIN and MAX of depth and stencil,
// AVERAGE of depth, different modes per aspect and one aspect unresolved, on the triangle's partly
// covered pixels (CPU coverage reference).
TEST_F(MsaaTest, DepthStencilResolveModes) {
  VkPhysicalDeviceDepthStencilResolveProperties resolve{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &resolve};
  vkGetPhysicalDeviceProperties2(physical_device(), &props);
  struct Case {
    VkFormat format;
    VkResolveModeFlagBits depth_mode;
    VkResolveModeFlagBits stencil_mode;  // NONE for depth-only formats
  };
  // The last three pick different modes per aspect (independentResolve) or leave one aspect
  // unresolved (independentResolveNone).
  const Case cases[] = {{VK_FORMAT_D32_SFLOAT_S8_UINT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT},
                        {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_MIN_BIT},
                        {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_RESOLVE_MODE_MAX_BIT, VK_RESOLVE_MODE_MAX_BIT},
                        {VK_FORMAT_D32_SFLOAT, VK_RESOLVE_MODE_AVERAGE_BIT, VK_RESOLVE_MODE_NONE},
                        {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_MAX_BIT},
                        {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, VK_RESOLVE_MODE_NONE},
                        {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_RESOLVE_MODE_NONE, VK_RESOLVE_MODE_MIN_BIT}};
  for (const Case& c : cases) {
    const bool has_stencil = c.format == VK_FORMAT_D32_SFLOAT_S8_UINT;
    const bool check_depth = c.depth_mode != VK_RESOLVE_MODE_NONE, check_stencil = c.stencil_mode != VK_RESOLVE_MODE_NONE;
    SCOPED_TRACE("format " + std::to_string(c.format) + ", depth mode " + std::to_string(c.depth_mode) +
                 ", stencil mode " + std::to_string(c.stencil_mode));
    const bool one_none = has_stencil && (check_depth != check_stencil);
    const bool different = has_stencil && check_depth && check_stencil && c.depth_mode != c.stencil_mode;
    if ((check_depth && !(resolve.supportedDepthResolveModes & c.depth_mode)) ||
        (check_stencil && !(resolve.supportedStencilResolveModes & c.stencil_mode)) ||
        (one_none && !resolve.independentResolveNone) || (different && !resolve.independentResolve)) {
      // Kiln must support every mode and combination; other drivers run the cases they support.
      if (is_kiln()) ADD_FAILURE() << "Kiln must support this resolve mode combination";
      continue;
    }
    // Lavapipe (Mesa 22/23) claims AVERAGE but resolves depth as SAMPLE_ZERO (seen: 1 of 4 samples
    // drawn at 0.5 over 1.0 gives 1.0, not 0.875).
    if (c.depth_mode == VK_RESOLVE_MODE_AVERAGE_BIT && is_lavapipe_device(physical_device())) continue;
    DrawJobOptions o = colored_options(VK_SAMPLE_COUNT_4_BIT);
    o.depth_format = c.format;
    o.depth_resolve_mode = c.depth_mode;
    o.stencil_resolve_mode = c.stencil_mode;
    o.depth_stencil.depthTestEnable = VK_TRUE;
    o.depth_stencil.depthWriteEnable = VK_TRUE;
    o.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
    o.depth_stencil.stencilTestEnable = has_stencil;
    o.depth_stencil.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 7};
    o.depth_stencil.back = o.depth_stencil.front;
    DrawJob job(device(), o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    draw_vertices(job, device(), triangle({1, 1, 1, 1}), {{0, 0, 0, 1}});
    const std::vector<uint8_t> depth = job.read_depth();
    ASSERT_EQ(depth.size(), size_t{kSize} * kSize * 4);
    const std::vector<uint8_t> stencil_bytes = check_stencil ? job.read_stencil() : std::vector<uint8_t>{};
    if (check_stencil) ASSERT_EQ(stencil_bytes.size(), size_t{kSize} * kSize);
    GroupedFailures failures([](size_t i) { return "pixel (" + std::to_string(i % kSize) + ", " + std::to_string(i / kSize) + ")"; });
    uint32_t partly = 0;
    for (uint32_t y = 0; y < kSize; ++y) {
      for (uint32_t x = 0; x < kSize; ++x) {
        const uint32_t mask = expected_coverage(4, x, y), count = uint32_t(__builtin_popcount(mask));
        partly += count != 0 && count != 4;
        // Covered samples hold depth 0.5 and stencil 7; the others keep the clear (1.0, 0).
        bool drawn = false;  // the resolved value is the drawn one
        float want_depth = 1.0f;
        switch (c.depth_mode) {
          case VK_RESOLVE_MODE_SAMPLE_ZERO_BIT: drawn = mask & 1; break;
          case VK_RESOLVE_MODE_MIN_BIT: drawn = count > 0; break;   // the drawn 0.5 is the smaller depth
          case VK_RESOLVE_MODE_MAX_BIT: drawn = count == 4; break;  // the clear 1.0 is the larger
          default: want_depth = (count * 0.5f + (4 - count) * 1.0f) / 4; break;
        }
        if (c.depth_mode != VK_RESOLVE_MODE_AVERAGE_BIT) want_depth = drawn ? 0.5f : 1.0f;
        float got_depth;
        std::memcpy(&got_depth, &depth[(y * kSize + x) * 4], 4);
        if (check_depth && std::fabs(got_depth - want_depth) > 1e-6f)
          failures.add("depth", y * kSize + x, std::to_string(got_depth), std::to_string(want_depth));
        if (check_stencil) {
          // Stencil: MIN gives 7 only when every sample was drawn, MAX when any was.
          const bool stencil_drawn = c.stencil_mode == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT ? (mask & 1) != 0
                                     : c.stencil_mode == VK_RESOLVE_MODE_MIN_BIT        ? count == 4
                                                                                : count > 0;
          const int want_stencil = stencil_drawn ? 7 : 0, got_stencil = stencil_bytes[y * kSize + x];
          if (got_stencil != want_stencil)
            failures.add("stencil", y * kSize + x, std::to_string(got_stencil), std::to_string(want_stencil));
        }
      }
    }
    failures.report(size_t{kSize} * kSize);
    EXPECT_GT(partly, 40u);
  }
}

// ERROR PATH (unvalidated instance): buffer<->image copies of a multisampled image and image copies
// between different sample counts are invalid; Kiln drops them (one log line) instead of reading or
// writing by the wrong texel size. Kiln only: the spec leaves this undefined.
TEST_F(MsaaTest, InvalidMultisampledCopiesAreDropped) {
  KILN_ONLY();
  UnvalidatedContext context = create_unvalidated_context();
  ASSERT_NE(VK_NULL_HANDLE, context.physical_device);
  std::unique_ptr<TestDevice> device;
  ASSERT_EQ(VK_SUCCESS, TestDevice::create(context.physical_device, {}, &device));
  auto [ms4, ms4_view] = make_target(*device, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_4_BIT);
  auto [ms2, ms2_view] = make_target(*device, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_2_BIT);
  const VkDeviceSize bytes = VkDeviceSize{kSize} * kSize * 4 * 4;
  Buffer buffer = device->create_buffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0xAB);
  device->run_commands([&](VkCommandBuffer cb) {
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    const VkClearColorValue red{{1, 0, 0, 1}}, green{{0, 1, 0, 1}};
    vkCmdClearColorImage(cb, ms4.image, VK_IMAGE_LAYOUT_GENERAL, &red, 1, &range);
    vkCmdClearColorImage(cb, ms2.image, VK_IMAGE_LAYOUT_GENERAL, &green, 1, &range);
    full_barrier(cb);
    const VkBufferImageCopy region{0, 0, 0, layers(VK_IMAGE_ASPECT_COLOR_BIT, 0), {0, 0, 0}, {kSize, kSize, 1}};
    vkCmdCopyImageToBuffer(cb, ms4.image, VK_IMAGE_LAYOUT_GENERAL, buffer.buffer, 1, &region);
    vkCmdCopyBufferToImage(cb, buffer.buffer, ms4.image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    const VkImageCopy copy{layers(VK_IMAGE_ASPECT_COLOR_BIT, 0), {0, 0, 0}, layers(VK_IMAGE_ASPECT_COLOR_BIT, 0), {0, 0, 0},
                           {kSize, kSize, 1}};
    vkCmdCopyImage(cb, ms2.image, VK_IMAGE_LAYOUT_GENERAL, ms4.image, VK_IMAGE_LAYOUT_GENERAL, 1, &copy);
  });
  EXPECT_TRUE(std::all_of(mapped_as<uint8_t>(buffer), mapped_as<uint8_t>(buffer) + bytes, [](uint8_t b) { return b == 0xAB; }))
      << "a multisampled image was copied to a buffer";
  const FetchedSamples fetched = fetch_samples(*device, ms4.image, ms4_view, VK_IMAGE_LAYOUT_GENERAL, 4);
  ASSERT_EQ(fetched.samples, 4u);
  uint32_t wrong = 0;
  for (const auto& t : fetched.texels) wrong += t != std::array<float, 4>{1, 0, 0, 1};
  EXPECT_EQ(wrong, 0u) << "the 4-sample image was overwritten by a buffer or a 2-sample image";
}

// alphaToOne: the fragment's alpha becomes 1 before it is written.
TEST_F(MsaaTest, AlphaToOneWritesOpaqueAlpha) {
  REQUIRE_ON_KILN(features().core.features.alphaToOne, "alphaToOne");
  REQUIRE_ON_KILN(supports(VK_FORMAT_R8G8B8A8_UNORM, kTargetUsage, VK_SAMPLE_COUNT_4_BIT), "4 samples");
  DeviceFeatures enabled;
  enabled.core.features.alphaToOne = VK_TRUE;
  TestDevice* device = create_device(enabled);
  ASSERT_NE(device, nullptr);
  for (bool alpha_to_one : {false, true}) {
    DrawJobOptions o = colored_options(VK_SAMPLE_COUNT_4_BIT);
    o.alpha_to_one = alpha_to_one;
    DrawJob job(*device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    const std::vector<ColoredVertex> quad = {{-1, -1, 0.5f, 0.2f, 0.4f, 0.6f, 0.25f},
                                             {3, -1, 0.5f, 0.2f, 0.4f, 0.6f, 0.25f},
                                             {-1, 3, 0.5f, 0.2f, 0.4f, 0.6f, 0.25f}};
    draw_vertices(job, *device, quad, {{0, 0, 0, 0}});
    const std::vector<uint8_t> rgba = job.read_color();
    ASSERT_EQ(rgba.size(), size_t{kSize} * kSize * 4);
    uint32_t wrong = 0;
    const uint8_t want[4] = {51, 102, 153, uint8_t(alpha_to_one ? 255 : 64)};
    for (size_t i = 0; i < rgba.size(); i += 4)
      for (int c = 0; c < 4; ++c) wrong += std::abs(int(rgba[i + c]) - int(want[c])) > 1;
    EXPECT_EQ(wrong, 0u) << "alphaToOne " << alpha_to_one;
  }
}

}  // namespace
}  // namespace kiln::test
