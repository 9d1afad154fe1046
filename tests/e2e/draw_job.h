#pragma once
// A graphics pipeline and a render target ready to draw into, for end-to-end tests of the graphics
// pipeline: a colour attachment (and optionally a depth/stencil one) in a classic render pass,
// shaders from tests/shaders, vertex input and fixed-function state as each test sets them, a
// descriptor set 0 of buffer descriptors at bindings 0, 1, … and optional push constants.
#include <vulkan/vulkan.h>

#include <functional>
#include <string>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {

struct DrawJobOptions {
  std::string vertex_shader;    // e.g. "draw_colored.vert"
  std::string fragment_shader;  // empty: no fragment shader (depth-only)
  uint32_t width = 64, height = 64;
  VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;  // UNDEFINED: no depth/stencil attachment
  std::vector<VkVertexInputBindingDescription> vertex_bindings;
  std::vector<VkVertexInputAttributeDescription> vertex_attributes;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitive_restart = false;
  VkCullModeFlags cull_mode = VK_CULL_MODE_NONE;
  VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;
  bool depth_clamp = false;
  bool logic_op_enable = false;
  VkLogicOp logic_op = VK_LOGIC_OP_COPY;
  VkPipelineColorBlendAttachmentState blend{VK_FALSE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
                                            VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xF};
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
  bool sample_shading = false;  // VkPipelineMultisampleStateCreateInfo (needs sampleRateShading)
  float min_sample_shading = 0.0f;
  bool alpha_to_one = false;    // needs the alphaToOne feature
  std::vector<VkDynamicState> dynamic_states;  // viewport and scissor are always dynamic
  std::vector<VkDescriptorType> bindings;      // set 0, bindings 0, 1, …
  uint32_t push_constant_bytes = 0;            // visible to both stages
};

class DrawJob {
 public:
  DrawJob(TestDevice& device, const DrawJobOptions& options);
  ~DrawJob();
  DrawJob(const DrawJob&) = delete;
  DrawJob& operator=(const DrawJob&) = delete;

  VkResult pipeline_result() const { return pipeline_result_; }
  VkPipelineLayout layout() const { return layout_; }
  // The colour attachment (multisampled when options.samples > 1), in TRANSFER_SRC_OPTIMAL after draw().
  const Image& color_image() const { return color_; }
  VkImageView color_view() const { return color_view_; }

  void bind_buffer(uint32_t binding, const Buffer& buffer);

  // Begins the render pass (colour cleared to `clear`, depth to `clear_depth`), binds the pipeline
  // and set 0, sets the full-target viewport and scissor, runs `record`, ends the pass and waits.
  void draw(const VkClearColorValue& clear, const std::function<void(VkCommandBuffer)>& record, float clear_depth = 1.0f);

  // The colour attachment's texels (tightly packed rows; the resolved image when multisampled) /
  // the depth attachment's depth or stencil aspect (its resolve when multisampled).
  std::vector<uint8_t> read_color();
  std::vector<uint8_t> read_depth(VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_DEPTH_BIT);

 private:
  TestDevice& device_;
  DrawJobOptions options_;
  Image color_{}, depth_{}, resolve_{}, depth_resolve_{};
  VkImageView color_view_ = VK_NULL_HANDLE, depth_view_ = VK_NULL_HANDLE, resolve_view_ = VK_NULL_HANDLE;
  VkImageView depth_resolve_view_ = VK_NULL_HANDLE;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkResult pipeline_result_ = VK_ERROR_UNKNOWN;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

}  // namespace kiln::test
