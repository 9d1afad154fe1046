// Texturing: 4 full-screen quads (two triangles each, shaders/textured_quad.vert + textured.frag)
// into a 1920x1080 R8G8B8A8_UNORM target, each sampling a 256x256 RGBA8 texture with bilinear
// filtering (clamp to edge; magnified about 7.5x horizontally, 4.2x vertically, so nearly every
// sample blends four texels). One unit of work is a textured pixel: 4 x 1920 x 1080 per
// repetition, in Mpixel/s.
//
// Needs sampled images in fragment shaders; a driver that cannot create the pipeline or draw
// reports fail with the Vulkan error, one that lacks linear filtering of RGBA8 reports skip.
//
// Check: every pixel against the host's bilinear filtering (in double) of the texture at the
// pixel centre's coordinates, within +-3 per channel for the precision of real samplers (8-bit
// weights are common). Red and green alternate 0/255 between neighbouring texels, so nearest
// filtering or a wrong weight is off by far more; blue is pseudo-random, so a misplaced sample shows.
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
constexpr uint32_t kTolerance = 3;

uint32_t rgba8(uint32_t r, uint32_t g, uint32_t b) { return 0xff000000u | (b << 16) | (g << 8) | r; }

// Red alternates 0/255 by column and green by row (steep: nearest filtering is off by up to 127
// there), blue is pseudo-random (a wrong texel position shows).
uint32_t texel(uint32_t i, uint32_t j) {
  return rgba8(i & 1 ? 255 : 0, j & 1 ? 255 : 0, pattern_word(j * kTextureSize + i, 0x7e8) & 0xff);
}

std::vector<uint32_t> texels() {
  std::vector<uint32_t> words;
  words.reserve(kTextureSize * kTextureSize);
  for (uint32_t j = 0; j < kTextureSize; ++j) {
    for (uint32_t i = 0; i < kTextureSize; ++i) words.push_back(texel(i, j));
  }
  return words;
}

// Where the centre of pixel `pixel` of `pixels` samples: the texel to the left of (or above) the
// sample point, clamped, and the weight of the next one (bilinear, clamp to edge).
struct Tap {
  uint32_t first, second;
  double weight;
};
Tap tap(uint32_t pixel, uint32_t pixels) {
  const double s = (pixel + 0.5) / pixels * kTextureSize - 0.5;
  const double floor_s = std::floor(s);
  const auto clamp = [](double i) { return uint32_t(std::clamp(i, 0.0, double(kTextureSize - 1))); };
  return {clamp(floor_s), clamp(floor_s + 1), s - floor_s};
}

uint32_t expected_pixel(size_t index) {
  const Tap x = tap(uint32_t(index % kTarget.width), kTarget.width);
  const Tap y = tap(uint32_t(index / kTarget.width), kTarget.height);
  uint32_t result = 0;
  for (int channel = 0; channel < 4; ++channel) {
    const auto value = [&](uint32_t i, uint32_t j) { return double((texel(i, j) >> (8 * channel)) & 0xff); };
    const double top = value(x.first, y.first) * (1 - x.weight) + value(x.second, y.first) * x.weight;
    const double bottom = value(x.first, y.second) * (1 - x.weight) + value(x.second, y.second) * x.weight;
    result |= uint32_t(std::lround(top * (1 - y.weight) + bottom * y.weight)) << (8 * channel);
  }
  return result;
}

class TexturedQuads final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = kTarget, .linear_texture = true});
  }

  explicit TexturedQuads(tools::VulkanContext& context)
      : target_(context, kTarget),
        texture_(context, kTextureSize, kTextureSize, texels().data()),
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
