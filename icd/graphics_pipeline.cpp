// vkCreateGraphicsPipelines: every create-info state becomes an exec::GraphicsState (the static
// state draws merge dynamic state over) and the shader stages become kernels through
// compiler/graphics_compiler.h. A create info may describe only some of the pipeline's parts and
// link libraries for the others (docs/design/pipeline-libraries.md): its own parts are parsed and
// compiled here, the libraries' taken over (icd/graphics_pipeline_library.h). Shaders the compiler
// rejects make creation fail with one log line, never a pipeline that draws wrongly.
#include <algorithm>

#include "common/cpu.h"
#include "common/log.h"
#include "compiler/vertex_fetch_kernel.h"
#include "icd/creation_feedback.h"
#include "icd/descriptor_uses.h"
#include "icd/device.h"
#include "icd/strict_shader_reports.h"
#include "icd/graphics_dynamic_state.h"
#include "icd/graphics_pipeline_library.h"
#include "icd/pipeline.h"
#include "icd/pipeline_batch.h"
#include "pipeline/xfb_state.h"
#include "icd/pipeline_cache.h"
#include "icd/pipeline_layout.h"
#include "icd/render_pass.h"
#include "icd/shader_bindings.h"
#include "icd/shader_module.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

const char* kApi = "vkCreateGraphicsPipelines";

// Vertex input state → the vertex kernel's key and the per-binding strides.
void parse_vertex_input(const VkPipelineVertexInputStateCreateInfo* vi, GraphicsPipelinePart* g) {
  compiler::VertexInputKey& key = g->vertex_input;
  key = {};
  if (!vi) return;
  for (uint32_t i = 0; i < vi->vertexBindingDescriptionCount; ++i) {
    const VkVertexInputBindingDescription& b = vi->pVertexBindingDescriptions[i];
    key.bindings.push_back({b.binding, b.inputRate == VK_VERTEX_INPUT_RATE_INSTANCE, 1});
    if (b.binding < abi::kMaxVertexBindings) g->vertex_strides[b.binding] = b.stride;
  }
  if (const auto* d = find_in_chain<VkPipelineVertexInputDivisorStateCreateInfoEXT>(vi->pNext)) {
    for (uint32_t i = 0; i < d->vertexBindingDivisorCount; ++i)
      for (compiler::VertexBindingKey& b : key.bindings)
        if (b.binding == d->pVertexBindingDivisors[i].binding) b.divisor = d->pVertexBindingDivisors[i].divisor;
  }
  for (uint32_t i = 0; i < vi->vertexAttributeDescriptionCount; ++i) {
    const VkVertexInputAttributeDescription& a = vi->pVertexAttributeDescriptions[i];
    key.attributes.push_back({a.location, a.binding, static_cast<uint32_t>(a.format), a.offset});
  }
  std::sort(key.attributes.begin(), key.attributes.end(), [](auto& x, auto& y) { return x.location < y.location; });
  std::sort(key.bindings.begin(), key.bindings.end(), [](auto& x, auto& y) { return x.binding < y.binding; });
}

exec::StencilFaceState stencil_face(const VkStencilOpState& s) {
  return {s.failOp, s.passOp, s.depthFailOp, s.compareOp, s.compareMask, s.writeMask, s.reference};
}

// The dynamic states of the parts `info` describes. Returns why the pipeline cannot be made, or nullptr.
const char* parse_dynamic_states(const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT parts,
                                 GraphicsPipelinePart* g) {
  if (const auto* ds = info.pDynamicState) {
    for (uint32_t i = 0; i < ds->dynamicStateCount; ++i) {
      const DynamicStateMask bit = dynamic_state_bit(ds->pDynamicStates[i]);
      if (!bit) return "a dynamic state Kiln does not support";
      g->dynamic_mask |= bit & dynamic_states_of(parts);
    }
  }
  return nullptr;
}

// The vertex input interface: input assembly and vertex input (mesh pipelines have neither: the
// pointers may be anything). With dynamic vertex input, pVertexInputState is ignored.
void parse_vertex_input_part(const VkGraphicsPipelineCreateInfo& info, GraphicsPipelinePart* g) {
  exec::InputAssemblyState& ia = g->state.input_assembly;
  if (const auto* state = info.pInputAssemblyState) {
    ia.topology = state->topology;
    ia.primitive_restart = state->primitiveRestartEnable;
  }
  if (!(g->dynamic_mask & kDynVertexInput)) parse_vertex_input(info.pVertexInputState, g);
}

// The pre-rasterization state: tessellation, rasterization, viewports. States the spec lets the
// application omit (null pointers) keep the defaults of exec::GraphicsState.
const char* parse_pre_rasterization_part(const VkGraphicsPipelineCreateInfo& info, bool mesh, GraphicsPipelinePart* g) {
  exec::GraphicsState& st = g->state;
  if (const auto* ts = info.pTessellationState; ts && !mesh) {
    st.input_assembly.patch_control_points = ts->patchControlPoints;
    if (const auto* origin = find_in_chain<VkPipelineTessellationDomainOriginStateCreateInfo>(ts->pNext))
      st.input_assembly.tess_origin_lower_left = origin->domainOrigin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
  }
  if (const auto* rs = info.pRasterizationState) {
    exec::RasterizationState& r = st.rasterization;
    r.rasterizer_discard = rs->rasterizerDiscardEnable;
    r.depth_clamp = rs->depthClampEnable;
    r.depth_clip = !rs->depthClampEnable;
    if (const auto* clip = find_in_chain<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(rs->pNext)) {
      r.depth_clip = clip->depthClipEnable;
      r.depth_clip_follows_clamp = false;
    }
    if (const auto* pv = find_in_chain<VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(rs->pNext))
      r.provoking_vertex = pv->provokingVertexMode;
    if (const auto* stream = find_in_chain<VkPipelineRasterizationStateStreamCreateInfoEXT>(rs->pNext))
      r.rasterization_stream = std::min(stream->rasterizationStream, abi::kMaxVertexStreams - 1);
    if (const auto* line = find_in_chain<VkPipelineRasterizationLineStateCreateInfoEXT>(rs->pNext)) {
      r.line_mode = line->lineRasterizationMode;
      r.line_stipple = line->stippledLineEnable;
      r.line_stipple_factor = std::clamp<uint32_t>(line->lineStippleFactor, 1, 256);
      r.line_stipple_pattern = line->lineStipplePattern;
    }
    r.polygon_mode = rs->polygonMode;
    r.cull_mode = rs->cullMode;
    r.front_face = rs->frontFace;
    r.depth_bias_enable = rs->depthBiasEnable;
    r.depth_bias_constant = rs->depthBiasConstantFactor;
    r.depth_bias_clamp = rs->depthBiasClamp;
    r.depth_bias_slope = rs->depthBiasSlopeFactor;
    r.line_width = rs->lineWidth;
  }
  // Without rasterization the viewport state may be absent or garbage (the spec says to ignore it).
  const bool rasterizes = !st.rasterization.rasterizer_discard || (g->dynamic_mask & kDynRasterizerDiscardEnable);
  if (!rasterizes) return nullptr;
  if (const auto* vp = info.pViewportState) {
    exec::ViewportState& v = st.viewport;
    if (vp->viewportCount > exec::kMaxViewports || vp->scissorCount > exec::kMaxViewports) return "too many viewports";
    v.viewport_count = vp->viewportCount;
    v.scissor_count = vp->scissorCount;
    if (vp->pViewports && !(g->dynamic_mask & (kDynViewport | kDynViewportWithCount)))
      std::copy_n(vp->pViewports, vp->viewportCount, v.viewports);
    if (vp->pScissors && !(g->dynamic_mask & (kDynScissor | kDynScissorWithCount)))
      std::copy_n(vp->pScissors, vp->scissorCount, v.scissors);
    if (const auto* control = find_in_chain<VkPipelineViewportDepthClipControlCreateInfoEXT>(vp->pNext))
      v.negative_one_to_one = control->negativeOneToOne;
  }
  return nullptr;
}

void parse_multisample(const VkPipelineMultisampleStateCreateInfo* ms, GraphicsPipelinePart* g) {
  if (!ms) return;
  exec::MultisampleState& m = g->state.multisample;
  m.samples = ms->rasterizationSamples;
  if (ms->pSampleMask) m.sample_mask = ms->pSampleMask[0];
  m.sample_shading = ms->sampleShadingEnable;
  m.min_sample_shading = ms->minSampleShading;
  m.alpha_to_coverage = ms->alphaToCoverageEnable;
  m.alpha_to_one = ms->alphaToOneEnable;
}

// The fragment shader state: depth/stencil tests and multisampling.
void parse_fragment_shader_part(const VkGraphicsPipelineCreateInfo& info, GraphicsPipelinePart* g) {
  parse_multisample(info.pMultisampleState, g);
  if (const auto* dss = info.pDepthStencilState) {
    exec::DepthStencilState& d = g->state.depth_stencil;
    d.depth_test = dss->depthTestEnable;
    d.depth_write = dss->depthWriteEnable;
    d.depth_compare = dss->depthCompareOp;
    d.depth_bounds_test = dss->depthBoundsTestEnable;
    d.min_depth_bounds = dss->minDepthBounds;
    d.max_depth_bounds = dss->maxDepthBounds;
    d.stencil_test = dss->stencilTestEnable;
    d.front = stencil_face(dss->front);
    d.back = stencil_face(dss->back);
  }
  g->state.depth_stencil.feedback_loop = info.flags & VK_PIPELINE_CREATE_DEPTH_STENCIL_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT;
}

// The fragment output interface: blending and multisampling.
const char* parse_fragment_output_part(const VkGraphicsPipelineCreateInfo& info, GraphicsPipelinePart* g) {
  parse_multisample(info.pMultisampleState, g);
  if (const auto* cb = info.pColorBlendState) {
    exec::ColorBlendState& c = g->state.color_blend;
    if (cb->attachmentCount > abi::kMaxColorAttachments) return "too many colour blend attachments";
    c.logic_op_enable = cb->logicOpEnable;
    c.logic_op = cb->logicOp;
    c.attachment_count = cb->attachmentCount;
    if (cb->pAttachments) std::copy_n(cb->pAttachments, cb->attachmentCount, c.attachments);
    std::copy_n(cb->blendConstants, 4, c.blend_constants);
    if (const auto* enables = find_in_chain<VkPipelineColorWriteCreateInfoEXT>(cb->pNext))
      for (uint32_t i = 0; i < enables->attachmentCount && i < abi::kMaxColorAttachments; ++i)
        if (enables->pColorWriteEnables && !enables->pColorWriteEnables[i]) c.color_write_enable &= ~(1u << i);
  }
  return nullptr;
}

// The view mask and, for the fragment output interface (`formats`), the attachment formats: from
// the render pass's subpass, or VkPipelineRenderingCreateInfo.
const char* parse_attachments(const VkGraphicsPipelineCreateInfo& info, bool formats, GraphicsPipelinePart* g) {
  if (info.renderPass) {
    const RenderPass* pass = render_pass_of(info.renderPass);
    if (info.subpass >= pass->subpasses.size()) return "subpass out of range";
    const Subpass& s = pass->subpasses[info.subpass];
    g->view_mask = s.view_mask;
    if (!formats) return nullptr;
    g->color_count = std::min<uint32_t>(static_cast<uint32_t>(s.colors.size()), abi::kMaxColorAttachments);
    for (uint32_t i = 0; i < g->color_count; ++i)
      if (s.colors[i].attachment != VK_ATTACHMENT_UNUSED) g->color_formats[i] = pass->attachments[s.colors[i].attachment].format;
    if (s.depth_stencil.attachment != VK_ATTACHMENT_UNUSED)
      g->depth_format = g->stencil_format = pass->attachments[s.depth_stencil.attachment].format;
    return nullptr;
  }
  if (const auto* r = find_in_chain<VkPipelineRenderingCreateInfo>(info.pNext)) {
    g->view_mask = r->viewMask;
    if (!formats) return nullptr;
    if (r->colorAttachmentCount > abi::kMaxColorAttachments) return "too many colour attachments";
    g->color_count = r->colorAttachmentCount;
    std::copy_n(r->pColorAttachmentFormats, r->colorAttachmentCount, g->color_formats);
    g->depth_format = r->depthAttachmentFormat;
    g->stencil_format = r->stencilAttachmentFormat;
  }
  return nullptr;  // no render pass and no rendering info: no attachments
}

VkResult fail(const char* why) {
  log(LogLevel::Error, "%s: %s", kApi, why);
  return VK_ERROR_UNKNOWN;
}

exec::TessellationKernels tessellation_kernels(const compiler::CompiledTessControlKernel& control,
                                                const compiler::CompiledTessEvalKernel& evaluation) {
  exec::TessellationKernels t;
  t.control = control.function;
  t.control_width = control.simd_width;
  t.output_vertices = control.info.modes.output_vertices;
  t.control_uses_barrier = control.info.uses_barrier;
  t.control_vertex_bytes = control.info.vertex_bytes;
  t.control_patch_bytes = control.info.patch_bytes;
  t.evaluation = evaluation.function;
  t.evaluation_width = evaluation.simd_width;
  t.evaluation_outputs = evaluation.info.outputs;
  // Either shader may declare a mode (the evaluation shader's wins where both do: they must agree).
  auto pick = [](uint8_t evaluation_mode, uint8_t control_mode) { return evaluation_mode ? evaluation_mode : control_mode; };
  const abi::TessellationModes& c = control.info.modes;
  const abi::TessellationModes& e = evaluation.info.modes;
  constexpr exec::gfx::TessDomain kDomains[] = {exec::gfx::TessDomain::Triangles, exec::gfx::TessDomain::Triangles,
                                                exec::gfx::TessDomain::Quads, exec::gfx::TessDomain::Isolines};
  constexpr exec::gfx::TessSpacing kSpacings[] = {exec::gfx::TessSpacing::Equal, exec::gfx::TessSpacing::Equal,
                                                  exec::gfx::TessSpacing::FractionalEven, exec::gfx::TessSpacing::FractionalOdd};
  t.tessellator.domain = kDomains[pick(e.domain, c.domain)];
  t.tessellator.spacing = kSpacings[pick(e.spacing, c.spacing)];
  t.tessellator.counter_clockwise = pick(e.vertex_order, c.vertex_order) != 1;
  t.tessellator.point_mode = e.point_mode || c.point_mode;
  return t;
}

// The control kernel, compiled against the vertex kernel's outputs, then the evaluation kernel
// against the control kernel's (compiler/graphics_compiler.h).
VkResult compile_tessellation(const VkPipelineShaderStageCreateInfo& control_stage,
                              const VkPipelineShaderStageCreateInfo& evaluation_stage,
                              const compiler::BindingResolver& bindings,
                              uint64_t layout_hash, compiler::KernelCache* kernels, CreationFeedback& feedback,
                              GraphicsPipelinePart* g) {
  std::string error;
  compiler::ShaderSource source;
  if (const char* why = shader_source_of(control_stage, &source)) return fail(why);
  g->tess_control = feedback.compile(control_stage, [&](compiler::CompileRequest* request) {
    return compiler::compile_tess_control_kernel(source, host_simd_width(), g->vertex->outputs, bindings, layout_hash, kernels,
                                                 &error, request);
  });
  if (feedback.compile_required(control_stage)) return VK_PIPELINE_COMPILE_REQUIRED;
  if (!g->tess_control) return fail(error.c_str());
  if (const char* why = shader_source_of(evaluation_stage, &source)) return fail(why);
  g->tess_eval = feedback.compile(evaluation_stage, [&](compiler::CompileRequest* request) {
    return compiler::compile_tess_eval_kernel(source, host_simd_width(), g->tess_control->info.outputs, bindings, layout_hash,
                                              kernels, &error, request);
  });
  if (feedback.compile_required(evaluation_stage)) return VK_PIPELINE_COMPILE_REQUIRED;
  if (!g->tess_eval) return fail(error.c_str());
  g->kernels.tessellation = tessellation_kernels(*g->tess_control, *g->tess_eval);
  return VK_SUCCESS;
}

// The geometry kernel, compiled against the records of the stage before it (the evaluation
// kernel's outputs after tessellation, else the vertex kernel's).
VkResult compile_geometry(const VkPipelineShaderStageCreateInfo& stage, const compiler::BindingResolver& bindings,
                          uint64_t layout_hash, compiler::KernelCache* kernels, CreationFeedback& feedback,
                          GraphicsPipelinePart* g) {
  std::string error;
  compiler::ShaderSource source;
  if (const char* why = shader_source_of(stage, &source)) return fail(why);
  const abi::VertexOutputLayout& previous = g->tess_eval ? g->tess_eval->info.outputs : g->vertex->outputs;
  g->geometry = feedback.compile(stage, [&](compiler::CompileRequest* request) {
    return compiler::compile_geometry_kernel(source, host_simd_width(), previous, bindings, layout_hash, kernels, &error, request);
  });
  if (feedback.compile_required(stage)) return VK_PIPELINE_COMPILE_REQUIRED;
  if (!g->geometry) return fail(error.c_str());
  exec::GeometryKernels k;
  k.function = g->geometry->function;
  k.width = g->geometry->simd_width;
  k.modes = g->geometry->info.modes;
  k.outputs = g->geometry->info.outputs;
  g->kernels.geometry = k;
  return VK_SUCCESS;
}

// The task kernel (optional) and the mesh kernel, as the engine runs them
// (docs/design/mesh-shading.md).
VkResult compile_mesh_shading(const VkPipelineShaderStageCreateInfo* task_stage, const VkPipelineShaderStageCreateInfo& mesh_stage,
                              const compiler::BindingResolver& bindings, uint64_t layout_hash,
                              compiler::KernelCache* kernels, CreationFeedback& feedback, GraphicsPipelinePart* g) {
  std::string error;
  compiler::ShaderSource source;
  auto shading_kernel = [](const auto& compiled) {
    exec::MeshShadingKernel k;
    k.kernel.function = compiled.function;
    k.kernel.simd_width = compiled.simd_width;
    for (int i = 0; i < 3; ++i) k.kernel.local_size[i] = compiled.info.local_size[i];
    k.kernel.shared_memory_bytes = compiled.info.shared_memory_bytes;
    k.kernel.uses_barrier = compiled.info.uses_barrier;
    k.payload_offset = compiled.mesh.payload_offset;
    k.payload_bytes = compiled.mesh.payload_bytes;
    return k;
  };
  exec::MeshKernels m;
  if (task_stage) {
    if (const char* why = shader_source_of(*task_stage, &source)) return fail(why);
    g->task = feedback.compile(*task_stage, [&](compiler::CompileRequest* request) {
      return compiler::compile_task_kernel(source, host_simd_width(), bindings, layout_hash, kernels, &error, request);
    });
    if (feedback.compile_required(*task_stage)) return VK_PIPELINE_COMPILE_REQUIRED;
    if (!g->task) return fail(error.c_str());
    m.task = shading_kernel(*g->task);
  }
  if (const char* why = shader_source_of(mesh_stage, &source)) return fail(why);
  g->mesh = feedback.compile(mesh_stage, [&](compiler::CompileRequest* request) {
    return compiler::compile_mesh_kernel(source, host_simd_width(), bindings, layout_hash, kernels, &error, request);
  });
  if (feedback.compile_required(mesh_stage)) return VK_PIPELINE_COMPILE_REQUIRED;
  if (!g->mesh) return fail(error.c_str());
  const compiler::MeshInfo& info = g->mesh->mesh;
  m.mesh = shading_kernel(*g->mesh);
  m.output = info.output;
  m.max_vertices = info.max_vertices;
  m.max_primitives = info.max_primitives;
  m.outputs = info.outputs;
  for (uint32_t w = 0; w < info.words.size(); ++w) {
    const abi::MeshOutputWord& word = info.words[w];
    if (word.offset < 0) continue;
    (word.per_primitive ? m.primitive_words : m.vertex_words).push_back({w, uint32_t(word.offset), word.stride});
  }
  if (const int32_t slot = info.outputs.primitive_id_slot; slot >= 0)
    m.primitive_id = {info.words[size_t(slot) * 4].offset, info.words[size_t(slot) * 4].stride};
  m.indices = info.indices;
  m.cull = info.cull;
  g->kernels.mesh = std::move(m);
  return VK_SUCCESS;
}

// The shader stages a create info brings for the parts it describes (others are ignored).
struct OwnStages {
  const VkPipelineShaderStageCreateInfo *vertex = nullptr, *control = nullptr, *evaluation = nullptr, *geometry = nullptr;
  const VkPipelineShaderStageCreateInfo *fragment = nullptr, *task = nullptr, *mesh = nullptr;
};

const char* collect_stages(const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT parts, OwnStages* out) {
  for (uint32_t i = 0; i < info.stageCount; ++i) {
    const VkPipelineShaderStageCreateInfo& s = info.pStages[i];
    if (s.stage == VK_SHADER_STAGE_FRAGMENT_BIT) {
      if (parts & kFragmentShaderPart) out->fragment = &s;
      continue;
    }
    if (!(parts & kPreRasterizationPart)) continue;
    if (s.stage == VK_SHADER_STAGE_VERTEX_BIT) out->vertex = &s;
    else if (s.stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT) out->control = &s;
    else if (s.stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT) out->evaluation = &s;
    else if (s.stage == VK_SHADER_STAGE_GEOMETRY_BIT) out->geometry = &s;
    else if (s.stage == VK_SHADER_STAGE_TASK_BIT_EXT) out->task = &s;
    else if (s.stage == VK_SHADER_STAGE_MESH_BIT_EXT) out->mesh = &s;
    else return "a shader stage graphics pipelines do not have";
  }
  if (!(parts & kPreRasterizationPart)) return nullptr;
  if (!out->vertex == !out->mesh) return "a graphics pipeline needs a vertex shader or a mesh shader, not both";
  if (out->mesh && (out->control || out->evaluation || out->geometry)) return "mesh pipelines have no tessellation or geometry stages";
  if (out->task && !out->mesh) return "a task shader needs a mesh shader";
  if (!out->control != !out->evaluation) return "tessellation needs both a control and an evaluation shader";
  return nullptr;
}

bool rasterizes(const GraphicsPipelinePart& g) {
  return !g.state.rasterization.rasterizer_discard || (g.dynamic_mask & kDynRasterizerDiscardEnable);
}

// Compiles the stages `info` brings. The stages before rasterization are a chain, each compiled
// against its predecessor's outputs; the fragment kernel depends on none of them, so it compiles
// beside the chain on the pool. The vertex kernel fetches the vertex input state's attributes if
// the pipeline has that state and it is static, none with dynamic vertex input, and reads them
// from a fetch kernel when the state is not known yet (icd/pipeline.h).
VkResult compile_stages(Device* device, const VkGraphicsPipelineCreateInfo& info, const OwnStages& stages,
                        const PipelineLayout* layout, PipelineCache* cache, CreationFeedback& feedback,
                        GraphicsPipelinePart* g) {
  if (!stages.vertex && !stages.mesh && !stages.fragment) return VK_SUCCESS;
  if (!layout) return fail("shader stages without a pipeline layout");
  const compiler::BindingResolver bindings = binding_resolver(layout->desc);
  const uint64_t layout_hash = pipeline_layout_hash(layout->desc);
  compiler::KernelCache* kernels = cache ? &cache->kernels : nullptr;
  if (stages.vertex) {
    g->vertex_kernel_input = {};
    if (!(g->parts & kVertexInputPart)) g->vertex_kernel_input.staged = true;
    else if (!(g->dynamic_mask & kDynVertexInput)) g->vertex_kernel_input = g->vertex_input;
  }

  auto compile_pre_rasterization = [&]() -> VkResult {
    if (stages.mesh) {
      const VkResult r = compile_mesh_shading(stages.task, *stages.mesh, bindings, layout_hash, kernels, feedback, g);
      if (r != VK_SUCCESS) return r;
    } else {
      std::string error;
      compiler::ShaderSource source;
      if (const char* why = shader_source_of(*stages.vertex, &source)) return fail(why);
      g->vertex = feedback.compile(*stages.vertex, [&](compiler::CompileRequest* request) {
        return compiler::compile_vertex_kernel(source, host_simd_width(), g->vertex_kernel_input, bindings, layout_hash,
                                               kernels, &error, request);
      });
      if (feedback.compile_required(*stages.vertex)) return VK_PIPELINE_COMPILE_REQUIRED;
      if (!g->vertex) return fail(error.c_str());
    }
    if (stages.control) {
      const VkResult r = compile_tessellation(*stages.control, *stages.evaluation, bindings,
                                              layout_hash, kernels, feedback, g);
      if (r != VK_SUCCESS) return r;
    }
    if (stages.geometry) return compile_geometry(*stages.geometry, bindings, layout_hash, kernels, feedback, g);
    return VK_SUCCESS;
  };
  auto compile_fragment = [&]() -> VkResult {
    std::string error;
    compiler::ShaderSource source;
    if (const char* why = shader_source_of(*stages.fragment, &source)) return fail(why);
    g->fragment = feedback.compile(*stages.fragment, [&](compiler::CompileRequest* request) {
      return compiler::compile_fragment_kernel(source, host_simd_width(), bindings, layout_hash, kernels, &error, request);
    });
    if (feedback.compile_required(*stages.fragment)) return VK_PIPELINE_COMPILE_REQUIRED;
    return g->fragment ? VK_SUCCESS : fail(error.c_str());
  };
  const bool pre_rasterization = stages.vertex || stages.mesh;
  VkResult results[2] = {VK_SUCCESS, VK_SUCCESS};
  device->worker_pool.parallel_for(pre_rasterization && stages.fragment ? 2 : 1, [&](size_t i) {
    results[i] = (i || !pre_rasterization) && stages.fragment ? compile_fragment() : compile_pre_rasterization();
  });
  if (results[0] < 0 || results[1] < 0) return results[0] < 0 ? results[0] : results[1];  // errors before COMPILE_REQUIRED
  if (results[0] != VK_SUCCESS || results[1] != VK_SUCCESS) return VK_PIPELINE_COMPILE_REQUIRED;
  if (pre_rasterization && g->library) g->pre_rasterization_layout = std::make_shared<desc::PipelineLayoutDesc>(layout->desc);
  return VK_SUCCESS;
}

std::shared_ptr<const RetainedShader> retained_vertex_shader(const GraphicsPipelinePart& g) {
  for (const auto& shader : g.shaders)
    if (shader->vk_stage == VK_SHADER_STAGE_VERTEX_BIT) return shader;
  return nullptr;
}

// What a pipeline to be bound needs beyond its parts: every part present, the vertex kernel
// compiled for the vertex input state (a pre-rasterization library's was not), the kernels'
// entry points, transform feedback's plan and strict mode's descriptor uses.
VkResult finish_pipeline(Device* device, const VkGraphicsPipelineCreateInfo& info, const PipelineLayout* layout,
                         PipelineCache* cache, GraphicsPipelinePart* g) {
  const bool mesh = g->mesh != nullptr;
  if (!(g->parts & kPreRasterizationPart) || (!mesh && !(g->parts & kVertexInputPart)))
    return fail("a graphics pipeline without its pre-rasterization or vertex input part");
  if (rasterizes(*g) && !(g->parts & kFragmentOutputPart)) return fail("a rasterizing pipeline without its fragment output part");
  if (!rasterizes(*g)) g->fragment = nullptr;  // never runs
  if (mesh) {
    // What the consumer's rules that look at a topology see (lines and points come per primitive).
    const uint32_t output = g->mesh->mesh.output;
    g->state.input_assembly.topology = output == 1   ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST
                                       : output == 2 ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST
                                                     : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  }
  if (g->tess_control && !(g->dynamic_mask & kDynPrimitiveTopology) &&
      g->state.input_assembly.topology != VK_PRIMITIVE_TOPOLOGY_PATCH_LIST)
    return fail("tessellation shaders need the patch-list topology");
  const bool dynamic_vertex_input = g->dynamic_mask & kDynVertexInput;
  const desc::PipelineLayoutDesc* final_layout = layout ? &layout->desc : g->pre_rasterization_layout.get();
  const bool link_time_optimization = info.flags & VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT;
  if (g->vertex && !dynamic_vertex_input && g->vertex_kernel_input.staged && !link_time_optimization) {
    // Fast linking: the vertex kernel reads what the vertex input part's fetch kernel fetched.
    if (!g->vertex_fetch) {  // the vertex input part came with this create info
      std::string error;
      g->vertex_fetch = compiler::compile_vertex_fetch_kernel(g->vertex_input, host_simd_width(),
                                                              cache ? &cache->kernels : nullptr, &error);
      if (!g->vertex_fetch) return fail(error.c_str());
    }
    g->kernels.vertex_fetch = g->vertex_fetch->function;
    g->kernels.vertex_fetch_outputs = g->vertex_fetch->outputs;
  } else if (g->vertex && !dynamic_vertex_input && !(g->vertex_kernel_input == g->vertex_input)) {
    const std::shared_ptr<const RetainedShader> shader = retained_vertex_shader(*g);
    if (!shader || !g->pre_rasterization_layout) return fail("a linked vertex shader that was not kept");
    const desc::PipelineLayoutDesc& compiled_with = *g->pre_rasterization_layout;
    compiler::CompileRequest request;
    request.fail_if_compile_required = info.flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
    request.strict_reports = strict_shader_reports(*device, info.pNext, {info.pStages, info.stageCount});
    std::string error;
    g->vertex = compiler::compile_vertex_kernel(shader->source(), host_simd_width(), g->vertex_input,
                                                binding_resolver(compiled_with), pipeline_layout_hash(compiled_with),
                                                cache ? &cache->kernels : nullptr, &error, &request);
    if (request.compile_required) return VK_PIPELINE_COMPILE_REQUIRED;
    if (!g->vertex) return fail(error.c_str());
    g->vertex_kernel_input = g->vertex_input;
  }
  if (g->vertex) {
    g->kernels.vertex = g->vertex->function;
    g->kernels.vertex_width = g->vertex->simd_width;
    g->kernels.vertex_outputs = g->vertex->outputs;
  }
  if (g->fragment) {
    g->kernels.fragment = g->fragment->function;
    g->kernels.fragment_width = g->fragment->simd_width;
    g->kernels.fragment_interface = g->fragment->interface;
  }
  g->kernels.xfb = exec::plan_transform_feedback(g->kernels.last_stage_outputs().xfb);
  if (device->strict && final_layout) {
    std::vector<StageWords> stages;
    for (const auto& shader : g->shaders)
      if (shader->vk_stage != VK_SHADER_STAGE_FRAGMENT_BIT || g->fragment) stages.push_back({shader->vk_stage, shader->words});
    g->descriptor_uses = make_descriptor_uses(stages, *final_layout);
    g->kernels.descriptor_uses = g->descriptor_uses.get();
  }
  if (dynamic_vertex_input && g->vertex) {
    std::shared_ptr<const RetainedShader> shader = retained_vertex_shader(*g);
    if (!shader || !final_layout) return fail("dynamic vertex input without the vertex shader");
    g->vertex_input_variants = std::make_shared<VertexInputVariants>(std::move(shader), *final_layout, g->kernels);
  }
  return VK_SUCCESS;
}

VkResult create_graphics_pipeline(Device* device, const VkGraphicsPipelineCreateInfo& info, PipelineCache* cache,
                                  const VkAllocationCallbacks* allocator, VkPipeline* out) {
  GraphicsPipelinePart g;
  g.library = info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
  if (const auto* linked = find_in_chain<VkPipelineLibraryCreateInfoKHR>(info.pNext)) {
    for (uint32_t i = 0; i < linked->libraryCount; ++i) {
      const Pipeline* library = pipeline_of(linked->pLibraries[i]);
      if (!library || library->bind_point != VK_PIPELINE_BIND_POINT_GRAPHICS || !library->graphics.library)
        return fail("VkPipelineLibraryCreateInfoKHR names a pipeline that is not a graphics pipeline library");
      link_library(library->graphics, &g);
    }
  }
  const VkGraphicsPipelineLibraryFlagsEXT own = own_parts(info) & ~g.parts;
  OwnStages stages;
  if (const char* why = collect_stages(info, own, &stages)) return fail(why);
  if (const char* why = parse_dynamic_states(info, own, &g)) return fail(why);
  const bool mesh = stages.mesh || g.mesh;
  if ((own & kVertexInputPart) && !mesh) parse_vertex_input_part(info, &g);
  if (own & kPreRasterizationPart)
    if (const char* why = parse_pre_rasterization_part(info, mesh, &g)) return fail(why);
  // A pipeline that does not rasterize ignores its fragment states (the pointers may be garbage).
  const bool fragment_parts_used = !((g.parts | own) & kPreRasterizationPart) || rasterizes(g);
  if ((own & kFragmentShaderPart) && fragment_parts_used) parse_fragment_shader_part(info, &g);
  else stages.fragment = nullptr;
  if ((own & kFragmentOutputPart) && fragment_parts_used)
    if (const char* why = parse_fragment_output_part(info, &g)) return fail(why);
  if (own & (kPreRasterizationPart | kFragmentShaderPart | kFragmentOutputPart))
    if (const char* why = parse_attachments(info, own & kFragmentOutputPart, &g)) return fail(why);
  g.parts |= own;

  // Shaders something reads after creation are kept (icd/pipeline.h).
  const bool dynamic_vertex_input = g.dynamic_mask & kDynVertexInput;
  for (const VkPipelineShaderStageCreateInfo* s :
       {stages.vertex, stages.control, stages.evaluation, stages.geometry, stages.fragment, stages.task, stages.mesh}) {
    if (!s || !(g.library || device->strict || (dynamic_vertex_input && s == stages.vertex))) continue;
    compiler::ShaderSource source;
    if (const char* why = shader_source_of(*s, &source)) return fail(why);
    g.shaders.push_back(retain_shader(source, s->stage));
  }
  if ((own & kVertexInputPart) && g.library && !(g.parts & kPreRasterizationPart) && !dynamic_vertex_input && !mesh) {
    // The vertex input part's share of the work: its fetch kernel, so linking compiles nothing.
    std::string error;
    g.vertex_fetch = compiler::compile_vertex_fetch_kernel(g.vertex_input, host_simd_width(), cache ? &cache->kernels : nullptr,
                                                           &error);
    if (!g.vertex_fetch) return fail(error.c_str());
  }
  const PipelineLayout* layout = pipeline_layout_of(info.layout);
  CreationFeedback feedback(info.pNext, info.pStages, info.stageCount, info.flags,
                            strict_shader_reports(*device, info.pNext, {info.pStages, info.stageCount}));
  if (const VkResult r = compile_stages(device, info, stages, layout, cache, feedback, &g); r != VK_SUCCESS) return r;
  if (!g.library)
    if (const VkResult r = finish_pipeline(device, info, layout, cache, &g); r != VK_SUCCESS) return r;

  auto* pipeline = create_object<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!pipeline) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pipeline->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
  pipeline->graphics = std::move(g);
  pipeline->graphics.state.kernels = &pipeline->graphics.kernels;
  feedback.write();
  *out = to_handle<VkPipeline>(pipeline);
  return VK_SUCCESS;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateGraphicsPipelines(VkDevice handle, VkPipelineCache pipelineCache,
                                                                       uint32_t count,
                                                                       const VkGraphicsPipelineCreateInfo* pCreateInfos,
                                                                       const VkAllocationCallbacks* pAllocator,
                                                                       VkPipeline* pPipelines) {
  Device* device = device_of(handle);
  return create_pipeline_batch(
      device, count, pPipelines, [&](uint32_t i) { return pCreateInfos[i].flags; },
      [&](uint32_t i, VkPipeline* out) {
        return create_graphics_pipeline(device, pCreateInfos[i], pipeline_cache_of(pipelineCache),
                                        choose_allocator(pAllocator, device->allocator), out);
      });
}
