// vkCreateGraphicsPipelines: a plain pipeline with every Vulkan 1.3 dynamic state is created and
// draws; a pipeline whose shaders Kiln cannot compile yet is an error code (VK_ERROR_UNKNOWN, and a
// null handle), never a crash or a pipeline that would draw wrongly.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"
#include "shaders/test_shaders.h"

using namespace kiln::test;

namespace {

class GraphicsPipelineTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    REQUIRE_ON_KILN(features().v13.dynamicRendering && features().core.features.shaderFloat64,
                    "dynamicRendering and shaderFloat64");
    DeviceFeatures enabled;
    enabled.v13.dynamicRendering = VK_TRUE;
    enabled.core.features.shaderFloat64 = VK_TRUE;
    use_device(create_device(enabled));
  }

  // Makes `device` the one pipelines are created on, with an empty pipeline layout.
  void use_device(TestDevice* device) {
    dev_ = device;
    ASSERT_NE(dev_, nullptr);
    VkPipelineLayoutCreateInfo layout_info{.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ASSERT_EQ(VK_SUCCESS, vkCreatePipelineLayout(dev_->handle(), &layout_info, nullptr, &layout_));
    VkDevice d = dev_->handle();
    VkPipelineLayout layout = layout_;
    dev_->defer_destroy([d, layout] { vkDestroyPipelineLayout(d, layout, nullptr); });
  }

  VkShaderModule module(const char* name) {
    const std::vector<uint32_t> words = kiln_test_shader(name);
    VkShaderModuleCreateInfo info{.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = words.size() * 4, info.pCode = words.data();
    VkShaderModule m = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateShaderModule(dev_->handle(), &info, nullptr, &m));
    VkDevice d = dev_->handle();
    dev_->defer_destroy([d, m] { vkDestroyShaderModule(d, m, nullptr); });
    return m;
  }

  // A dynamic-rendering pipeline (one RGBA8 colour attachment) with every Vulkan 1.3 dynamic
  // state; returns vkCreateGraphicsPipelines' result and the handle it wrote.
  VkResult create(const char* vertex, const char* fragment, VkPipelineCreateFlags flags, VkPipeline* out) {
    VkPipelineShaderStageCreateInfo stages[2] = {{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT, stages[0].module = module(vertex), stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT, stages[1].module = module(fragment), stages[1].pName = "main";
    VkPipelineVertexInputStateCreateInfo vertex_input{.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly{.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    VkPipelineRasterizationStateCreateInfo raster{.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo depth{.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    VkPipelineColorBlendAttachmentState blend_attachment{};
    blend_attachment.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo blend{.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = 1, blend.pAttachments = &blend_attachment;
    const VkDynamicState dynamic_states[] = {
        VK_DYNAMIC_STATE_LINE_WIDTH, VK_DYNAMIC_STATE_DEPTH_BIAS, VK_DYNAMIC_STATE_BLEND_CONSTANTS,
        VK_DYNAMIC_STATE_DEPTH_BOUNDS, VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
        VK_DYNAMIC_STATE_STENCIL_REFERENCE, VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE,
        VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
        VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
        VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
        VK_DYNAMIC_STATE_STENCIL_OP, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE, VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
        VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE};
    VkPipelineDynamicStateCreateInfo dynamic{.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = sizeof dynamic_states / sizeof dynamic_states[0], dynamic.pDynamicStates = dynamic_states;
    const VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo rendering{.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1, rendering.pColorAttachmentFormats = &color_format;
    VkGraphicsPipelineCreateInfo info{.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .pNext = &rendering};
    info.flags = flags;
    info.stageCount = 2, info.pStages = stages;
    info.pVertexInputState = &vertex_input, info.pInputAssemblyState = &assembly, info.pViewportState = &viewport;
    info.pRasterizationState = &raster, info.pMultisampleState = &multisample, info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend, info.pDynamicState = &dynamic;
    info.layout = layout_;
    *out = reinterpret_cast<VkPipeline>(uintptr_t{0xdead});  // must be overwritten
    const VkResult result = vkCreateGraphicsPipelines(dev_->handle(), VK_NULL_HANDLE, 1, &info, nullptr, out);
    if (*out != VK_NULL_HANDLE && result == VK_SUCCESS) {
      VkDevice d = dev_->handle();
      VkPipeline p = *out;
      dev_->defer_destroy([d, p] { vkDestroyPipeline(d, p, nullptr); });
    }
    return result;
  }

  TestDevice* dev_ = nullptr;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
};

// 16-bit varyings are outside kernel_abi.h's stage interface (storageInputOutput16 is FALSE):
// creation must fail honestly. ERROR PATH: Kiln compiles every interface a valid pipeline can
// have, so the shader is one the validation layer rightly rejects (unvalidated instance).
TEST_F(GraphicsPipelineTest, UncompilableShadersGiveAnErrorAndANullHandle) {
  KILN_ONLY();
  UnvalidatedContext context = create_unvalidated_context();
  std::unique_ptr<TestDevice> unvalidated;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
  DeviceOptions options;
  options.create_info_chain = &features2;
  ASSERT_EQ(TestDevice::create(context.physical_device, options, &unvalidated), VK_SUCCESS);
  use_device(unvalidated.get());
  VkPipeline pipeline;
  const VkResult result = create("gfx_api_half_varying.vert", "gfx_api_half_varying.frag", 0, &pipeline);
  // Core Vulkan's code for a failure that is neither the application's fault nor out of memory.
  EXPECT_EQ(result, VK_ERROR_UNKNOWN);
  EXPECT_EQ(pipeline, VK_NULL_HANDLE);
}

// A plain pipeline with every Vulkan 1.3 dynamic state is created, and draws once each of those
// states is set: gfx_api_passthrough.vert's triangle covers the target and gives each pixel its
// own clip-space position as colour (negative channels clamp to 0 in UNORM).
TEST_F(GraphicsPipelineTest, PlainPipelineIsCreatedAndDrawsWithEveryDynamicState) {
  VkPipeline pipeline;
  ASSERT_EQ(VK_SUCCESS, create("gfx_api_passthrough.vert", "gfx_api_color.frag", 0, &pipeline));
  ASSERT_NE(VK_NULL_HANDLE, pipeline);

  constexpr uint32_t kSize = 16;
  const Image target = dev_->create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kSize, kSize, 1}, 1, 1, 0,
                                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  VkImageViewCreateInfo view_info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = target.image, view_info.viewType = VK_IMAGE_VIEW_TYPE_2D, view_info.format = VK_FORMAT_R8G8B8A8_UNORM;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateImageView(dev_->handle(), &view_info, nullptr, &view));
  VkDevice d = dev_->handle();
  dev_->defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
  // VERTEX_INPUT_BINDING_STRIDE wants strides bound with vkCmdBindVertexBuffers2, even unused.
  const Buffer unused_vertices = dev_->create_buffer(64, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);

  dev_->run_commands([&](VkCommandBuffer cmd) {
    transition(cmd, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
               VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    VkRenderingAttachmentInfo color{.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = view, color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR, color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{0.0f, 0.0f, 1.0f, 0.0f}};  // blue 1: no pixel of the triangle's colours
    VkRenderingInfo rendering{.sType = VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, {kSize, kSize}}, rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1, rendering.pColorAttachments = &color;
    vkCmdBeginRendering(cmd, &rendering);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
    const VkRect2D scissor{{0, 0}, {kSize, kSize}};
    vkCmdSetViewportWithCount(cmd, 1, &viewport);
    vkCmdSetScissorWithCount(cmd, 1, &scissor);
    vkCmdSetLineWidth(cmd, 1.0f);
    vkCmdSetDepthBias(cmd, 0.0f, 0.0f, 0.0f);
    const float blend_constants[4] = {0, 0, 0, 0};
    vkCmdSetBlendConstants(cmd, blend_constants);
    vkCmdSetDepthBounds(cmd, 0.0f, 1.0f);
    vkCmdSetStencilCompareMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0xFF);
    vkCmdSetStencilWriteMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0xFF);
    vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
    vkCmdSetCullMode(cmd, VK_CULL_MODE_NONE);
    vkCmdSetFrontFace(cmd, VK_FRONT_FACE_COUNTER_CLOCKWISE);
    vkCmdSetPrimitiveTopology(cmd, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    const VkDeviceSize offset = 0, stride = 16;
    vkCmdBindVertexBuffers2(cmd, 0, 1, &unused_vertices.buffer, &offset, nullptr, &stride);
    vkCmdSetDepthTestEnable(cmd, VK_FALSE);
    vkCmdSetDepthWriteEnable(cmd, VK_FALSE);
    vkCmdSetDepthCompareOp(cmd, VK_COMPARE_OP_ALWAYS);
    vkCmdSetDepthBoundsTestEnable(cmd, VK_FALSE);
    vkCmdSetStencilTestEnable(cmd, VK_FALSE);
    vkCmdSetStencilOp(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP,
                      VK_COMPARE_OP_ALWAYS);
    vkCmdSetRasterizerDiscardEnable(cmd, VK_FALSE);
    vkCmdSetDepthBiasEnable(cmd, VK_FALSE);
    vkCmdSetPrimitiveRestartEnable(cmd, VK_FALSE);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
    transition(cmd, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
  const std::vector<uint8_t> pixels =
      dev_->read_image(target, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  ASSERT_EQ(size_t{kSize} * kSize * 4, pixels.size());
  auto unorm = [](float v) { return int(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  // The pixel centre in clip space is also its interpolated colour's red and green; one step of
  // interpolation rounding is allowed.
  check_rgba8(
      pixels, "interpolated clip-space position",
      [&](uint32_t x, uint32_t y) {
        return std::array<int, 4>{unorm((x + 0.5f) * 2 / kSize - 1), unorm((y + 0.5f) * 2 / kSize - 1), unorm(0.5f), 255};
      },
      1, kSize, kSize);
}

}  // namespace
