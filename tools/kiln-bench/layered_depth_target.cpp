#include "tools/kiln-bench/layered_depth_target.h"

#include <cstring>

namespace kiln::bench {

using tools::VulkanContext;

namespace {

constexpr uint32_t kCubeFaces = 6;
constexpr VkImageUsageFlags kUsage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT;
constexpr ImageRest kDepthAttachmentRest{
    VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
    VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
    VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};

VkImageCreateFlags image_flags(uint32_t layers) {
  return layers == kCubeFaces ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
}

VkRenderPass create_depth_render_pass(VkDevice device) {
  VkAttachmentDescription depth{};
  depth.format = kDepthFormat;
  depth.samples = VK_SAMPLE_COUNT_1_BIT;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;  // the shadow map is the pass's result
  depth.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  depth.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth.initialLayout = kDepthAttachmentRest.layout;
  depth.finalLayout = kDepthAttachmentRest.layout;
  const VkAttachmentReference depth_ref{0, kDepthAttachmentRest.layout};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.pDepthStencilAttachment = &depth_ref;
  return create_one_subpass_render_pass(device, {depth}, subpass);
}

}  // namespace

std::optional<std::string> missing_layered_depth_support(const VulkanContext& context, uint32_t size,
                                                         uint32_t layers) {
  VkFormatProperties format{};
  vkGetPhysicalDeviceFormatProperties(context.physical_device(), kDepthFormat, &format);
  constexpr VkFormatFeatureFlags kFeatures = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                             VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  if ((format.optimalTilingFeatures & kFeatures) != kFeatures) {
    return "D32_SFLOAT lacks DEPTH_STENCIL_ATTACHMENT, TRANSFER_SRC or TRANSFER_DST";
  }
  VkImageFormatProperties image{};
  const VkResult result =
      vkGetPhysicalDeviceImageFormatProperties(context.physical_device(), kDepthFormat, VK_IMAGE_TYPE_2D,
                                               VK_IMAGE_TILING_OPTIMAL, kUsage, image_flags(layers), &image);
  if (result != VK_SUCCESS) {
    return std::string("layered depth image: vkGetPhysicalDeviceImageFormatProperties returned ") +
           tools::result_name(result);
  }
  if (image.maxExtent.width < size || image.maxExtent.height < size || image.maxArrayLayers < layers) {
    return "layered depth image: " + std::to_string(size) + "x" + std::to_string(size) + "x" +
           std::to_string(layers) + " exceeds the format's limits";
  }
  const VkPhysicalDeviceLimits& limits = context.properties().limits;
  if (size > limits.maxFramebufferWidth || size > limits.maxFramebufferHeight || layers > limits.maxFramebufferLayers) {
    return "a framebuffer of " + std::to_string(size) + "x" + std::to_string(size) + "x" + std::to_string(layers) +
           " exceeds the device's limits";
  }
  return std::nullopt;
}

LayeredDepthTarget::LayeredDepthTarget(VulkanContext& context, uint32_t size, uint32_t layers)
    : image_(context, kDepthFormat, size, size, kUsage, VK_SAMPLE_COUNT_1_BIT, 1, layers, image_flags(layers)),
      view_(context.device(), image_.handle(), kDepthFormat, VK_IMAGE_ASPECT_DEPTH_BIT, layers),
      pass_(std::make_unique<PassFramebuffer>(context.device(), create_depth_render_pass(context.device()),
                                              std::vector{view_.handle()}, size, size, layers)) {
  context.run_commands([&](VkCommandBuffer cmd) {
    tools::image_barrier(cmd, image_.handle(), VK_IMAGE_LAYOUT_UNDEFINED, kDepthAttachmentRest.layout,
                         VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, kDepthAttachmentRest.stages,
                         kDepthAttachmentRest.access, whole_range());
  });
}

VkImageSubresourceRange LayeredDepthTarget::whole_range() const {
  return {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, layers()};
}

PassTarget LayeredDepthTarget::pass_target() const {
  return {.render_pass = pass_->render_pass(), .width = size(), .height = size(), .colour = false, .depth = true};
}

void LayeredDepthTarget::begin(VkCommandBuffer cmd) const {
  VkClearValue clear{};
  clear.depthStencil = {1.0f, 0};
  pass_->begin(cmd, {clear});
}

void LayeredDepthTarget::end(VkCommandBuffer cmd) const { vkCmdEndRenderPass(cmd); }

void LayeredDepthTarget::poison(VulkanContext& context, float depth) {
  const VkClearDepthStencilValue value{depth, 0};
  const VkImageSubresourceRange range = whole_range();
  context.run_commands([&](VkCommandBuffer cmd) {
    record_away_from_rest(cmd, image_.handle(), kDepthAttachmentRest, range, true, [&](VkImageLayout layout) {
      vkCmdClearDepthStencilImage(cmd, image_.handle(), layout, &value, 1, &range);
    });
  });
}

std::vector<float> LayeredDepthTarget::read_back(VulkanContext& context) {
  const size_t texels = size_t(size()) * size() * layers();
  tools::Buffer buffer(context, texels * sizeof(float), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       tools::Buffer::Access::HostMapped);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, layers()};
  region.imageExtent = {size(), size(), 1};
  context.run_commands([&](VkCommandBuffer cmd) {
    record_away_from_rest(cmd, image_.handle(), kDepthAttachmentRest, whole_range(), false,
                          [&](VkImageLayout layout) {
                            vkCmdCopyImageToBuffer(cmd, image_.handle(), layout, buffer.handle(), 1, &region);
                          });
    tools::memory_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  });
  std::vector<float> depths(texels);
  std::memcpy(depths.data(), buffer.mapped(), texels * sizeof(float));
  return depths;
}

}  // namespace kiln::bench
