#include "pipeline/graphics/vertex_stage.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "common/log.h"
#include "common/thread_local_ref.h"

namespace kiln::exec::gfx {

VertexFormat make_vertex_format(const GraphicsKernels& kernels) {
  VertexFormat f;
  const abi::VertexOutputLayout& out = kernels.vertex_outputs;
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

// The four components of one output slot (lane-major: component c of lane i at c * W + i) to
// four values at `at` in each vertex row: a 4x4 transpose per four lanes (bit copies; the float
// type of the shuffles does not touch the values).
void copy_slot_to_rows(const uint32_t* slot, uint32_t W, uint32_t lanes, uint32_t* rows, uint32_t stride, uint32_t at) {
  uint32_t i = 0;
  for (; i + 4 <= lanes; i += 4) {
    __m128 c0 = _mm_loadu_ps(reinterpret_cast<const float*>(slot + i));
    __m128 c1 = _mm_loadu_ps(reinterpret_cast<const float*>(slot + W + i));
    __m128 c2 = _mm_loadu_ps(reinterpret_cast<const float*>(slot + 2 * W + i));
    __m128 c3 = _mm_loadu_ps(reinterpret_cast<const float*>(slot + 3 * W + i));
    _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
    _mm_storeu_ps(reinterpret_cast<float*>(rows + size_t(i) * stride + at), c0);
    _mm_storeu_ps(reinterpret_cast<float*>(rows + size_t(i + 1) * stride + at), c1);
    _mm_storeu_ps(reinterpret_cast<float*>(rows + size_t(i + 2) * stride + at), c2);
    _mm_storeu_ps(reinterpret_cast<float*>(rows + size_t(i + 3) * stride + at), c3);
  }
  for (; i < lanes; ++i)
    for (uint32_t c = 0; c < 4; ++c) rows[size_t(i) * stride + at + c] = slot[c * W + i];
}

}  // namespace

void shade_vertices(const DrawContext& ctx, const DrawParams& params, uint32_t instance, const int32_t* vertex_ids,
                    uint32_t count, uint32_t* out, uint32_t* faults, float* positions) {
  const GraphicsKernels& k = *ctx.kernels;
  const VertexFormat& f = ctx.vertex_format;
  const uint32_t W = k.vertex_width;
  const abi::VertexOutputLayout& layout = k.vertex_outputs;
  thread_local std::vector<uint32_t> tls_outputs;
  thread_local std::vector<int32_t> tls_lane_ids;
  std::vector<uint32_t>& outputs = thread_local_ref(tls_outputs);
  std::vector<int32_t>& lane_ids = thread_local_ref(tls_lane_ids);
  outputs.assign(size_t{layout.slot_count} * 4 * W, 0);
  lane_ids.assign(W, 0);
  abi::VertexInvocation inv{};
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
  // Reads component c of `slot` for lane i.
  auto at = [&](int32_t slot, uint32_t c, uint32_t i) { return outputs[(size_t(slot) * 4 + c) * W + i]; };
  for (uint32_t base = 0; base < count; base += W) {
    const uint32_t lanes = count - base < W ? count - base : W;
    for (uint32_t i = 0; i < W; ++i) lane_ids[i] = i < lanes ? vertex_ids[base + i] : vertex_ids[base];
    inv.lane_count = lanes;
    std::fill(outputs.begin(), outputs.end(), 0u);
    k.vertex(&inv);
    uint32_t* rows = out + size_t(base) * f.stride;
    copy_slot_to_rows(outputs.data(), W, lanes, rows, f.stride, 0);  // the position
    if (positions) {  // the position slot is already one array per component
      for (uint32_t c = 0; c < 4; ++c)
        memcpy(positions + size_t(c) * count + base, outputs.data() + size_t(c) * W, lanes * 4);
    }
    for (uint32_t n = 0; n < f.varying_count; ++n) {
      const int32_t slot = layout.location_slot[f.varying_location[n]];
      const uint32_t at_value = VertexFormat::kVaryingOffset + n * 4;
      if (slot >= 0) {
        copy_slot_to_rows(outputs.data() + size_t(slot) * 4 * W, W, lanes, rows, f.stride, at_value);
      } else {
        for (uint32_t i = 0; i < lanes; ++i) memset(rows + size_t(i) * f.stride + at_value, 0, 16);
      }
    }
    // The format in locals: the row stores could alias its fields, which the compiler would then
    // reload for every vertex.
    const size_t stride = f.stride;
    const uint32_t clip_count = f.clip_count, clip_offset = f.clip_offset;
    const uint32_t cull_count = f.cull_count, cull_offset = f.cull_offset;
    const uint32_t point_size_offset = f.point_size_offset, layer_offset = f.layer_offset;
    const uint32_t viewport_offset = f.viewport_offset;
    const bool has_point_size = f.has_point_size, has_layer = f.has_layer, has_viewport_index = f.has_viewport_index;
    // Point size, layer and viewport index are stored only when the shader writes them: every
    // reader tests has_point_size / has_layer / has_viewport_index first (those words otherwise
    // keep whatever the buffer held, and clipping interpolates them unread).
    if (clip_count == 0 && cull_count == 0 && !has_point_size && !has_layer && !has_viewport_index) continue;
    for (uint32_t i = 0; i < lanes; ++i) {
      uint32_t* v = rows + i * stride;
      for (uint32_t d = 0; d < clip_count; ++d) v[clip_offset + d] = at(layout.clip_distance_slot + d / 4, d % 4, i);
      for (uint32_t d = 0; d < cull_count; ++d) v[cull_offset + d] = at(layout.cull_distance_slot + d / 4, d % 4, i);
      if (has_point_size) v[point_size_offset] = at(layout.point_size_slot, 0, i);
      if (has_layer) v[layer_offset] = at(layout.layer_slot, 0, i);
      if (has_viewport_index) v[viewport_offset] = at(layout.viewport_index_slot, 0, i);
    }
  }
}

}  // namespace kiln::exec::gfx
