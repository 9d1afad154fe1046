// VK_EXT_attachment_feedback_loop_layout: a render pass draws a gradient into its colour and depth
// attachments, and after a BY_REGION | FEEDBACK_LOOP barrier a second draw samples both attachments
// (the images in ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT) and writes what it read into the colour
// attachment: the left half of the target reads the right half, other tiles than its own, so the
// barrier must have finished the first draw everywhere. Every pixel is checked against the
// gradient's arithmetic.
#include <cmath>
#include <cstring>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 128;
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr VkImageLayout kFeedbackLayout = VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT;

class AttachmentFeedbackLoopTest : public VulkanTest {};

VkImageView make_view(VkDevice d, VkImage image, VkFormat format, VkImageAspectFlags aspect) {
  VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.image = image;
  info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  info.format = format;
  info.subresourceRange = {aspect, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImageView(d, &info, nullptr, &view), VK_SUCCESS);
  return view;
}

// One pass, one subpass: colour and depth in the feedback loop layout, a self-dependency from
// the attachment writes to fragment shader reads, and both images TRANSFER_SRC at the end.
VkRenderPass make_render_pass(VkDevice d) {
  VkAttachmentDescription attachments[2] = {};
  attachments[0].format = kColorFormat;
  attachments[1].format = kDepthFormat;
  for (VkAttachmentDescription& a : attachments) {
    a.samples = VK_SAMPLE_COUNT_1_BIT;
    a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    a.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  }
  const VkAttachmentReference color{0, kFeedbackLayout}, depth{1, kFeedbackLayout};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  subpass.pDepthStencilAttachment = &depth;
  VkSubpassDependency dependencies[2] = {};
  dependencies[0].srcSubpass = 0;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependencies[0].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
  dependencies[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[0].dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  dependencies[0].dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT | VK_DEPENDENCY_FEEDBACK_LOOP_BIT_EXT;
  // The copies after the pass read what it stored.
  dependencies[1].srcSubpass = 0;
  dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = 2;
  info.pAttachments = attachments;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 2;
  info.pDependencies = dependencies;
  VkRenderPass pass = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateRenderPass(d, &info, nullptr, &pass), VK_SUCCESS);
  return pass;
}

// A full-screen pipeline: the writer's depth test always passes and writes; the reader (made for
// feedback loops on both attachments) leaves depth as it is.
VkPipeline make_pipeline(VkDevice d, VkRenderPass pass, VkPipelineLayout layout, const char* fragment_shader,
                         bool reader) {
  VkShaderModule vs = create_test_shader_module(d, "fullscreen.vert");
  VkShaderModule fs = create_test_shader_module(d, fragment_shader);
  const VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo input_assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  const VkRect2D scissor{{0, 0}, {reader ? kSize / 2 : kSize, kSize}};  // the reader: the left half
  VkPipelineViewportStateCreateInfo viewports{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewports.viewportCount = viewports.scissorCount = 1;
  viewports.pViewports = &viewport;
  viewports.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = VK_TRUE;
  depth.depthWriteEnable = !reader;
  depth.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  VkPipelineColorBlendAttachmentState attachment{};
  attachment.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &attachment;
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.flags = reader ? VK_PIPELINE_CREATE_COLOR_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT |
                            VK_PIPELINE_CREATE_DEPTH_STENCIL_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT
                      : 0;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &input_assembly;
  info.pViewportState = &viewports;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.layout = layout;
  info.renderPass = pass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
  vkDestroyShaderModule(d, vs, nullptr);
  vkDestroyShaderModule(d, fs, nullptr);
  return pipeline;
}

uint8_t unorm8(float v) { return uint8_t(std::lround(std::fmin(std::fmax(v, 0.0f), 1.0f) * 255.0f)); }

TEST_F(AttachmentFeedbackLoopTest, LaterDrawSamplesWhatEarlierDrawsWroteToItsAttachments) {
  VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT};
  const bool has = query_extension_features(physical_device(), VK_EXT_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_EXTENSION_NAME, features);
  REQUIRE_ON_KILN(has && features.attachmentFeedbackLoopLayout, "VK_EXT_attachment_feedback_loop_layout");
  TestDevice* device = create_device_with_extension(features, VK_EXT_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_EXTENSION_NAME);
  ASSERT_NE(device, nullptr);
  VkDevice d = device->handle();

  constexpr VkImageUsageFlags kUsage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT |
                                       VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  const Image color = device->create_image(VK_IMAGE_TYPE_2D, kColorFormat, {kSize, kSize, 1}, 1, 1, 0,
                                           kUsage | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
  const Image depth = device->create_image(VK_IMAGE_TYPE_2D, kDepthFormat, {kSize, kSize, 1}, 1, 1, 0,
                                           kUsage | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
  const VkImageView color_view = make_view(d, color.image, kColorFormat, VK_IMAGE_ASPECT_COLOR_BIT);
  const VkImageView depth_view = make_view(d, depth.image, kDepthFormat, VK_IMAGE_ASPECT_DEPTH_BIT);
  const VkRenderPass pass = make_render_pass(d);
  const VkImageView views[2] = {color_view, depth_view};
  VkFramebufferCreateInfo framebuffer_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  framebuffer_info.renderPass = pass;
  framebuffer_info.attachmentCount = 2;
  framebuffer_info.pAttachments = views;
  framebuffer_info.width = framebuffer_info.height = kSize;
  framebuffer_info.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateFramebuffer(d, &framebuffer_info, nullptr, &framebuffer), VK_SUCCESS);

  VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkSampler sampler = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSampler(d, &sampler_info, nullptr, &sampler), VK_SUCCESS);
  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo set_layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_layout_info.bindingCount = 2;
  set_layout_info.pBindings = bindings;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorSetLayout(d, &set_layout_info, nullptr, &set_layout), VK_SUCCESS);
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout), VK_SUCCESS);
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorPool(d, &pool_info, nullptr, &pool), VK_SUCCESS);
  VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  set_info.descriptorPool = pool;
  set_info.descriptorSetCount = 1;
  set_info.pSetLayouts = &set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateDescriptorSets(d, &set_info, &set), VK_SUCCESS);
  const VkDescriptorImageInfo images[2] = {{sampler, color_view, kFeedbackLayout}, {sampler, depth_view, kFeedbackLayout}};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.descriptorCount = 2;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = images;
  vkUpdateDescriptorSets(d, 1, &write, 0, nullptr);

  const VkPipeline writer = make_pipeline(d, pass, layout, "feedback_loop_write.frag", false);
  const VkPipeline reader = make_pipeline(d, pass, layout, "feedback_loop_read.frag", true);
  device->run_commands([&](VkCommandBuffer cmd) {
    VkClearValue clears[2] = {};
    clears[1].depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, {kSize, kSize}};
    begin.clearValueCount = 2;
    begin.pClearValues = clears;
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, writer);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                         VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                         VK_DEPENDENCY_BY_REGION_BIT | VK_DEPENDENCY_FEEDBACK_LOOP_BIT_EXT, 1, &barrier, 0, nullptr, 0,
                         nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, reader);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRenderPass(cmd);
  });

  const std::vector<uint8_t> pixels = device->read_image(color, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  const std::vector<uint8_t> depths = device->read_image(depth, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  int mismatches = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const auto depth_at = [](uint32_t px, uint32_t py) { return (float(px) + 0.5f + float(py) + 0.5f) / 256.0f; };
      const auto red_at = [](uint32_t px) { return unorm8((float(px) + 0.5f) / 128.0f); };
      const float written_depth = depth_at(x, y);
      const uint8_t green = unorm8((float(y) + 0.5f) / 128.0f);
      const uint32_t mirror = kSize - 1 - x;
      const bool left = x < kSize / 2;
      const uint8_t want[4] = {left ? uint8_t(255 - red_at(mirror)) : red_at(x), left ? uint8_t(255 - green) : green,
                               left ? unorm8(depth_at(mirror, y)) : uint8_t(128), 255};
      const uint8_t* got = &pixels[(y * kSize + x) * 4];
      float stored_depth;
      std::memcpy(&stored_depth, &depths[(y * kSize + x) * 4], 4);
      bool same = std::fabs(stored_depth - written_depth) < 1e-6f;  // the reader writes no depth
      for (int c = 0; c < 4; ++c) same = same && std::abs(int(got[c]) - int(want[c])) <= 1;
      if (!same && ++mismatches <= 5)
        ADD_FAILURE() << "pixel (" << x << ", " << y << "): " << int(got[0]) << " " << int(got[1]) << " " << int(got[2])
                      << " " << int(got[3]) << ", depth " << stored_depth << "; want " << int(want[0]) << " "
                      << int(want[1]) << " " << int(want[2]) << " 255, depth " << written_depth;
    }
  EXPECT_EQ(mismatches, 0);

  vkDestroyPipeline(d, reader, nullptr);
  vkDestroyPipeline(d, writer, nullptr);
  vkDestroyDescriptorPool(d, pool, nullptr);
  vkDestroyPipelineLayout(d, layout, nullptr);
  vkDestroyDescriptorSetLayout(d, set_layout, nullptr);
  vkDestroySampler(d, sampler, nullptr);
  vkDestroyFramebuffer(d, framebuffer, nullptr);
  vkDestroyRenderPass(d, pass, nullptr);
  vkDestroyImageView(d, depth_view, nullptr);
  vkDestroyImageView(d, color_view, nullptr);
}

}  // namespace
}  // namespace kiln::test
