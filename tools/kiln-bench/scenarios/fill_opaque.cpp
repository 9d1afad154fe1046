// Opaque fill rate: full-screen triangles (shaders/layer.vert + flat_colour.frag, no vertex
// buffer) into a 1920x1080 R8G8B8A8_UNORM target, each layer in its own colour, no blending or
// depth; the render pass clears the target first. One unit of work is a pixel written by a draw,
// in Mpixel/s (the clear is not counted).
//   fill_opaque  8 layers, single-sample target.
//   msaa4x_fill  4 layers into a 4-sample attachment resolved by the render pass into the verified
//                image (the resolve is part of the repetition). Skipped when
//                vkGetPhysicalDeviceImageFormatProperties / framebufferColorSampleCounts do not
//                offer 4 samples.
// Check: every (resolved) pixel holds the last layer's colour, exactly — all samples of a pixel
// agree, so the resolve is exact too.
#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/flat_colour.frag.spv.h"
#include "kiln-bench-shaders/layer.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kClearColour = 0xff000000u;

struct SingleSampleFill {
  static constexpr TargetDesc kTarget{.width = 1920, .height = 1080};
  static constexpr uint32_t kLayers = 8;
  static constexpr uint32_t kColourSeed = 0xf11;
};
struct Msaa4xFill {
  static constexpr TargetDesc kTarget{.width = 1920, .height = 1080, .samples = VK_SAMPLE_COUNT_4_BIT};
  static constexpr uint32_t kLayers = 4;
  static constexpr uint32_t kColourSeed = 0x4aa;
};

template <typename Config>
class OpaqueLayersFill final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = Config::kTarget});
  }

  explicit OpaqueLayersFill(tools::VulkanContext& context)
      : target_(context, Config::kTarget),
        pipeline_(context, target_,
                  {.vertex = spirv_code(layer_vert_spirv), .fragment = spirv_code(flat_colour_frag_spirv)}) {
    for (uint32_t i = 0; i < Config::kLayers; ++i) layers_.push_back(layer_constants(layer_colour(i)));
  }

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd, kClearColour);
    pipeline_.bind(cmd);
    record_full_screen_layers(cmd, pipeline_, layers_);
    target_.end(cmd);
  }

  double work_per_repetition() const override {
    return double(Config::kLayers) * Config::kTarget.width * Config::kTarget.height * kPerMillion;
  }

  void poison_output(tools::VulkanContext& context) override { target_.colour().poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return target_.colour().verify(context, [](size_t) { return layer_colour(Config::kLayers - 1); });
  }

 private:
  // Opaque RGBA8 words that differ per layer, so the last layer's colour proves the order.
  static uint32_t layer_colour(uint32_t layer) {
    return 0xff000000u | (pattern_word(layer, Config::kColourSeed) & 0xffffff);
  }

  RenderTarget target_;
  GraphicsPipeline pipeline_;
  std::vector<LayerConstants> layers_;
};

using FillOpaque = OpaqueLayersFill<SingleSampleFill>;
using FillMsaa4x = OpaqueLayersFill<Msaa4xFill>;

}  // namespace

KILN_BENCH_SCENARIO(FillOpaque, "fill_opaque", "Mpixel/s",
                    "graphics: 8 opaque full-screen triangles into 1920x1080 RGBA8");
KILN_BENCH_SCENARIO(FillMsaa4x, "msaa4x_fill", "Mpixel/s",
                    "graphics: 4 opaque full-screen triangles, 1920x1080 RGBA8 4x MSAA + resolve");

}  // namespace kiln::bench
