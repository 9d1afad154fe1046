#pragma once
// Turning a DrawCmd into what the steps of its draw share: the DrawContext (targets, viewports,
// sample locations), the (sub-)draws of direct, indirect and multi-draw forms, and their
// assembled primitives.
#include <cstdint>
#include <vector>

#include "pipeline/graphics/draw_types.h"
#include "pipeline/thread_pool.h"

namespace kiln::exec::gfx {

// Fills `ctx` for `cmd` (which must outlive it); false, logged once, when the draw cannot run.
bool prepare_draw_context(const DrawCmd& cmd, DrawCounters* counters, DrawContext& ctx);

// The draws of the command: one for direct draws, the indirect records otherwise.
void collect_draws(const DrawCmd& cmd, std::vector<DrawParams>& draws);

// The vertex ids and primitives of one draw (big cut-free draws are assembled on the pool).
// Returns the vertices input assembly consumed (ids that are not cuts).
uint64_t assemble_draw(ThreadPool& pool, const DrawContext& ctx, const DrawParams& params, VkPrimitiveTopology topology,
                       bool provoking_last, VertexIds& ids, PrimitiveList& primitives);

}  // namespace kiln::exec::gfx
