// 4x MSAA fill: 4 opaque full-screen triangles (shaders/layer.vert + flat_colour.frag) into a
// 1920x1080 R8G8B8A8_UNORM 4-sample colour attachment, cleared first and resolved by the render
// pass into a single-sample image. One unit of work is a pixel (of 4 samples) written by a draw:
// 4 x 1920 x 1080 per repetition, in Mpixel/s; the resolve is part of the repetition.
//
// Skipped when vkGetPhysicalDeviceImageFormatProperties / framebufferColorSampleCounts do not offer
// 4 samples. Check: every resolved pixel holds the last layer's colour (all samples agree, so
// the resolve is exact).
#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/flat_colour.frag.spv.h"
#include "kiln-bench-shaders/layer.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 1920, .height = 1080, .samples = VK_SAMPLE_COUNT_4_BIT};
constexpr uint32_t kLayers = 4;
constexpr uint32_t kClearColour = 0xff000000u;

uint32_t layer_colour(uint32_t layer) { return 0xff000000u | (pattern_word(layer, 0x4aa) & 0xffffff); }

class Msaa4xFill final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = kTarget});
  }

  explicit Msaa4xFill(tools::VulkanContext& context)
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

KILN_BENCH_SCENARIO(Msaa4xFill, "msaa4x_fill", "Mpixel/s",
                    "graphics: 4 opaque full-screen triangles, 1920x1080 RGBA8 4x MSAA + resolve");

}  // namespace kiln::bench
