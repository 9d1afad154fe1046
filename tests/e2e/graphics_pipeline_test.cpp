// vkCreateGraphicsPipelines: a pipeline whose shaders Kiln cannot compile yet is an error code
// (VK_ERROR_UNKNOWN, and a null handle), never a crash or a pipeline that would draw wrongly.
#include <vector>

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

// A plain pipeline either works or fails cleanly; with FAIL_ON_PIPELINE_COMPILE_REQUIRED and no
// cache, Kiln must not compile (COMPILE_REQUIRED) unless the kernels are already in the process.
TEST_F(GraphicsPipelineTest, PlainPipelineSucceedsOrFailsCleanly) {
  VkPipeline pipeline;
  const VkResult result = create("gfx_api_passthrough.vert", "gfx_api_color.frag", 0, &pipeline);
  if (result == VK_SUCCESS) {
    EXPECT_NE(pipeline, VK_NULL_HANDLE);
  } else {
    EXPECT_LT(result, 0);
    EXPECT_EQ(pipeline, VK_NULL_HANDLE);
  }
}

}  // namespace
