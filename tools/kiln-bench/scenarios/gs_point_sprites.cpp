// Geometry shader: point sprites. 1 Mi (1 048 576) points, each a centre and an RGBA8 colour
// (12-byte vertices, 12 MiB), are drawn as one point list; the geometry shader
// (shaders/sprite.geom) turns each into a 4-vertex triangle strip, a 2x2-pixel screen-aligned quad
// of its colour (flat), drawn opaque into a 1024x1024 R8G8B8A8_UNORM target. The centres are
// pseudo-random pixel corners, so quads overlap (four deep on average) and later points cover
// earlier ones: 4 Mi pixels written per repetition. One unit of work is a point, in Mpoints/s.
//
// Check, every pixel (exact): the host paints the quads in point order. A quad's edges lie on
// pixel edges (centres and half-size are exact in normalized device coordinates), so it covers
// exactly its four pixels on any driver; a dropped, misplaced or reordered sprite shows.
#include <cstddef>
#include <vector>

#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/flat_varying_colour.frag.spv.h"
#include "kiln-bench-shaders/sprite.geom.spv.h"
#include "kiln-bench-shaders/sprite.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 1024, .height = 1024};
constexpr uint32_t kPoints = 1u << 20;
constexpr uint32_t kSpritePixels = 2;  // a quad's side
constexpr uint32_t kSeed = 0x5b71e5u;
constexpr uint32_t kClearColour = 0xff000000u;

// A vertex of the point list: centre in normalized device coordinates, colour as R8G8B8A8_UNORM.
struct SpriteVertex {
  float centre[2];
  uint32_t rgba8;
};
static_assert(sizeof(SpriteVertex) == 12);

// The push constants of shaders/sprite.geom.
struct SpriteConstants {
  float half_extent[2];
};

struct Sprite {
  uint32_t x, y;  // the centre: a pixel corner, at least one pixel from the target's edges
  uint32_t rgba8;
};

Sprite sprite(uint32_t index) {
  const uint32_t position = pattern_word(index, kSeed);
  const uint32_t span = kTarget.width - kSpritePixels + 1;  // centres 1 .. width - 1
  return {kSpritePixels / 2 + (position & 0xffff) % span, kSpritePixels / 2 + (position >> 16) % span,
          0xff000000u | pattern_word(index, ~kSeed)};  // opaque
}

std::vector<SpriteVertex> sprite_vertices() {
  std::vector<SpriteVertex> vertices;
  vertices.reserve(kPoints);
  for (uint32_t i = 0; i < kPoints; ++i) {
    const Sprite s = sprite(i);
    // Exact: the target's half-size is a power of two.
    vertices.push_back({{float(s.x) / (kTarget.width / 2) - 1, float(s.y) / (kTarget.height / 2) - 1}, s.rgba8});
  }
  return vertices;
}

// The target after the sprites are painted in order.
std::vector<uint32_t> painted_sprites() {
  std::vector<uint32_t> pixels(size_t(kTarget.width) * kTarget.height, kClearColour);
  for (uint32_t i = 0; i < kPoints; ++i) {
    const Sprite s = sprite(i);
    for (uint32_t y = s.y - kSpritePixels / 2; y < s.y + kSpritePixels / 2; ++y) {
      for (uint32_t x = s.x - kSpritePixels / 2; x < s.x + kSpritePixels / 2; ++x) pixels[size_t(y) * kTarget.width + x] = s.rgba8;
    }
  }
  return pixels;
}

class GsPointSprites final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = kTarget, .geometry_shader = true});
  }

  explicit GsPointSprites(tools::VulkanContext& context)
      : target_(context, kTarget),
        pipeline_(context, target_,
                  {.vertex = spirv_code(sprite_vert_spirv),
                   .fragment = spirv_code(flat_varying_colour_frag_spirv),
                   .vertex_input = VertexInput{uint32_t(sizeof(SpriteVertex)),
                                               {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0},
                                                {1, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(SpriteVertex, rgba8)}}},
                   .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                   .geometry = spirv_code(sprite_geom_spirv),
                   .push_constant_bytes = sizeof(SpriteConstants)}),
        expected_(painted_sprites()) {
    const std::vector<SpriteVertex> vertices = sprite_vertices();
    vertices_ = make_filled_buffer(context, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertices.data(),
                                   vertices.size() * sizeof(SpriteVertex));
  }

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd, kClearColour);
    pipeline_.bind(cmd);
    // Half a quad is kSpritePixels / 2 pixels: 2 / width of normalized device coordinates a pixel.
    pipeline_.push(cmd, SpriteConstants{{float(kSpritePixels) / kTarget.width, float(kSpritePixels) / kTarget.height}});
    bind_vertex_buffer(cmd, *vertices_);
    vkCmdDraw(cmd, kPoints, 1, 0, 0);
    target_.end(cmd);
  }

  double work_per_repetition() const override { return double(kPoints) * kPerMillion; }

  void poison_output(tools::VulkanContext& context) override { target_.colour().poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return target_.colour().verify(context, [&](size_t i) { return expected_[i]; });
  }

 private:
  RenderTarget target_;
  GraphicsPipeline pipeline_;
  const std::vector<uint32_t> expected_;
  std::unique_ptr<tools::Buffer> vertices_;
};

}  // namespace

KILN_BENCH_SCENARIO(GsPointSprites, "gs_point_sprites", "Mpoints/s",
                    "geometry shader: 1 Mi points expanded into 2x2-pixel quads (4-vertex strips), opaque, "
                    "1024x1024 RGBA8");

}  // namespace kiln::bench
