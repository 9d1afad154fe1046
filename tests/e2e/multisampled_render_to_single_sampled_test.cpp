// VK_EXT_multisampled_render_to_single_sampled: single-sampled colour and depth attachments drawn
// with 4 samples, in a render pass and in dynamic rendering, come out exactly as a 4-sample pass
// whose resolve attachments are read back (edges partly covered, depth resolved by SAMPLE_ZERO);
// a loaded depth attachment reaches every sample of the implicit image.
#include <array>
#include <cstring>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 64;

class MultisampledRenderToSingleSampledTest : public VulkanTest {
 protected:
  // A device with the extension, dynamic rendering and (for the reference passes) nothing else.
  TestDevice* make_device() {
    VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT feature{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT};
    const bool has = query_extension_features(physical_device(), VK_EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_EXTENSION_NAME,
                                              feature);
    if (!has || !feature.multisampledRenderToSingleSampled || !features().v13.dynamicRendering) return nullptr;
    DeviceFeatures enabled;
    enabled.v13.dynamicRendering = VK_TRUE;
    enabled.v13.pNext = &feature;
    return create_device(enabled, {VK_EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_EXTENSION_NAME});
  }
};

// A slanted triangle over a rectangle, nearer than it: edges with partial coverage and a depth
// test that decides some samples.
std::vector<ColoredVertex> scene() {
  std::vector<ColoredVertex> v = rect(-0.6f, -0.9f, 0.8f, 0.4f, 0.6f, {0.1f, 0.3f, 0.9f, 1.0f});
  for (const auto& [x, y] : {std::pair{-0.87f, -0.75f}, std::pair{0.91f, -0.13f}, std::pair{-0.33f, 0.96f}})
    v.push_back({x, y, 0.3f, 0.95f, 0.6f, 0.05f, 1.0f});
  return v;
}

DrawJobOptions scene_options() {
  DrawJobOptions o = colored_options();
  o.width = o.height = kSize;
  o.depth_format = VK_FORMAT_D32_SFLOAT;
  o.depth_stencil.depthTestEnable = VK_TRUE;
  o.depth_stencil.depthWriteEnable = VK_TRUE;
  o.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  o.depth_resolve_mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
  return o;
}

struct Rendered {
  std::vector<uint8_t> color, depth;
};

Rendered render(TestDevice& device, const DrawJobOptions& options) {
  DrawJob job(device, options);
  EXPECT_EQ(job.pipeline_result(), VK_SUCCESS);
  const Buffer vb = vertex_buffer(device, scene());
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, 9, 1, 0, 0);
  });
  return {job.read_color(), job.read_depth()};
}

void expect_matches_explicit_multisampling(TestDevice& device, bool dynamic_rendering) {
  DrawJobOptions reference = scene_options();
  reference.samples = VK_SAMPLE_COUNT_4_BIT;
  const Rendered want = render(device, reference);
  DrawJobOptions implicit = scene_options();
  implicit.implicit_samples = VK_SAMPLE_COUNT_4_BIT;
  implicit.dynamic_rendering = dynamic_rendering;
  const Rendered got = render(device, implicit);
  ASSERT_EQ(got.color.size(), want.color.size());
  ASSERT_EQ(got.depth.size(), want.depth.size());
  // The reference really is multisampled: some edge pixels mix the triangle with what is behind.
  uint32_t mixed = 0;
  for (size_t i = 0; i < want.color.size(); i += 4)
    if (want.color[i] != 0 && want.color[i] != 242 && want.color[i] != 26) ++mixed;
  EXPECT_GT(mixed, 40u) << "the reference pass shows no partly covered pixels";
  check_rgba8(got.color, "colour", [&](uint32_t x, uint32_t y) {
    const uint8_t* p = &want.color[(size_t{y} * kSize + x) * 4];
    return std::array<int, 4>{p[0], p[1], p[2], p[3]};
  }, 0, kSize, kSize);
  EXPECT_EQ(0, std::memcmp(got.depth.data(), want.depth.data(), want.depth.size())) << "depth differs";
}

TEST_F(MultisampledRenderToSingleSampledTest, RenderPassMatchesExplicitMultisampling) {
  TestDevice* device = make_device();
  REQUIRE_ON_KILN(device, "VK_EXT_multisampled_render_to_single_sampled with dynamicRendering");
  expect_matches_explicit_multisampling(*device, false);
}

TEST_F(MultisampledRenderToSingleSampledTest, DynamicRenderingMatchesExplicitMultisampling) {
  TestDevice* device = make_device();
  REQUIRE_ON_KILN(device, "VK_EXT_multisampled_render_to_single_sampled with dynamicRendering");
  expect_matches_explicit_multisampling(*device, true);
}

// The depth attachment is loaded (its left half 0.25, its right half 1.0): every sample of the
// implicit image starts with its pixel's value, so the rectangle at 0.6 is hidden on the left,
// drawn on the right, and the loaded depths survive where it is hidden.
TEST_F(MultisampledRenderToSingleSampledTest, LoadedDepthReachesEverySample) {
  TestDevice* device = make_device();
  REQUIRE_ON_KILN(device, "VK_EXT_multisampled_render_to_single_sampled with dynamicRendering");
  DrawJobOptions o = scene_options();
  o.implicit_samples = VK_SAMPLE_COUNT_4_BIT;
  o.depth_load_op = VK_ATTACHMENT_LOAD_OP_LOAD;
  DrawJob job(*device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  device->run_commands([&](VkCommandBuffer cb) {
    transition(cb, job.depth_image().image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    const VkClearDepthStencilValue far{1.0f, 0};
    vkCmdClearDepthStencilImage(cb, job.depth_image().image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1, &range);
    full_barrier(cb);
    // The left half at 0.25 (a copy from a buffer: clears cannot take a rectangle).
    Buffer near = device->create_buffer(kSize / 2 * kSize * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    const float quarter = 0.25f;
    for (uint32_t i = 0; i < kSize / 2 * kSize; ++i) std::memcpy(near.mapped + i * 4, &quarter, 4);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
    region.imageExtent = {kSize / 2, kSize, 1};
    vkCmdCopyBufferToImage(cb, near.buffer, job.depth_image().image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    transition(cb, job.depth_image().image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  });
  const Buffer vb = vertex_buffer(*device, rect(-1.0f, -1.0f, 1.0f, 1.0f, 0.6f, {0.2f, 0.8f, 0.4f, 1.0f}));
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, 6, 1, 0, 0);
  });
  const std::vector<uint8_t> color = job.read_color(), depth = job.read_depth();
  check_rgba8(color, "colour", [](uint32_t x, uint32_t) {
    return x < kSize / 2 ? std::array<int, 4>{0, 0, 0, 0} : std::array<int, 4>{51, 204, 102, 255};
  }, 0, kSize, kSize);
  PixelCheck failures(kSize, kSize);
  for (uint32_t i = 0; i < kSize * kSize; ++i) {
    float d;
    std::memcpy(&d, &depth[i * 4], 4);
    failures.expect_near(i, d, i % kSize < kSize / 2 ? 0.25f : 0.6f, 1e-6f, "depth");
  }
}

// Images made for it report the sample counts a pass may render them with.
TEST_F(MultisampledRenderToSingleSampledTest, ImageFormatPropertiesKeepTheSampleCounts) {
  TestDevice* device = make_device();
  REQUIRE_ON_KILN(device, "VK_EXT_multisampled_render_to_single_sampled with dynamicRendering");
  VkImageFormatProperties properties{};
  ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(
                physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT, &properties),
            VK_SUCCESS);
  EXPECT_TRUE(properties.sampleCounts & VK_SAMPLE_COUNT_4_BIT);
  VkSubpassResolvePerformanceQueryEXT resolve{VK_STRUCTURE_TYPE_SUBPASS_RESOLVE_PERFORMANCE_QUERY_EXT};
  resolve.optimal = 7;
  VkFormatProperties2 format{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &resolve};
  vkGetPhysicalDeviceFormatProperties2(physical_device(), VK_FORMAT_R8G8B8A8_UNORM, &format);
  EXPECT_TRUE(resolve.optimal == VK_TRUE || resolve.optimal == VK_FALSE);
}

}  // namespace
}  // namespace kiln::test
