#pragma once
// What one draw needs from the graphics pipeline and the command buffer, as the execution engine
// sees it (no icd types). icd/ builds a GraphicsState when a pipeline is created, merges the
// command buffer's dynamic state into a copy when it changes, and every draw command points at
// the copy in force (ARCHITECTURE.md "The execution engine"; issue #6).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "memory/image_view.h"
#include "pipeline/compute_dispatch.h"
#include "pipeline/graphics/tessellator.h"

namespace kiln::exec {

constexpr uint32_t kMaxViewports = 16;
// Point sizes and line widths the rasterizer draws (pointSizeRange / lineWidthRange); sizes
// outside are clamped.
constexpr float kMinPointSize = 1.0f, kMaxPointSize = 1024.0f;
constexpr float kMinLineWidth = 1.0f, kMaxLineWidth = 64.0f;

// The tessellation stages of a pipeline: control kernel, fixed-function state, evaluation kernel
// (docs/design/tessellation.md).
struct TessellationKernels {
  abi::TessControlKernelFn control = nullptr;
  uint32_t control_width = 8;
  uint32_t output_vertices = 1;              // OutputVertices: control invocations per patch
  bool control_uses_barrier = false;
  uint32_t control_vertex_bytes = 0;         // a patch's per-vertex output memory (abi::TessControlInvocation::outputs)
  uint32_t control_patch_bytes = abi::kTessLevelBytes;  // its per-patch output memory, levels first
  abi::TessEvalKernelFn evaluation = nullptr;
  uint32_t evaluation_width = 8;
  abi::VertexOutputLayout evaluation_outputs;
  gfx::TessellatorState tessellator;         // domain, spacing, point mode, winding, domain origin
};

// The geometry stage of a pipeline (docs/design/geometry.md).
struct GeometryKernels {
  abi::GeometryKernelFn function = nullptr;
  uint32_t width = 8;
  abi::GeometryModes modes;
  abi::VertexOutputLayout outputs;  // each emitted vertex's record
};

// A task or mesh kernel as the engine runs it: a compute kernel (workgroups, shared memory,
// barriers) plus where its workgroup leaves the task payload.
struct MeshShadingKernel {
  ComputeKernel kernel;
  uint32_t payload_offset = 0, payload_bytes = 0;  // TaskPayloadWorkgroupEXT in shared memory
};

// The mesh-shading stages of a pipeline (docs/design/mesh-shading.md): they replace vertex input,
// vertex, tessellation and geometry shading.
struct MeshKernels {
  std::optional<MeshShadingKernel> task;
  MeshShadingKernel mesh;
  uint8_t output = 3;  // 1 points, 2 lines, 3 triangles
  uint32_t max_vertices = 0, max_primitives = 0;
  abi::VertexOutputLayout outputs;  // the vertex records the engine builds from shared memory
  // The record words the shader writes, split once at pipeline creation: per vertex (the rest of a
  // vertex record is zero) and per primitive (a primitive with any gets its own provoking record).
  struct WordCopy {
    uint32_t word;    // index in the record
    uint32_t offset;  // element 0's word in shared memory
    uint32_t stride;
  };
  std::vector<WordCopy> vertex_words, primitive_words;
  abi::StageOutputAddress primitive_id;  // the PrimitiveId output (offset -1: not written)
  abi::StageOutputAddress indices, cull;
};

// What transform feedback does per buffer, derived once from the last stage's abi::XfbLayout at
// pipeline creation (plan_transform_feedback, pipeline/xfb_state.h) instead of per batch.
struct XfbBufferPlan {
  uint32_t stream = abi::kMaxVertexStreams;  // the stream its captures belong to; kMaxVertexStreams: unused
  uint32_t stride = 0;
  // (index of the capture in the layout — its word in a vertex row follows VertexFormat::xfb_offset —,
  // byte offset in the vertex's stride-sized record)
  std::vector<std::pair<uint32_t, uint32_t>> captures;
  std::vector<std::pair<uint32_t, uint32_t>> runs;  // the record bytes captures cover, merged [begin, end)
  bool used() const { return stream < abi::kMaxVertexStreams && stride != 0; }
};
struct XfbPlan {
  XfbBufferPlan buffers[abi::kMaxXfbBuffers];
  bool captures = false;  // any buffer is used
};

// The pipeline's kernels: the pre-rasterization stages in order (vertex, then tessellation when
// `tessellation` is set, then geometry when `geometry` is set) and the fragment kernel. `fragment` is null for a pipeline without a
// fragment shader (depth-only passes): coverage still runs the depth/stencil tests.
struct GraphicsKernels {
  abi::VertexKernelFn vertex = nullptr;
  uint32_t vertex_width = 8;
  abi::VertexOutputLayout vertex_outputs;
  // Fast-linked pipelines (docs/design/pipeline-libraries.md): `vertex` was compiled without the
  // vertex input state (VertexInputKey::staged) and reads its attributes from the records of
  // `vertex_fetch`, which fetches them (Location L in slot vertex_fetch_outputs.location_slot[L]);
  // null: `vertex` fetches its attributes itself.
  abi::VertexKernelFn vertex_fetch = nullptr;
  abi::VertexOutputLayout vertex_fetch_outputs;
  std::optional<TessellationKernels> tessellation;
  std::optional<GeometryKernels> geometry;
  std::optional<MeshKernels> mesh;  // task/mesh pipelines: no vertex, tessellation or geometry stage
  abi::FragmentKernelFn fragment = nullptr;
  uint32_t fragment_width = 8;
  abi::FragmentInterface fragment_interface;
  XfbPlan xfb;  // transform feedback of the last pre-rasterization stage's outputs
  const DescriptorUses* descriptor_uses = nullptr;  // strict mode only (owned by the pipeline)

  // The outputs of the last pre-rasterization stage: what clipping, setup and the fragment
  // stage's inputs read.
  const abi::VertexOutputLayout& last_stage_outputs() const {
    return mesh ? mesh->outputs : geometry ? geometry->outputs : tessellation ? tessellation->evaluation_outputs : vertex_outputs;
  }
};

struct InputAssemblyState {
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitive_restart = false;
  uint32_t patch_control_points = 0;
  // VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT (VK_KHR_maintenance2): the tessellator's winding
  // (gfx::TessellatorState::origin_lower_left is set from it per draw).
  bool tess_origin_lower_left = false;
};

struct RasterizationState {
  bool rasterizer_discard = false;
  bool depth_clamp = false;
  bool depth_clip = true;  // VK_EXT_depth_clip_enable; !depth_clamp by default
  // No VkPipelineRasterizationDepthClipStateCreateInfoEXT: depth_clip follows a dynamic depth_clamp.
  bool depth_clip_follows_clamp = true;
  VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;
  VkCullModeFlags cull_mode = VK_CULL_MODE_NONE;
  VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  bool depth_bias_enable = false;
  float depth_bias_constant = 0.0f, depth_bias_clamp = 0.0f, depth_bias_slope = 0.0f;
  float line_width = 1.0f;
  VkProvokingVertexModeEXT provoking_vertex = VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT;
  // VK_EXT_line_rasterization: RECTANGULAR draws lines as rectangles, BRESENHAM by the
  // diamond-exit rule, RECTANGULAR_SMOOTH as rectangles whose pixel coverage scales alpha; DEFAULT
  // as non-strict parallelograms.
  VkLineRasterizationModeEXT line_mode = VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
  // Line stipple (pipeline, or vkCmdSetLineStippleEXT): factor clamped to [1, 256].
  bool line_stipple = false;
  uint32_t line_stipple_factor = 1;
  uint16_t line_stipple_pattern = 0xFFFF;
  // VK_EXT_transform_feedback: the vertex stream whose primitives are rasterized.
  uint32_t rasterization_stream = 0;
};

struct MultisampleState {
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  uint32_t sample_mask = ~0u;
  bool sample_shading = false;
  float min_sample_shading = 0.0f;
  bool alpha_to_coverage = false;
  bool alpha_to_one = false;
};

struct StencilFaceState {
  VkStencilOp fail_op = VK_STENCIL_OP_KEEP, pass_op = VK_STENCIL_OP_KEEP, depth_fail_op = VK_STENCIL_OP_KEEP;
  VkCompareOp compare_op = VK_COMPARE_OP_NEVER;
  uint32_t compare_mask = 0, write_mask = 0, reference = 0;
};

struct DepthStencilState {
  bool depth_test = false, depth_write = false;
  VkCompareOp depth_compare = VK_COMPARE_OP_NEVER;
  bool depth_bounds_test = false;
  float min_depth_bounds = 0.0f, max_depth_bounds = 1.0f;
  bool stencil_test = false;
  StencilFaceState front, back;
  // VK_PIPELINE_CREATE_DEPTH_STENCIL_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT: the fragment shader may
  // sample the depth/stencil attachment, so the tests must not write it before the shader runs.
  bool feedback_loop = false;
};

struct ColorBlendState {
  bool logic_op_enable = false;
  VkLogicOp logic_op = VK_LOGIC_OP_COPY;
  uint32_t attachment_count = 0;
  VkPipelineColorBlendAttachmentState attachments[abi::kMaxColorAttachments] = {};
  float blend_constants[4] = {};
  // VK_EXT_color_write_enable: bit i clear = attachment i is not written (merge_dynamic_state folds
  // it into the attachment's colorWriteMask, so the engine only sees write masks).
  uint32_t color_write_enable = ~0u;
};

struct ViewportState {
  uint32_t viewport_count = 0, scissor_count = 0;
  VkViewport viewports[kMaxViewports] = {};
  VkRect2D scissors[kMaxViewports] = {};
  // VK_EXT_depth_clip_control: clip-space z runs over [-w, w] and NDC z in [-1, 1] maps to
  // [minDepth, maxDepth] (OpenGL's convention) instead of [0, w] and [0, 1].
  bool negative_one_to_one = false;
};

// Pipeline state with the command buffer's dynamic state already applied: complete for a draw.
struct GraphicsState {
  const GraphicsKernels* kernels = nullptr;
  InputAssemblyState input_assembly;
  RasterizationState rasterization;
  MultisampleState multisample;
  DepthStencilState depth_stencil;
  ColorBlendState color_blend;
  ViewportState viewport;
};

// The attachments of the current render pass instance (subpass or vkCmdBeginRendering), as views.
// Attachment i of the fragment shader's Location i is color[i] (null: writes are discarded).
struct RenderTargets {
  const mem::ImageView* color[abi::kMaxColorAttachments] = {};
  uint32_t color_count = 0;
  const mem::ImageView* depth = nullptr;    // view with a depth aspect, or null
  const mem::ImageView* stencil = nullptr;  // view with a stencil aspect, or null
  VkRect2D render_area{};
  uint32_t layer_count = 1;
  uint32_t view_mask = 0;  // multiview: draws repeat for each set bit (0 = no multiview)
};

}  // namespace kiln::exec
