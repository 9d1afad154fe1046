// Vertex-bound indexed mesh: a 2048 x 1024 grid of vertices (2 Mi = 2 097 152 vec2 positions,
// 16 MiB) drawn as 4 188 162 triangles through 12.6 M 32-bit indices (48 MiB) with one
// vkCmdDrawIndexed (shaders/mesh.vert + flat_colour.frag). The grid covers the central 128x128
// pixels of a 256x256 R8G8B8A8_UNORM target, so its triangles are about 1/8 pixel wide and most
// cover no pixel centre: the time goes into fetching and shading vertices and setting up
// triangles, not into fragments. One unit of work is a vertex of the mesh (each is referenced by
// up to 6 triangles), in Mvertices/s.
//
// Check: the grid is watertight, so every pixel inside it holds the mesh colour and every pixel
// outside the clear colour (exact).
#include <vector>

#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/flat_colour.frag.spv.h"
#include "kiln-bench-shaders/mesh.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 256, .height = 256};
constexpr uint32_t kColumns = 2048;  // vertices per grid row
constexpr uint32_t kRows = 1024;
constexpr uint32_t kVertices = kColumns * kRows;
constexpr uint32_t kIndices = (kColumns - 1) * (kRows - 1) * 6;
// The grid spans normalized device coordinates [-0.5, 0.5] in x and y: pixels [64, 192).
constexpr uint32_t kMeshFirstPixel = kTarget.width / 4;
constexpr uint32_t kMeshEndPixel = kTarget.width * 3 / 4;
constexpr uint32_t kClearColour = 0xff000000u;
constexpr uint32_t kMeshColour = 0xff10a0e0u;

std::vector<float> grid_positions() {
  std::vector<float> positions;
  positions.reserve(size_t(kVertices) * 2);
  for (uint32_t row = 0; row < kRows; ++row) {
    for (uint32_t column = 0; column < kColumns; ++column) {
      positions.push_back(-0.5f + float(column) / float(kColumns - 1));
      positions.push_back(-0.5f + float(row) / float(kRows - 1));
    }
  }
  return positions;
}

std::vector<uint32_t> grid_indices() {
  std::vector<uint32_t> indices;
  indices.reserve(kIndices);
  for (uint32_t row = 0; row + 1 < kRows; ++row) {
    for (uint32_t column = 0; column + 1 < kColumns; ++column) {
      const uint32_t top_left = row * kColumns + column;
      const uint32_t top_right = top_left + 1;
      const uint32_t bottom_left = top_left + kColumns;
      const uint32_t bottom_right = bottom_left + 1;
      indices.insert(indices.end(), {top_left, top_right, bottom_left, bottom_left, top_right, bottom_right});
    }
  }
  return indices;
}

bool inside_mesh(uint32_t x, uint32_t y) {
  return x >= kMeshFirstPixel && x < kMeshEndPixel && y >= kMeshFirstPixel && y < kMeshEndPixel;
}

class IndexedMesh2M final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    // Two host-mapped buffers, the index buffer being the larger.
    if (auto reason = missing_host_buffer_memory(context, VkDeviceSize(kIndices) * 4, 2)) return reason;
    return missing_graphics_support(context, {.target = kTarget, .max_draw_index = kVertices - 1});
  }

  explicit IndexedMesh2M(tools::VulkanContext& context)
      : target_(context, kTarget),
        pipeline_(context, target_,
                  {.vertex = spirv_code(mesh_vert_spirv),
                   .fragment = spirv_code(flat_colour_frag_spirv),
                   .vertex_input = vec2_positions()}) {
    const std::vector<float> positions = grid_positions();
    vertices_ = make_filled_buffer(context, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, positions.data(),
                                   positions.size() * sizeof(float));
    const std::vector<uint32_t> indices = grid_indices();
    indices_ = make_filled_buffer(context, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, indices.data(),
                                  indices.size() * sizeof(uint32_t));
  }

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd, kClearColour);
    pipeline_.bind(cmd);
    pipeline_.push(cmd, layer_constants(kMeshColour));
    bind_vertex_buffer(cmd, *vertices_);
    vkCmdBindIndexBuffer(cmd, indices_->handle(), 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, kIndices, 1, 0, 0, 0);
    target_.end(cmd);
  }

  double work_per_repetition() const override { return double(kVertices) * kPerMillion; }

  void poison_output(tools::VulkanContext& context) override { target_.colour().poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return target_.colour().verify(context, [](size_t i) {
      return inside_mesh(uint32_t(i % kTarget.width), uint32_t(i / kTarget.width)) ? kMeshColour : kClearColour;
    });
  }

 private:
  RenderTarget target_;
  GraphicsPipeline pipeline_;
  std::unique_ptr<tools::Buffer> vertices_;
  std::unique_ptr<tools::Buffer> indices_;
};

}  // namespace

KILN_BENCH_SCENARIO(IndexedMesh2M, "indexed_mesh_2m", "Mvertices/s",
                    "graphics: 2 Mi-vertex indexed grid (4.2 M triangles, 32-bit indices), 256x256 target");

}  // namespace kiln::bench
