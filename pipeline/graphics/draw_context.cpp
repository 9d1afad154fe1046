#include "pipeline/graphics/draw_context.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/log.h"
#include "pipeline/graphics/primitive_assembly.h"
#include "pipeline/graphics/vertex_stage.h"

namespace kiln::exec::gfx {
namespace {

// Standard sample locations (Vulkan "Multisampling"), in 1/256 pixel.
bool set_sample_locations(uint32_t samples, DrawContext& ctx) {
  static const int32_t k1[] = {128, 128};
  static const int32_t k2[] = {192, 192, 64, 64};
  static const int32_t k4[] = {96, 32, 224, 96, 32, 160, 160, 224};
  static const int32_t k8[] = {144, 80, 112, 176, 208, 144, 80, 48, 48, 208, 16, 112, 176, 240, 240, 16};
  const int32_t* table = samples == 1 ? k1 : samples == 2 ? k2 : samples == 4 ? k4 : samples == 8 ? k8 : nullptr;
  if (!table) return false;
  ctx.samples = samples;
  for (uint32_t s = 0; s < samples; ++s) {
    ctx.sample_x[s] = table[2 * s];
    ctx.sample_y[s] = table[2 * s + 1];
  }
  return true;
}

void set_viewports(DrawContext& ctx) {
  const ViewportState& vs = ctx.state->viewport;
  ctx.viewport_count = std::max<uint32_t>(1, std::min<uint32_t>(vs.viewport_count, kMaxViewports));
  for (uint32_t i = 0; i < ctx.viewport_count; ++i) {
    const VkViewport& v = vs.viewports[i];
    ViewportTransform& t = ctx.viewports[i];
    t.scale[0] = v.width / 2;
    t.scale[1] = v.height / 2;
    t.offset[0] = v.x + v.width / 2;
    t.offset[1] = v.y + v.height / 2;
    t.near_at_minus_w = vs.negative_one_to_one;
    if (vs.negative_one_to_one) {
      t.scale[2] = (v.maxDepth - v.minDepth) / 2;
      t.offset[2] = (v.maxDepth + v.minDepth) / 2;
    } else {
      t.scale[2] = v.maxDepth - v.minDepth;
      t.offset[2] = v.minDepth;
    }
    t.min_depth = std::min(v.minDepth, v.maxDepth);
    t.max_depth = std::max(v.minDepth, v.maxDepth);
    for (int a = 0; a < 2; ++a) {
      // NDC limits that map to +-kGuardBandPixels (a negative height flips them).
      const float scale = t.scale[a] != 0.0f ? t.scale[a] : 1.0f;
      const float lo = (-kGuardBandPixels - t.offset[a]) / scale, hi = (kGuardBandPixels - t.offset[a]) / scale;
      t.guard_lo[a] = std::min(lo, hi);
      t.guard_hi[a] = std::max(lo, hi);
    }
    Rect scissor = ctx.framebuffer;
    if (i < vs.scissor_count) {
      scissor = scissor.intersect(to_rect(vs.scissors[i]));
    }
    t.scissor = scissor;
    auto pixel = [](float v) { return int32_t(std::clamp(v, -kGuardBandPixels, kGuardBandPixels)); };
    const float y0 = std::min(v.y, v.y + v.height), y1 = std::max(v.y, v.y + v.height);
    t.triangle_scissor = scissor.intersect(
        {pixel(std::floor(v.x)), pixel(std::floor(y0)), pixel(std::ceil(v.x + v.width)), pixel(std::ceil(y1))});
  }
}

// Binds the render targets; false if an attachment cannot be used (logged).
bool set_targets(const RenderTargets& rt, DrawContext& ctx) {
  int32_t width = INT32_MAX, height = INT32_MAX;
  // Samples are addressed with the pipeline's count: an attachment with another count (invalid
  // usage) would be written outside its texels.
  bool samples_match = true;
  auto fit = [&](const mem::AttachmentSurface& s) {
    samples_match = samples_match && s.samples == ctx.samples;
    width = std::min<int32_t>(width, int32_t(s.width));
    height = std::min<int32_t>(height, int32_t(s.height));
    ctx.layer_count = std::min(ctx.layer_count, s.layers);
    ctx.attachment_layers = std::min(ctx.attachment_layers, s.layers);
  };
  ctx.layer_count = std::max<uint32_t>(rt.layer_count, 1);
  ctx.attachment_layers = UINT32_MAX;
  for (uint32_t i = 0; i < rt.color_count && i < abi::kMaxColorAttachments; ++i) {
    if (!rt.color[i]) continue;
    if (!mem::make_attachment_surface(*rt.color[i], VK_IMAGE_ASPECT_COLOR_BIT, &ctx.color[i])) return false;
    ctx.color_codec[i] = mem::color_codec(ctx.color[i].format);
    if (!ctx.color_codec[i]) return false;
    ctx.has_color[i] = true;
    fit(ctx.color[i]);
  }
  if (rt.depth) {
    if (!mem::make_attachment_surface(*rt.depth, VK_IMAGE_ASPECT_DEPTH_BIT, &ctx.depth)) return false;
    ctx.depth_codec = mem::depth_codec(ctx.depth.format);
    if (!ctx.depth_codec) return false;
    ctx.has_depth = true;
    fit(ctx.depth);
  }
  if (rt.stencil) {
    if (!mem::make_attachment_surface(*rt.stencil, VK_IMAGE_ASPECT_STENCIL_BIT, &ctx.stencil)) return false;
    ctx.has_stencil = true;
    fit(ctx.stencil);
  }
  Rect area = to_rect(rt.render_area);
  if (width != INT32_MAX) area = area.intersect(Rect{0, 0, width, height});
  ctx.framebuffer = area;
  return samples_match;
}

}  // namespace

bool prepare_draw_context(const DrawCmd& cmd, DrawCounters* counters, DrawContext& ctx) {
  if (!cmd.state || !cmd.state->kernels || !(cmd.state->kernels->vertex || cmd.state->kernels->mesh) || !cmd.targets) {
    KILN_LOG_ONCE(LogLevel::Error, "draw without a vertex or mesh kernel or render targets; skipped");
    return false;
  }
  if (cmd.mesh_tasks != cmd.state->kernels->mesh.has_value()) {
    KILN_LOG_ONCE(LogLevel::Error, "draw: vkCmdDrawMeshTasks*EXT needs a mesh pipeline, and other draws a vertex "
                  "pipeline; skipped");
    return false;
  }
  ctx = DrawContext{};
  ctx.cmd = &cmd;
  ctx.state = cmd.state;
  ctx.kernels = cmd.state->kernels;
  ctx.counters = counters;
  ctx.vertex_format = make_vertex_format(*ctx.kernels);
  if (!set_sample_locations(uint32_t(cmd.state->multisample.samples), ctx)) {
    KILN_LOG_ONCE(LogLevel::Error, "draw: %u samples per pixel are not supported; skipped",
                  uint32_t(cmd.state->multisample.samples));
    return false;
  }
  if (!set_targets(*cmd.targets, ctx)) {
    KILN_LOG_ONCE(LogLevel::Error, "draw: an attachment has no memory, an unsupported format or not the pipeline's sample count; skipped");
    return false;
  }
  set_viewports(ctx);
  if (ctx.kernels->mesh) return true;  // no input assembly
  const bool patch_list = cmd.state->input_assembly.topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  if (patch_list != ctx.kernels->tessellation.has_value()) {
    KILN_LOG_ONCE(LogLevel::Warn, "draw: patch lists need tessellation shaders and tessellation shaders patch lists; skipped");
    return false;
  }
  const uint32_t control_points = cmd.state->input_assembly.patch_control_points;
  if (patch_list && (control_points == 0 || control_points > abi::kMaxPatchVertices)) {
    KILN_LOG_ONCE(LogLevel::Warn, "draw: %u patch control points (1..%u allowed); skipped", control_points,
                  abi::kMaxPatchVertices);
    return false;
  }
  return true;
}

// The draws of the command: one for direct draws, the indirect records otherwise.
void collect_draws(const DrawCmd& cmd, std::vector<DrawParams>& draws) {
  draws.clear();
  if (!cmd.indirect_buffer) {
    DrawParams p;
    p.indexed = cmd.indexed;
    p.count = cmd.count;
    if (cmd.byte_count_buffer) {  // vertices a transform feedback buffer holds
      uint32_t bytes = 0;
      const mem::Buffer& counter = *cmd.byte_count_buffer;
      if (counter.data && cmd.byte_count_buffer_offset + 4 <= counter.size)
        memcpy(&bytes, counter.data + cmd.byte_count_buffer_offset, 4);
      else
        KILN_LOG_ONCE(LogLevel::Warn, "vkCmdDrawIndirectByteCountEXT: counter outside its buffer; drawing nothing");
      p.count = bytes > cmd.byte_count_offset && cmd.byte_count_stride ? (bytes - cmd.byte_count_offset) / cmd.byte_count_stride : 0;
    }
    p.instance_count = cmd.instance_count;
    p.first = cmd.first;
    p.vertex_offset = cmd.vertex_offset;
    p.first_instance = cmd.first_instance;
    p.draw_index = cmd.draw_index_base;
    for (int i = 0; i < 3; ++i) p.groups[i] = cmd.groups[i];
    draws.push_back(p);
    return;
  }
  const mem::Buffer& buffer = *cmd.indirect_buffer;
  uint32_t count = cmd.draw_count;
  if (cmd.count_buffer) {
    uint32_t value = 0;
    if (cmd.count_buffer->data && cmd.count_offset + 4 <= cmd.count_buffer->size)
      memcpy(&value, cmd.count_buffer->data + cmd.count_offset, 4);
    else
      KILN_LOG_ONCE(LogLevel::Warn, "draw: indirect count outside its buffer; drawing nothing");
    count = std::min(count, value);
  }
  const uint64_t record = cmd.mesh_tasks ? sizeof(VkDrawMeshTasksIndirectCommandEXT)
                          : cmd.indexed  ? sizeof(VkDrawIndexedIndirectCommand)
                                         : sizeof(VkDrawIndirectCommand);
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t at = cmd.indirect_offset + uint64_t(i) * cmd.stride;
    if (!buffer.data || at + record > buffer.size) {
      KILN_LOG_ONCE(LogLevel::Warn, "draw: indirect record outside its buffer; skipped");
      break;
    }
    DrawParams p;
    p.indexed = cmd.indexed;
    p.draw_index = cmd.draw_index_base + i;
    if (cmd.mesh_tasks) {
      VkDrawMeshTasksIndirectCommandEXT r;
      memcpy(&r, buffer.data + at, sizeof(r));
      p.groups[0] = r.groupCountX;
      p.groups[1] = r.groupCountY;
      p.groups[2] = r.groupCountZ;
    } else if (cmd.indexed) {
      VkDrawIndexedIndirectCommand r;
      memcpy(&r, buffer.data + at, sizeof(r));
      p.count = r.indexCount;
      p.instance_count = r.instanceCount;
      p.first = r.firstIndex;
      p.vertex_offset = r.vertexOffset;
      p.first_instance = r.firstInstance;
    } else {
      VkDrawIndirectCommand r;
      memcpy(&r, buffer.data + at, sizeof(r));
      p.count = r.vertexCount;
      p.instance_count = r.instanceCount;
      p.first = r.firstVertex;
      p.first_instance = r.firstInstance;
    }
    draws.push_back(p);
  }
}

// The vertex ids and primitives of one draw. A big draw whose ids hold no restart cut (restart
// off or not indexed) is fetched and assembled on the pool in pieces: the queue thread alone
// would otherwise spend a vertex-bound draw's first milliseconds on it while the workers wait.
// Returns the vertices input assembly consumed (ids that are not cuts).
uint64_t assemble_draw(ThreadPool& pool, const DrawContext& ctx, const DrawParams& params, VkPrimitiveTopology topology,
                       bool provoking_last, VertexIds& ids, PrimitiveList& primitives) {
  constexpr uint32_t kPiece = 1u << 16;
  const bool cuts_possible = params.indexed && ctx.state->input_assembly.primitive_restart;
  const bool fits = uint64_t{params.first} + params.count <= UINT32_MAX;  // pieces' `first` cannot wrap
  if (cuts_possible || !fits || params.count < 2 * kPiece) {
    fetch_vertex_ids(ctx, params, ids);
    assemble_primitives(topology, provoking_last, ids.data(), ids.size(), primitives);
    return cuts_possible ? uint64_t(std::count_if(ids.begin(), ids.end(), [](int64_t id) { return id != kRestartCut; }))
                         : ids.size();
  }
  ids.resize(params.count);
  pool.parallel_for((params.count + kPiece - 1) / kPiece, [&](size_t i) {
    DrawParams piece = params;
    piece.first = params.first + uint32_t(i) * kPiece;
    piece.count = std::min(kPiece, params.count - uint32_t(i) * kPiece);
    fetch_vertex_ids(ctx, piece, ids.data() + i * kPiece);
  });
  const size_t count = uncut_primitive_count(topology, ids.size());
  primitives.resize(count);
  pool.parallel_for((count + kPiece - 1) / kPiece, [&](size_t i) {
    const size_t begin = i * kPiece, end = std::min<size_t>(count, begin + kPiece);
    assemble_uncut_range(topology, provoking_last, ids.data(), begin, end, primitives.data() + begin);
  });
  return ids.size();
}

}  // namespace kiln::exec::gfx
