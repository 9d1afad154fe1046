// vkCreateGraphicsPipelines: every create-info state becomes an exec::GraphicsState (the static
// state draws merge dynamic state over) and the vertex, tessellation and fragment stages become
// kernels through compiler/graphics_compiler.h. Stages Kiln cannot run (geometry, mesh) and shaders
// the compiler rejects make creation fail with one log line, never a pipeline that draws wrongly.
#include <algorithm>

#include "common/cpu.h"
#include "common/log.h"
#include "icd/creation_feedback.h"
#include "icd/descriptor_uses.h"
#include "icd/device.h"
#include "icd/graphics_dynamic_state.h"
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
compiler::VertexInputKey parse_vertex_input(const VkPipelineVertexInputStateCreateInfo* vi, GraphicsPipelinePart* g) {
  compiler::VertexInputKey key;
  if (!vi) return key;  // VERTEX_INPUT_EXT dynamic state is not supported; the key stays empty
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
  return key;
}

exec::StencilFaceState stencil_face(const VkStencilOpState& s) {
  return {s.failOp, s.passOp, s.depthFailOp, s.compareOp, s.compareMask, s.writeMask, s.reference};
}

// Fixed-function state. States the spec lets the application omit (null pointers) keep the
// defaults of exec::GraphicsState; returns why the pipeline cannot be made, or nullptr.
const char* parse_fixed_function(const VkGraphicsPipelineCreateInfo& info, GraphicsPipelinePart* g) {
  exec::GraphicsState& st = g->state;
  if (const auto* ds = info.pDynamicState) {
    for (uint32_t i = 0; i < ds->dynamicStateCount; ++i) {
      const uint32_t bit = dynamic_state_bit(ds->pDynamicStates[i]);
      if (!bit) return "a dynamic state Kiln does not support";
      g->dynamic_mask |= bit;
    }
  }
  // Mesh pipelines ignore the vertex input, input assembly and tessellation states (the pointers
  // may be anything).
  bool mesh = false;
  for (uint32_t i = 0; i < info.stageCount; ++i) mesh |= info.pStages[i].stage == VK_SHADER_STAGE_MESH_BIT_EXT;
  if (const auto* ia = info.pInputAssemblyState; ia && !mesh) {
    st.input_assembly.topology = ia->topology;
    st.input_assembly.primitive_restart = ia->primitiveRestartEnable;
  }
  if (const auto* ts = info.pTessellationState; ts && !mesh) st.input_assembly.patch_control_points = ts->patchControlPoints;
  if (const auto* rs = info.pRasterizationState) {
    exec::RasterizationState& r = st.rasterization;
    r.rasterizer_discard = rs->rasterizerDiscardEnable;
    r.depth_clamp = rs->depthClampEnable;
    r.depth_clip = !rs->depthClampEnable;
    if (const auto* clip = find_in_chain<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(rs->pNext))
      r.depth_clip = clip->depthClipEnable;
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
  // Without rasterization the fragment-side states may be absent or garbage (the spec says to ignore them).
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
  if (const auto* ms = info.pMultisampleState) {
    exec::MultisampleState& m = st.multisample;
    m.samples = ms->rasterizationSamples;
    if (ms->pSampleMask) m.sample_mask = ms->pSampleMask[0];
    m.sample_shading = ms->sampleShadingEnable;
    m.min_sample_shading = ms->minSampleShading;
    m.alpha_to_coverage = ms->alphaToCoverageEnable;
    m.alpha_to_one = ms->alphaToOneEnable;
  }
  if (const auto* dss = info.pDepthStencilState) {
    exec::DepthStencilState& d = st.depth_stencil;
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
  if (const auto* cb = info.pColorBlendState) {
    exec::ColorBlendState& c = st.color_blend;
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

// The attachment formats: from the render pass's subpass, or VkPipelineRenderingCreateInfo.
const char* parse_attachments(const VkGraphicsPipelineCreateInfo& info, GraphicsPipelinePart* g) {
  if (info.renderPass) {
    const RenderPass* pass = render_pass_of(info.renderPass);
    if (info.subpass >= pass->subpasses.size()) return "subpass out of range";
    const Subpass& s = pass->subpasses[info.subpass];
    g->color_count = std::min<uint32_t>(static_cast<uint32_t>(s.colors.size()), abi::kMaxColorAttachments);
    for (uint32_t i = 0; i < g->color_count; ++i)
      if (s.colors[i].attachment != VK_ATTACHMENT_UNUSED) g->color_formats[i] = pass->attachments[s.colors[i].attachment].format;
    if (s.depth_stencil.attachment != VK_ATTACHMENT_UNUSED)
      g->depth_format = g->stencil_format = pass->attachments[s.depth_stencil.attachment].format;
    g->view_mask = s.view_mask;
    return nullptr;
  }
  if (const auto* r = find_in_chain<VkPipelineRenderingCreateInfo>(info.pNext)) {
    if (r->colorAttachmentCount > abi::kMaxColorAttachments) return "too many colour attachments";
    g->color_count = r->colorAttachmentCount;
    std::copy_n(r->pColorAttachmentFormats, r->colorAttachmentCount, g->color_formats);
    g->depth_format = r->depthAttachmentFormat;
    g->stencil_format = r->stencilAttachmentFormat;
    g->view_mask = r->viewMask;
  }
  return nullptr;  // no render pass and no rendering info: no attachments
}

VkResult fail(const char* why) {
  log(LogLevel::Error, "%s: %s", kApi, why);
  return VK_ERROR_UNKNOWN;
}

exec::TessellationKernels tessellation_kernels(const compiler::CompiledTessControlKernel& control,
                                                const compiler::CompiledTessEvalKernel& evaluation,
                                                const VkPipelineTessellationStateCreateInfo* state) {
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
  if (state)
    if (const auto* origin = find_in_chain<VkPipelineTessellationDomainOriginStateCreateInfo>(state->pNext))
      t.tessellator.origin_lower_left = origin->domainOrigin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
  return t;
}

// The control kernel, compiled against the vertex kernel's outputs, then the evaluation kernel
// against the control kernel's (compiler/graphics_compiler.h).
VkResult compile_tessellation(const VkPipelineShaderStageCreateInfo& control_stage,
                              const VkPipelineShaderStageCreateInfo& evaluation_stage,
                              const VkPipelineTessellationStateCreateInfo* state, const compiler::BindingResolver& bindings,
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
  if (!(g->dynamic_mask & kDynPrimitiveTopology) && g->state.input_assembly.topology != VK_PRIMITIVE_TOPOLOGY_PATCH_LIST)
    return fail("tessellation shaders need the patch-list topology");
  g->kernels.tessellation = tessellation_kernels(*g->tess_control, *g->tess_eval, state);
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
  // What the consumer's rules that look at a topology see (lines and points come per primitive).
  g->state.input_assembly.topology = info.output == 1   ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST
                                     : info.output == 2 ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST
                                                        : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  return VK_SUCCESS;
}

VkResult create_graphics_pipeline(Device* device, const VkGraphicsPipelineCreateInfo& info, PipelineCache* cache,
                                  const VkAllocationCallbacks* allocator, VkPipeline* out) {
  GraphicsPipelinePart g;
  if (const char* why = parse_fixed_function(info, &g)) return fail(why);
  if (const char* why = parse_attachments(info, &g)) return fail(why);
  const VkPipelineShaderStageCreateInfo* vertex_stage = nullptr;
  const VkPipelineShaderStageCreateInfo* control_stage = nullptr;
  const VkPipelineShaderStageCreateInfo* evaluation_stage = nullptr;
  const VkPipelineShaderStageCreateInfo* geometry_stage = nullptr;
  const VkPipelineShaderStageCreateInfo* fragment_stage = nullptr;
  const VkPipelineShaderStageCreateInfo* task_stage = nullptr;
  const VkPipelineShaderStageCreateInfo* mesh_stage = nullptr;
  for (uint32_t i = 0; i < info.stageCount; ++i) {
    const VkPipelineShaderStageCreateInfo& s = info.pStages[i];
    if (s.stage == VK_SHADER_STAGE_VERTEX_BIT) vertex_stage = &s;
    else if (s.stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT) control_stage = &s;
    else if (s.stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT) evaluation_stage = &s;
    else if (s.stage == VK_SHADER_STAGE_GEOMETRY_BIT) geometry_stage = &s;
    else if (s.stage == VK_SHADER_STAGE_FRAGMENT_BIT) fragment_stage = &s;
    else if (s.stage == VK_SHADER_STAGE_TASK_BIT_EXT) task_stage = &s;
    else if (s.stage == VK_SHADER_STAGE_MESH_BIT_EXT) mesh_stage = &s;
    else return fail("a shader stage graphics pipelines do not have");
  }
  if (!vertex_stage == !mesh_stage) return fail("a graphics pipeline needs a vertex shader or a mesh shader, not both");
  if (mesh_stage && (control_stage || evaluation_stage || geometry_stage))
    return fail("mesh pipelines have no tessellation or geometry stages");
  if (task_stage && !mesh_stage) return fail("a task shader needs a mesh shader");
  if (!control_stage != !evaluation_stage) return fail("tessellation needs both a control and an evaluation shader");
  if (g.state.rasterization.rasterizer_discard && !(g.dynamic_mask & kDynRasterizerDiscardEnable)) fragment_stage = nullptr;

  // With dynamic vertex input, pVertexInputState is ignored; the kernel made here reads no input
  // and each draw's state gets its own (VertexInputVariants).
  const bool dynamic_vertex_input = g.dynamic_mask & kDynVertexInput;
  const compiler::VertexInputKey vertex_input =
      dynamic_vertex_input || mesh_stage ? compiler::VertexInputKey{} : parse_vertex_input(info.pVertexInputState, &g);
  const PipelineLayout* layout = pipeline_layout_of(info.layout);
  const compiler::BindingResolver bindings = binding_resolver(layout->desc);
  const uint64_t layout_hash = pipeline_layout_hash(layout->desc);
  compiler::KernelCache* kernels = cache ? &cache->kernels : nullptr;
  CreationFeedback feedback(info.pNext, info.pStages, info.stageCount, info.flags);

  // The stages before rasterization are a chain, each compiled against its predecessor's outputs;
  // the fragment kernel depends on none of them, so it compiles beside the chain on the pool.
  compiler::ShaderSource vertex_source;
  auto compile_pre_rasterization = [&]() -> VkResult {
    if (mesh_stage) {
      const VkResult r = compile_mesh_shading(task_stage, *mesh_stage, bindings, layout_hash, kernels, feedback, &g);
      if (r != VK_SUCCESS) return r;
    } else {
      std::string error;
      if (const char* why = shader_source_of(*vertex_stage, &vertex_source)) return fail(why);
      g.vertex = feedback.compile(*vertex_stage, [&](compiler::CompileRequest* request) {
        return compiler::compile_vertex_kernel(vertex_source, host_simd_width(), vertex_input, bindings, layout_hash, kernels,
                                               &error, request);
      });
      if (feedback.compile_required(*vertex_stage)) return VK_PIPELINE_COMPILE_REQUIRED;
      if (!g.vertex) return fail(error.c_str());
    }
    if (control_stage) {
      const VkResult r = compile_tessellation(*control_stage, *evaluation_stage, info.pTessellationState, bindings,
                                              layout_hash, kernels, feedback, &g);
      if (r != VK_SUCCESS) return r;
    }
    if (geometry_stage) return compile_geometry(*geometry_stage, bindings, layout_hash, kernels, feedback, &g);
    return VK_SUCCESS;
  };
  auto compile_fragment = [&]() -> VkResult {
    std::string error;
    compiler::ShaderSource source;
    if (const char* why = shader_source_of(*fragment_stage, &source)) return fail(why);
    g.fragment = feedback.compile(*fragment_stage, [&](compiler::CompileRequest* request) {
      return compiler::compile_fragment_kernel(source, host_simd_width(), bindings, layout_hash, kernels, &error, request);
    });
    if (feedback.compile_required(*fragment_stage)) return VK_PIPELINE_COMPILE_REQUIRED;
    return g.fragment ? VK_SUCCESS : fail(error.c_str());
  };
  VkResult results[2] = {VK_SUCCESS, VK_SUCCESS};
  device->worker_pool.parallel_for(fragment_stage ? 2 : 1,
                                   [&](size_t i) { results[i] = i ? compile_fragment() : compile_pre_rasterization(); });
  if (results[0] < 0 || results[1] < 0) return results[0] < 0 ? results[0] : results[1];  // errors before COMPILE_REQUIRED
  if (results[0] != VK_SUCCESS || results[1] != VK_SUCCESS) return VK_PIPELINE_COMPILE_REQUIRED;

  auto* pipeline = create_object<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!pipeline) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pipeline->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
  pipeline->graphics = std::move(g);
  GraphicsPipelinePart& part = pipeline->graphics;
  if (part.vertex) {
    part.kernels.vertex = part.vertex->function;
    part.kernels.vertex_width = part.vertex->simd_width;
    part.kernels.vertex_outputs = part.vertex->outputs;
  }
  if (part.fragment) {
    part.kernels.fragment = part.fragment->function;
    part.kernels.fragment_width = part.fragment->simd_width;
    part.kernels.fragment_interface = part.fragment->interface;
  }
  part.kernels.xfb = exec::plan_transform_feedback(part.kernels.last_stage_outputs().xfb);
  part.state.kernels = &part.kernels;
  if (device->strict) {
    std::vector<VkPipelineShaderStageCreateInfo> compiled;  // not a fragment shader that never runs
    for (const VkPipelineShaderStageCreateInfo* s :
         {vertex_stage, control_stage, evaluation_stage, geometry_stage, fragment_stage, task_stage, mesh_stage})
      if (s) compiled.push_back(*s);
    pipeline->descriptor_uses = make_descriptor_uses(compiled, layout->desc);
    part.kernels.descriptor_uses = pipeline->descriptor_uses.get();
  }
  if (dynamic_vertex_input && part.vertex)
    part.vertex_input_variants = std::make_shared<VertexInputVariants>(vertex_source, layout->desc, part.kernels);
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
