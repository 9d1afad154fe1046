#include "tools/kiln-bench/graphics_helpers.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace kiln::bench {

using tools::check;
using tools::VulkanContext;

LayerConstants layer_constants(uint32_t rgba8, float depth) {
  LayerConstants constants{};
  for (int channel = 0; channel < 4; ++channel) {
    constants.colour[channel] = float((rgba8 >> (8 * channel)) & 0xff) / 255.0f;
  }
  constants.depth = depth;
  return constants;
}

namespace {

bool has_format_features(const VulkanContext& context, VkFormat format, VkFormatFeatureFlags features) {
  VkFormatProperties properties{};
  vkGetPhysicalDeviceFormatProperties(context.physical_device(), format, &properties);
  return (properties.optimalTilingFeatures & features) == features;
}

// Why an optimally tiled 2D image of `format` with `usage` and `samples` cannot be width×height.
std::optional<std::string> missing_image_support(const VulkanContext& context, VkFormat format,
                                                 VkImageUsageFlags usage, VkSampleCountFlagBits samples,
                                                 uint32_t width, uint32_t height, const char* what) {
  VkImageFormatProperties properties{};
  const VkResult result = vkGetPhysicalDeviceImageFormatProperties(
      context.physical_device(), format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage, 0, &properties);
  if (result != VK_SUCCESS) {
    return std::string(what) + ": vkGetPhysicalDeviceImageFormatProperties returned " +
           tools::result_name(result);
  }
  if (properties.maxExtent.width < width || properties.maxExtent.height < height) {
    return std::string(what) + ": maximum extent " + std::to_string(properties.maxExtent.width) + "x" +
           std::to_string(properties.maxExtent.height) + " is too small";
  }
  if (!(properties.sampleCounts & samples)) {
    return std::string(what) + ": " + std::to_string(samples) +
           " samples not supported (vkGetPhysicalDeviceImageFormatProperties sampleCounts = " +
           std::to_string(properties.sampleCounts) + ")";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> missing_graphics_support(const VulkanContext& context, const GraphicsNeeds& needs) {
  if (!(context.queue_flags() & VK_QUEUE_GRAPHICS_BIT)) return "the queue does not support graphics";
  if (context.properties().apiVersion < VK_API_VERSION_1_2) {
    return "kiln-bench's shaders are SPIR-V 1.5, which needs a Vulkan 1.2 device";
  }
  const TargetDesc& target = needs.target;
  const VkPhysicalDeviceLimits& limits = context.properties().limits;
  if (target.width > limits.maxFramebufferWidth || target.height > limits.maxFramebufferHeight ||
      target.width > limits.maxViewportDimensions[0] || target.height > limits.maxViewportDimensions[1]) {
    return "framebuffer or viewport of " + std::to_string(target.width) + "x" +
           std::to_string(target.height) + " exceeds the device's limits";
  }
  VkFormatFeatureFlags colour_features = VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
  if (needs.blending) colour_features |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT;
  if (!has_format_features(context, kColourFormat, colour_features)) {
    return needs.blending ? "R8G8B8A8_UNORM lacks COLOR_ATTACHMENT(_BLEND)" : "R8G8B8A8_UNORM lacks COLOR_ATTACHMENT";
  }
  const VkImageUsageFlags colour_usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (auto reason = missing_image_support(context, kColourFormat, colour_usage, VK_SAMPLE_COUNT_1_BIT,
                                          target.width, target.height, "colour target")) {
    return reason;
  }
  if (target.samples != VK_SAMPLE_COUNT_1_BIT) {
    // The image query first: it names what image creation would refuse.
    if (auto reason = missing_image_support(context, kColourFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                            target.samples, target.width, target.height,
                                            "multisampled colour attachment")) {
      return reason;
    }
    if (!(limits.framebufferColorSampleCounts & target.samples)) {
      return std::to_string(target.samples) + " samples not in framebufferColorSampleCounts (" +
             std::to_string(limits.framebufferColorSampleCounts) + ")";
    }
  }
  if (target.depth) {
    if (!has_format_features(context, kDepthFormat, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) {
      return "D32_SFLOAT lacks DEPTH_STENCIL_ATTACHMENT";
    }
    if (auto reason = missing_image_support(context, kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                            target.samples, target.width, target.height, "depth attachment")) {
      return reason;
    }
  }
  if (needs.linear_texture &&
      !has_format_features(context, kColourFormat, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                                       VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)) {
    return "R8G8B8A8_UNORM cannot be sampled with linear filtering";
  }
  if (needs.max_draw_index > limits.maxDrawIndexedIndexValue) {
    return "index " + std::to_string(needs.max_draw_index) + " exceeds maxDrawIndexedIndexValue " +
           std::to_string(limits.maxDrawIndexedIndexValue);
  }
  if (needs.geometry_shader) {
    if (auto reason = missing_geometry_shader(context)) return reason;
  }
  if (needs.tessellation_level > 0) {
    if (!context.enabled_features().tessellationShader) return "the device lacks tessellationShader";
    if (needs.tessellation_level > limits.maxTessellationGenerationLevel) {
      return "tessellation level " + std::to_string(needs.tessellation_level) +
             " exceeds maxTessellationGenerationLevel " + std::to_string(limits.maxTessellationGenerationLevel);
    }
    if (kPatchControlPoints > limits.maxTessellationPatchSize) {
      return "patches of " + std::to_string(kPatchControlPoints) + " points exceed maxTessellationPatchSize " +
             std::to_string(limits.maxTessellationPatchSize);
    }
  }
  return std::nullopt;
}

std::optional<std::string> missing_geometry_shader(const VulkanContext& context) {
  if (!context.enabled_features().geometryShader) return "the device lacks geometryShader";
  return std::nullopt;
}

namespace {

// The pipeline stages that run shaders of `stages` (texture uploads wait for no more than these).
VkPipelineStageFlags shader_pipeline_stages(VkShaderStageFlags stages) {
  VkPipelineStageFlags result = 0;
  if (stages & VK_SHADER_STAGE_VERTEX_BIT) result |= VK_PIPELINE_STAGE_VERTEX_SHADER_BIT;
  if (stages & VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT) result |= VK_PIPELINE_STAGE_TESSELLATION_CONTROL_SHADER_BIT;
  if (stages & VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT) {
    result |= VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT;
  }
  if (stages & VK_SHADER_STAGE_FRAGMENT_BIT) result |= VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
  return result;
}

VkImageView create_view(VkDevice device, VkImage image, VkFormat format, VkImageAspectFlags aspect,
                        uint32_t layers = 1) {
  VkImageViewCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  info.image = image;
  info.viewType = layers == 1 ? VK_IMAGE_VIEW_TYPE_2D : VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  info.format = format;
  info.subresourceRange = {aspect, 0, 1, 0, layers};
  VkImageView view = VK_NULL_HANDLE;
  check(vkCreateImageView(device, &info, nullptr, &view), "vkCreateImageView");
  return view;
}

}  // namespace

ImageView::ImageView(VkDevice device, VkImage image, VkFormat format, VkImageAspectFlags aspect, uint32_t layers)
    : device_(device), view_(create_view(device, image, format, aspect, layers)) {}

ImageView::~ImageView() { vkDestroyImageView(device_, view_, nullptr); }

AttachmentImage::AttachmentImage(VulkanContext& context, VkFormat format, uint32_t width, uint32_t height,
                                 VkSampleCountFlagBits samples, VkImageUsageFlags usage,
                                 VkImageAspectFlags aspect)
    : image_(context, format, width, height, usage, samples),
      view_(context.device(), image_.handle(), format, aspect) {}

namespace {

// Attachments in order: the verified colour image (resolve target when multisampled), then the
// multisampled colour image, then depth. Only the verified image is loaded-from/stored-to
// memory that outlives the pass; the others start UNDEFINED and are cleared.
VkRenderPass create_render_pass(VkDevice device, const TargetDesc& desc) {
  const bool multisampled = desc.samples != VK_SAMPLE_COUNT_1_BIT;
  std::vector<VkAttachmentDescription> attachments;
  VkAttachmentDescription colour{};
  colour.format = kColourFormat;
  colour.samples = VK_SAMPLE_COUNT_1_BIT;
  colour.loadOp = multisampled ? VK_ATTACHMENT_LOAD_OP_DONT_CARE : VK_ATTACHMENT_LOAD_OP_CLEAR;
  colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  colour.initialLayout = kColourAttachmentRest.layout;
  colour.finalLayout = kColourAttachmentRest.layout;
  attachments.push_back(colour);
  if (multisampled) {
    VkAttachmentDescription samples = colour;
    samples.samples = desc.samples;
    samples.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    samples.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;  // only the resolved image is kept
    samples.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    attachments.push_back(samples);
  }
  if (desc.depth) {
    VkAttachmentDescription depth{};
    depth.format = kDepthFormat;
    depth.samples = desc.samples;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    depth.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    depth.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    depth.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    depth.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    attachments.push_back(depth);
  }
  const VkAttachmentReference resolve_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference colour_ref{multisampled ? 1u : 0u, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference depth_ref{uint32_t(attachments.size() - 1),
                                        VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &colour_ref;
  subpass.pResolveAttachments = multisampled ? &resolve_ref : nullptr;
  subpass.pDepthStencilAttachment = desc.depth ? &depth_ref : nullptr;
  return create_one_subpass_render_pass(device, attachments, subpass);
}

}  // namespace

VkRenderPass create_one_subpass_render_pass(VkDevice device, const std::vector<VkAttachmentDescription>& attachments,
                                            const VkSubpassDescription& subpass) {
  // Attachment writes of the previous pass (or repetition) happen before this pass's clears and
  // writes; the harness's barriers order everything else (transfers, host).
  constexpr VkPipelineStageFlags kAttachmentStages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                      VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                                      VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  constexpr VkAccessFlags kAttachmentWrites =
      VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  VkSubpassDependency dependency{};
  dependency.srcSubpass = VK_SUBPASS_EXTERNAL;
  dependency.dstSubpass = 0;
  dependency.srcStageMask = kAttachmentStages;
  dependency.dstStageMask = kAttachmentStages;
  dependency.srcAccessMask = kAttachmentWrites;
  dependency.dstAccessMask = kAttachmentWrites | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                             VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;

  VkRenderPassCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  info.attachmentCount = uint32_t(attachments.size());
  info.pAttachments = attachments.data();
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 1;
  info.pDependencies = &dependency;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  check(vkCreateRenderPass(device, &info, nullptr, &render_pass), "vkCreateRenderPass");
  return render_pass;
}

PassFramebuffer::PassFramebuffer(VkDevice device, VkRenderPass render_pass, const std::vector<VkImageView>& views,
                                 uint32_t width, uint32_t height, uint32_t layers)
    : device_(device), render_pass_(render_pass), width_(width), height_(height) {
  VkFramebufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  info.renderPass = render_pass_;
  info.attachmentCount = uint32_t(views.size());
  info.pAttachments = views.data();
  info.width = width;
  info.height = height;
  info.layers = layers;
  const VkResult result = vkCreateFramebuffer(device_, &info, nullptr, &framebuffer_);
  if (result != VK_SUCCESS) vkDestroyRenderPass(device_, render_pass_, nullptr);
  check(result, "vkCreateFramebuffer");
}

PassFramebuffer::~PassFramebuffer() {
  vkDestroyFramebuffer(device_, framebuffer_, nullptr);
  vkDestroyRenderPass(device_, render_pass_, nullptr);
}

void PassFramebuffer::begin(VkCommandBuffer cmd, const std::vector<VkClearValue>& clears) const {
  VkRenderPassBeginInfo info{};
  info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  info.renderPass = render_pass_;
  info.framebuffer = framebuffer_;
  info.renderArea = {{0, 0}, {width_, height_}};
  info.clearValueCount = uint32_t(clears.size());
  info.pClearValues = clears.data();
  vkCmdBeginRenderPass(cmd, &info, VK_SUBPASS_CONTENTS_INLINE);
}

RenderTarget::RenderTarget(VulkanContext& context, const TargetDesc& desc)
    : desc_(desc),
      colour_(context, desc.width, desc.height, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, kColourAttachmentRest),
      colour_view_(context.device(), colour_.handle(), kColourFormat, VK_IMAGE_ASPECT_COLOR_BIT) {
  std::vector<VkImageView> views{colour_view_.handle()};
  if (desc.samples != VK_SAMPLE_COUNT_1_BIT) {
    multisampled_ = std::make_unique<AttachmentImage>(context, kColourFormat, desc.width, desc.height, desc.samples,
                                                      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
    views.push_back(multisampled_->view());
  }
  if (desc.depth) {
    depth_ = std::make_unique<AttachmentImage>(context, kDepthFormat, desc.width, desc.height, desc.samples,
                                               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
    views.push_back(depth_->view());
  }
  pass_ = std::make_unique<PassFramebuffer>(context.device(), create_render_pass(context.device(), desc), views,
                                            desc.width, desc.height);
}

PassTarget RenderTarget::pass_target() const {
  return {.render_pass = pass_->render_pass(),
          .width = desc_.width,
          .height = desc_.height,
          .samples = desc_.samples,
          .colour = true,
          .depth = desc_.depth};
}

void RenderTarget::begin(VkCommandBuffer cmd, uint32_t clear_rgba8) const {
  // One clear value per attachment, in attachment order: colour, multisampled colour, depth.
  VkClearValue colour{};
  colour.color = unorm_rgba8_clear_value(clear_rgba8);
  std::vector<VkClearValue> clears(multisampled_ ? 2 : 1, colour);
  if (depth_) {
    VkClearValue depth{};
    depth.depthStencil = {1.0f, 0};
    clears.push_back(depth);
  }
  pass_->begin(cmd, clears);
}

void RenderTarget::end(VkCommandBuffer cmd) const { vkCmdEndRenderPass(cmd); }

SampledTexture::SampledTexture(VulkanContext& context, uint32_t width, uint32_t height,
                               const uint32_t* texels, VkShaderStageFlags stages)
    : device_(context.device()),
      image_(context, kColourFormat, width, height,
             VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT) {
  try {
    const VkDeviceSize bytes = VkDeviceSize(width) * height * 4;
    std::unique_ptr<tools::Buffer> staging =
        make_filled_buffer(context, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, texels, bytes);
    const VkBufferImageCopy region = whole_image_region(image_);
    context.run_commands([&](VkCommandBuffer cmd) {
      tools::image_barrier(cmd, image_.handle(), VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
      vkCmdCopyBufferToImage(cmd, staging->handle(), image_.handle(),
                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
      tools::image_barrier(cmd, image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_ACCESS_TRANSFER_WRITE_BIT, shader_pipeline_stages(stages),
                           VK_ACCESS_SHADER_READ_BIT);
    });
    view_ = create_view(device_, image_.handle(), kColourFormat, VK_IMAGE_ASPECT_COLOR_BIT);

    VkSamplerCreateInfo sampler{};
    sampler.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    sampler.magFilter = VK_FILTER_LINEAR;
    sampler.minFilter = VK_FILTER_LINEAR;
    sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sampler.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sampler.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sampler.maxLod = 0.0f;
    check(vkCreateSampler(device_, &sampler, nullptr, &sampler_), "vkCreateSampler");

    VkDescriptorSetLayoutBinding binding{};
    binding.binding = 0;
    binding.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    binding.descriptorCount = 1;
    binding.stageFlags = stages;
    VkDescriptorSetLayoutCreateInfo layout{};
    layout.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    layout.bindingCount = 1;
    layout.pBindings = &binding;
    check(vkCreateDescriptorSetLayout(device_, &layout, nullptr, &set_layout_), "vkCreateDescriptorSetLayout");

    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
    VkDescriptorPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool.maxSets = 1;
    pool.poolSizeCount = 1;
    pool.pPoolSizes = &size;
    check(vkCreateDescriptorPool(device_, &pool, nullptr, &pool_), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate.descriptorPool = pool_;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &set_layout_;
    check(vkAllocateDescriptorSets(device_, &allocate, &set_), "vkAllocateDescriptorSets");
    const VkDescriptorImageInfo image_info{sampler_, view_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet write{};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstSet = set_;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    write.pImageInfo = &image_info;
    vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  } catch (...) {
    release();
    throw;
  }
}

SampledTexture::~SampledTexture() { release(); }

void SampledTexture::release() {
  if (pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(device_, pool_, nullptr);
  if (set_layout_ != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  if (sampler_ != VK_NULL_HANDLE) vkDestroySampler(device_, sampler_, nullptr);
  if (view_ != VK_NULL_HANDLE) vkDestroyImageView(device_, view_, nullptr);
  pool_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
  sampler_ = VK_NULL_HANDLE;
  view_ = VK_NULL_HANDLE;
}

ShaderStorageBuffers::ShaderStorageBuffers(VkDevice device, VkShaderStageFlags stages,
                                           const std::vector<const tools::Buffer*>& buffers)
    : layout_(device, uint32_t(buffers.size()), 0, stages), set_(device, layout_, buffers) {}

VertexInput vec2_positions() {
  return {.stride = 2 * sizeof(float), .attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}}};
}

namespace {

// The stages a pipeline described by `desc` has besides the fragment stage.
VkShaderStageFlags pre_rasterization_stages(const PipelineDesc& desc) {
  if (desc.mesh_stages) {
    if (desc.vertex.words || desc.vertex_input || desc.tessellation || desc.geometry) {
      throw std::logic_error("a mesh pipeline with vertex, tessellation or geometry stages");
    }
    return VK_SHADER_STAGE_MESH_BIT_EXT | (desc.mesh_stages->task ? VK_SHADER_STAGE_TASK_BIT_EXT : 0);
  }
  return VK_SHADER_STAGE_VERTEX_BIT |
         (desc.tessellation ? VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT
                            : 0) |
         (desc.geometry ? VK_SHADER_STAGE_GEOMETRY_BIT : 0);
}

// The set layout of set 0: the texture's or the storage buffers', VK_NULL_HANDLE for none.
VkDescriptorSetLayout set0_layout(const PipelineDesc& desc) {
  if (desc.texture && desc.storage_buffers) throw std::logic_error("a pipeline with a texture and storage buffers");
  if (desc.texture) return desc.texture->set_layout();
  return desc.storage_buffers ? desc.storage_buffers->set_layout() : VK_NULL_HANDLE;
}

}  // namespace

GraphicsPipeline::GraphicsPipeline(VulkanContext& context, const PassTarget& target, const PipelineDesc& desc)
    : device_(context.device()),
      set_(desc.texture ? desc.texture->set() : desc.storage_buffers ? desc.storage_buffers->set() : VK_NULL_HANDLE),
      push_stages_(pre_rasterization_stages(desc) | VK_SHADER_STAGE_FRAGMENT_BIT),
      push_constant_bytes_(desc.push_constant_bytes) {
  try {
    const VkPushConstantRange push{push_stages_, 0, push_constant_bytes_};
    const VkDescriptorSetLayout set_layout = set0_layout(desc);
    VkPipelineLayoutCreateInfo layout{};
    layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout.setLayoutCount = set_layout != VK_NULL_HANDLE ? 1 : 0;
    layout.pSetLayouts = &set_layout;
    layout.pushConstantRangeCount = 1;
    layout.pPushConstantRanges = &push;
    check(vkCreatePipelineLayout(device_, &layout, nullptr, &layout_), "vkCreatePipelineLayout");

    std::vector<std::unique_ptr<ShaderModule>> modules;
    std::vector<VkPipelineShaderStageCreateInfo> stages;
    const auto add_stage = [&](VkShaderStageFlagBits stage, const SpirvCode& code) {
      modules.push_back(std::make_unique<ShaderModule>(device_, code));
      VkPipelineShaderStageCreateInfo info{};
      info.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      info.stage = stage;
      info.module = modules.back()->handle();
      info.pName = "main";
      info.pSpecializationInfo = desc.specialization;
      stages.push_back(info);
    };
    if (desc.mesh_stages) {
      if (desc.mesh_stages->task) add_stage(VK_SHADER_STAGE_TASK_BIT_EXT, *desc.mesh_stages->task);
      add_stage(VK_SHADER_STAGE_MESH_BIT_EXT, desc.mesh_stages->mesh);
    } else {
      add_stage(VK_SHADER_STAGE_VERTEX_BIT, desc.vertex);
    }
    if (desc.tessellation) {
      add_stage(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, desc.tessellation->control);
      add_stage(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, desc.tessellation->evaluation);
    }
    if (desc.geometry) add_stage(VK_SHADER_STAGE_GEOMETRY_BIT, *desc.geometry);
    if (desc.fragment) add_stage(VK_SHADER_STAGE_FRAGMENT_BIT, *desc.fragment);

    VkPipelineVertexInputStateCreateInfo vertex_input{};
    vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    VkVertexInputBindingDescription binding{};
    if (desc.vertex_input) {
      binding = {0, desc.vertex_input->stride, VK_VERTEX_INPUT_RATE_VERTEX};
      vertex_input.vertexBindingDescriptionCount = 1;
      vertex_input.pVertexBindingDescriptions = &binding;
      vertex_input.vertexAttributeDescriptionCount = uint32_t(desc.vertex_input->attributes.size());
      vertex_input.pVertexAttributeDescriptions = desc.vertex_input->attributes.data();
    }
    VkPipelineInputAssemblyStateCreateInfo assembly{};
    assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    assembly.topology = desc.tessellation ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST : desc.topology;
    VkPipelineTessellationStateCreateInfo tessellation{};
    tessellation.sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO;
    tessellation.patchControlPoints = kPatchControlPoints;

    const VkViewport viewport{0, 0, float(target.width), float(target.height), 0, 1};
    const VkRect2D scissor{{0, 0}, {target.width, target.height}};
    VkPipelineViewportStateCreateInfo viewport_state{};
    viewport_state.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
    viewport_state.viewportCount = 1;
    viewport_state.pViewports = &viewport;
    viewport_state.scissorCount = 1;
    viewport_state.pScissors = &scissor;

    VkPipelineRasterizationStateCreateInfo raster{};
    raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    raster.rasterizerDiscardEnable = desc.rasterizer_discard;
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = desc.cull_mode;
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;

    VkPipelineMultisampleStateCreateInfo multisample{};
    multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    multisample.rasterizationSamples = target.samples;

    VkPipelineDepthStencilStateCreateInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
    depth.depthTestEnable = target.depth;
    depth.depthWriteEnable = target.depth;
    depth.depthCompareOp = VK_COMPARE_OP_LESS;

    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                           VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    if (desc.blending) {
      blend.blendEnable = VK_TRUE;
      blend.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
      blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
      blend.colorBlendOp = VK_BLEND_OP_ADD;
      blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
      blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
      blend.alphaBlendOp = VK_BLEND_OP_ADD;
    }
    VkPipelineColorBlendStateCreateInfo blend_state{};
    blend_state.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    blend_state.attachmentCount = target.colour ? 1 : 0;
    blend_state.pAttachments = &blend;

    VkGraphicsPipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    info.stageCount = uint32_t(stages.size());
    info.pStages = stages.data();
    // A mesh pipeline has no vertex input or input assembly state.
    info.pVertexInputState = desc.mesh_stages ? nullptr : &vertex_input;
    info.pInputAssemblyState = desc.mesh_stages ? nullptr : &assembly;
    info.pTessellationState = desc.tessellation ? &tessellation : nullptr;
    info.pViewportState = &viewport_state;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend_state;
    info.layout = layout_;
    info.renderPass = target.render_pass;
    info.subpass = 0;
    check(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_),
          "vkCreateGraphicsPipelines");
  } catch (...) {
    release();
    throw;
  }
}

GraphicsPipeline::~GraphicsPipeline() { release(); }

void GraphicsPipeline::release() {
  if (pipeline_ != VK_NULL_HANDLE) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (layout_ != VK_NULL_HANDLE) vkDestroyPipelineLayout(device_, layout_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
}

void GraphicsPipeline::bind(VkCommandBuffer cmd) const {
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
  if (set_ != VK_NULL_HANDLE) {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &set_, 0, nullptr);
  }
}

void GraphicsPipeline::push_bytes(VkCommandBuffer cmd, const void* data, uint32_t bytes) const {
  if (bytes > push_constant_bytes_) {
    throw std::logic_error("push constants of " + std::to_string(bytes) + " bytes for a pipeline declaring " +
                           std::to_string(push_constant_bytes_));
  }
  vkCmdPushConstants(cmd, layout_, push_stages_, 0, bytes, data);
}

void record_full_screen_layers(VkCommandBuffer cmd, const GraphicsPipeline& pipeline,
                               const std::vector<LayerConstants>& layers) {
  for (const LayerConstants& layer : layers) {
    pipeline.push(cmd, layer);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  }
}

void bind_vertex_buffer(VkCommandBuffer cmd, const tools::Buffer& buffer) {
  const VkBuffer handle = buffer.handle();
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &handle, &offset);
}

std::unique_ptr<tools::Buffer> make_filled_buffer(VulkanContext& context, VkBufferUsageFlags usage,
                                                  const void* data, VkDeviceSize bytes) {
  auto buffer = std::make_unique<tools::Buffer>(context, bytes, usage, tools::Buffer::Access::HostMapped);
  std::memcpy(buffer->mapped(), data, size_t(bytes));
  return buffer;
}

}  // namespace kiln::bench
