#include "pipeline/graphics/geometry_stage.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "common/thread_local_ref.h"
#include "pipeline/draw.h"
#include "pipeline/graphics/primitive_assembly.h"
#include "pipeline/graphics/stage_outputs.h"

namespace kiln::exec::gfx {
namespace {

// Per worker, reused from call to call.
struct GeometryScratch {
  std::vector<uint32_t> input_primitive, primitive_id, invocation_id;  // [W] each
  std::vector<uint32_t> outputs;   // [W * OutputVertices] emitted records
  std::vector<uint32_t> flags;     // [W * OutputVertices]
  std::vector<uint32_t> emitted;   // [W]
  std::vector<const uint32_t*> strip[abi::kMaxVertexStreams];  // per stream, the records of the strip being read
  std::vector<int64_t> strip_slots;                            // ... and their rows in the batch
  PrimitiveList strip_primitives;
};
thread_local GeometryScratch scratch;

VkPrimitiveTopology strip_topology(uint8_t output) {
  switch (output) {
    case 1: return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case 2: return VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    default: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  }
}

// The vertices of one emitted strip become rows of the batch and its primitives (the strip
// topologies' vertex order and provoking vertex, as input assembly draws strips). A strip too
// short for one primitive adds nothing. Returns the primitives added.
uint32_t append_strip(const DrawContext& ctx, const GeometryKernels& gk, uint32_t primitive_id_in, uint32_t stream,
                      GeometryScratch& s, PrimitiveBatch& batch) {
  const std::vector<const uint32_t*>& strip = s.strip[stream];
  const VkPrimitiveTopology topology = strip_topology(gk.modes.output);
  const size_t count = uncut_primitive_count(topology, strip.size());
  if (count == 0) return 0;
  const VertexFormat& f = ctx.vertex_format;
  const uint32_t first_slot = batch.vertex_count;
  uint32_t* rows = batch.append_vertices(uint32_t(strip.size()), f.stride);
  s.strip_slots.resize(strip.size());
  for (size_t v = 0; v < strip.size(); ++v) {
    record_to_row(f, gk.outputs, strip[v], rows + v * f.stride);
    s.strip_slots[v] = first_slot + int64_t(v);
  }
  const bool provoking_last = ctx.state->rasterization.provoking_vertex == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  s.strip_primitives.resize(count);
  assemble_uncut_range(topology, provoking_last, s.strip_slots.data(), 0, count, s.strip_primitives.data());
  const int32_t primitive_id_slot = gk.outputs.primitive_id_slot;
  for (const AssembledPrimitive& p : s.strip_primitives) {
    for (uint32_t v = 0; v < 3; ++v) batch.slots.push_back(uint32_t(p.id[std::min<uint32_t>(v, p.vertex_count - 1u)]));
    PrimitiveHeader h{};
    // PrimitiveId as the fragment shader reads it: what the shader wrote with the provoking
    // vertex, else (the shader writes none: undefined in the spec) the input primitive's.
    h.primitive_id = primitive_id_slot >= 0 ? strip[size_t(p.id[p.provoking]) - first_slot][primitive_id_slot * 4]
                                            : primitive_id_in;
    h.stream = uint8_t(stream);
    h.vertex_count = p.vertex_count;
    h.provoking = p.provoking;
    h.continues_strip = p.continues_strip;
    batch.headers.push_back(h);
  }
  return uint32_t(count);
}

}  // namespace

void run_geometry_stage(const DrawContext& ctx, const GeometryStageInput& input, PrimitiveBatch& batch, uint32_t* faults) {
  GeometryScratch& s = thread_local_ref(scratch);
  const GeometryKernels& gk = *ctx.kernels->geometry;
  const uint32_t W = gk.width;
  const uint32_t invocations = gk.modes.invocations;
  const uint32_t max_vertices = gk.modes.output_vertices;
  const uint32_t record_words = gk.outputs.slot_count * 4;
  const uint32_t lanes_total = input.count * invocations;
  const uint32_t first_primitive = batch.primitive_count();
  s.input_primitive.resize(W);
  s.primitive_id.resize(W);
  s.invocation_id.resize(W);
  s.emitted.resize(W);
  s.outputs.resize(size_t(W) * max_vertices * record_words);
  s.flags.resize(size_t(W) * max_vertices);
  abi::GeometryInvocation call{};
  call.resources = ctx.cmd->resources;
  call.faults = faults;
  call.inputs = reinterpret_cast<const uint8_t*>(input.records);
  call.primitive_bytes = input.vertices * input.record_words * 4;
  call.input_primitive = s.input_primitive.data();
  call.primitive_id = s.primitive_id.data();
  call.invocation_id = s.invocation_id.data();
  call.view_index = ctx.view_index;
  call.outputs = s.outputs.data();
  call.vertex_flags = s.flags.data();
  call.emitted = s.emitted.data();
  uint64_t generated = 0;
  for (uint32_t base = 0; base < lanes_total; base += W) {
    const uint32_t lanes = std::min(W, lanes_total - base);
    for (uint32_t i = 0; i < W; ++i) {  // lanes past `lanes` read primitive 0: every lane's inputs are valid
      const uint32_t lane = i < lanes ? base + i : 0;
      s.input_primitive[i] = lane / invocations;
      s.primitive_id[i] = input.primitive_ids[lane / invocations];
      s.invocation_id[i] = lane % invocations;
    }
    std::fill(s.emitted.begin(), s.emitted.end(), 0u);
    call.lane_count = lanes;
    gk.function(&call);
    // Lanes in order are invocations in the spec's order; each lane's strips of a stream in emit order.
    for (uint32_t i = 0; i < lanes; ++i) {
      const uint32_t emitted = std::min(s.emitted[i], max_vertices);
      const uint32_t primitive_id_in = s.primitive_id[i];
      for (auto& strip : s.strip) strip.clear();
      for (uint32_t v = 0; v < emitted; ++v) {
        const size_t at = size_t(i) * max_vertices + v;
        const uint32_t flags = s.flags[at];
        const uint32_t stream = (flags >> abi::kGeometryStreamShift) & 3u;
        if (flags & abi::kGeometryStripStart) {
          generated += append_strip(ctx, gk, primitive_id_in, stream, s, batch);
          s.strip[stream].clear();
        }
        s.strip[stream].push_back(s.outputs.data() + at * record_words);
      }
      for (uint32_t stream = 0; stream < abi::kMaxVertexStreams; ++stream)
        generated += append_strip(ctx, gk, primitive_id_in, stream, s, batch);
    }
  }
  if (ctx.counters) {
    ctx.counters->geometry_shader_invocations.fetch_add(lanes_total, std::memory_order_relaxed);
    ctx.counters->geometry_shader_primitives.fetch_add(generated, std::memory_order_relaxed);
  }
  resolve_layers_and_viewports(ctx, batch, first_primitive);
  // Streams other than the rasterized one are left out by the consumer (primitive_consumer.cpp).
}

}  // namespace kiln::exec::gfx
