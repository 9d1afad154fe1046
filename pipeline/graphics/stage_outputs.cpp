#include "pipeline/graphics/stage_outputs.h"

#include <immintrin.h>

#include <cstring>

namespace kiln::exec::gfx {
namespace {

// The four components of one output slot (lane-major: component c of lane i at c * W + i) to
// four values at `at` in each row: a 4x4 transpose per four lanes (bit copies; the float type of
// the shuffles does not touch the values).
void copy_slot_to_rows(const uint32_t* slot, uint32_t W, uint32_t lanes, uint32_t* rows, size_t stride, uint32_t at) {
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

// The words of a VertexFormat row after the varyings (clip and cull distances, point size, layer,
// viewport index, transform feedback captures) from an output layout's slots, read through `read(slot, component)`. The format
// is copied into locals: the row stores could alias its fields, which the compiler would then
// reload for every vertex. Point size, layer and viewport index are stored only when the shader
// writes them: every reader tests has_point_size / has_layer / has_viewport_index first (those
// words otherwise keep whatever the buffer held, and clipping interpolates them unread).
struct RowBuiltins {
  explicit RowBuiltins(const VertexFormat& f)
      : clip_count(f.clip_count), clip_offset(f.clip_offset), cull_count(f.cull_count), cull_offset(f.cull_offset),
        point_size_offset(f.point_size_offset), layer_offset(f.layer_offset), viewport_offset(f.viewport_offset),
        xfb_offset(f.xfb_offset), xfb_count(f.xfb_count), has_point_size(f.has_point_size), has_layer(f.has_layer),
        has_viewport_index(f.has_viewport_index) {}
  template <typename Read>
  void store(const abi::VertexOutputLayout& layout, uint32_t* v, Read&& read) const {
    for (uint32_t d = 0; d < clip_count; ++d) v[clip_offset + d] = read(layout.clip_distance_slot + int32_t(d / 4), d % 4);
    for (uint32_t d = 0; d < cull_count; ++d) v[cull_offset + d] = read(layout.cull_distance_slot + int32_t(d / 4), d % 4);
    if (has_point_size) v[point_size_offset] = read(layout.point_size_slot, 0);
    if (has_layer) v[layer_offset] = read(layout.layer_slot, 0);
    if (has_viewport_index) v[viewport_offset] = read(layout.viewport_index_slot, 0);
    for (uint32_t k = 0; k < xfb_count; ++k) v[xfb_offset + k] = read(layout.xfb.captures[k].slot, layout.xfb.captures[k].component);
  }
  uint32_t clip_count, clip_offset, cull_count, cull_offset, point_size_offset, layer_offset, viewport_offset;
  uint32_t xfb_offset, xfb_count;
  bool has_point_size, has_layer, has_viewport_index;
};

}  // namespace

void store_vertex_rows(const VertexFormat& f, const abi::VertexOutputLayout& layout, uint32_t W, const uint32_t* outputs,
                       uint32_t lanes, uint32_t* rows, float* positions, size_t position_stride) {
  // Reads component c of `slot` for lane i.
  auto at = [&](int32_t slot, uint32_t c, uint32_t i) { return outputs[(size_t(slot) * 4 + c) * W + i]; };
  copy_slot_to_rows(outputs, W, lanes, rows, f.stride, 0);  // the position
  if (positions) {  // the position slot is already one array per component
    for (uint32_t c = 0; c < 4; ++c) memcpy(positions + c * position_stride, outputs + size_t(c) * W, lanes * 4);
  }
  for (uint32_t n = 0; n < f.varying_count; ++n) {
    const int32_t slot = layout.location_slot[f.varying_location[n]];
    const uint32_t at_value = VertexFormat::kVaryingOffset + n * 4;
    if (slot >= 0) {
      copy_slot_to_rows(outputs + size_t(slot) * 4 * W, W, lanes, rows, f.stride, at_value);
    } else {
      for (uint32_t i = 0; i < lanes; ++i) memset(rows + size_t(i) * f.stride + at_value, 0, 16);
    }
  }
  if (f.clip_count == 0 && f.cull_count == 0 && !f.has_point_size && !f.has_layer && !f.has_viewport_index &&
      f.xfb_count == 0)
    return;
  const RowBuiltins b(f);
  const size_t stride = f.stride;
  for (uint32_t i = 0; i < lanes; ++i)
    b.store(layout, rows + i * stride, [&](int32_t slot, uint32_t c) { return at(slot, c, i); });
}

void record_to_row(const VertexFormat& f, const abi::VertexOutputLayout& layout, const uint32_t* record, uint32_t* row) {
  memcpy(row, record, 16);  // the position
  for (uint32_t n = 0; n < f.varying_count; ++n) {
    const int32_t slot = layout.location_slot[f.varying_location[n]];
    uint32_t* value = row + VertexFormat::kVaryingOffset + n * 4;
    if (slot >= 0) memcpy(value, record + slot * 4, 16);
    else memset(value, 0, 16);
  }
  RowBuiltins(f).store(layout, row, [&](int32_t slot, uint32_t c) { return record[slot * 4 + c]; });
}

void store_records(uint32_t slot_count, uint32_t W, const uint32_t* outputs, uint32_t lanes, uint32_t* records) {
  const size_t stride = size_t(slot_count) * 4;
  for (uint32_t s = 0; s < slot_count; ++s) copy_slot_to_rows(outputs + size_t(s) * 4 * W, W, lanes, records, stride, s * 4);
}

}  // namespace kiln::exec::gfx
