#pragma once
// A graphics pipeline and render targets ready to draw into, for end-to-end tests of the graphics
// pipeline: colour attachments (and optionally a depth/stencil one) in a classic render pass
// (vkCreateRenderPass or vkCreateRenderPass2) or dynamic rendering, shaders from tests/shaders,
// vertex input and fixed-function state as each test sets them, a descriptor set 0 of buffer
// descriptors at bindings 0, 1, … and optional push constants. Attachments may be layered
// (2D array images), rendered with multiview or with Layer written by the vertex or geometry
// shader.
#include <vulkan/vulkan.h>

#include <array>
#include <functional>
#include <string>
#include <optional>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {

struct DrawJobOptions {
  std::string vertex_shader;    // e.g. "draw_colored.vert"
  std::string fragment_shader;  // empty: no fragment shader (depth-only)
  // Tessellation: both shaders or neither (then topology must be PATCH_LIST and the device must
  // have tessellationShader enabled).
  std::string tess_control_shader, tess_eval_shader;
  uint32_t patch_control_points = 3;
  // VK_KHR_maintenance2's VkPipelineTessellationDomainOriginStateCreateInfo when set.
  std::optional<VkTessellationDomainOrigin> tess_domain_origin;
  // Empty: no geometry shader; otherwise the device must have geometryShader enabled.
  std::string geometry_shader;
  // VK_EXT_mesh_shader: a mesh shader replaces the vertex stages (vertex_shader, tessellation and
  // geometry stay empty; vertex input and input assembly state are not given), with an optional
  // task shader. Descriptors and push constants are then visible to the task and mesh stages too
  // (DrawJob::stages()).
  std::string task_shader, mesh_shader;
  uint32_t width = 64, height = 64;
  VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;
  uint32_t color_attachment_count = 1;          // all of color_format; Location i writes attachment i
  VkFormat depth_format = VK_FORMAT_UNDEFINED;  // UNDEFINED: no depth/stencil attachment
  // Aspects of the depth/stencil attachment's view; 0: every aspect of depth_format. A depth-only
  // view of a depth/stencil format makes the stencil aspect no attachment (render passes only).
  VkImageAspectFlags depth_view_aspects = 0;
  // Array layers of every attachment image (views are 2D_ARRAY when > 1). Without multiview the
  // framebuffer has all of them (the vertex shader's Layer selects one); with multiview it has 1.
  uint32_t layers = 1;
  uint32_t view_mask = 0;          // multiview: the subpass's (or rendering's) view mask
  // Layout the colour images are in when draw() starts: UNDEFINED (contents discarded), or e.g.
  // TRANSFER_DST_OPTIMAL after the test filled them (layers or views the pass does not touch keep
  // those contents).
  VkImageLayout color_initial_layout = VK_IMAGE_LAYOUT_UNDEFINED;
  bool dynamic_rendering = false;  // vkCmdBeginRendering instead of a render pass
  bool render_pass2 = false;       // vkCreateRenderPass2 (implied by separate depth/stencil layouts)
  // Layouts of the depth and stencil aspects inside the pass. When they differ from
  // DEPTH_STENCIL_ATTACHMENT_OPTIMAL the render pass says so with VkAttachmentReferenceStencilLayout
  // and VkAttachmentDescriptionStencilLayout (separateDepthStencilLayouts).
  VkImageLayout depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  VkImageLayout stencil_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  // CLEAR (to draw()'s clear values) or LOAD: then the test puts the depth/stencil image (depth_image())
  // in depth_layout / stencil_layout before draw().
  VkAttachmentLoadOp depth_load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
  std::vector<VkVertexInputBindingDescription> vertex_bindings;
  std::vector<VkVertexInputAttributeDescription> vertex_attributes;
  // VK_EXT_vertex_attribute_divisor: per-instance bindings whose instances repeat (empty: none).
  std::vector<VkVertexInputBindingDivisorDescriptionEXT> vertex_divisors;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitive_restart = false;
  VkCullModeFlags cull_mode = VK_CULL_MODE_NONE;
  VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  bool provoking_vertex_last = false;  // VK_EXT_provoking_vertex LAST_VERTEX mode (the device enables it)
  // VK_EXT_line_rasterization mode (DEFAULT without stipple: no VkPipelineRasterizationLineStateCreateInfoEXT).
  VkLineRasterizationModeEXT line_mode = VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
  // Its stipple (stippledLineEnable, lineStippleFactor, lineStipplePattern).
  bool line_stipple = false;
  uint32_t line_stipple_factor = 1;
  uint16_t line_stipple_pattern = 0xFFFF;
  VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;
  bool rasterizer_discard = false;  // rasterizerDiscardEnable: primitives end before rasterization
  // VK_EXT_transform_feedback: the vertex stream rasterized
  // (VkPipelineRasterizationStateStreamCreateInfoEXT) when set; stream 0 otherwise.
  std::optional<uint32_t> rasterization_stream;
  bool depth_clamp = false;
  // VK_EXT_depth_clip_enable: VkPipelineRasterizationDepthClipStateCreateInfoEXT when set.
  std::optional<bool> depth_clip;
  bool negative_one_to_one = false;  // VK_EXT_depth_clip_control (the device enables it)
  float line_width = 1.0f;
  bool depth_bias_enable = false;
  float depth_bias_constant = 0.0f, depth_bias_clamp = 0.0f, depth_bias_slope = 0.0f;
  bool logic_op_enable = false;
  VkLogicOp logic_op = VK_LOGIC_OP_COPY;
  VkPipelineColorBlendAttachmentState blend{VK_FALSE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
                                            VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xF};
  // Per colour attachment (independentBlend when they differ); empty: `blend` for every attachment.
  std::vector<VkPipelineColorBlendAttachmentState> blends;
  // VK_EXT_color_write_enable's VkPipelineColorWriteCreateInfoEXT, one per attachment (empty: none).
  std::vector<VkBool32> color_write_enables;
  VkPipelineDepthStencilStateCreateInfo depth_stencil{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  // Multisampling: the colour (and depth) attachment's samples. With more than one, the colour
  // image can also be sampled (texelFetch) and, with resolve_attachment, the subpass resolves it
  // into a single-sampled image that read_color() returns.
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  bool resolve_attachment = true;
  // Depth/stencil resolve of a multisampled depth attachment into a single-sampled one that
  // read_depth() returns (VkSubpassDescriptionDepthStencilResolve; NONE: no resolve).
  VkResolveModeFlagBits depth_resolve_mode = VK_RESOLVE_MODE_NONE;
  VkResolveModeFlagBits stencil_resolve_mode = VK_RESOLVE_MODE_NONE;
  // VK_EXT_multisampled_render_to_single_sampled (the device enables it; samples stays 1): the
  // single-sampled attachments are rendered with this many samples (the pipeline's
  // rasterizationSamples) and resolved into themselves — colour by AVERAGE, depth/stencil by
  // depth_resolve_mode / stencil_resolve_mode. 1: off.
  VkSampleCountFlagBits implicit_samples = VK_SAMPLE_COUNT_1_BIT;
  // The pipeline's static rasterizationSamples when it differs from `samples` (a test that sets
  // VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT); 0: `samples`.
  VkSampleCountFlagBits pipeline_samples = VkSampleCountFlagBits(0);
  bool sample_shading = false;  // VkPipelineMultisampleStateCreateInfo (needs sampleRateShading)
  float min_sample_shading = 0.0f;
  bool alpha_to_one = false;    // needs the alphaToOne feature
  std::vector<VkDynamicState> dynamic_states;  // viewport and scissor are always dynamic
  // Viewports and scissors set at draw(); empty: one of each covering the whole target.
  std::vector<VkViewport> viewports;
  std::vector<VkRect2D> scissors;
  // VK_EXT_graphics_pipeline_library (the device enables graphicsPipelineLibrary): these parts of
  // the pipeline (vertex input, pre-rasterization, fragment shader, fragment output) are each made
  // as a library with only that part's state, and the pipeline links them, bringing the other
  // parts itself; 0: the pipeline is created in one call.
  VkGraphicsPipelineLibraryFlagsEXT library_parts = 0;
  // With library_parts: the libraries keep link-time optimisation information and the link asks
  // for it (VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT); otherwise the link is a fast one.
  bool link_time_optimization = false;
  std::vector<VkDescriptorType> bindings;      // set 0, bindings 0, 1, …; visible to every graphics stage
  uint32_t push_constant_bytes = 0;            // visible to every graphics stage
};

// Additive blending of every channel: a pixel covered twice shows twice the colour (tests that
// every pixel is covered exactly once).
constexpr VkPipelineColorBlendAttachmentState kAdditiveBlend{VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
                                                             VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
                                                             VK_BLEND_OP_ADD, 0xF};

class DrawJob {
 public:
  DrawJob(TestDevice& device, const DrawJobOptions& options);
  ~DrawJob();
  DrawJob(const DrawJob&) = delete;
  DrawJob& operator=(const DrawJob&) = delete;

  VkResult pipeline_result() const { return pipeline_result_; }
  VkPipelineLayout layout() const { return layout_; }
  // The stages set 0 and the push constant range are visible to (what vkCmdPushConstants takes).
  VkShaderStageFlags stages() const { return stages_; }
  // A colour attachment (multisampled when options.samples > 1) and the depth/stencil one, in
  // TRANSFER_SRC_OPTIMAL after draw().
  const Image& color_image(uint32_t attachment = 0) const { return colors_.at(attachment); }
  VkImageView color_view(uint32_t attachment = 0) const { return color_views_.at(attachment); }
  const Image& depth_image() const { return depth_; }

  void bind_buffer(uint32_t binding, const Buffer& buffer);

  // Begins the render pass or rendering (colour cleared to `clear`, depth to `clear_depth`,
  // stencil to `clear_stencil`), binds the pipeline and set 0, sets the viewports and scissors,
  // runs `record`, ends the pass and waits. Afterwards every attachment is in TRANSFER_SRC_OPTIMAL.
  void draw(const VkClearColorValue& clear, const std::function<void(VkCommandBuffer)>& record, float clear_depth = 1.0f,
            uint32_t clear_stencil = 0);
  // The render pass part of draw() recorded into `cb`, for tests that record around it (queries).
  // With SECONDARY_COMMAND_BUFFERS contents nothing is bound: `record` executes secondaries, which
  // call bind_state() themselves and continue the pass with inheritance().
  void record_pass(VkCommandBuffer cb, const VkClearColorValue& clear, const std::function<void(VkCommandBuffer)>& record,
                   float clear_depth = 1.0f, VkSubpassContents contents = VK_SUBPASS_CONTENTS_INLINE,
                   uint32_t clear_stencil = 0);
  // Binds the pipeline and set 0 and sets the viewports and scissors.
  void bind_state(VkCommandBuffer cb);
  VkCommandBufferInheritanceInfo inheritance() const;

  // A colour attachment's texels (tightly packed rows; its resolve when multisampled) / the depth
  // or stencil aspect's (the depth/stencil resolve when multisampled), of one layer.
  std::vector<uint8_t> read_color(uint32_t attachment = 0, uint32_t layer = 0);
  std::vector<uint8_t> read_depth(uint32_t layer = 0);
  std::vector<uint8_t> read_stencil(uint32_t layer = 0);

 private:
  void create_render_pass();
  void create_render_pass2();
  void record_dynamic_rendering_begin(VkCommandBuffer cb, const VkClearValue* clears);
  void record_dynamic_rendering_end(VkCommandBuffer cb);
  std::vector<uint8_t> read_depth_stencil(VkImageAspectFlagBits aspect, uint32_t layer);

  TestDevice& device_;
  DrawJobOptions options_;
  std::vector<Image> colors_, resolves_;
  std::vector<VkImageView> color_views_, resolve_views_;
  Image depth_{}, depth_resolve_{};
  VkImageView depth_view_ = VK_NULL_HANDLE, depth_resolve_view_ = VK_NULL_HANDLE;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkShaderStageFlags stages_ = VK_SHADER_STAGE_ALL_GRAPHICS;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  std::vector<VkPipeline> libraries_;  // options.library_parts: what pipeline_ was linked from
  VkResult pipeline_result_ = VK_ERROR_UNKNOWN;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

}  // namespace kiln::test
