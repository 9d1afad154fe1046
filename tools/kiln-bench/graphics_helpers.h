#pragma once
// The graphics building blocks every kiln-bench draw scenario uses, so scenario files hold only
// what they measure: support checks, a render target (classic VkRenderPass + VkFramebuffer, with
// optional depth and 4x MSAA + resolve), graphics pipelines over one shared interface, vertex/index
// buffers, a sampled texture or storage buffers, and optional tessellation and geometry stages or
// task and mesh stages instead.
//
// The shared interface: push constants `Layer { vec4 colour; float depth; }` visible to the vertex
// and fragment stages (shaders/layer.vert, mesh.vert, textured_quad.vert, flat_colour.frag), and,
// for textured pipelines, set 0 binding 0 = a combined image sampler (shaders/textured.frag), or
// for pipelines reading storage buffers (the meshlet scene's task and mesh shaders), set 0 = those
// buffers at bindings 0, 1, …. A pipeline whose shaders declare another push-constant block (the
// tessellated terrain's, the meshlet scene's camera) says how large it is; the block is then
// visible to every stage of the pipeline.
// Render targets are R8G8B8A8_UNORM, cleared at the start of every render pass, and rest in
// COLOR_ATTACHMENT_OPTIMAL between repetitions.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"
#include "tools/kiln-bench/compute_helpers.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {

inline constexpr double kPerMillion = 1e-6;  // work in Mpixel, Mtriangles, Mvertices
inline constexpr VkFormat kColourFormat = VK_FORMAT_R8G8B8A8_UNORM;
inline constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

// The push constants of every graphics shader (std430/push-constant layout: 32 bytes).
struct LayerConstants {
  float colour[4];
  float depth;
  float unused[3];
};

// The constants that draw `rgba8` (a little-endian RGBA8 word, as the target stores it) at `depth`.
LayerConstants layer_constants(uint32_t rgba8, float depth = 0.5f);

// Describes a render target.
struct TargetDesc {
  uint32_t width = 0;
  uint32_t height = 0;
  bool depth = false;  // a kDepthFormat attachment, cleared to 1.0, depth test LESS
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;  // > 1: multisampled, resolved at the end
};

// What a draw scenario needs from the device beyond its render target.
struct GraphicsNeeds {
  TargetDesc target;
  bool blending = false;           // kColourFormat must support COLOR_ATTACHMENT_BLEND
  bool linear_texture = false;     // kColourFormat must be sampled with linear filtering
  uint32_t max_draw_index = 0;     // the largest index value drawn (maxDrawIndexedIndexValue)
  // > 0: patch lists of kPatchControlPoints points through tessellation shaders producing levels
  // up to this (tessellationShader, maxTessellationGenerationLevel, maxTessellationPatchSize).
  uint32_t tessellation_level = 0;
  bool geometry_shader = false;  // the device must offer geometryShader
};

// Control points per patch of tessellation pipelines (quad patches: their four corners).
inline constexpr uint32_t kPatchControlPoints = 4;

// Why this device (or its chosen queue) cannot run draws described by `needs`, or nullopt.
// Unsupported sample counts are found with vkGetPhysicalDeviceImageFormatProperties.
std::optional<std::string> missing_graphics_support(const tools::VulkanContext& context,
                                                    const GraphicsNeeds& needs);

// Why pipelines with a geometry shader cannot be created on this device, or nullopt. For
// scenarios whose target is not a RenderTarget (missing_graphics_support covers the others).
std::optional<std::string> missing_geometry_shader(const tools::VulkanContext& context);

// A view of mip 0 of an image, 2D or (layers > 1) a 2D array of its first `layers` layers,
// destroyed with this object.
class ImageView {
 public:
  ImageView(VkDevice device, VkImage image, VkFormat format, VkImageAspectFlags aspect, uint32_t layers = 1);
  ~ImageView();
  ImageView(const ImageView&) = delete;
  ImageView& operator=(const ImageView&) = delete;

  VkImageView handle() const { return view_; }

 private:
  VkDevice device_;
  VkImageView view_ = VK_NULL_HANDLE;
};

// A device-local image with its own memory and a view, used only as an attachment (the
// multisampled colour image, the depth image): nothing reads it back.
class AttachmentImage {
 public:
  AttachmentImage(tools::VulkanContext& context, VkFormat format, uint32_t width, uint32_t height,
                  VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageAspectFlags aspect);

  VkImageView view() const { return view_.handle(); }

 private:
  tools::Image image_;
  ImageView view_;
};

// The single-sample colour image the scenario verifies (the resolve target when multisampled),
// the optional multisampled and depth attachments, the render pass and the framebuffer.
// What a pipeline must know of the render pass it draws in (subpass 0).
struct PassTarget {
  VkRenderPass render_pass = VK_NULL_HANDLE;
  uint32_t width = 0;  // the viewport and scissor cover width x height
  uint32_t height = 0;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  bool colour = true;  // one kColourFormat attachment
  bool depth = false;  // a depth attachment: test LESS, with writes
};

// A render pass of one subpass over `attachments`, ordered after the previous pass's (or
// repetition's) attachment writes.
VkRenderPass create_one_subpass_render_pass(VkDevice device, const std::vector<VkAttachmentDescription>& attachments,
                                            const VkSubpassDescription& subpass);

// A render pass and the one framebuffer drawn through it (its attachments' views, width x height
// x layers), destroyed together; begins the pass over the whole framebuffer.
class PassFramebuffer {
 public:
  // Owns `render_pass` from here on, also when this constructor throws.
  PassFramebuffer(VkDevice device, VkRenderPass render_pass, const std::vector<VkImageView>& views,
                  uint32_t width, uint32_t height, uint32_t layers = 1);
  ~PassFramebuffer();
  PassFramebuffer(const PassFramebuffer&) = delete;
  PassFramebuffer& operator=(const PassFramebuffer&) = delete;

  VkRenderPass render_pass() const { return render_pass_; }
  // Begins the pass with one clear value per attachment, in attachment order.
  void begin(VkCommandBuffer cmd, const std::vector<VkClearValue>& clears) const;

 private:
  VkDevice device_;
  VkRenderPass render_pass_;
  uint32_t width_;
  uint32_t height_;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
};

class RenderTarget {
 public:
  RenderTarget(tools::VulkanContext& context, const TargetDesc& desc);
  RenderTarget(const RenderTarget&) = delete;
  RenderTarget& operator=(const RenderTarget&) = delete;

  const TargetDesc& desc() const { return desc_; }
  PassTarget pass_target() const;
  TransferImage& colour() { return colour_; }

  // Begins the render pass, clearing colour to `clear_rgba8` (and depth to 1.0).
  void begin(VkCommandBuffer cmd, uint32_t clear_rgba8) const;
  void end(VkCommandBuffer cmd) const;

 private:
  TargetDesc desc_;
  TransferImage colour_;
  ImageView colour_view_;
  std::unique_ptr<AttachmentImage> multisampled_;
  std::unique_ptr<AttachmentImage> depth_;
  std::unique_ptr<PassFramebuffer> pass_;
};

// A 2D R8G8B8A8_UNORM texture filled from host data, in SHADER_READ_ONLY_OPTIMAL, with a bilinear
// clamp-to-edge sampler and the descriptor set (set 0, binding 0) that binds both.
class SampledTexture {
 public:
  // `texels` holds width*height RGBA8 words, row-major; `stages` are the shader stages that sample
  // it (the fragment shader, or the tessellation evaluation shader of a displaced terrain).
  SampledTexture(tools::VulkanContext& context, uint32_t width, uint32_t height, const uint32_t* texels,
                 VkShaderStageFlags stages = VK_SHADER_STAGE_FRAGMENT_BIT);
  ~SampledTexture();
  SampledTexture(const SampledTexture&) = delete;
  SampledTexture& operator=(const SampledTexture&) = delete;

  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  VkDescriptorSet set() const { return set_; }

 private:
  void release();
  VkDevice device_;
  tools::Image image_;
  VkImageView view_ = VK_NULL_HANDLE;
  VkSampler sampler_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

// Storage buffers a graphics pipeline's shaders read or write (set 0, bindings 0…N-1, visible to
// `stages`) and the descriptor set that binds them.
class ShaderStorageBuffers {
 public:
  ShaderStorageBuffers(VkDevice device, VkShaderStageFlags stages, const std::vector<const tools::Buffer*>& buffers);

  VkDescriptorSetLayout set_layout() const { return layout_.set_layout(); }
  VkDescriptorSet set() const { return set_.handle(); }

 private:
  StorageBufferLayout layout_;
  StorageBufferSet set_;
};

// The tessellation stages of a pipeline, which then draws patch lists of kPatchControlPoints.
struct TessellationDesc {
  SpirvCode control;
  SpirvCode evaluation;
};

// The stages of a mesh pipeline, which replace the vertex input, vertex, tessellation and geometry
// stages (VK_EXT_mesh_shader; draws are vkCmdDrawMeshTasksEXT).
struct MeshStagesDesc {
  std::optional<SpirvCode> task;
  SpirvCode mesh;
};

// Per-vertex attributes, all from vertex binding 0 (`stride` bytes a vertex).
struct VertexInput {
  uint32_t stride = 0;
  std::vector<VkVertexInputAttributeDescription> attributes;  // their binding is 0
};

// Location 0 = vec2 float positions, tightly packed: the meshes' vertices and the patches' corners.
VertexInput vec2_positions();

// How a pipeline draws into a RenderTarget (or another PassTarget).
struct PipelineDesc {
  SpirvCode vertex;  // empty with mesh stages
  std::optional<SpirvCode> fragment;  // none: depth-only passes, rasterizer discard
  std::optional<VertexInput> vertex_input;  // none: the vertex shader reads no attributes
  // The input topology; with tessellation always patch lists of kPatchControlPoints.
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool blending = false;  // colour = src * src.a + dst * (1 - src.a), alpha likewise
  bool rasterizer_discard = false;  // primitives stop before rasterization (transform feedback)
  const SampledTexture* texture = nullptr;  // bound at set 0
  std::optional<TessellationDesc> tessellation;
  std::optional<SpirvCode> geometry;
  // Task and mesh shaders instead of vertex input, vertex, tessellation and geometry stages.
  std::optional<MeshStagesDesc> mesh_stages;
  uint32_t push_constant_bytes = sizeof(LayerConstants);  // the shaders' push-constant block
  // Front faces are counter-clockwise in framebuffer coordinates (y down).
  VkCullModeFlags cull_mode = VK_CULL_MODE_NONE;
  const ShaderStorageBuffers* storage_buffers = nullptr;  // bound at set 0 (not with a texture)
  const VkSpecializationInfo* specialization = nullptr;  // given to every stage
};

// A graphics pipeline (culling as described, by default none; static viewport and scissor
// covering the target) with its layout: push constants (LayerConstants unless the description
// says otherwise) for every stage, plus the texture's or storage buffers' set layout if any.
// Depth testing (LESS, with writes), the colour attachment and the sample count follow the target.
class GraphicsPipeline {
 public:
  GraphicsPipeline(tools::VulkanContext& context, const PassTarget& target, const PipelineDesc& desc);
  GraphicsPipeline(tools::VulkanContext& context, const RenderTarget& target, const PipelineDesc& desc)
      : GraphicsPipeline(context, target.pass_target(), desc) {}
  ~GraphicsPipeline();
  GraphicsPipeline(const GraphicsPipeline&) = delete;
  GraphicsPipeline& operator=(const GraphicsPipeline&) = delete;

  // Binds the pipeline (and the texture's or storage buffers' descriptor set, if any).
  void bind(VkCommandBuffer cmd) const;
  // Sets the push constants: LayerConstants, or the block of PipelineDesc::push_constant_bytes.
  template <typename Constants>
  void push(VkCommandBuffer cmd, const Constants& constants) const {
    push_bytes(cmd, &constants, sizeof constants);
  }

 private:
  void push_bytes(VkCommandBuffer cmd, const void* data, uint32_t bytes) const;
  void release();
  VkDevice device_;
  VkDescriptorSet set_;  // bound at set 0, or VK_NULL_HANDLE
  VkShaderStageFlags push_stages_;
  uint32_t push_constant_bytes_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

// Draws one full-screen triangle per entry of `layers` (shaders/layer.vert): the pipeline must be
// bound and the render pass begun.
void record_full_screen_layers(VkCommandBuffer cmd, const GraphicsPipeline& pipeline,
                               const std::vector<LayerConstants>& layers);

// Binds `buffer` from its start as vertex binding 0.
void bind_vertex_buffer(VkCommandBuffer cmd, const tools::Buffer& buffer);

// A host-mapped buffer with `usage` (vertex or index buffer) holding `bytes` of `data`.
std::unique_ptr<tools::Buffer> make_filled_buffer(tools::VulkanContext& context, VkBufferUsageFlags usage,
                                                  const void* data, VkDeviceSize bytes);

}  // namespace kiln::bench
