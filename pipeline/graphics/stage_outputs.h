#pragma once
// What the engine does with one call's outputs of a vertex-like kernel (vertex or tessellation
// evaluation: abi::VertexOutputLayout slots, component-major, lane-minor): store them as
// VertexFormat rows for the consumer, or as whole records for a later stage that indexes them
// (tessellation control shaders read gl_in[]).
#include <cstddef>
#include <cstdint>

#include "common/abi/kernel_abi.h"
#include "pipeline/graphics/draw_types.h"

namespace kiln::exec::gfx {

// Stores `lanes` vertices of one W-lane call's `outputs` as VertexFormat rows at `rows`. With
// `positions`, the clip positions also go to positions[c * position_stride + i] (one array per
// component, as PrimitiveBatch::positions holds them).
void store_vertex_rows(const VertexFormat& f, const abi::VertexOutputLayout& layout, uint32_t W, const uint32_t* outputs,
                       uint32_t lanes, uint32_t* rows, float* positions, size_t position_stride);

// One vertex record (`layout`'s slots, as store_records writes them and geometry kernels emit
// them) as a VertexFormat row.
void record_to_row(const VertexFormat& f, const abi::VertexOutputLayout& layout, const uint32_t* record, uint32_t* row);

// Stores `lanes` vertices of one W-lane call's `outputs` as records of `slot_count` slots (every
// slot, in the kernel's own layout) at `records` (kernel_abi.h, "Tessellation kernels").
void store_records(uint32_t slot_count, uint32_t W, const uint32_t* outputs, uint32_t lanes, uint32_t* records);

}  // namespace kiln::exec::gfx
