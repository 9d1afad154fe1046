// Fill rate with alpha blending: like fill_opaque (8 full-screen triangles into 1920x1080
// R8G8B8A8_UNORM, after a clear), but each layer is half transparent and blended with
// src * src.alpha + dst * (1 - src.alpha) (alpha likewise), so every pixel is read and written.
// One unit of work is a blended pixel: 8 x 1920 x 1080 per repetition, in Mpixel/s.
//
// Check: every pixel against the host's blend of the 8 layers over the clear colour, computed in
// float and rounded to 8 bits after each layer (what a float blender storing to UNORM does);
// +-3 per channel allows for drivers that blend in fixed point.
#include <cmath>

#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/flat_colour.frag.spv.h"
#include "kiln-bench-shaders/layer.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 1920, .height = 1080};
constexpr uint32_t kLayers = 8;
constexpr uint32_t kClearColour = 0xff204060u;
constexpr uint32_t kTolerance = 3;

// Colours that differ per layer, alpha 0x80 (about half transparent).
uint32_t layer_colour(uint32_t layer) { return 0x80000000u | (pattern_word(layer, 0xb1e) & 0xffffff); }

uint32_t expected_colour() {
  uint32_t dst = kClearColour;
  for (uint32_t layer = 0; layer < kLayers; ++layer) {
    const uint32_t src = layer_colour(layer);
    const float alpha = float(src >> 24) / 255.0f;
    uint32_t blended = 0;
    for (int channel = 0; channel < 4; ++channel) {
      const float s = float((src >> (8 * channel)) & 0xff) / 255.0f;
      const float d = float((dst >> (8 * channel)) & 0xff) / 255.0f;
      const float value = s * alpha + d * (1.0f - alpha);
      blended |= uint32_t(std::lround(value * 255.0f)) << (8 * channel);
    }
    dst = blended;
  }
  return dst;
}

class FillBlended final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = kTarget, .blending = true});
  }

  explicit FillBlended(tools::VulkanContext& context)
      : target_(context, kTarget),
        pipeline_(context, target_,
                  {.vertex = spirv_code(layer_vert_spirv),
                   .fragment = spirv_code(flat_colour_frag_spirv),
                   .blending = true}) {
    for (uint32_t i = 0; i < kLayers; ++i) layers_.push_back(layer_constants(layer_colour(i)));
  }

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd, kClearColour);
    pipeline_.bind(cmd);
    record_full_screen_layers(cmd, pipeline_, layers_);
    target_.end(cmd);
  }

  double work_per_repetition() const override {
    return double(kLayers) * kTarget.width * kTarget.height * kPerMillion;
  }

  void poison_output(tools::VulkanContext& context) override { target_.colour().poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    const uint32_t expected = expected_colour();
    return target_.colour().verify_near(context, [expected](size_t) { return expected; }, kTolerance);
  }

 private:
  RenderTarget target_;
  GraphicsPipeline pipeline_;
  std::vector<LayerConstants> layers_;
};

}  // namespace

KILN_BENCH_SCENARIO(FillBlended, "fill_blended", "Mpixel/s",
                    "graphics: 8 alpha-blended full-screen triangles into 1920x1080 RGBA8");

}  // namespace kiln::bench
