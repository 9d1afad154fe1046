// Fill rate, opaque: 8 full-screen triangles (shaders/layer.vert + flat_colour.frag, no vertex
// buffer) per repetition into a 1920x1080 R8G8B8A8_UNORM target, each in its own colour, no
// blending or depth. The render pass clears the target first. One unit of work is a pixel written
// by a draw: 8 x 1920 x 1080 per repetition, in Mpixel/s (the clear is not counted).
//
// Check: every pixel holds the last layer's colour (exact).
#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/flat_colour.frag.spv.h"
#include "kiln-bench-shaders/layer.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 1920, .height = 1080};
constexpr uint32_t kLayers = 8;
constexpr uint32_t kClearColour = 0xff000000u;

// Opaque RGBA8 words that differ per layer, so the last layer's colour proves the order.
uint32_t layer_colour(uint32_t layer) { return 0xff000000u | (pattern_word(layer, 0xf11) & 0xffffff); }

class FillOpaque final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = kTarget});
  }

  explicit FillOpaque(tools::VulkanContext& context)
      : target_(context, kTarget),
        pipeline_(context, target_,
                  {.vertex = spirv_code(layer_vert_spirv), .fragment = spirv_code(flat_colour_frag_spirv)}) {
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
    return target_.colour().verify(context, [](size_t) { return layer_colour(kLayers - 1); });
  }

 private:
  RenderTarget target_;
  GraphicsPipeline pipeline_;
  std::vector<LayerConstants> layers_;
};

}  // namespace

KILN_BENCH_SCENARIO(FillOpaque, "fill_opaque", "Mpixel/s",
                    "graphics: 8 opaque full-screen triangles into 1920x1080 RGBA8");

}  // namespace kiln::bench
