// Render pass instances without draws: load-op clears over the render area and layers, LOAD and
// store, vkCmdClearAttachments (also from a secondary command buffer), imageless framebuffers and
// dynamic rendering — everything read back by copies. Expected texels are packed on the host with
// memory/format_pack (the reference these tests were also checked against lavapipe with).
#include <cstring>
#include <vector>

#include "e2e/vk_fixture.h"
#include "memory/format_pack.h"

using namespace kiln::test;

namespace {

constexpr VkImageLayout kGeneral = VK_IMAGE_LAYOUT_GENERAL;

bool is_depth_stencil(VkFormat format) {
  return format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D32_SFLOAT_S8_UINT ||
         format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_S8_UINT || format == VK_FORMAT_X8_D24_UNORM_PACK32;
}

// One aspect's texel as the copy to a buffer gives it.
std::vector<uint8_t> expected_texel(VkFormat format, VkImageAspectFlags aspect, const VkClearValue& value) {
  std::vector<uint8_t> texel(16, 0);
  if (aspect == VK_IMAGE_ASPECT_COLOR_BIT) kiln::fmt::pack_color(format, value.color, texel.data());
  else if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT) kiln::fmt::pack_depth(format, value.depthStencil.depth, texel.data());
  else kiln::fmt::pack_stencil(format, value.depthStencil.stencil, texel.data());
  texel.resize(texel_size(format, aspect));
  return texel;
}

void begin_render_pass(VkCommandBuffer cmd, VkRenderPass pass, VkFramebuffer fb, const VkRect2D& area,
                       const std::vector<VkClearValue>& clears) {
  VkRenderPassBeginInfo begin{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = pass, begin.framebuffer = fb, begin.renderArea = area;
  begin.clearValueCount = static_cast<uint32_t>(clears.size()), begin.pClearValues = clears.data();
  vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
}

bool inside(const VkRect2D& r, uint32_t x, uint32_t y) {
  return int32_t(x) >= r.offset.x && int32_t(x) < r.offset.x + int32_t(r.extent.width) && int32_t(y) >= r.offset.y &&
         int32_t(y) < r.offset.y + int32_t(r.extent.height);
}

class RenderPassTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    REQUIRE_ON_KILN(features().v13.dynamicRendering && features().v12.imagelessFramebuffer,
                    "dynamicRendering and imagelessFramebuffer");
    DeviceFeatures enabled;
    enabled.v13.dynamicRendering = VK_TRUE;
    enabled.v13.synchronization2 = features().v13.synchronization2;
    enabled.v12.imagelessFramebuffer = VK_TRUE;
    dev_ = create_device(enabled);
    ASSERT_NE(dev_, nullptr);
  }

  bool supports(VkFormat format) {
    VkFormatProperties p;
    vkGetPhysicalDeviceFormatProperties(physical_device(), format, &p);
    const VkFormatFeatureFlags need =
        is_depth_stencil(format) ? VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
    return (p.optimalTilingFeatures & need) == need;
  }

  // An attachment image in GENERAL layout, every layer filled with `fill`.
  Image make_image(VkFormat format, uint32_t width, uint32_t height, uint32_t layers, const VkClearValue& fill) {
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                    (is_depth_stencil(format) ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                                                              : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    Image image = dev_->create_image(VK_IMAGE_TYPE_2D, format, {width, height, 1}, 1, layers, 0, usage);
    const VkImageAspectFlags aspects = aspects_of(format);
    dev_->run_commands([&](VkCommandBuffer cmd) {
      transition(cmd, image.image, aspects, VK_IMAGE_LAYOUT_UNDEFINED, kGeneral);
      const VkImageSubresourceRange range{aspects, 0, 1, 0, layers};
      if (is_depth_stencil(format)) vkCmdClearDepthStencilImage(cmd, image.image, kGeneral, &fill.depthStencil, 1, &range);
      else vkCmdClearColorImage(cmd, image.image, kGeneral, &fill.color, 1, &range);
      full_barrier(cmd);
    });
    return image;
  }

  static VkImageAspectFlags aspects_of(VkFormat format) {
    switch (format) {
      case VK_FORMAT_D16_UNORM: case VK_FORMAT_D32_SFLOAT: case VK_FORMAT_X8_D24_UNORM_PACK32: return VK_IMAGE_ASPECT_DEPTH_BIT;
      case VK_FORMAT_S8_UINT: return VK_IMAGE_ASPECT_STENCIL_BIT;
      case VK_FORMAT_D32_SFLOAT_S8_UINT: case VK_FORMAT_D24_UNORM_S8_UINT:
        return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
      default: return VK_IMAGE_ASPECT_COLOR_BIT;
    }
  }

  VkImageView make_view(const Image& image, uint32_t base_layer, uint32_t layer_count) {
    VkImageViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = image.image;
    info.viewType = layer_count > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
    info.format = image.info.format;
    info.subresourceRange = {aspects_of(image.info.format), 0, 1, base_layer, layer_count};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateImageView(dev_->handle(), &info, nullptr, &view));
    VkDevice d = dev_->handle();
    dev_->defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
    return view;
  }

  // Checks one aspect of one layer: `value` inside `rect`, `outside` elsewhere (null rect: all `value`).
  void expect_layer(const Image& image, VkImageAspectFlags aspect, uint32_t layer, const VkRect2D* rect,
                    const VkClearValue& value, const VkClearValue& outside, const char* what) {
    // Copies read best from TRANSFER_SRC_OPTIMAL (the validation layer warns about GENERAL).
    dev_->run_commands([&](VkCommandBuffer cmd) {
      transition(cmd, image.image, aspects_of(image.info.format), kGeneral, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    });
    const std::vector<uint8_t> bytes = dev_->read_image(image, aspect, 0, layer, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    dev_->run_commands([&](VkCommandBuffer cmd) {
      transition(cmd, image.image, aspects_of(image.info.format), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kGeneral);
    });
    const VkFormat format = image.info.format;
    const std::vector<uint8_t> in = expected_texel(format, aspect, value), out = expected_texel(format, aspect, outside);
    const uint32_t size = static_cast<uint32_t>(in.size());
    uint32_t wrong = 0;
    for (uint32_t y = 0; y < image.info.extent.height; ++y) {
      for (uint32_t x = 0; x < image.info.extent.width; ++x) {
        const std::vector<uint8_t>& want = (!rect || inside(*rect, x, y)) ? in : out;
        const uint8_t* got = bytes.data() + (y * image.info.extent.width + x) * size;
        if (std::memcmp(got, want.data(), size) != 0 && wrong++ < 3)
          ADD_FAILURE() << what << ": layer " << layer << " texel (" << x << "," << y << ") aspect " << aspect;
      }
    }
    EXPECT_EQ(wrong, 0u) << what;
  }

  VkRenderPass make_render_pass(std::vector<VkAttachmentDescription> attachments, const VkSubpassDescription& subpass) {
    VkRenderPassCreateInfo info{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    info.attachmentCount = static_cast<uint32_t>(attachments.size());
    info.pAttachments = attachments.data();
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    VkRenderPass pass = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateRenderPass(dev_->handle(), &info, nullptr, &pass));
    VkDevice d = dev_->handle();
    dev_->defer_destroy([d, pass] { vkDestroyRenderPass(d, pass, nullptr); });
    return pass;
  }

  VkFramebuffer make_framebuffer(VkRenderPass pass, std::vector<VkImageView> views, uint32_t w, uint32_t h, uint32_t layers,
                                 const void* chain = nullptr, VkFramebufferCreateFlags flags = 0, uint32_t count = 0) {
    VkFramebufferCreateInfo info{.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, .pNext = chain};
    info.flags = flags;
    info.renderPass = pass;
    info.attachmentCount = views.empty() ? count : static_cast<uint32_t>(views.size());
    info.pAttachments = views.empty() ? nullptr : views.data();
    info.width = w, info.height = h, info.layers = layers;
    VkFramebuffer fb = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateFramebuffer(dev_->handle(), &info, nullptr, &fb));
    VkDevice d = dev_->handle();
    dev_->defer_destroy([d, fb] { vkDestroyFramebuffer(d, fb, nullptr); });
    return fb;
  }

  static VkAttachmentDescription attachment(VkFormat format, VkAttachmentLoadOp load,
                                            VkAttachmentLoadOp stencil_load = VK_ATTACHMENT_LOAD_OP_DONT_CARE) {
    VkAttachmentDescription a{};
    a.format = format;
    a.samples = VK_SAMPLE_COUNT_1_BIT;
    a.loadOp = load;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.stencilLoadOp = stencil_load;
    a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.initialLayout = kGeneral;
    a.finalLayout = kGeneral;
    return a;
  }

  TestDevice* dev_ = nullptr;
};

VkClearValue color(float r, float g, float b, float a) {
  VkClearValue v{};
  v.color = {{r, g, b, a}};
  return v;
}
VkClearValue icolor(int32_t r, int32_t g, int32_t b, int32_t a) {
  VkClearValue v{};
  v.color.int32[0] = r, v.color.int32[1] = g, v.color.int32[2] = b, v.color.int32[3] = a;
  return v;
}
VkClearValue depth_stencil(float d, uint32_t s) {
  VkClearValue v{};
  v.depthStencil = {d, s};
  return v;
}

// LOAD_OP_CLEAR writes the render area of every framebuffer layer of the view and nothing else:
// not the texels outside the area, not the image layer outside the view.
TEST_F(RenderPassTest, LoadOpClearCoversRenderAreaOfEveryLayer) {
  struct Case {
    VkFormat format;
    VkClearValue fill, clear;
  };
  const Case cases[] = {
      {VK_FORMAT_R8G8B8A8_UNORM, color(0.0f, 0.2f, 0.8f, 0.4f), color(0.2f, 0.4f, 0.6f, 1.0f)},  // no rounding ties
      {VK_FORMAT_R32_SFLOAT, color(-1.0f, 0, 0, 0), color(3.25f, 0, 0, 0)},
      {VK_FORMAT_R8G8B8A8_SINT, icolor(5, 6, 7, 8), icolor(-100, 50, 127, -128)},
      {VK_FORMAT_R16G16B16A16_UINT, icolor(1, 2, 3, 4), icolor(65535, 300, 0, 7)},
  };
  const VkRect2D area{{1, 2}, {5, 3}};
  for (const Case& c : cases) {
    if (!supports(c.format)) continue;
    SCOPED_TRACE(c.format);
    Image image = make_image(c.format, 8, 6, 3, c.fill);
    VkAttachmentReference ref{0, kGeneral};
    VkSubpassDescription subpass{.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1,
                                 .pColorAttachments = &ref};
    VkRenderPass pass = make_render_pass({attachment(c.format, VK_ATTACHMENT_LOAD_OP_CLEAR)}, subpass);
    VkFramebuffer fb = make_framebuffer(pass, {make_view(image, 1, 2)}, 8, 6, 2);
    dev_->run_commands([&](VkCommandBuffer cmd) {
      begin_render_pass(cmd, pass, fb, area, {c.clear});
      vkCmdEndRenderPass(cmd);
    });
    expect_layer(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, &area, c.fill, c.fill, "layer outside the view");
    expect_layer(image, VK_IMAGE_ASPECT_COLOR_BIT, 1, &area, c.clear, c.fill, "first view layer");
    expect_layer(image, VK_IMAGE_ASPECT_COLOR_BIT, 2, &area, c.clear, c.fill, "second view layer");
  }
}

// Depth and stencil have their own load ops: CLEAR one aspect, LOAD the other, then the reverse.
TEST_F(RenderPassTest, DepthAndStencilLoadOpsAreIndependent) {
  for (VkFormat format : {VK_FORMAT_D32_SFLOAT_S8_UINT}) {  // (a D24 copy's top byte is undefined)
    if (!supports(format)) continue;
    SCOPED_TRACE(format);
    const VkClearValue fill = depth_stencil(1.0f, 7), clear = depth_stencil(0.25f, 0x5A);
    Image image = make_image(format, 7, 5, 1, fill);
    VkAttachmentReference ref{0, kGeneral};
    VkSubpassDescription subpass{.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .pDepthStencilAttachment = &ref};
    VkRenderPass clear_depth =
        make_render_pass({attachment(format, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_LOAD_OP_LOAD)}, subpass);
    VkRenderPass clear_stencil =
        make_render_pass({attachment(format, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_CLEAR)}, subpass);
    const VkImageView view = make_view(image, 0, 1);
    const VkRect2D depth_area{{0, 1}, {4, 4}}, stencil_area{{3, 0}, {4, 2}};
    for (auto [pass, area] : {std::pair{clear_depth, depth_area}, std::pair{clear_stencil, stencil_area}}) {
      VkFramebuffer fb = make_framebuffer(pass, {view}, 7, 5, 1);
      dev_->run_commands([&](VkCommandBuffer cmd) {
        begin_render_pass(cmd, pass, fb, area, {clear});
        vkCmdEndRenderPass(cmd);
      });
    }
    expect_layer(image, VK_IMAGE_ASPECT_DEPTH_BIT, 0, &depth_area, clear, fill, "depth");
    expect_layer(image, VK_IMAGE_ASPECT_STENCIL_BIT, 0, &stencil_area, clear, fill, "stencil");
  }
}

// vkCreateRenderPass2 with two subpasses: an attachment first used in the second subpass is cleared
// (at that subpass), LOAD keeps contents, and NextSubpass2/EndRenderPass2 close the instance.
TEST_F(RenderPassTest, RenderPass2ClearsAttachmentsAtTheirFirstSubpass) {
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  const VkClearValue fill = color(0, 0, 0, 1), clear0 = color(1, 0, 0, 1), clear1 = color(0, 0, 1, 0.5f);
  Image a = make_image(format, 6, 6, 1, fill), b = make_image(format, 6, 6, 1, fill), c = make_image(format, 6, 6, 1, fill);
  VkAttachmentDescription2 desc[3];
  for (int i = 0; i < 3; ++i) {
    desc[i] = {.sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
    desc[i].format = format, desc[i].samples = VK_SAMPLE_COUNT_1_BIT;
    desc[i].loadOp = i == 2 ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
    desc[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    desc[i].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE, desc[i].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    desc[i].initialLayout = desc[i].finalLayout = kGeneral;
  }
  VkAttachmentReference2 refs[3];
  for (uint32_t i = 0; i < 3; ++i)
    refs[i] = {.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, .attachment = i, .layout = kGeneral,
               .aspectMask = VK_IMAGE_ASPECT_COLOR_BIT};
  VkSubpassDescription2 subpasses[2] = {
      {.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2, .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .colorAttachmentCount = 1, .pColorAttachments = &refs[0]},
      {.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2, .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
       .colorAttachmentCount = 2, .pColorAttachments = &refs[1]},
  };
  VkSubpassDependency2 dependency{.sType = VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2};
  dependency.srcSubpass = 0, dependency.dstSubpass = 1;
  dependency.srcStageMask = dependency.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependency.srcAccessMask = dependency.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  VkRenderPassCreateInfo2 info{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
  info.attachmentCount = 3, info.pAttachments = desc;
  info.subpassCount = 2, info.pSubpasses = subpasses;
  info.dependencyCount = 1, info.pDependencies = &dependency;
  VkRenderPass pass = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateRenderPass2(dev_->handle(), &info, nullptr, &pass));
  VkDevice d = dev_->handle();
  dev_->defer_destroy([d, pass] { vkDestroyRenderPass(d, pass, nullptr); });
  VkExtent2D granularity{};
  vkGetRenderAreaGranularity(d, pass, &granularity);
  EXPECT_GE(granularity.width, 1u);
  EXPECT_GE(granularity.height, 1u);

  VkFramebuffer fb = make_framebuffer(pass, {make_view(a, 0, 1), make_view(b, 0, 1), make_view(c, 0, 1)}, 6, 6, 1);
  const VkClearValue clears[3] = {clear0, clear1, color(0.5f, 0.5f, 0.5f, 0.5f)};
  dev_->run_commands([&](VkCommandBuffer cmd) {
    VkRenderPassBeginInfo begin{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass, begin.framebuffer = fb, begin.renderArea = {{0, 0}, {6, 6}};
    begin.clearValueCount = 3, begin.pClearValues = clears;
    VkSubpassBeginInfo subpass_begin{.sType = VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO, .contents = VK_SUBPASS_CONTENTS_INLINE};
    VkSubpassEndInfo subpass_end{.sType = VK_STRUCTURE_TYPE_SUBPASS_END_INFO};
    vkCmdBeginRenderPass2(cmd, &begin, &subpass_begin);
    vkCmdNextSubpass2(cmd, &subpass_begin, &subpass_end);
    vkCmdEndRenderPass2(cmd, &subpass_end);
  });
  expect_layer(a, VK_IMAGE_ASPECT_COLOR_BIT, 0, nullptr, clear0, clear0, "subpass 0 attachment");
  expect_layer(b, VK_IMAGE_ASPECT_COLOR_BIT, 0, nullptr, clear1, clear1, "subpass 1 attachment");
  expect_layer(c, VK_IMAGE_ASPECT_COLOR_BIT, 0, nullptr, fill, fill, "LOAD attachment");
}

// vkCmdClearAttachments clears rects of chosen layers of the current subpass's attachments, both
// inline and from a secondary command buffer that continues the render pass.
TEST_F(RenderPassTest, ClearAttachmentsClearsRectsOfLayers) {
  const VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM, depth_format = VK_FORMAT_D32_SFLOAT;
  ASSERT_TRUE(supports(depth_format));
  const VkClearValue fill = color(0, 0, 0, 0), depth_fill = depth_stencil(1.0f, 0);
  Image col = make_image(color_format, 8, 8, 2, fill), dep = make_image(depth_format, 8, 8, 2, depth_fill);
  VkAttachmentReference color_ref{0, kGeneral}, depth_ref{1, kGeneral};
  VkSubpassDescription subpass{.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1,
                               .pColorAttachments = &color_ref, .pDepthStencilAttachment = &depth_ref};
  VkRenderPass pass = make_render_pass(
      {attachment(color_format, VK_ATTACHMENT_LOAD_OP_LOAD), attachment(depth_format, VK_ATTACHMENT_LOAD_OP_LOAD)}, subpass);
  VkFramebuffer fb = make_framebuffer(pass, {make_view(col, 0, 2), make_view(dep, 0, 2)}, 8, 8, 2);

  const VkClearValue red = color(1, 0, 0, 1), green = color(0, 1, 0, 1), near = depth_stencil(0.5f, 0);
  const VkClearRect rect0{{{0, 0}, {3, 2}}, 0, 1};  // layer 0
  const VkClearRect rect1{{{4, 4}, {4, 4}}, 1, 1};  // layer 1
  const VkClearRect both{{{2, 5}, {2, 3}}, 0, 2};   // both layers, depth only (secondary)
  VkCommandBuffer secondary = dev_->allocate_command_buffer(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBufferInheritanceInfo inheritance{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  inheritance.renderPass = pass, inheritance.subpass = 0, inheritance.framebuffer = fb;
  VkCommandBufferBeginInfo secondary_begin = begin_info(VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT);
  secondary_begin.pInheritanceInfo = &inheritance;
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(secondary, &secondary_begin));
  VkClearAttachment depth_clear{VK_IMAGE_ASPECT_DEPTH_BIT, 0, near};
  vkCmdClearAttachments(secondary, 1, &depth_clear, 1, &both);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(secondary));

  dev_->run_commands([&](VkCommandBuffer cmd) {
    VkRenderPassBeginInfo begin{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass, begin.framebuffer = fb, begin.renderArea = {{0, 0}, {8, 8}};
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    VkClearAttachment clear_red{VK_IMAGE_ASPECT_COLOR_BIT, 0, red}, clear_green{VK_IMAGE_ASPECT_COLOR_BIT, 0, green};
    vkCmdClearAttachments(cmd, 1, &clear_red, 1, &rect0);
    vkCmdClearAttachments(cmd, 1, &clear_green, 1, &rect1);
    vkCmdEndRenderPass(cmd);
    begin.renderPass = pass;
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
    vkCmdExecuteCommands(cmd, 1, &secondary);
    vkCmdEndRenderPass(cmd);
  });
  expect_layer(col, VK_IMAGE_ASPECT_COLOR_BIT, 0, &rect0.rect, red, fill, "colour layer 0");
  expect_layer(col, VK_IMAGE_ASPECT_COLOR_BIT, 1, &rect1.rect, green, fill, "colour layer 1");
  expect_layer(dep, VK_IMAGE_ASPECT_DEPTH_BIT, 0, &both.rect, near, depth_fill, "depth layer 0 (secondary)");
  expect_layer(dep, VK_IMAGE_ASPECT_DEPTH_BIT, 1, &both.rect, near, depth_fill, "depth layer 1 (secondary)");
}

// An imageless framebuffer gets its views at vkCmdBeginRenderPass.
TEST_F(RenderPassTest, ImagelessFramebufferTakesViewsAtBegin) {
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  const VkClearValue fill = color(0, 0, 0, 0), clear = color(0.6f, 0.4f, 0.2f, 1.0f);
  Image image = make_image(format, 5, 4, 1, fill);
  VkAttachmentReference ref{0, kGeneral};
  VkSubpassDescription subpass{.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1,
                               .pColorAttachments = &ref};
  VkRenderPass pass = make_render_pass({attachment(format, VK_ATTACHMENT_LOAD_OP_CLEAR)}, subpass);
  VkFramebufferAttachmentImageInfo image_info{.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO};
  image_info.usage = image.info.usage, image_info.width = 5, image_info.height = 4, image_info.layerCount = 1;
  image_info.viewFormatCount = 1, image_info.pViewFormats = &format;
  VkFramebufferAttachmentsCreateInfo attachments{.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO};
  attachments.attachmentImageInfoCount = 1, attachments.pAttachmentImageInfos = &image_info;
  VkFramebuffer fb = make_framebuffer(pass, {}, 5, 4, 1, &attachments, VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT, 1);
  const VkImageView view = make_view(image, 0, 1);
  const VkRect2D area{{1, 1}, {3, 2}};
  dev_->run_commands([&](VkCommandBuffer cmd) {
    VkRenderPassAttachmentBeginInfo views{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO};
    views.attachmentCount = 1, views.pAttachments = &view;
    VkRenderPassBeginInfo begin{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .pNext = &views};
    begin.renderPass = pass, begin.framebuffer = fb, begin.renderArea = area;
    begin.clearValueCount = 1, begin.pClearValues = &clear;
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdEndRenderPass(cmd);
  });
  expect_layer(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, &area, clear, fill, "imageless");
}

// Dynamic rendering: colour (with an unused slot) and depth/stencil load-op clears over the render
// area of two layers; a second instance with LOAD keeps everything; and every Vulkan 1.3 dynamic
// state command can be recorded inside an instance without disturbing it.
TEST_F(RenderPassTest, DynamicRenderingClearsAndLoads) {
  const VkFormat color_format = VK_FORMAT_R16G16B16A16_SFLOAT, ds_format = VK_FORMAT_D32_SFLOAT_S8_UINT;
  ASSERT_TRUE(supports(color_format));
  if (!supports(ds_format)) GTEST_SKIP() << "no D32_SFLOAT_S8_UINT attachments";
  const VkClearValue fill = color(0, 0, 0, 0), clear = color(0.5f, -2.0f, 1024.0f, 1.0f);
  const VkClearValue ds_fill = depth_stencil(0.0f, 1), ds_clear = depth_stencil(0.75f, 200);
  Image col = make_image(color_format, 9, 7, 2, fill), ds = make_image(ds_format, 9, 7, 2, ds_fill);
  const VkImageView col_view = make_view(col, 0, 2), ds_view = make_view(ds, 0, 2);
  const VkRect2D area{{2, 1}, {6, 5}};
  auto record_instance = [&](VkCommandBuffer cmd, VkAttachmentLoadOp load) {
    VkRenderingAttachmentInfo colors[2] = {{.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO},
                                           {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO}};
    colors[0].imageView = col_view, colors[0].imageLayout = kGeneral;
    colors[0].loadOp = load, colors[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE, colors[0].clearValue = clear;
    VkRenderingAttachmentInfo depth{.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = ds_view, depth.imageLayout = kGeneral, depth.loadOp = load;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE, depth.clearValue = ds_clear;
    VkRenderingAttachmentInfo stencil = depth;
    VkRenderingInfo info{.sType = VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = area, info.layerCount = 2;
    info.colorAttachmentCount = 2, info.pColorAttachments = colors;
    info.pDepthAttachment = &depth, info.pStencilAttachment = &stencil;
    vkCmdBeginRendering(cmd, &info);
  };
  dev_->run_commands([&](VkCommandBuffer cmd) {
    record_instance(cmd, VK_ATTACHMENT_LOAD_OP_CLEAR);
    vkCmdEndRendering(cmd);
    full_barrier(cmd);
    record_instance(cmd, VK_ATTACHMENT_LOAD_OP_LOAD);
    const VkViewport viewport{0, 0, 9, 7, 0, 1};
    const VkRect2D scissor{{0, 0}, {9, 7}};
    const float blend[4] = {1, 1, 1, 1};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    vkCmdSetViewportWithCount(cmd, 1, &viewport);
    vkCmdSetScissorWithCount(cmd, 1, &scissor);
    vkCmdSetLineWidth(cmd, 1.0f);
    vkCmdSetDepthBias(cmd, 0.0f, 0.0f, 0.0f);
    vkCmdSetBlendConstants(cmd, blend);
    vkCmdSetDepthBounds(cmd, 0.0f, 1.0f);
    vkCmdSetStencilCompareMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0xFF);
    vkCmdSetStencilWriteMask(cmd, VK_STENCIL_FACE_FRONT_BIT, 0x0F);
    vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_BACK_BIT, 3);
    vkCmdSetCullMode(cmd, VK_CULL_MODE_BACK_BIT);
    vkCmdSetFrontFace(cmd, VK_FRONT_FACE_CLOCKWISE);
    vkCmdSetPrimitiveTopology(cmd, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
    vkCmdSetDepthTestEnable(cmd, VK_TRUE);
    vkCmdSetDepthWriteEnable(cmd, VK_TRUE);
    vkCmdSetDepthCompareOp(cmd, VK_COMPARE_OP_LESS);
    vkCmdSetDepthBoundsTestEnable(cmd, VK_FALSE);
    vkCmdSetStencilTestEnable(cmd, VK_TRUE);
    vkCmdSetStencilOp(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP,
                      VK_COMPARE_OP_ALWAYS);
    vkCmdSetRasterizerDiscardEnable(cmd, VK_FALSE);
    vkCmdSetDepthBiasEnable(cmd, VK_FALSE);
    vkCmdSetPrimitiveRestartEnable(cmd, VK_FALSE);
    vkCmdEndRendering(cmd);
  });
  for (uint32_t layer = 0; layer < 2; ++layer) {
    expect_layer(col, VK_IMAGE_ASPECT_COLOR_BIT, layer, &area, clear, fill, "colour");
    expect_layer(ds, VK_IMAGE_ASPECT_DEPTH_BIT, layer, &area, ds_clear, ds_fill, "depth");
    expect_layer(ds, VK_IMAGE_ASPECT_STENCIL_BIT, layer, &area, ds_clear, ds_fill, "stencil");
  }
}

}  // namespace

// A transient 4-sample attachment in lazily allocated memory (what tiled renderers use for
// attachments that never leave the pass): cleared by its load op, partly cleared again inside the
// pass, never stored, and resolved into a single-sampled image that holds both clears.
TEST_F(RenderPassTest, TransientAttachmentInLazilyAllocatedMemoryResolves) {
  constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
  constexpr uint32_t kSize = 40;
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = kFormat;
  info.extent = {kSize, kSize, 1};
  info.mipLevels = info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_4_BIT;
  info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
  VkImage probe = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateImage(dev_->handle(), &info, nullptr, &probe));
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(dev_->handle(), probe, &requirements);
  vkDestroyImage(dev_->handle(), probe, nullptr);
  REQUIRE_ON_KILN(dev_->find_memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT) != UINT32_MAX,
                  "lazily allocated memory for transient attachments");
  const Image transient = dev_->create_image(info, VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT);
  VkDeviceSize committed = ~VkDeviceSize(0);
  vkGetDeviceMemoryCommitment(dev_->handle(), transient.memory, &committed);
  EXPECT_LE(committed, requirements.size);

  const VkClearValue before = color(0.0f, 0.0f, 0.0f, 1.0f), load = color(1.0f, 0.0f, 0.0f, 1.0f),
                     inner = color(0.0f, 0.0f, 1.0f, 1.0f);
  const Image resolved = make_image(kFormat, kSize, kSize, 1, before);
  VkAttachmentDescription multisampled = attachment(kFormat, VK_ATTACHMENT_LOAD_OP_CLEAR);
  multisampled.samples = VK_SAMPLE_COUNT_4_BIT;
  multisampled.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  multisampled.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  multisampled.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  const VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}, resolve_ref{1, kGeneral};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pResolveAttachments = &resolve_ref;
  const VkRenderPass pass =
      make_render_pass({multisampled, attachment(kFormat, VK_ATTACHMENT_LOAD_OP_DONT_CARE)}, subpass);
  const VkFramebuffer fb = make_framebuffer(pass, {make_view(transient, 0, 1), make_view(resolved, 0, 1)}, kSize, kSize, 1);
  const VkRect2D inner_rect{{8, 12}, {20, 16}};
  dev_->run_commands([&](VkCommandBuffer cmd) {
    begin_render_pass(cmd, pass, fb, {{0, 0}, {kSize, kSize}}, {load, load});
    const VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, inner};
    const VkClearRect rect{inner_rect, 0, 1};
    vkCmdClearAttachments(cmd, 1, &clear, 1, &rect);
    vkCmdEndRenderPass(cmd);
    full_barrier(cmd);
  });
  expect_layer(resolved, VK_IMAGE_ASPECT_COLOR_BIT, 0, &inner_rect, inner, load, "resolve of the transient attachment");
}

// VK_EXT_load_store_op_none: an attachment with LOAD_OP_NONE and STORE_OP_NONE that the pass does
// not write keeps its contents, beside an attachment the same pass clears; in a render pass and
// in dynamic rendering.
TEST_F(RenderPassTest, LoadOpNoneAndStoreOpNoneKeepContents) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_EXT_LOAD_STORE_OP_NONE_EXTENSION_NAME),
                  VK_EXT_LOAD_STORE_OP_NONE_EXTENSION_NAME);
  DeviceFeatures enabled;
  enabled.v13.dynamicRendering = VK_TRUE;
  dev_ = create_device(enabled, {VK_EXT_LOAD_STORE_OP_NONE_EXTENSION_NAME});
  ASSERT_NE(dev_, nullptr);
  constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
  constexpr uint32_t kSize = 24;
  const VkClearValue kept = color(0.0f, 1.0f, 0.0f, 1.0f), cleared = color(1.0f, 0.0f, 1.0f, 1.0f),
                     old = color(0.0f, 0.0f, 0.0f, 0.0f);
  for (const bool dynamic : {false, true}) {
    SCOPED_TRACE(dynamic ? "dynamic rendering" : "render pass");
    const Image untouched = make_image(kFormat, kSize, kSize, 1, kept);
    const Image written = make_image(kFormat, kSize, kSize, 1, old);
    const VkImageView views[2] = {make_view(untouched, 0, 1), make_view(written, 0, 1)};
    if (dynamic) {
      dev_->run_commands([&](VkCommandBuffer cmd) {
        VkRenderingAttachmentInfo attachments[2]{};
        for (uint32_t i = 0; i < 2; ++i) {
          attachments[i].sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
          attachments[i].imageView = views[i];
          attachments[i].imageLayout = kGeneral;
        }
        attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_NONE_EXT;
        attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_NONE;
        attachments[1].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        attachments[1].clearValue = cleared;
        VkRenderingInfo rendering{.sType = VK_STRUCTURE_TYPE_RENDERING_INFO};
        rendering.renderArea = {{0, 0}, {kSize, kSize}};
        rendering.layerCount = 1;
        rendering.colorAttachmentCount = 2;
        rendering.pColorAttachments = attachments;
        vkCmdBeginRendering(cmd, &rendering);
        vkCmdEndRendering(cmd);
        full_barrier(cmd);
      });
    } else {
      VkAttachmentDescription none = attachment(kFormat, VK_ATTACHMENT_LOAD_OP_NONE_EXT);
      none.storeOp = VK_ATTACHMENT_STORE_OP_NONE;
      const VkAttachmentReference refs[2] = {{0, kGeneral}, {1, kGeneral}};
      VkSubpassDescription subpass{};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpass.colorAttachmentCount = 2;
      subpass.pColorAttachments = refs;
      const VkRenderPass pass = make_render_pass({none, attachment(kFormat, VK_ATTACHMENT_LOAD_OP_CLEAR)}, subpass);
      const VkFramebuffer fb = make_framebuffer(pass, {views[0], views[1]}, kSize, kSize, 1);
      dev_->run_commands([&](VkCommandBuffer cmd) {
        begin_render_pass(cmd, pass, fb, {{0, 0}, {kSize, kSize}}, {old, cleared});
        vkCmdEndRenderPass(cmd);
        full_barrier(cmd);
      });
    }
    expect_layer(untouched, VK_IMAGE_ASPECT_COLOR_BIT, 0, nullptr, kept, kept, "LOAD_OP_NONE + STORE_OP_NONE attachment");
    expect_layer(written, VK_IMAGE_ASPECT_COLOR_BIT, 0, nullptr, cleared, cleared, "cleared attachment");
  }
}
