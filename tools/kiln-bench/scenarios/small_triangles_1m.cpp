// Small triangles: 1 Mi (1 048 576) triangles of about 2 pixels each per repetition. A 1024x1024
// R8G8B8A8_UNORM target is tiled with 2x2-pixel cells, each split into two triangles along its
// diagonal (512 x 512 x 2 = 524 288 triangles, a non-indexed list of vec2 positions: 12 MiB of
// vertices, shaders/mesh.vert + flat_colour.frag); the repetition draws that list twice, in two
// colours, after a clear. Setup- and triangle-bound rather than fill-bound. One unit of work is a
// triangle, in Mtriangles/s.
//
// Check: the tiling is watertight, so every pixel holds the second draw's colour (exact); a
// dropped or misplaced triangle leaves the first colour or the clear colour behind.
#include <vector>

#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/flat_colour.frag.spv.h"
#include "kiln-bench-shaders/mesh.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 1024, .height = 1024};
constexpr uint32_t kCellPixels = 2;
constexpr uint32_t kCellsPerRow = kTarget.width / kCellPixels;
constexpr uint32_t kCellRows = kTarget.height / kCellPixels;
constexpr uint32_t kTrianglesPerDraw = kCellsPerRow * kCellRows * 2;
constexpr uint32_t kVerticesPerDraw = kTrianglesPerDraw * 3;
constexpr uint32_t kDraws = 2;
constexpr uint32_t kClearColour = 0xff000000u;
constexpr uint32_t kColours[kDraws] = {0xff2080f0u, 0xff30c050u};

// Pixel coordinates to normalized device coordinates (exact: powers of two).
float ndc_x(uint32_t x) { return float(x) / float(kTarget.width / 2) - 1.0f; }
float ndc_y(uint32_t y) { return float(y) / float(kTarget.height / 2) - 1.0f; }

std::vector<float> cell_triangles() {
  std::vector<float> positions;
  positions.reserve(size_t(kVerticesPerDraw) * 2);
  const auto vertex = [&](uint32_t x, uint32_t y) {
    positions.push_back(ndc_x(x));
    positions.push_back(ndc_y(y));
  };
  for (uint32_t row = 0; row < kCellRows; ++row) {
    for (uint32_t column = 0; column < kCellsPerRow; ++column) {
      const uint32_t x0 = column * kCellPixels, x1 = x0 + kCellPixels;
      const uint32_t y0 = row * kCellPixels, y1 = y0 + kCellPixels;
      vertex(x0, y0), vertex(x1, y0), vertex(x0, y1);  // the two halves share the diagonal
      vertex(x0, y1), vertex(x1, y0), vertex(x1, y1);
    }
  }
  return positions;
}

class SmallTriangles1M final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (auto reason = missing_host_buffer_memory(context, VkDeviceSize(kVerticesPerDraw) * 8, 1)) return reason;
    return missing_graphics_support(context, {.target = kTarget});
  }

  explicit SmallTriangles1M(tools::VulkanContext& context)
      : target_(context, kTarget),
        pipeline_(context, target_,
                  {.vertex = spirv_code(mesh_vert_spirv),
                   .fragment = spirv_code(flat_colour_frag_spirv),
                   .vertex_input = vec2_positions()}) {
    const std::vector<float> positions = cell_triangles();
    vertices_ = make_filled_buffer(context, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, positions.data(),
                                   positions.size() * sizeof(float));
  }

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd, kClearColour);
    pipeline_.bind(cmd);
    bind_vertex_buffer(cmd, *vertices_);
    for (uint32_t colour : kColours) {
      pipeline_.push(cmd, layer_constants(colour));
      vkCmdDraw(cmd, kVerticesPerDraw, 1, 0, 0);
    }
    target_.end(cmd);
  }

  double work_per_repetition() const override { return double(kDraws) * kTrianglesPerDraw * kPerMillion; }

  void poison_output(tools::VulkanContext& context) override { target_.colour().poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return target_.colour().verify(context, [](size_t) { return kColours[kDraws - 1]; });
  }

 private:
  RenderTarget target_;
  GraphicsPipeline pipeline_;
  std::unique_ptr<tools::Buffer> vertices_;
};

}  // namespace

KILN_BENCH_SCENARIO(SmallTriangles1M, "small_triangles_1m", "Mtriangles/s",
                    "graphics: 1 Mi triangles of ~2 pixels each (2x2 cells), 1024x1024 RGBA8");

}  // namespace kiln::bench
