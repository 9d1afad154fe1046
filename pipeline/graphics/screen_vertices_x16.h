#pragma once
// The front end's per-vertex work — clip outcodes (clip_outcodes) and viewport transform to
// packed fixed-point records (to_screen_vertices' `packed`) — in one AVX-512 pass over the
// batch's positions as the vertex kernel produced them (one array per component: no transposes),
// 16 vertices at a time. Bit for bit the results of clip_outcode and pack(to_screen(...)) for
// every vertex (unit test ScreenVerticesX16.*): the same float operations in the same order, no
// multiply-add contraction (-ffp-contract=off on this file).
#include <cstddef>
#include <cstdint>

#include "pipeline/graphics/setup.h"

namespace kiln::exec::gfx {

bool screen_vertices_x16_supported();

// outcodes[i] = the fixed-plane bits of clip_outcode (callers add user clip planes with
// add_user_outcodes) and packed[i] = pack(to_screen(vp, vertex i)) for i < count. `positions`
// holds the clip positions one array per component: x of all `count` vertices, then y, z, w
// (PrimitiveBatch::positions, as shade_vertices writes them).
void screen_vertices_x16(const DrawContext& ctx, const ViewportTransform& vp, const float* positions,
                         size_t count, uint32_t* outcodes, PackedScreenVertex* packed);

}  // namespace kiln::exec::gfx
