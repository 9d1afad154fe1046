// VK_EXT_graphics_pipeline_library: pipelines linked from libraries (DrawJobOptions::library_parts:
// some of the vertex input, pre-rasterization, fragment shader and fragment output parts each
// created as a library with only its part's state, the others brought by the linking create info)
// draw exactly what the same pipeline created in one call draws — and what the scene must show.
// The same tests run on lavapipe (KILN_TEST_DRIVER=lavapipe).
#include <cstring>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/reference_image.h"
#include "e2e/tess_patches.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class PipelineLibraryTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT library{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
    if (!query_extension_features(physical_device(), VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME, library) ||
        !library.graphicsPipelineLibrary) {
      EXPECT_FALSE(is_kiln()) << "Kiln offers VK_EXT_graphics_pipeline_library";
      GTEST_SKIP() << "no VK_EXT_graphics_pipeline_library";
    }
    DeviceFeatures supported;
    DeviceFeatures::query(physical_device(), &supported);
    DeviceFeatures enabled;
    enabled.core.features.tessellationShader = supported.core.features.tessellationShader;
    enabled.core.features.geometryShader = supported.core.features.geometryShader;
    enabled.v13.dynamicRendering = VK_TRUE;
    enabled.v13.pNext = &library;
    device_ = create_device(enabled, {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME});
    ASSERT_TRUE(device_);
    tessellation_and_geometry_ = supported.core.features.tessellationShader && supported.core.features.geometryShader;
  }

  // `o` drawn by `draw` with a pipeline created in one call, then with pipelines linked from
  // libraries in several splits: every part a library, linked fast (the vertex kernel reads what
  // the vertex input library's fetch kernel fetched) and with link-time optimisation (the vertex
  // shader recompiled for the vertex input state); only the pre-rasterization part (its vertex
  // shader compiled before the vertex input state, which the linking create info brings); the
  // vertex input and fragment output parts. Every image must equal the first. Returns the first
  // (read_rgba32f).
  std::vector<float> draw_every_way(DrawJobOptions o, const std::function<void(DrawJob&, VkCommandBuffer)>& draw) {
    struct Split {
      VkGraphicsPipelineLibraryFlagsEXT parts;
      bool link_time_optimization;
    };
    std::vector<float> first;
    for (const Split& split : {Split{0, false}, Split{kAllParts, false}, Split{kAllParts, true},
                               Split{VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT, false},
                               Split{VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT |
                                         VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT,
                                     false}}) {
      const VkGraphicsPipelineLibraryFlagsEXT parts = split.parts;
      SCOPED_TRACE("library parts " + std::to_string(parts) + (split.link_time_optimization ? ", optimised" : ""));
      o.library_parts = parts;
      o.link_time_optimization = split.link_time_optimization;
      DrawJob job(*device_, o);
      EXPECT_EQ(job.pipeline_result(), VK_SUCCESS);
      if (job.pipeline_result() != VK_SUCCESS) return {};
      job.draw(kBlack, [&](VkCommandBuffer cb) { draw(job, cb); }, 1.0f);
      std::vector<float> image = read_rgba32f(job);
      if (!parts) first = std::move(image);
      else EXPECT_TRUE(image == first) << "the linked pipeline draws something else";
    }
    return first;
  }

  static constexpr VkGraphicsPipelineLibraryFlagsEXT kAllParts =
      VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT |
      VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT | VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
      VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;

  TestDevice* device_ = nullptr;
  bool tessellation_and_geometry_ = false;
};

class PipelineLibraryPassTest : public PipelineLibraryTest, public ::testing::WithParamInterface<bool> {};

// Two overlapping rectangles with a depth test: the nearer one (red, drawn first) must win where
// they overlap, the farther one (green) shows elsewhere; every state the scene depends on (vertex
// input, depth test, blending, the render pass or dynamic rendering) sits in a different library.
TEST_P(PipelineLibraryPassTest, LinkedPipelineDrawsWhatOneCallDraws) {
  DrawJobOptions o = colored_options();
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.dynamic_rendering = GetParam();
  o.depth_format = VK_FORMAT_D32_SFLOAT;
  o.depth_stencil.depthTestEnable = VK_TRUE;
  o.depth_stencil.depthWriteEnable = VK_TRUE;
  o.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  // A pre-rasterization dynamic state beside DrawJob's viewport and scissor. Not the fragment
  // parts' (stencil reference, blend constants: the CTS's pipeline_library groups cover them):
  // validation layers 1.3.239 leak a copy of a fragment library's dynamic states, which fails the
  // LeakSanitizer run of this test.
  o.dynamic_states = {VK_DYNAMIC_STATE_CULL_MODE};
  std::vector<ColoredVertex> vertices = rect(-1, -1, 0.5f, 0.5f, 0.25f, {1, 0, 0, 1});
  const std::vector<ColoredVertex> far = rect(-0.5f, -0.5f, 1, 1, 0.75f, {0, 1, 0, 1});
  vertices.insert(vertices.end(), far.begin(), far.end());
  Buffer vb = vertex_buffer(*device_, vertices);
  const std::vector<float> pixels = draw_every_way(o, [&](DrawJob&, VkCommandBuffer cb) {
    vkCmdSetCullMode(cb, VK_CULL_MODE_NONE);
    bind_vertices(cb, vb);
    vkCmdDraw(cb, static_cast<uint32_t>(vertices.size()), 1, 0, 0);
  });
  ASSERT_EQ(pixels.size(), 64u * 64 * 4);
  // Pixel (x, y) of the 64 x 64 target: red covers x, y < 48, green x, y >= 16.
  auto at = [&](uint32_t x, uint32_t y, int c) { return pixels[(size_t{y} * 64 + x) * 4 + c]; };
  PixelCheck failures(64, 64);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      const bool red = x < 48 && y < 48, green = x >= 16 && y >= 16;
      const size_t i = size_t{y} * 64 + x;
      failures.expect_eq(i, at(x, y, 0), red ? 1.0f : 0.0f, "red: the near rectangle");
      failures.expect_eq(i, at(x, y, 1), green && !red ? 1.0f : 0.0f, "green: the far one, behind red");
    }
}

INSTANTIATE_TEST_SUITE_P(Passes, PipelineLibraryPassTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "DynamicRendering" : "RenderPass"; });

// The tessellation tests' grid of 4 x 4 quad patches (tess_patches.h) into an RGBA32F target.
DrawJobOptions quad_patch_grid_options() {
  DrawJobOptions o = colored_options();
  o.fragment_shader = "draw_colored.frag";
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.tess_control_shader = "tess_passthrough.tesc";
  o.tess_eval_shader = "tess_quad.tese";
  o.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  o.patch_control_points = 4;
  o.push_constant_bytes = sizeof(TessLevels);
  return o;
}

// Tessellation and a geometry shader in the pre-rasterization library: the tessellation tests'
// grid of 4 x 4 quad patches (each pixel covered once, additive blending would show twice), the
// geometry shader mirroring each triangle; the evaluation shader's PrimitiveId + 1 in green.
TEST_F(PipelineLibraryTest, TessellationAndGeometryInTheirLibrary) {
  if (!tessellation_and_geometry_) {
    EXPECT_FALSE(is_kiln()) << "Kiln has tessellation and geometry shaders";
    GTEST_SKIP() << "no tessellation or geometry shaders";
  }
  DrawJobOptions o = quad_patch_grid_options();
  o.geometry_shader = "geom_mirror_tessellated.geom";
  o.blend = kAdditiveBlend;
  Buffer vb = vertex_buffer(*device_, quad_patch_grid());
  const std::vector<float> pixels = draw_every_way(o, [&](DrawJob& job, VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    draw_quad_patch_grid(job, cb);
  });
  ASSERT_EQ(pixels.size(), 64u * 64 * 4);
  PixelCheck failures(64, 64);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      const size_t i = size_t{y} * 64 + x;
      failures.expect_near(i, pixels[i * 4 + 1], float((63 - x) / 16) + 1, 1e-3f, "PrimitiveId + 1 of the mirrored patch");
      failures.expect_near(i, pixels[i * 4 + 3], (y + 0.5f) / 64, 1e-4f, "position y");
    }
}

// The tessellation domain origin belongs to the pre-rasterization library, though Kiln keeps it
// beside the vertex input part's input assembly state: with back faces culled each origin draws the
// same grid in every split as in one call, and one origin shows the grid where the other shows
// nothing (the CTS's pipeline_library extended_dynamic_state.*.tess_domain_origin_lower_left).
TEST_F(PipelineLibraryTest, TessellationDomainOriginTravelsWithThePreRasterizationLibrary) {
  if (!tessellation_and_geometry_) {
    EXPECT_FALSE(is_kiln()) << "Kiln has tessellation shaders";
    GTEST_SKIP() << "no tessellation shaders";
  }
  auto grid = [&](VkTessellationDomainOrigin origin) {
    DrawJobOptions o = quad_patch_grid_options();
    o.cull_mode = VK_CULL_MODE_BACK_BIT;
    o.tess_domain_origin = origin;
    Buffer vb = vertex_buffer(*device_, quad_patch_grid());
    return draw_every_way(o, [&](DrawJob& job, VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      draw_quad_patch_grid(job, cb);
    });
  };
  auto covered = [](const std::vector<float>& pixels) {
    size_t n = 0;
    for (size_t i = 0; i < pixels.size(); i += 4) n += pixels[i + 3] != 0.0f;
    return n;
  };
  const size_t lower = covered(grid(VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT));
  const size_t upper = covered(grid(VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT));
  EXPECT_EQ(std::min(lower, upper), 0u) << "one winding must be culled entirely";
  EXPECT_EQ(std::max(lower, upper), size_t{64} * 64) << "the other must cover the target";
}

}  // namespace
}  // namespace kiln::test
