#include "e2e/tess_patches.h"

#include <utility>

namespace kiln::test {

void push_tess_levels(DrawJob& job, VkCommandBuffer cb, const TessLevels& levels) {
  vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, sizeof levels, &levels);
}

void add_quad_patch(std::vector<ColoredVertex>& v, float x0, float y0, float x1, float y1) {
  for (const auto& [x, y] : {std::pair{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}}) v.push_back({x, y, 0.5f, 1, 1, 1, 1});
}

std::vector<ColoredVertex> quad_patch_grid() {
  std::vector<ColoredVertex> vertices;
  for (int row = 0; row < 4; ++row)
    for (int col = 0; col < 4; ++col)
      add_quad_patch(vertices, -1 + 0.5f * col, -1 + 0.5f * row, -0.5f + 0.5f * col, -0.5f + 0.5f * row);
  return vertices;
}

TessLevels quad_patch_grid_levels(uint32_t row) {
  return {{3.7f, 3.7f, 3.7f, 3.7f}, {1.5f + 2.2f * float(row), 7.9f - 1.7f * float(row)}};
}

void draw_quad_patch_grid(DrawJob& job, VkCommandBuffer cb) {
  for (uint32_t row = 0; row < 4; ++row) {
    push_tess_levels(job, cb, quad_patch_grid_levels(row));
    vkCmdDraw(cb, 16, 1, 16 * row, 0);
  }
}

}  // namespace kiln::test
