#include "e2e/draw_job.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace kiln::test {
namespace {

bool has_stencil(VkFormat format) {
  return format == VK_FORMAT_D16_UNORM_S8_UINT || format == VK_FORMAT_D24_UNORM_S8_UINT ||
         format == VK_FORMAT_D32_SFLOAT_S8_UINT || format == VK_FORMAT_S8_UINT;
}

VkImageView make_view(VkDevice device, const Image& image, VkImageAspectFlags aspect) {
  VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.image = image.image;
  info.viewType = image.info.arrayLayers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  info.format = image.info.format;
  info.subresourceRange = {aspect, 0, 1, 0, image.info.arrayLayers};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImageView(device, &info, nullptr, &view), VK_SUCCESS);
  return view;
}

// A 2D attachment image with `layers` layers and `samples` samples (optimal tiling).
Image create_attachment_image(TestDevice& device, VkFormat format, VkExtent3D extent, uint32_t layers,
                              VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageCreateFlags flags = 0) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = flags;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = extent;
  info.mipLevels = 1;
  info.arrayLayers = layers;
  info.samples = samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return device.create_image(info);
}

bool multisampled(const DrawJobOptions& o) { return o.samples != VK_SAMPLE_COUNT_1_BIT; }
bool implicit(const DrawJobOptions& o) { return o.implicit_samples != VK_SAMPLE_COUNT_1_BIT; }
VkImageCreateFlags attachment_flags(const DrawJobOptions& o) {
  return implicit(o) ? VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT : 0;
}
bool with_resolve(const DrawJobOptions& o) { return multisampled(o) && o.resolve_attachment; }
bool with_depth_resolve(const DrawJobOptions& o) {
  return o.depth_format != VK_FORMAT_UNDEFINED && multisampled(o) &&
         (o.depth_resolve_mode != VK_RESOLVE_MODE_NONE || o.stencil_resolve_mode != VK_RESOLVE_MODE_NONE);
}

bool separate_layouts(const DrawJobOptions& o) { return o.depth_layout != o.stencil_layout; }

// Initial layouts of the depth and stencil aspects when the pass begins.
VkImageLayout depth_initial_layout(const DrawJobOptions& o) {
  return o.depth_load_op == VK_ATTACHMENT_LOAD_OP_LOAD ? o.depth_layout : VK_IMAGE_LAYOUT_UNDEFINED;
}
VkImageLayout stencil_initial_layout(const DrawJobOptions& o) {
  return o.depth_load_op == VK_ATTACHMENT_LOAD_OP_LOAD ? o.stencil_layout : VK_IMAGE_LAYOUT_UNDEFINED;
}

// Moves the depth/stencil image's aspects between layouts: one barrier for both aspects when they
// share a layout, one per aspect otherwise (which needs separateDepthStencilLayouts).
void transition_depth_stencil(VkCommandBuffer cb, const Image& image, VkImageLayout depth_from, VkImageLayout depth_to,
                              VkImageLayout stencil_from, VkImageLayout stencil_to) {
  if (!has_stencil(image.info.format)) {
    transition(cb, image.image, VK_IMAGE_ASPECT_DEPTH_BIT, depth_from, depth_to);
  } else if (depth_from == stencil_from && depth_to == stencil_to) {
    transition(cb, image.image, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, depth_from, depth_to);
  } else {
    transition(cb, image.image, VK_IMAGE_ASPECT_DEPTH_BIT, depth_from, depth_to);
    transition(cb, image.image, VK_IMAGE_ASPECT_STENCIL_BIT, stencil_from, stencil_to);
  }
}

// Attachment writes → the readback copy after the pass.
constexpr VkPipelineStageFlags kAttachmentStages =
    VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
constexpr VkAccessFlags kAttachmentWrites =
    VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;

// The part of a graphics pipeline a dynamic state belongs to (the spec's "Graphics Pipeline
// Libraries" lists; only the states DrawJob's tests use).
VkGraphicsPipelineLibraryFlagsEXT part_of(VkDynamicState state) {
  switch (state) {
    case VK_DYNAMIC_STATE_VERTEX_INPUT_EXT:
    case VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE:
    case VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY:
    case VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE: return VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT;
    case VK_DYNAMIC_STATE_DEPTH_BOUNDS:
    case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK:
    case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK:
    case VK_DYNAMIC_STATE_STENCIL_REFERENCE:
    case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE:
    case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE:
    case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP:
    case VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE:
    case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE:
    case VK_DYNAMIC_STATE_STENCIL_OP: return VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
    case VK_DYNAMIC_STATE_BLEND_CONSTANTS:
    case VK_DYNAMIC_STATE_LOGIC_OP_EXT:
    case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT: return VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;
    default: return VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
  }
}

// `info`'s pipeline made as VK_EXT_graphics_pipeline_library libraries, one per part of
// `library_parts` with only that part's state, linked by a create info that brings the other
// parts. The
// libraries go to `libraries_out`. They live as long as the linked pipeline: Kiln does not need
// them after linking, but validation layers 1.3.239 read destroyed libraries' state at draws.
// A mesh pipeline has no vertex input part; one that discards its primitives (statically) no
// fragment parts.
VkResult create_linked_pipeline(VkDevice d, const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT library_parts,
                                bool link_time_optimization, VkPipeline* out, std::vector<VkPipeline>* libraries_out) {
  constexpr VkGraphicsPipelineLibraryFlagsEXT kVertexInput = VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT;
  constexpr VkGraphicsPipelineLibraryFlagsEXT kPreRasterization = VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
  constexpr VkGraphicsPipelineLibraryFlagsEXT kFragmentShader = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
  constexpr VkGraphicsPipelineLibraryFlagsEXT kFragmentOutput = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;
  bool mesh = false;
  for (uint32_t i = 0; i < info.stageCount; ++i) mesh |= info.pStages[i].stage == VK_SHADER_STAGE_MESH_BIT_EXT;
  VkGraphicsPipelineLibraryFlagsEXT parts = kPreRasterization;
  if (!mesh) parts |= kVertexInput;
  if (!info.pRasterizationState->rasterizerDiscardEnable) parts |= kFragmentShader | kFragmentOutput;
  const auto* rendering = static_cast<const VkPipelineRenderingCreateInfo*>(info.pNext);  // DrawJob chains nothing else
  // The part's stages, dynamic states and state pointers, in a create info chained to `chain`.
  struct PartInfo {
    std::vector<VkPipelineShaderStageCreateInfo> stages;
    std::vector<VkDynamicState> dynamic;
    VkPipelineDynamicStateCreateInfo dynamic_info{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    VkPipelineRenderingCreateInfo view_mask_only{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    VkGraphicsPipelineLibraryCreateInfoEXT library{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT};
    VkGraphicsPipelineCreateInfo create{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  };
  auto part_info = [&](VkGraphicsPipelineLibraryFlagsEXT own, PartInfo* p) {
    for (uint32_t i = 0; i < info.stageCount; ++i) {
      const bool fragment = info.pStages[i].stage == VK_SHADER_STAGE_FRAGMENT_BIT;
      if (own & (fragment ? kFragmentShader : kPreRasterization)) p->stages.push_back(info.pStages[i]);
    }
    for (uint32_t i = 0; i < info.pDynamicState->dynamicStateCount; ++i)
      if (own & part_of(info.pDynamicState->pDynamicStates[i])) p->dynamic.push_back(info.pDynamicState->pDynamicStates[i]);
    p->dynamic_info.dynamicStateCount = static_cast<uint32_t>(p->dynamic.size());
    p->dynamic_info.pDynamicStates = p->dynamic.data();
    VkGraphicsPipelineCreateInfo& c = p->create;
    c.stageCount = static_cast<uint32_t>(p->stages.size());
    c.pStages = p->stages.data();
    c.pDynamicState = &p->dynamic_info;
    if (own & kVertexInput) {
      c.pVertexInputState = info.pVertexInputState;
      c.pInputAssemblyState = info.pInputAssemblyState;
    }
    if (own & kPreRasterization) {
      c.pTessellationState = info.pTessellationState;
      c.pViewportState = info.pViewportState;
      c.pRasterizationState = info.pRasterizationState;
    }
    if (own & kFragmentShader) c.pDepthStencilState = info.pDepthStencilState;
    if (own & (kFragmentShader | kFragmentOutput)) c.pMultisampleState = info.pMultisampleState;
    if (own & kFragmentOutput) c.pColorBlendState = info.pColorBlendState;
    if (own & (kPreRasterization | kFragmentShader)) c.layout = info.layout;
    if (own & (kPreRasterization | kFragmentShader | kFragmentOutput)) c.renderPass = info.renderPass;
    p->library.flags = own;
    c.pNext = &p->library;
    // The pre-rasterization part reads only the view mask of VkPipelineRenderingCreateInfo, and
    // validation layers 1.3.239 take attachment formats there for fragment state.
    if (rendering && (own & ~kVertexInput)) {
      p->view_mask_only.viewMask = rendering->viewMask;
      p->library.pNext = own & (kFragmentShader | kFragmentOutput) ? const_cast<VkPipelineRenderingCreateInfo*>(rendering) : static_cast<void*>(&p->view_mask_only);
    }
  };
  VkResult result = VK_SUCCESS;
  for (VkGraphicsPipelineLibraryFlagsEXT part : {kVertexInput, kPreRasterization, kFragmentShader, kFragmentOutput}) {
    if (!(part & parts & library_parts) || result != VK_SUCCESS) continue;
    PartInfo p;
    part_info(part, &p);
    p.create.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
    if (link_time_optimization) p.create.flags |= VK_PIPELINE_CREATE_RETAIN_LINK_TIME_OPTIMIZATION_INFO_BIT_EXT;
    VkPipeline library = VK_NULL_HANDLE;
    result = vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &p.create, nullptr, &library);
    if (result == VK_SUCCESS) libraries_out->push_back(library);
  }
  if (result != VK_SUCCESS) return result;
  VkPipelineLibraryCreateInfoKHR linked{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR};
  linked.libraryCount = static_cast<uint32_t>(libraries_out->size());
  linked.pLibraries = libraries_out->data();
  PartInfo own;
  part_info(parts & ~library_parts, &own);
  VkGraphicsPipelineCreateInfo link = own.create;
  link.layout = info.layout;
  if (link_time_optimization) link.flags |= VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT;
  link.pNext = &linked;
  if (parts & ~library_parts) linked.pNext = &own.library;
  return vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &link, nullptr, out);
}

}  // namespace

DrawJob::DrawJob(TestDevice& device, const DrawJobOptions& options) : device_(device), options_(options) {
  VkDevice d = device.handle();
  const bool with_depth = options.depth_format != VK_FORMAT_UNDEFINED;
  const VkExtent3D extent{options.width, options.height, 1};
  EXPECT_FALSE(with_depth_resolve(options) && options.dynamic_rendering)
      << "DrawJob: depth/stencil resolves use a render pass";
  // Multisampled colour images can also be sampled (texelFetch) and copied.
  const VkImageUsageFlags color_usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                        VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                        (multisampled(options) ? VK_IMAGE_USAGE_SAMPLED_BIT : 0);
  for (uint32_t i = 0; i < options.color_attachment_count; ++i) {
    colors_.push_back(
        create_attachment_image(device, options.color_format, extent, options.layers, options.samples, color_usage,
                                attachment_flags(options)));
    color_views_.push_back(make_view(d, colors_.back(), VK_IMAGE_ASPECT_COLOR_BIT));
    if (with_resolve(options)) {
      resolves_.push_back(create_attachment_image(device, options.color_format, extent, options.layers,
                                                  VK_SAMPLE_COUNT_1_BIT,
                                                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT));
      resolve_views_.push_back(make_view(d, resolves_.back(), VK_IMAGE_ASPECT_COLOR_BIT));
    }
  }
  const VkImageAspectFlags depth_aspects =
      VK_IMAGE_ASPECT_DEPTH_BIT | (has_stencil(options.depth_format) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
  const VkImageUsageFlags depth_usage =
      VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (with_depth) {
    depth_ = create_attachment_image(device, options.depth_format, extent, options.layers, options.samples, depth_usage,
                                     attachment_flags(options));
    depth_view_ = make_view(d, depth_, options.depth_view_aspects ? options.depth_view_aspects : depth_aspects);
  }
  if (with_depth_resolve(options)) {
    depth_resolve_ =
        create_attachment_image(device, options.depth_format, extent, options.layers, VK_SAMPLE_COUNT_1_BIT, depth_usage);
    depth_resolve_view_ = make_view(d, depth_resolve_, depth_aspects);
  }

  if (!options.dynamic_rendering) {
    // Resolves (and multisampled passes) are described with vkCreateRenderPass2 only.
    if (options.render_pass2 || separate_layouts(options) || multisampled(options) || implicit(options))
      create_render_pass2();
    else create_render_pass();
    // In create_render_pass2's attachment order: colours, depth, colour resolves, depth resolve.
    std::vector<VkImageView> views = color_views_;
    if (with_depth) views.push_back(depth_view_);
    views.insert(views.end(), resolve_views_.begin(), resolve_views_.end());
    if (depth_resolve_view_) views.push_back(depth_resolve_view_);
    VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb_info.renderPass = render_pass_;
    fb_info.attachmentCount = static_cast<uint32_t>(views.size());
    fb_info.pAttachments = views.data();
    fb_info.width = options.width;
    fb_info.height = options.height;
    fb_info.layers = options.view_mask ? 1 : options.layers;
    EXPECT_EQ(vkCreateFramebuffer(d, &fb_info, nullptr, &framebuffer_), VK_SUCCESS);
  }

  // ALL_GRAPHICS does not include the task and mesh stages.
  const bool mesh = !options.mesh_shader.empty();
  if (mesh) stages_ |= VK_SHADER_STAGE_MESH_BIT_EXT;
  if (!options.task_shader.empty()) stages_ |= VK_SHADER_STAGE_TASK_BIT_EXT;
  std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
  for (uint32_t i = 0; i < options.bindings.size(); ++i)
    layout_bindings.push_back({i, options.bindings[i], 1, stages_, nullptr});
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = static_cast<uint32_t>(layout_bindings.size());
  set_info.pBindings = layout_bindings.data();
  EXPECT_EQ(vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout_), VK_SUCCESS);
  const VkPushConstantRange push{stages_, 0, options.push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = options.push_constant_bytes ? 1 : 0;
  layout_info.pPushConstantRanges = &push;
  EXPECT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout_), VK_SUCCESS);

  std::vector<VkPipelineShaderStageCreateInfo> stages;
  auto add_stage = [&](VkShaderStageFlagBits stage, const std::string& name) {
    if (name.empty()) return;
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage,
                      create_test_shader_module(d, name), "main", nullptr});
  };
  add_stage(VK_SHADER_STAGE_TASK_BIT_EXT, options.task_shader);
  add_stage(VK_SHADER_STAGE_MESH_BIT_EXT, options.mesh_shader);
  add_stage(VK_SHADER_STAGE_VERTEX_BIT, options.vertex_shader);
  add_stage(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, options.tess_control_shader);
  add_stage(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, options.tess_eval_shader);
  add_stage(VK_SHADER_STAGE_GEOMETRY_BIT, options.geometry_shader);
  add_stage(VK_SHADER_STAGE_FRAGMENT_BIT, options.fragment_shader);
  VkPipelineTessellationStateCreateInfo tessellation{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
  tessellation.patchControlPoints = options.patch_control_points;
  VkPipelineTessellationDomainOriginStateCreateInfo domain_origin{
      VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO};
  if (options.tess_domain_origin) {
    domain_origin.domainOrigin = *options.tess_domain_origin;
    tessellation.pNext = &domain_origin;
  }
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vertex_input.vertexBindingDescriptionCount = static_cast<uint32_t>(options.vertex_bindings.size());
  vertex_input.pVertexBindingDescriptions = options.vertex_bindings.data();
  vertex_input.vertexAttributeDescriptionCount = static_cast<uint32_t>(options.vertex_attributes.size());
  vertex_input.pVertexAttributeDescriptions = options.vertex_attributes.data();
  VkPipelineVertexInputDivisorStateCreateInfoEXT divisors{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT};
  divisors.vertexBindingDivisorCount = static_cast<uint32_t>(options.vertex_divisors.size());
  divisors.pVertexBindingDivisors = options.vertex_divisors.data();
  if (!options.vertex_divisors.empty()) vertex_input.pNext = &divisors;
  VkPipelineInputAssemblyStateCreateInfo input_assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  input_assembly.topology = options.topology;
  input_assembly.primitiveRestartEnable = options.primitive_restart;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = std::max<uint32_t>(1, static_cast<uint32_t>(options.viewports.size()));
  viewport.scissorCount = viewport.viewportCount;
  VkPipelineViewportDepthClipControlCreateInfoEXT clip_control{
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT};
  clip_control.negativeOneToOne = VK_TRUE;
  if (options.negative_one_to_one) viewport.pNext = &clip_control;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = options.polygon_mode;
  raster.rasterizerDiscardEnable = options.rasterizer_discard;
  raster.depthClampEnable = options.depth_clamp;
  raster.cullMode = options.cull_mode;
  raster.frontFace = options.front_face;
  raster.lineWidth = options.line_width;
  raster.depthBiasEnable = options.depth_bias_enable;
  raster.depthBiasConstantFactor = options.depth_bias_constant;
  raster.depthBiasClamp = options.depth_bias_clamp;
  raster.depthBiasSlopeFactor = options.depth_bias_slope;
  VkPipelineRasterizationProvokingVertexStateCreateInfoEXT provoking{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT};
  provoking.provokingVertexMode = VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  if (options.provoking_vertex_last) raster.pNext = &provoking;
  VkPipelineRasterizationLineStateCreateInfoEXT line{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
  line.lineRasterizationMode = options.line_mode;
  line.stippledLineEnable = options.line_stipple;
  line.lineStippleFactor = options.line_stipple_factor;
  line.lineStipplePattern = options.line_stipple_pattern;
  if (options.line_mode != VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT || options.line_stipple) {
    line.pNext = raster.pNext;
    raster.pNext = &line;
  }
  VkPipelineRasterizationDepthClipStateCreateInfoEXT depth_clip{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT};
  if (options.depth_clip) {
    depth_clip.depthClipEnable = *options.depth_clip;
    depth_clip.pNext = raster.pNext;
    raster.pNext = &depth_clip;
  }
  VkPipelineRasterizationStateStreamCreateInfoEXT stream{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT};
  if (options.rasterization_stream) {
    stream.rasterizationStream = *options.rasterization_stream;
    stream.pNext = raster.pNext;
    raster.pNext = &stream;
  }
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = implicit(options)           ? options.implicit_samples
                                     : options.pipeline_samples ? options.pipeline_samples
                                                                : options.samples;
  multisample.sampleShadingEnable = options.sample_shading;
  multisample.minSampleShading = options.min_sample_shading;
  multisample.alphaToOneEnable = options.alpha_to_one;
  std::vector<VkPipelineColorBlendAttachmentState> blends = options.blends;
  if (blends.empty()) blends.assign(options.color_attachment_count, options.blend);
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.logicOpEnable = options.logic_op_enable;
  blend.logicOp = options.logic_op;
  blend.attachmentCount = static_cast<uint32_t>(blends.size());
  blend.pAttachments = blends.data();
  VkPipelineColorWriteCreateInfoEXT write_enables{VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT};
  write_enables.attachmentCount = static_cast<uint32_t>(options.color_write_enables.size());
  write_enables.pColorWriteEnables = options.color_write_enables.data();
  if (!options.color_write_enables.empty()) blend.pNext = &write_enables;
  std::vector<VkDynamicState> dynamic = options.dynamic_states;
  dynamic.push_back(VK_DYNAMIC_STATE_VIEWPORT);
  dynamic.push_back(VK_DYNAMIC_STATE_SCISSOR);
  VkPipelineDynamicStateCreateInfo dynamic_info{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic_info.dynamicStateCount = static_cast<uint32_t>(dynamic.size());
  dynamic_info.pDynamicStates = dynamic.data();
  const std::vector<VkFormat> color_formats(options.color_attachment_count, options.color_format);
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.viewMask = options.view_mask;
  rendering.colorAttachmentCount = options.color_attachment_count;
  rendering.pColorAttachmentFormats = color_formats.data();
  rendering.depthAttachmentFormat = options.depth_format;
  rendering.stencilAttachmentFormat = has_stencil(options.depth_format) ? options.depth_format : VK_FORMAT_UNDEFINED;
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = options.dynamic_rendering ? &rendering : nullptr;
  info.stageCount = static_cast<uint32_t>(stages.size());
  info.pStages = stages.data();
  info.pTessellationState = options.tess_control_shader.empty() ? nullptr : &tessellation;
  // The spec has mesh pipelines ignore them: null checks that the driver does.
  info.pVertexInputState = mesh ? nullptr : &vertex_input;
  info.pInputAssemblyState = mesh ? nullptr : &input_assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = with_depth ? &options.depth_stencil : nullptr;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic_info;
  info.layout = layout_;
  info.renderPass = render_pass_;
  pipeline_result_ = options.library_parts ? create_linked_pipeline(d, info, options.library_parts, options.link_time_optimization, &pipeline_,
                                                                       &libraries_)
                                                : vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_);
  for (const VkPipelineShaderStageCreateInfo& stage : stages) vkDestroyShaderModule(d, stage.module, nullptr);

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

// One subpass (vkCreateRenderPass, multiview through VkRenderPassMultiviewCreateInfo); every
// attachment ends in TRANSFER_SRC_OPTIMAL for readback.
void DrawJob::create_render_pass() {
  const DrawJobOptions& o = options_;
  const bool with_depth = o.depth_format != VK_FORMAT_UNDEFINED;
  std::vector<VkAttachmentDescription> attachments;
  std::vector<VkAttachmentReference> color_refs;
  for (uint32_t i = 0; i < o.color_attachment_count; ++i) {
    attachments.push_back({0, o.color_format, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                           VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                           o.color_initial_layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL});
    color_refs.push_back({i, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
  }
  const VkAttachmentReference depth_ref{o.color_attachment_count, o.depth_layout};
  if (with_depth)
    attachments.push_back({0, o.depth_format, VK_SAMPLE_COUNT_1_BIT, o.depth_load_op, VK_ATTACHMENT_STORE_OP_STORE,
                           o.depth_load_op, VK_ATTACHMENT_STORE_OP_STORE, depth_initial_layout(o),
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL});
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = o.color_attachment_count;
  subpass.pColorAttachments = color_refs.data();
  subpass.pDepthStencilAttachment = with_depth ? &depth_ref : nullptr;
  const VkSubpassDependency dependency{0, VK_SUBPASS_EXTERNAL, kAttachmentStages, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                       kAttachmentWrites, VK_ACCESS_TRANSFER_READ_BIT, 0};
  VkRenderPassMultiviewCreateInfo multiview{VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO};
  multiview.subpassCount = 1;
  multiview.pViewMasks = &o.view_mask;
  VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  pass_info.pNext = o.view_mask ? &multiview : nullptr;
  pass_info.attachmentCount = static_cast<uint32_t>(attachments.size());
  pass_info.pAttachments = attachments.data();
  pass_info.subpassCount = 1;
  pass_info.pSubpasses = &subpass;
  pass_info.dependencyCount = 1;
  pass_info.pDependencies = &dependency;
  EXPECT_EQ(vkCreateRenderPass(device_.handle(), &pass_info, nullptr, &render_pass_), VK_SUCCESS);
}

// The same pass through vkCreateRenderPass2: multiview as the subpass's viewMask, and the stencil
// aspect's own layouts when they differ from the depth aspect's.
void DrawJob::create_render_pass2() {
  const DrawJobOptions& o = options_;
  const bool with_depth = o.depth_format != VK_FORMAT_UNDEFINED;
  std::vector<VkAttachmentDescription2> attachments;
  std::vector<VkAttachmentReference2> color_refs;
  for (uint32_t i = 0; i < o.color_attachment_count; ++i) {
    VkAttachmentDescription2 a{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
    a.format = o.color_format;
    a.samples = o.samples;
    a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    a.initialLayout = o.color_initial_layout;
    a.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    attachments.push_back(a);
    color_refs.push_back({VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, i, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0});
  }
  const bool separate = separate_layouts(o);
  VkAttachmentDescriptionStencilLayout stencil_description{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT};
  stencil_description.stencilInitialLayout = stencil_initial_layout(o);
  stencil_description.stencilFinalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReferenceStencilLayout stencil_reference{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_STENCIL_LAYOUT};
  stencil_reference.stencilLayout = o.stencil_layout;
  if (with_depth) {
    VkAttachmentDescription2 a{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
    a.pNext = separate ? &stencil_description : nullptr;
    a.format = o.depth_format;
    a.samples = o.samples;
    a.loadOp = a.stencilLoadOp = o.depth_load_op;
    a.storeOp = a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.initialLayout = depth_initial_layout(o);
    a.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    attachments.push_back(a);
  }
  const VkAttachmentReference2 depth_ref{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, separate ? &stencil_reference : nullptr,
                                         o.color_attachment_count, o.depth_layout, 0};
  // Single-sampled resolve targets of a multisampled pass: one per colour attachment, then depth.
  auto add_resolve_target = [&](VkFormat format) {
    VkAttachmentDescription2 a{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
    a.format = format;
    a.samples = VK_SAMPLE_COUNT_1_BIT;
    a.loadOp = a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    a.storeOp = a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    a.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    attachments.push_back(a);
    return static_cast<uint32_t>(attachments.size() - 1);
  };
  std::vector<VkAttachmentReference2> resolve_refs;
  if (with_resolve(o))
    for (uint32_t i = 0; i < o.color_attachment_count; ++i)
      resolve_refs.push_back({VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, add_resolve_target(o.color_format),
                              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0});
  const VkAttachmentReference2 depth_resolve_ref{
      VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr,
      with_depth_resolve(o) ? add_resolve_target(o.depth_format) : VK_ATTACHMENT_UNUSED,
      VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, 0};
  VkSubpassDescriptionDepthStencilResolve ds_resolve{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE};
  ds_resolve.depthResolveMode = o.depth_resolve_mode;
  ds_resolve.stencilResolveMode = o.stencil_resolve_mode;
  ds_resolve.pDepthStencilResolveAttachment = &depth_resolve_ref;
  VkMultisampledRenderToSingleSampledInfoEXT implicit_info{VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT};
  implicit_info.multisampledRenderToSingleSampledEnable = VK_TRUE;
  implicit_info.rasterizationSamples = o.implicit_samples;
  // With implicit images the depth/stencil resolve modes say how they resolve into the attachment.
  implicit_info.pNext = with_depth ? &ds_resolve : nullptr;
  VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2};
  subpass.pNext = implicit(o) ? static_cast<const void*>(&implicit_info) : with_depth_resolve(o) ? &ds_resolve : nullptr;
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.viewMask = o.view_mask;
  subpass.colorAttachmentCount = o.color_attachment_count;
  subpass.pColorAttachments = color_refs.data();
  subpass.pResolveAttachments = resolve_refs.empty() ? nullptr : resolve_refs.data();
  subpass.pDepthStencilAttachment = with_depth ? &depth_ref : nullptr;
  VkSubpassDependency2 dependency{VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2};
  dependency.srcSubpass = 0;
  dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
  dependency.srcStageMask = kAttachmentStages;
  dependency.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependency.srcAccessMask = kAttachmentWrites;
  dependency.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo2 pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
  pass_info.attachmentCount = static_cast<uint32_t>(attachments.size());
  pass_info.pAttachments = attachments.data();
  pass_info.subpassCount = 1;
  pass_info.pSubpasses = &subpass;
  pass_info.dependencyCount = 1;
  pass_info.pDependencies = &dependency;
  EXPECT_EQ(vkCreateRenderPass2(device_.handle(), &pass_info, nullptr, &render_pass_), VK_SUCCESS);
}

DrawJob::~DrawJob() {
  VkDevice d = device_.handle();
  vkDestroyDescriptorPool(d, pool_, nullptr);
  vkDestroyPipeline(d, pipeline_, nullptr);
  for (VkPipeline library : libraries_) vkDestroyPipeline(d, library, nullptr);
  vkDestroyPipelineLayout(d, layout_, nullptr);
  vkDestroyDescriptorSetLayout(d, set_layout_, nullptr);
  vkDestroyFramebuffer(d, framebuffer_, nullptr);
  vkDestroyRenderPass(d, render_pass_, nullptr);
  for (VkImageView view : color_views_) vkDestroyImageView(d, view, nullptr);
  for (VkImageView view : resolve_views_) vkDestroyImageView(d, view, nullptr);
  vkDestroyImageView(d, depth_resolve_view_, nullptr);
  vkDestroyImageView(d, depth_view_, nullptr);
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

// Dynamic rendering has no attachment descriptions: barriers put the images into their
// attachment layouts before and into TRANSFER_SRC_OPTIMAL after.
void DrawJob::record_dynamic_rendering_begin(VkCommandBuffer cb, const VkClearValue* clears) {
  const DrawJobOptions& o = options_;
  for (const Image& image : colors_)
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, o.color_initial_layout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  for (const Image& image : resolves_)
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  std::vector<VkRenderingAttachmentInfo> color_infos;
  for (size_t i = 0; i < color_views_.size(); ++i) {
    VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    a.imageView = color_views_[i];
    if (i < resolve_views_.size()) {  // a multisampled target resolves as a render pass's would
      a.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
      a.resolveImageView = resolve_views_[i];
      a.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    a.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.clearValue = clears[0];
    if (implicit(o)) {  // into the attachment itself (validation 1.3.239 wants a resolve layout even so)
      a.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
      a.resolveImageLayout = a.imageLayout;
    }
    color_infos.push_back(a);
  }
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth.imageView = depth_view_;
  depth.imageLayout = o.depth_layout;
  depth.loadOp = o.depth_load_op;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  depth.clearValue = clears[1];
  VkRenderingAttachmentInfo stencil = depth;
  stencil.imageLayout = o.stencil_layout;
  if (implicit(o)) {
    depth.resolveMode = o.depth_resolve_mode;
    depth.resolveImageLayout = depth.imageLayout;
    stencil.resolveMode = o.stencil_resolve_mode;
    stencil.resolveImageLayout = stencil.imageLayout;
  }
  if (depth_view_ && o.depth_load_op != VK_ATTACHMENT_LOAD_OP_LOAD)
    transition_depth_stencil(cb, depth_, VK_IMAGE_LAYOUT_UNDEFINED, o.depth_layout, VK_IMAGE_LAYOUT_UNDEFINED,
                             o.stencil_layout);
  VkMultisampledRenderToSingleSampledInfoEXT implicit_info{VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT};
  implicit_info.multisampledRenderToSingleSampledEnable = VK_TRUE;
  implicit_info.rasterizationSamples = o.implicit_samples;
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.pNext = implicit(o) ? &implicit_info : nullptr;
  info.renderArea = {{0, 0}, {o.width, o.height}};
  info.layerCount = o.view_mask ? 1 : o.layers;
  info.viewMask = o.view_mask;
  info.colorAttachmentCount = static_cast<uint32_t>(color_infos.size());
  info.pColorAttachments = color_infos.data();
  info.pDepthAttachment = depth_view_ ? &depth : nullptr;
  info.pStencilAttachment = depth_view_ && has_stencil(o.depth_format) ? &stencil : nullptr;
  vkCmdBeginRendering(cb, &info);
}

void DrawJob::record_dynamic_rendering_end(VkCommandBuffer cb) {
  vkCmdEndRendering(cb);
  for (const std::vector<Image>* images : {&colors_, &resolves_})
    for (const Image& image : *images)
      transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  if (depth_view_)
    transition_depth_stencil(cb, depth_, options_.depth_layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             options_.stencil_layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
}

void DrawJob::draw(const VkClearColorValue& clear, const std::function<void(VkCommandBuffer)>& record, float clear_depth,
                   uint32_t clear_stencil) {
  device_.run_commands([&](VkCommandBuffer cb) {
    record_pass(cb, clear, record, clear_depth, VK_SUBPASS_CONTENTS_INLINE, clear_stencil);
  });
}

void DrawJob::record_pass(VkCommandBuffer cb, const VkClearColorValue& clear,
                          const std::function<void(VkCommandBuffer)>& record, float clear_depth,
                          VkSubpassContents contents, uint32_t clear_stencil) {
  std::vector<VkClearValue> clears(colors_.size() + 1);
  for (size_t i = 0; i < colors_.size(); ++i) clears[i].color = clear;
  clears.back().depthStencil = {clear_depth, clear_stencil};
  if (options_.dynamic_rendering) {
    const VkClearValue first[2] = {clears[0], clears.back()};
    record_dynamic_rendering_begin(cb, first);
  } else {
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = render_pass_;
    begin.framebuffer = framebuffer_;
    begin.renderArea = {{0, 0}, {options_.width, options_.height}};
    begin.clearValueCount = static_cast<uint32_t>(clears.size());
    begin.pClearValues = clears.data();
    vkCmdBeginRenderPass(cb, &begin, contents);
  }
  if (contents == VK_SUBPASS_CONTENTS_INLINE) bind_state(cb);
  record(cb);
  if (options_.dynamic_rendering) record_dynamic_rendering_end(cb);
  else vkCmdEndRenderPass(cb);
}

void DrawJob::bind_state(VkCommandBuffer cb) {
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
  if (set_) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &set_, 0, nullptr);
  std::vector<VkViewport> viewports = options_.viewports;
  std::vector<VkRect2D> scissors = options_.scissors;
  if (viewports.empty()) viewports = {{0, 0, float(options_.width), float(options_.height), 0, 1}};
  if (scissors.empty()) scissors = {{{0, 0}, {options_.width, options_.height}}};
  vkCmdSetViewport(cb, 0, static_cast<uint32_t>(viewports.size()), viewports.data());
  vkCmdSetScissor(cb, 0, static_cast<uint32_t>(scissors.size()), scissors.data());
}

VkCommandBufferInheritanceInfo DrawJob::inheritance() const {
  VkCommandBufferInheritanceInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  info.renderPass = render_pass_;
  info.subpass = 0;
  info.framebuffer = framebuffer_;
  return info;
}

std::vector<uint8_t> DrawJob::read_color(uint32_t attachment, uint32_t layer) {
  if (multisampled(options_) && resolves_.empty()) {
    ADD_FAILURE() << "read_color: a multisampled target without a resolve attachment cannot be read back";
    return {};
  }
  const Image& image = multisampled(options_) ? resolves_.at(attachment) : colors_.at(attachment);
  return device_.read_image(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
}

std::vector<uint8_t> DrawJob::read_depth(uint32_t layer) { return read_depth_stencil(VK_IMAGE_ASPECT_DEPTH_BIT, layer); }

std::vector<uint8_t> DrawJob::read_stencil(uint32_t layer) {
  return read_depth_stencil(VK_IMAGE_ASPECT_STENCIL_BIT, layer);
}

std::vector<uint8_t> DrawJob::read_depth_stencil(VkImageAspectFlagBits aspect, uint32_t layer) {
  const Image& image = multisampled(options_) ? depth_resolve_ : depth_;
  if (!image.image) {
    ADD_FAILURE() << "read_depth: a multisampled depth target without a depth/stencil resolve cannot be read back";
    return {};
  }
  return device_.read_image(image, aspect, 0, layer, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
}

}  // namespace kiln::test
