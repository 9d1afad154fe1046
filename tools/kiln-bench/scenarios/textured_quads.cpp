// Texturing: 4 full-screen quads (two triangles each, shaders/textured_quad.vert + textured.frag)
// into a 1920x1080 R8G8B8A8_UNORM target, each sampling a 256x256 RGBA8 texture with bilinear
// filtering (clamp to edge; magnified about 7.5x horizontally, 4.2x vertically, so nearly every
// sample blends four texels). One unit of work is a textured pixel: 4 x 1920 x 1080 per
// repetition, in Mpixel/s.
//
// Needs sampled images in fragment shaders; a driver that cannot create the pipeline or draw
// reports fail with the Vulkan error, one that lacks linear filtering of RGBA8 reports skip.
//
// Check: texel (i, j) is (R, G, B) = (i, j, 255 - i), a linear function, which bilinear
// filtering reproduces exactly: pixel (x, y) must be (s(x), t(y), 255 - s(x)) with
// s = clamp(u * 256 - 0.5, 0, 255), u = (x + 0.5) / 1920 (t likewise in y), within +-2 per
// channel for the filtering precision of real samplers (8-bit weights are common).
#include <algorithm>
#include <cmath>
#include <vector>

#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/textured.frag.spv.h"
#include "kiln-bench-shaders/textured_quad.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 1920, .height = 1080};
constexpr uint32_t kTextureSize = 256;
constexpr uint32_t kQuads = 4;
constexpr uint32_t kVerticesPerQuad = 6;
constexpr uint32_t kClearColour = 0xff000000u;
constexpr uint32_t kTolerance = 2;

uint32_t rgba8(uint32_t r, uint32_t g, uint32_t b) { return 0xff000000u | (b << 16) | (g << 8) | r; }

std::vector<uint32_t> gradient_texels() {
  std::vector<uint32_t> texels;
  texels.reserve(kTextureSize * kTextureSize);
  for (uint32_t j = 0; j < kTextureSize; ++j) {
    for (uint32_t i = 0; i < kTextureSize; ++i) texels.push_back(rgba8(i, j, 255 - i));
  }
  return texels;
}

// The filtered texel coordinate (= channel value) at the centre of pixel `pixel` of `pixels`.
uint32_t filtered_value(uint32_t pixel, uint32_t pixels) {
  const double u = (pixel + 0.5) / pixels;
  return uint32_t(std::lround(std::clamp(u * kTextureSize - 0.5, 0.0, double(kTextureSize - 1))));
}

uint32_t expected_pixel(size_t index) {
  const uint32_t r = filtered_value(uint32_t(index % kTarget.width), kTarget.width);
  const uint32_t g = filtered_value(uint32_t(index / kTarget.width), kTarget.height);
  return rgba8(r, g, 255 - r);
}

class TexturedQuads final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = kTarget, .linear_texture = true});
  }

  explicit TexturedQuads(tools::VulkanContext& context)
      : target_(context, kTarget),
        texture_(context, kTextureSize, kTextureSize, gradient_texels().data()),
        pipeline_(context, target_,
                  {.vertex = spirv_code(textured_quad_vert_spirv),
                   .fragment = spirv_code(textured_frag_spirv),
                   .texture = &texture_}) {}

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd, kClearColour);
    pipeline_.bind(cmd);
    pipeline_.push(cmd, layer_constants(0, 0.5f));  // only the depth is used
    for (uint32_t quad = 0; quad < kQuads; ++quad) vkCmdDraw(cmd, kVerticesPerQuad, 1, 0, 0);
    target_.end(cmd);
  }

  double work_per_repetition() const override {
    return double(kQuads) * kTarget.width * kTarget.height * kPerMillion;
  }

  void poison_output(tools::VulkanContext& context) override { target_.colour().poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return target_.colour().verify_near(context, expected_pixel, kTolerance);
  }

 private:
  RenderTarget target_;
  SampledTexture texture_;
  GraphicsPipeline pipeline_;
};

}  // namespace

KILN_BENCH_SCENARIO(TexturedQuads, "textured_quads", "Mpixel/s",
                    "graphics: 4 full-screen quads sampling a 256x256 RGBA8 texture (bilinear), 1920x1080");

}  // namespace kiln::bench
