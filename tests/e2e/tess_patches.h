#pragma once
// Quad patches for the tessellation tests (tessellation_test.cpp, and the geometry shader after
// tessellation): tessellation levels as push constants (tess_passthrough.tesc and the control
// shaders like it), quad patches of four ColoredVertex control points, and a grid of them over
// the whole target drawn row by row with other inner levels per row.
#include <vulkan/vulkan.h>

#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"

namespace kiln::test {

struct TessLevels {
  float outer[4];
  float inner[2];
};

void push_tess_levels(DrawJob& job, VkCommandBuffer cb, const TessLevels& levels);

// A quad patch with corners (x0, y0)-(x1, y1) in clip space, in the evaluation shaders' order
// (tess_bilinear_patch.glsl): (x0, y0), (x1, y0), (x0, y1), (x1, y1).
void add_quad_patch(std::vector<ColoredVertex>& v, float x0, float y0, float x1, float y1);

// A 4 x 4 grid of quad patches covering clip space, patches of a row adjacent: row r (top to
// bottom) is vertices 16r .. 16r + 15, patch c of it (left to right) has PrimitiveId c.
std::vector<ColoredVertex> quad_patch_grid();
// The levels of row `row` of the grid: outer 3.7, inner levels of the row's own.
TessLevels quad_patch_grid_levels(uint32_t row);
// Draws the grid (its vertices bound at binding 0) one row a draw: every row with the same
// outer levels (3.7) and its own inner ones, so that the rows' patches share edges but not
// interiors; at fractional odd spacing they still cover every pixel exactly once.
void draw_quad_patch_grid(DrawJob& job, VkCommandBuffer cb);

}  // namespace kiln::test
