#include "pipeline/graphics/vertex_stage.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "common/log.h"
#include "common/thread_local_ref.h"
#include "pipeline/graphics/stage_outputs.h"

namespace kiln::exec::gfx {

VertexFormat make_vertex_format(const GraphicsKernels& kernels) {
  VertexFormat f;
  const abi::VertexOutputLayout& out = kernels.last_stage_outputs();
  const abi::FragmentInterface* fs = kernels.fragment ? &kernels.fragment_interface : nullptr;
  uint32_t at = VertexFormat::kVaryingOffset;
  if (fs) {
    for (uint32_t loc = 0; loc < abi::kMaxVaryingLocations; ++loc) {
      if (!(fs->input_location_mask & (1u << loc))) continue;
      f.varying_location[f.varying_count] = loc;
      f.varying_interpolation[f.varying_count] = fs->interpolation[loc];
      ++f.varying_count;
      at += 4;
    }
  }
  if (out.clip_distance_slot >= 0) {
    f.clip_offset = at;
    f.clip_count = out.clip_distance_count;
    at += f.clip_count;
  }
  if (out.cull_distance_slot >= 0) {
    f.cull_offset = at;
    f.cull_count = out.cull_distance_count;
    at += f.cull_count;
  }
  f.has_point_size = out.point_size_slot >= 0;
  f.point_size_offset = at++;
  f.has_layer = out.layer_slot >= 0;
  f.layer_offset = at++;
  f.has_viewport_index = out.viewport_index_slot >= 0;
  f.viewport_offset = at++;
  f.xfb_offset = at;
  f.xfb_count = out.xfb.capture_count;
  at += f.xfb_count;
  f.stride = at;
  // The fragment shader's ClipDistance/CullDistance inputs (only what the vertex shader wrote).
  if (fs) {
    f.fragment_clip_values = std::min(fs->clip_distance_inputs, f.clip_count);
    f.fragment_cull_values = std::min(fs->cull_distance_inputs, f.cull_count);
  }
  return f;
}

void fetch_vertex_ids(const DrawContext& ctx, const DrawParams& params, VertexIds& ids) {
  ids.resize(params.count);
  fetch_vertex_ids(ctx, params, ids.data());
}

void fetch_vertex_ids(const DrawContext& ctx, const DrawParams& params, int64_t* ids) {
  if (!params.indexed) {  // first, first + 1, ...: two at a time (the compiler keeps this scalar at -O2)
    uint32_t n = 0;
    __m128i next = _mm_add_epi64(_mm_set1_epi64x(int64_t{params.first}), _mm_set_epi64x(1, 0));
    for (; n + 2 <= params.count; n += 2, next = _mm_add_epi64(next, _mm_set1_epi64x(2)))
      _mm_storeu_si128(reinterpret_cast<__m128i*>(ids + n), next);
    for (; n < params.count; ++n) ids[n] = int64_t{params.first} + n;
    return;
  }
  const DrawCmd& cmd = *ctx.cmd;
  const uint32_t size = cmd.index_type == VK_INDEX_TYPE_UINT8_EXT ? 1 : cmd.index_type == VK_INDEX_TYPE_UINT16 ? 2 : 4;
  const uint32_t restart_value = size == 1 ? 0xFFu : size == 2 ? 0xFFFFu : 0xFFFFFFFFu;
  const bool restart = ctx.state->input_assembly.primitive_restart;
  const uint64_t available = cmd.index_data ? cmd.index_bytes / size : 0;
  if (!restart && uint64_t{params.first} + params.count <= available) {
    // The common case, one tight loop per index size: every index is in the buffer, none cuts.
    const uint8_t* p = cmd.index_data + uint64_t{params.first} * size;
    const uint32_t offset = static_cast<uint32_t>(params.vertex_offset);
    auto widen = [&](auto index_type) {
      using Index = decltype(index_type);
      for (uint32_t n = 0; n < params.count; ++n) {
        Index index;
        memcpy(&index, p + size_t(n) * sizeof(Index), sizeof(Index));
        ids[n] = static_cast<int32_t>(uint32_t{index} + offset);  // 32-bit wrap, as below
      }
    };
    if (size == 1) widen(uint8_t{});
    else if (size == 2) widen(uint16_t{});
    else widen(uint32_t{});
    return;
  }
  bool overrun = false;
  for (uint32_t n = 0; n < params.count; ++n) {
    const uint64_t at = uint64_t{params.first} + n;
    uint32_t index = 0;
    if (at < available) {
      const uint8_t* p = cmd.index_data + at * size;
      if (size == 1) index = *p;
      else if (size == 2) { uint16_t v; memcpy(&v, p, 2); index = v; }
      else memcpy(&index, p, 4);
    } else {
      overrun = true;
    }
    if (restart && index == restart_value && at < available) ids[n] = kRestartCut;
    // VertexIndex is index + vertexOffset in 32-bit arithmetic.
    else ids[n] = static_cast<int32_t>(index + static_cast<uint32_t>(params.vertex_offset));
  }
  if (overrun) KILN_LOG_ONCE(LogLevel::Warn, "draw: indices past the end of the index buffer read as 0");
}

namespace {

// Runs the vertex kernel over `count` vertices, W at a time, and hands each call's outputs to
// store(base, lanes, outputs).
template <typename Store>
void run_vertex_kernel(const DrawContext& ctx, const DrawParams& params, uint32_t instance, const int32_t* vertex_ids,
                       uint32_t count, uint32_t* faults, Store&& store) {
  const GraphicsKernels& k = *ctx.kernels;
  const uint32_t W = k.vertex_width;
  thread_local std::vector<uint32_t> tls_outputs;
  thread_local std::vector<int32_t> tls_lane_ids;
  std::vector<uint32_t>& outputs = thread_local_ref(tls_outputs);
  std::vector<int32_t>& lane_ids = thread_local_ref(tls_lane_ids);
  outputs.assign(size_t{k.vertex_outputs.slot_count} * 4 * W, 0);
  lane_ids.assign(W, 0);
  // A fast-linked pipeline's fetch kernel writes its records here, which the vertex kernel reads.
  // Locations the vertex input state does not feed (invalid usage) read (0, 0, 0, 1.0).
  thread_local std::vector<uint32_t> tls_fetched, tls_defaults;
  std::vector<uint32_t>& fetched = thread_local_ref(tls_fetched);
  std::vector<uint32_t>& defaults = thread_local_ref(tls_defaults);
  std::array<const uint32_t*, abi::kMaxVertexAttributes> staged{};
  if (k.vertex_fetch) {
    const abi::VertexOutputLayout& f = k.vertex_fetch_outputs;
    fetched.assign(size_t{f.slot_count} * 4 * W, 0);
    defaults.assign(size_t{4} * W, 0);
    std::fill(defaults.begin() + 3 * W, defaults.end(), 0x3f800000u);
    for (uint32_t l = 0; l < abi::kMaxVertexAttributes; ++l)
      staged[l] = f.location_slot[l] >= 0 ? fetched.data() + size_t(f.location_slot[l]) * 4 * W : defaults.data();
  }
  abi::VertexInvocation inv{};
  inv.staged_attributes = staged.data();
  inv.resources = ctx.cmd->resources;
  inv.vertex_buffers = ctx.cmd->vertex_buffers;
  inv.faults = faults;
  inv.vertex_index = lane_ids.data();
  inv.instance_index = params.first_instance + instance;
  inv.base_vertex = params.indexed ? params.vertex_offset : static_cast<int32_t>(params.first);
  inv.base_instance = params.first_instance;
  inv.draw_index = params.draw_index;
  inv.view_index = ctx.view_index;
  inv.outputs = outputs.data();
  for (uint32_t base = 0; base < count; base += W) {
    const uint32_t lanes = count - base < W ? count - base : W;
    for (uint32_t i = 0; i < W; ++i) lane_ids[i] = i < lanes ? vertex_ids[base + i] : vertex_ids[base];
    inv.lane_count = lanes;
    if (k.vertex_fetch) {
      inv.outputs = fetched.data();
      k.vertex_fetch(&inv);
      inv.outputs = outputs.data();
    }
    std::fill(outputs.begin(), outputs.end(), 0u);
    k.vertex(&inv);
    store(base, lanes, outputs.data());
  }
}

}  // namespace

void shade_vertices(const DrawContext& ctx, const DrawParams& params, uint32_t instance, const int32_t* vertex_ids,
                    uint32_t count, uint32_t* out, uint32_t* faults, float* positions) {
  const VertexFormat& f = ctx.vertex_format;
  const uint32_t W = ctx.kernels->vertex_width;
  const abi::VertexOutputLayout& layout = ctx.kernels->vertex_outputs;
  run_vertex_kernel(ctx, params, instance, vertex_ids, count, faults, [&](uint32_t base, uint32_t lanes, const uint32_t* outputs) {
    store_vertex_rows(f, layout, W, outputs, lanes, out + size_t(base) * f.stride, positions ? positions + base : nullptr,
                      count);
  });
}

void shade_vertex_records(const DrawContext& ctx, const DrawParams& params, uint32_t instance, const int32_t* vertex_ids,
                          uint32_t count, uint32_t* records, uint32_t* faults) {
  const uint32_t W = ctx.kernels->vertex_width;
  const uint32_t slots = ctx.kernels->vertex_outputs.slot_count;
  run_vertex_kernel(ctx, params, instance, vertex_ids, count, faults, [&](uint32_t base, uint32_t lanes, const uint32_t* outputs) {
    store_records(slots, W, outputs, lanes, records + size_t(base) * slots * 4);
  });
}

}  // namespace kiln::exec::gfx
