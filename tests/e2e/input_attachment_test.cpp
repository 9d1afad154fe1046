// Input attachments: a two-subpass render pass whose first subpass draws a coloured rectangle into
// attachment 0 and whose second reads it with subpassLoad at every pixel and writes it swizzled
// into attachment 1 — every pixel of both attachments is checked.
#include <array>
#include <span>
#include <vector>

#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 32;
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;

class InputAttachmentTest : public VulkanTest {};

VkPipeline make_pipeline(VkDevice d, VkRenderPass pass, uint32_t subpass, VkPipelineLayout layout,
                         const char* vertex_shader, const char* fragment_shader, bool colored_vertices,
                         VkPipelineColorBlendStateCreateFlags blend_flags = 0) {
  VkShaderModule vs = create_test_shader_module(d, vertex_shader);
  VkShaderModule fs = create_test_shader_module(d, fragment_shader);
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
  const DrawJobOptions colored = colored_options();
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  if (colored_vertices) {
    vertex_input.vertexBindingDescriptionCount = uint32_t(colored.vertex_bindings.size());
    vertex_input.pVertexBindingDescriptions = colored.vertex_bindings.data();
    vertex_input.vertexAttributeDescriptionCount = uint32_t(colored.vertex_attributes.size());
    vertex_input.pVertexAttributeDescriptions = colored.vertex_attributes.data();
  }
  VkPipelineInputAssemblyStateCreateInfo input_assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  const VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo viewports{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewports.viewportCount = viewports.scissorCount = 1;
  viewports.pViewports = &viewport;
  viewports.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  const VkPipelineColorBlendAttachmentState attachment{VK_FALSE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                                       VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                                       VK_BLEND_OP_ADD, 0xF};
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.flags = blend_flags;
  blend.attachmentCount = 1;
  blend.pAttachments = &attachment;
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &input_assembly;
  info.pViewportState = &viewports;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pColorBlendState = &blend;
  info.layout = layout;
  info.renderPass = pass;
  info.subpass = subpass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
  vkDestroyShaderModule(d, vs, nullptr);
  vkDestroyShaderModule(d, fs, nullptr);
  return pipeline;
}

// Set 0 with an array of input attachments (binding 0, fragment stage) holding `views`, and its
// pipeline layout.
struct InputAttachmentSet {
  VkDevice d;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  InputAttachmentSet(VkDevice device, VkImageView view, VkImageLayout image_layout)
      : InputAttachmentSet(device, std::vector<VkImageView>{view}, image_layout) {}
  InputAttachmentSet(VkDevice device, const std::vector<VkImageView>& views, VkImageLayout image_layout) : d(device) {
    const uint32_t count = static_cast<uint32_t>(views.size());
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, count, VK_SHADER_STAGE_FRAGMENT_BIT,
                                               nullptr};
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.bindingCount = 1;
    set_info.pBindings = &binding;
    EXPECT_EQ(vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout), VK_SUCCESS);
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    EXPECT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout), VK_SUCCESS);
    const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, count};
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &pool_size;
    EXPECT_EQ(vkCreateDescriptorPool(d, &pool_info, nullptr, &pool), VK_SUCCESS);
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &set_layout;
    EXPECT_EQ(vkAllocateDescriptorSets(d, &alloc, &set), VK_SUCCESS);
    std::vector<VkDescriptorImageInfo> image_infos;
    for (VkImageView view : views) image_infos.push_back({VK_NULL_HANDLE, view, image_layout});
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.descriptorCount = count;
    write.descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
    write.pImageInfo = image_infos.data();
    vkUpdateDescriptorSets(d, 1, &write, 0, nullptr);
  }
  ~InputAttachmentSet() {
    vkDestroyDescriptorPool(d, pool, nullptr);
    vkDestroyPipelineLayout(d, layout, nullptr);
    vkDestroyDescriptorSetLayout(d, set_layout, nullptr);
  }
};

// A kSize x kSize colour image usable as colour and input attachment, and a 2D view of it.
struct AttachmentImage {
  Image image;
  VkImageView view = VK_NULL_HANDLE;
};
AttachmentImage make_attachment_image(TestDevice& dev) {
  AttachmentImage a;
  a.image = dev.create_image(VK_IMAGE_TYPE_2D, kFormat, VkExtent3D{kSize, kSize, 1}, 1, 1, 0,
                             VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
                                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = a.image.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = kFormat;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  EXPECT_EQ(vkCreateImageView(dev.handle(), &view, nullptr, &a.view), VK_SUCCESS);
  return a;
}

// A render pass over `views` (kFormat colour attachments, cleared on load, stored and left in
// TRANSFER_SRC_OPTIMAL) with `subpasses` and `dependencies`, and its framebuffer.
struct PassWithFramebuffer {
  VkRenderPass pass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
};
PassWithFramebuffer make_pass(VkDevice d, std::span<const VkImageView> views, std::span<const VkSubpassDescription> subpasses,
                              std::span<const VkSubpassDependency> dependencies) {
  const VkAttachmentDescription attachment{0, kFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                           VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                           VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
                                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
  const std::vector<VkAttachmentDescription> attachments(views.size(), attachment);
  VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  pass_info.attachmentCount = uint32_t(attachments.size());
  pass_info.pAttachments = attachments.data();
  pass_info.subpassCount = uint32_t(subpasses.size());
  pass_info.pSubpasses = subpasses.data();
  pass_info.dependencyCount = uint32_t(dependencies.size());
  pass_info.pDependencies = dependencies.data();
  PassWithFramebuffer r;
  EXPECT_EQ(vkCreateRenderPass(d, &pass_info, nullptr, &r.pass), VK_SUCCESS);
  VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb_info.renderPass = r.pass;
  fb_info.attachmentCount = uint32_t(views.size());
  fb_info.pAttachments = views.data();
  fb_info.width = fb_info.height = kSize;
  fb_info.layers = 1;
  EXPECT_EQ(vkCreateFramebuffer(d, &fb_info, nullptr, &r.framebuffer), VK_SUCCESS);
  return r;
}

// Subpass 1 reads what subpass 0 wrote, and the colour is copied out after the pass.
constexpr VkSubpassDependency kSecondSubpassReadsTheFirst[2] = {
    {0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
     VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_INPUT_ATTACHMENT_READ_BIT, VK_DEPENDENCY_BY_REGION_BIT},
    {1, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
     VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, 0}};

TEST_F(InputAttachmentTest, SecondSubpassReadsTheFirstSubpassColourAtEachPixel) {
  TestDevice& dev = device();
  VkDevice d = dev.handle();
  AttachmentImage images[2] = {make_attachment_image(dev), make_attachment_image(dev)};
  VkImageView views[2] = {images[0].view, images[1].view};
  // Attachment 0: written by subpass 0, read as an input by subpass 1. Attachment 1: subpass 1's output.
  const VkAttachmentReference first_out{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference second_in{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  const VkAttachmentReference second_out{1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpasses[2] = {};
  subpasses[0].pipelineBindPoint = subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpasses[0].colorAttachmentCount = 1;
  subpasses[0].pColorAttachments = &first_out;
  subpasses[1].inputAttachmentCount = 1;
  subpasses[1].pInputAttachments = &second_in;
  subpasses[1].colorAttachmentCount = 1;
  subpasses[1].pColorAttachments = &second_out;
  const auto [pass, framebuffer] = make_pass(d, views, subpasses, kSecondSubpassReadsTheFirst);
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  InputAttachmentSet input(d, views[0], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout empty_layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &empty_layout), VK_SUCCESS);

  VkPipeline draw_rect = make_pipeline(d, pass, 0, empty_layout, "draw_colored.vert", "draw_colored.frag", true);
  VkPipeline swizzle =
      make_pipeline(d, pass, 1, input.layout, "gfx_api_passthrough.vert", "input_attachment_swizzle.frag", false);

  // A rectangle over pixels [8, 24) x [4, 20) in (0.2, 0.4, 0.6, 1) on a (0, 0, 1, 1) clear.
  const std::array<float, 4> kRect{0.2f, 0.4f, 0.6f, 1.0f};
  Buffer vb = vertex_buffer(dev, rect(-0.5f, -0.75f, 0.5f, 0.25f, 0.5f, kRect));
  dev.run_commands([&](VkCommandBuffer cb) {
    VkClearValue clears[2] = {};
    clears[0].color = {{0.0f, 0.0f, 1.0f, 1.0f}};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, {kSize, kSize}};
    begin.clearValueCount = 2;
    begin.pClearValues = clears;
    vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, draw_rect);
    bind_vertices(cb, vb);
    vkCmdDraw(cb, 6, 1, 0, 0);
    vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, swizzle);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, input.layout, 0, 1, &input.set, 0, nullptr);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRenderPass(cb);
  });

  const std::vector<uint8_t> first = dev.read_image(images[0].image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0,
                                                     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  const std::vector<uint8_t> second = dev.read_image(images[1].image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0,
                                                      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  PixelCheck check(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const size_t p = size_t(y) * kSize + x;
      const bool in_rect = x >= 8 && x < 24 && y >= 4 && y < 20;
      // 0.2 / 0.4 / 0.6 in UNORM8: 51, 102, 153.
      const uint8_t want[4] = {uint8_t(in_rect ? 51 : 0), uint8_t(in_rect ? 102 : 0), uint8_t(in_rect ? 153 : 255), 255};
      const uint8_t swizzled[4] = {want[1], want[2], want[0], 255};
      for (int c = 0; c < 4; ++c) {
        check.expect_eq(p, first[p * 4 + c], want[c], "subpass 0 colour");
        check.expect_eq(p, second[p * 4 + c], swizzled[c], "subpass 1 swizzled input");
      }
    }

  vkDestroyPipeline(d, draw_rect, nullptr);
  vkDestroyPipeline(d, swizzle, nullptr);
  vkDestroyPipelineLayout(d, empty_layout, nullptr);
  vkDestroyFramebuffer(d, framebuffer, nullptr);
  vkDestroyRenderPass(d, pass, nullptr);
  for (VkImageView v : views) vkDestroyImageView(d, v, nullptr);
}

// An array of two input attachments indexed per fragment (descriptor indexing): subpass 0 clears
// attachments 0 and 1 to two colours, subpass 1 reads input (x + y) % 2 at every pixel into
// attachment 2, which must show the checkerboard.
TEST_F(InputAttachmentTest, ArrayIndexedPerFragment) {
  REQUIRE_ON_KILN(features().v12.shaderInputAttachmentArrayDynamicIndexing &&
                      features().v12.shaderInputAttachmentArrayNonUniformIndexing,
                  "shaderInputAttachmentArrayDynamicIndexing and ...NonUniformIndexing");
  DeviceFeatures enabled;
  enabled.v12.shaderInputAttachmentArrayDynamicIndexing = VK_TRUE;
  enabled.v12.shaderInputAttachmentArrayNonUniformIndexing = VK_TRUE;
  TestDevice& dev = *create_device(enabled);
  VkDevice d = dev.handle();
  AttachmentImage images[3] = {make_attachment_image(dev), make_attachment_image(dev), make_attachment_image(dev)};
  VkImageView views[3] = {images[0].view, images[1].view, images[2].view};
  const VkAttachmentReference cleared[2] = {{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
                                            {1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}};
  const VkAttachmentReference inputs[2] = {{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                                           {1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
  const VkAttachmentReference output{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpasses[2] = {};
  subpasses[0].pipelineBindPoint = subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpasses[0].colorAttachmentCount = 2;
  subpasses[0].pColorAttachments = cleared;
  subpasses[1].inputAttachmentCount = 2;
  subpasses[1].pInputAttachments = inputs;
  subpasses[1].colorAttachmentCount = 1;
  subpasses[1].pColorAttachments = &output;
  const auto [pass, framebuffer] = make_pass(d, views, subpasses, kSecondSubpassReadsTheFirst);
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);
  InputAttachmentSet input(d, {views[0], views[1]}, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  VkPipeline checker =
      make_pipeline(d, pass, 1, input.layout, "gfx_api_passthrough.vert", "input_attachment_array.frag", false);

  dev.run_commands([&](VkCommandBuffer cb) {
    VkClearValue clears[3] = {};
    clears[0].color = {{0.2f, 0.4f, 0.6f, 1.0f}};
    clears[1].color = {{1.0f, 0.8f, 0.0f, 1.0f}};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, {kSize, kSize}};
    begin.clearValueCount = 3;
    begin.pClearValues = clears;
    vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, checker);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, input.layout, 0, 1, &input.set, 0, nullptr);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRenderPass(cb);
  });

  const std::vector<uint8_t> result = dev.read_image(images[2].image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0,
                                                      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  const uint8_t colours[2][4] = {{51, 102, 153, 255}, {255, 204, 0, 255}};  // the clears in UNORM8
  PixelCheck check(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const size_t p = size_t(y) * kSize + x;
      for (int c = 0; c < 4; ++c) check.expect_eq(p, result[p * 4 + c], colours[(x + y) % 2][c], "input (x + y) % 2");
    }

  vkDestroyPipeline(d, checker, nullptr);
  vkDestroyFramebuffer(d, framebuffer, nullptr);
  vkDestroyRenderPass(d, pass, nullptr);
  for (VkImageView v : views) vkDestroyImageView(d, v, nullptr);
}

// VK_EXT_rasterization_order_attachment_access: ten identical full-screen triangles in one draw,
// each adding (1, 2) / 255 to what the colour attachment holds, read through the same attachment
// as an input attachment. With rasterization order access every fragment sees the one before it,
// without barriers: every pixel ends at exactly ten increments.
TEST_F(InputAttachmentTest, RasterizationOrderAccessSeesEveryEarlierFragment) {
  VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT order{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT};
  const char* name = VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME;
  REQUIRE_ON_KILN(query_extension_features(physical_device(), name, order) && order.rasterizationOrderColorAttachmentAccess,
                  "VK_EXT_rasterization_order_attachment_access");
  order.rasterizationOrderDepthAttachmentAccess = order.rasterizationOrderStencilAttachmentAccess = VK_FALSE;
  TestDevice& dev = *create_device_with_extension(order, name);
  VkDevice d = dev.handle();
  AttachmentImage target = make_attachment_image(dev);
  const VkAttachmentReference feedback{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{};
  subpass.flags = VK_SUBPASS_DESCRIPTION_RASTERIZATION_ORDER_ATTACHMENT_COLOR_ACCESS_BIT_EXT;
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.inputAttachmentCount = 1;
  subpass.pInputAttachments = &feedback;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &feedback;
  const VkSubpassDependency to_transfer{0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                        VK_ACCESS_TRANSFER_READ_BIT, 0};
  const auto [pass, framebuffer] = make_pass(d, {&target.view, 1}, {&subpass, 1}, {&to_transfer, 1});
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);
  InputAttachmentSet input(d, target.view, VK_IMAGE_LAYOUT_GENERAL);
  VkPipeline accumulate = make_pipeline(d, pass, 0, input.layout, "gfx_api_passthrough.vert",
                                        "input_attachment_accumulate.frag", false,
                                        VK_PIPELINE_COLOR_BLEND_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_BIT_EXT);
  dev.run_commands([&](VkCommandBuffer cb) {
    VkClearValue clear{};
    clear.color = {{0.0f, 0.0f, 0.5f, 1.0f}};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, {kSize, kSize}};
    begin.clearValueCount = 1;
    begin.pClearValues = &clear;
    vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, accumulate);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, input.layout, 0, 1, &input.set, 0, nullptr);
    vkCmdDraw(cb, 30, 1, 0, 0);  // ten times the same full-screen triangle
    vkCmdEndRenderPass(cb);
  });
  const std::vector<uint8_t> pixels =
      dev.read_image(target.image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  check_rgba8(pixels, "ten ordered increments", [](uint32_t, uint32_t) { return std::array<uint8_t, 4>{10, 20, 128, 255}; },
              0, kSize, kSize);
  vkDestroyPipeline(d, accumulate, nullptr);
  vkDestroyFramebuffer(d, framebuffer, nullptr);
  vkDestroyRenderPass(d, pass, nullptr);
  vkDestroyImageView(d, target.view, nullptr);
}

}  // namespace
}  // namespace kiln::test
