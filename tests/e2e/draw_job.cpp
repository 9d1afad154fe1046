#include "e2e/draw_job.h"


namespace kiln::test {
namespace {

bool has_stencil(VkFormat format) {
  return format == VK_FORMAT_D16_UNORM_S8_UINT || format == VK_FORMAT_D24_UNORM_S8_UINT ||
         format == VK_FORMAT_D32_SFLOAT_S8_UINT || format == VK_FORMAT_S8_UINT;
}

VkImageView make_view(VkDevice device, const Image& image, VkImageAspectFlags aspect) {
  VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.image = image.image;
  info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  info.format = image.info.format;
  info.subresourceRange = {aspect, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImageView(device, &info, nullptr, &view), VK_SUCCESS);
  return view;
}

Image create_attachment_image(TestDevice& device, VkFormat format, VkExtent3D extent, VkSampleCountFlagBits samples,
                              VkImageUsageFlags usage) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = extent;
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return device.create_image(info);
}

}  // namespace

DrawJob::DrawJob(TestDevice& device, const DrawJobOptions& options) : device_(device), options_(options) {
  VkDevice d = device.handle();
  const bool with_depth = options.depth_format != VK_FORMAT_UNDEFINED;
  const VkExtent3D extent{options.width, options.height, 1};
  const bool multisampled = options.samples != VK_SAMPLE_COUNT_1_BIT;
  const bool with_resolve = multisampled && options.resolve_attachment;
  color_ = create_attachment_image(device, options.color_format, extent, options.samples,
                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                       (multisampled ? VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT : 0));
  color_view_ = make_view(d, color_, VK_IMAGE_ASPECT_COLOR_BIT);
  if (with_resolve) {
    resolve_ = device.create_image(VK_IMAGE_TYPE_2D, options.color_format, extent, 1, 1, 0,
                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    resolve_view_ = make_view(d, resolve_, VK_IMAGE_ASPECT_COLOR_BIT);
  }
  const VkImageAspectFlags depth_aspects =
      VK_IMAGE_ASPECT_DEPTH_BIT | (has_stencil(options.depth_format) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
  const bool with_depth_resolve = with_depth && multisampled &&
                                  (options.depth_resolve_mode != VK_RESOLVE_MODE_NONE ||
                                   options.stencil_resolve_mode != VK_RESOLVE_MODE_NONE);
  if (with_depth) {
    depth_ = create_attachment_image(device, options.depth_format, extent, options.samples,
                                     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    depth_view_ = make_view(d, depth_, depth_aspects);
  }
  if (with_depth_resolve) {
    depth_resolve_ = create_attachment_image(device, options.depth_format, extent, VK_SAMPLE_COUNT_1_BIT,
                                             VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    depth_resolve_view_ = make_view(d, depth_resolve_, depth_aspects);
  }

  // One subpass (render pass 2, for depth/stencil resolves); every attachment ends in
  // TRANSFER_SRC_OPTIMAL for readback. Attachments: colour, [depth], [colour resolve], [depth resolve].
  std::vector<VkAttachmentDescription2> attachments;
  std::vector<VkImageView> views;
  auto add = [&](VkFormat format, VkSampleCountFlagBits samples, VkAttachmentLoadOp load, VkAttachmentLoadOp stencil_load,
                 VkImageView view) {
    VkAttachmentDescription2 a{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
    a.format = format;
    a.samples = samples;
    a.loadOp = load;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.stencilLoadOp = stencil_load;
    a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    a.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    attachments.push_back(a);
    views.push_back(view);
    return uint32_t(attachments.size() - 1);
  };
  auto ref = [](uint32_t attachment, VkImageLayout layout, VkImageAspectFlags aspects) {
    return VkAttachmentReference2{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, attachment, layout, aspects};
  };
  const VkImageLayout color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  const VkImageLayout depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  const VkAttachmentReference2 color_ref = ref(
      add(options.color_format, options.samples, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_LOAD_OP_DONT_CARE, color_view_),
      color_layout, VK_IMAGE_ASPECT_COLOR_BIT);
  const VkAttachmentReference2 depth_ref =
      with_depth ? ref(add(options.depth_format, options.samples, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_LOAD_OP_CLEAR,
                           depth_view_),
                       depth_layout, depth_aspects)
                 : VkAttachmentReference2{};
  const VkAttachmentReference2 resolve_ref =
      with_resolve ? ref(add(options.color_format, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                             VK_ATTACHMENT_LOAD_OP_DONT_CARE, resolve_view_),
                         color_layout, VK_IMAGE_ASPECT_COLOR_BIT)
                   : VkAttachmentReference2{};
  const VkAttachmentReference2 depth_resolve_ref =
      with_depth_resolve ? ref(add(options.depth_format, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                   VK_ATTACHMENT_LOAD_OP_DONT_CARE, depth_resolve_view_),
                               depth_layout, depth_aspects)
                         : VkAttachmentReference2{};
  VkSubpassDescriptionDepthStencilResolve ds_resolve{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE};
  ds_resolve.depthResolveMode = options.depth_resolve_mode;
  ds_resolve.stencilResolveMode = options.stencil_resolve_mode;
  ds_resolve.pDepthStencilResolveAttachment = &depth_resolve_ref;
  VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2};
  subpass.pNext = with_depth_resolve ? &ds_resolve : nullptr;
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pResolveAttachments = with_resolve ? &resolve_ref : nullptr;
  subpass.pDepthStencilAttachment = with_depth ? &depth_ref : nullptr;
  // Attachment writes (and resolves) → the readback copy after the pass.
  VkSubpassDependency2 dependency{VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2};
  dependency.srcSubpass = 0;
  dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
  dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependency.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependency.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo2 pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
  pass_info.attachmentCount = uint32_t(attachments.size());
  pass_info.pAttachments = attachments.data();
  pass_info.subpassCount = 1;
  pass_info.pSubpasses = &subpass;
  pass_info.dependencyCount = 1;
  pass_info.pDependencies = &dependency;
  EXPECT_EQ(vkCreateRenderPass2(d, &pass_info, nullptr, &render_pass_), VK_SUCCESS);
  VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb_info.renderPass = render_pass_;
  fb_info.attachmentCount = uint32_t(views.size());
  fb_info.pAttachments = views.data();
  fb_info.width = options.width;
  fb_info.height = options.height;
  fb_info.layers = 1;
  EXPECT_EQ(vkCreateFramebuffer(d, &fb_info, nullptr, &framebuffer_), VK_SUCCESS);

  std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
  for (uint32_t i = 0; i < options.bindings.size(); ++i)
    layout_bindings.push_back({i, options.bindings[i], 1, VK_SHADER_STAGE_ALL_GRAPHICS, nullptr});
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = static_cast<uint32_t>(layout_bindings.size());
  set_info.pBindings = layout_bindings.data();
  EXPECT_EQ(vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout_), VK_SUCCESS);
  const VkPushConstantRange push{VK_SHADER_STAGE_ALL_GRAPHICS, 0, options.push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = options.push_constant_bytes ? 1 : 0;
  layout_info.pPushConstantRanges = &push;
  EXPECT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout_), VK_SUCCESS);

  VkShaderModule vertex = create_test_shader_module(d, options.vertex_shader);
  VkShaderModule fragment =
      options.fragment_shader.empty() ? VK_NULL_HANDLE : create_test_shader_module(d, options.fragment_shader);
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vertex, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fragment, "main",
       nullptr}};
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vertex_input.vertexBindingDescriptionCount = static_cast<uint32_t>(options.vertex_bindings.size());
  vertex_input.pVertexBindingDescriptions = options.vertex_bindings.data();
  vertex_input.vertexAttributeDescriptionCount = static_cast<uint32_t>(options.vertex_attributes.size());
  vertex_input.pVertexAttributeDescriptions = options.vertex_attributes.data();
  VkPipelineInputAssemblyStateCreateInfo input_assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  input_assembly.topology = options.topology;
  input_assembly.primitiveRestartEnable = options.primitive_restart;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = options.polygon_mode;
  raster.depthClampEnable = options.depth_clamp;
  raster.cullMode = options.cull_mode;
  raster.frontFace = options.front_face;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = options.samples;
  multisample.sampleShadingEnable = options.sample_shading;
  multisample.minSampleShading = options.min_sample_shading;
  multisample.alphaToOneEnable = options.alpha_to_one;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.logicOpEnable = options.logic_op_enable;
  blend.logicOp = options.logic_op;
  blend.attachmentCount = 1;
  blend.pAttachments = &options.blend;
  std::vector<VkDynamicState> dynamic = options.dynamic_states;
  dynamic.push_back(VK_DYNAMIC_STATE_VIEWPORT);
  dynamic.push_back(VK_DYNAMIC_STATE_SCISSOR);
  VkPipelineDynamicStateCreateInfo dynamic_info{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic_info.dynamicStateCount = static_cast<uint32_t>(dynamic.size());
  dynamic_info.pDynamicStates = dynamic.data();
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.stageCount = fragment ? 2 : 1;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &input_assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = with_depth ? &options.depth_stencil : nullptr;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic_info;
  info.layout = layout_;
  info.renderPass = render_pass_;
  pipeline_result_ = vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_);
  vkDestroyShaderModule(d, vertex, nullptr);
  if (fragment) vkDestroyShaderModule(d, fragment, nullptr);

  if (!options.bindings.empty()) {
    std::vector<VkDescriptorPoolSize> sizes;
    for (VkDescriptorType t : options.bindings) sizes.push_back({t, 1});
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = static_cast<uint32_t>(sizes.size());
    pool_info.pPoolSizes = sizes.data();
    EXPECT_EQ(vkCreateDescriptorPool(d, &pool_info, nullptr, &pool_), VK_SUCCESS);
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool_;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &set_layout_;
    EXPECT_EQ(vkAllocateDescriptorSets(d, &alloc, &set_), VK_SUCCESS);
  }
}

DrawJob::~DrawJob() {
  VkDevice d = device_.handle();
  vkDestroyDescriptorPool(d, pool_, nullptr);
  vkDestroyPipeline(d, pipeline_, nullptr);
  vkDestroyPipelineLayout(d, layout_, nullptr);
  vkDestroyDescriptorSetLayout(d, set_layout_, nullptr);
  vkDestroyFramebuffer(d, framebuffer_, nullptr);
  vkDestroyRenderPass(d, render_pass_, nullptr);
  vkDestroyImageView(d, color_view_, nullptr);
  vkDestroyImageView(d, depth_view_, nullptr);
  vkDestroyImageView(d, resolve_view_, nullptr);
  vkDestroyImageView(d, depth_resolve_view_, nullptr);
}

void DrawJob::bind_buffer(uint32_t binding, const Buffer& buffer) {
  VkDescriptorBufferInfo info{buffer.buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set_;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = options_.bindings.at(binding);
  write.pBufferInfo = &info;
  vkUpdateDescriptorSets(device_.handle(), 1, &write, 0, nullptr);
}

void DrawJob::draw(const VkClearColorValue& clear, const std::function<void(VkCommandBuffer)>& record, float clear_depth) {
  device_.run_commands([&](VkCommandBuffer cb) {
    VkClearValue clears[2] = {};
    clears[0].color = clear;
    clears[1].depthStencil = {clear_depth, 0};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = render_pass_;
    begin.framebuffer = framebuffer_;
    begin.renderArea = {{0, 0}, {options_.width, options_.height}};
    begin.clearValueCount = 2;
    begin.pClearValues = clears;
    vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    if (set_) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &set_, 0, nullptr);
    const VkViewport viewport{0, 0, float(options_.width), float(options_.height), 0, 1};
    const VkRect2D scissor{{0, 0}, {options_.width, options_.height}};
    vkCmdSetViewport(cb, 0, 1, &viewport);
    vkCmdSetScissor(cb, 0, 1, &scissor);
    record(cb);
    vkCmdEndRenderPass(cb);
  });
}

std::vector<uint8_t> DrawJob::read_color() {
  const Image& image = options_.samples != VK_SAMPLE_COUNT_1_BIT ? resolve_ : color_;
  if (!image.image) {
    ADD_FAILURE() << "read_color: a multisampled target without a resolve attachment cannot be read back";
    return {};
  }
  return device_.read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
}

std::vector<uint8_t> DrawJob::read_depth(VkImageAspectFlagBits aspect) {
  const Image& image = options_.samples != VK_SAMPLE_COUNT_1_BIT ? depth_resolve_ : depth_;
  if (!image.image) {
    ADD_FAILURE() << "read_depth: a multisampled depth target without a depth/stencil resolve cannot be read back";
    return {};
  }
  return device_.read_image(image, aspect, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
}

}  // namespace kiln::test
