// Depth-tested overdraw: 8 opaque full-screen layers at 8 depths (shaders/layer.vert +
// flat_colour.frag, depth test LESS with writes, D32_SFLOAT cleared to 1.0) drawn twice per
// repetition, each time into its own 1920x1080 R8G8B8A8_UNORM target with its own depth buffer:
//   - front to back: the nearest layer first, so every later fragment fails the depth test
//     (what early depth rejection is for);
//   - back to front: the farthest layer first, so every fragment passes and is written.
// One unit of work is a rasterised, depth-tested pixel: 2 x 8 x 1920 x 1080 per repetition, in
// Mpixel/s. The two orders are reported together; their split is visible in a profile.
//
// Check: both targets hold the nearest layer's colour everywhere (exact). A driver without a
// working depth test leaves the farthest layer in the front-to-back target.
#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/flat_colour.frag.spv.h"
#include "kiln-bench-shaders/layer.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 1920, .height = 1080, .depth = true};
constexpr uint32_t kLayers = 8;
constexpr uint32_t kClearColour = 0xff000000u;

// Layer 0 is the nearest. Depths are exact binary fractions, well inside (0, 1).
float layer_depth(uint32_t layer) { return float(layer + 1) / 16.0f; }
uint32_t layer_colour(uint32_t layer) { return 0xff000000u | (pattern_word(layer, 0xde9) & 0xffffff); }

class DepthOverdraw final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = kTarget});
  }

  explicit DepthOverdraw(tools::VulkanContext& context)
      : front_to_back_target_(context, kTarget),
        back_to_front_target_(context, kTarget),
        // Both targets' render passes are compatible (same formats and samples), so one pipeline.
        pipeline_(context, front_to_back_target_,
                  {.vertex = spirv_code(layer_vert_spirv), .fragment = spirv_code(flat_colour_frag_spirv)}) {
    for (uint32_t i = 0; i < kLayers; ++i) {
      front_to_back_.push_back(layer_constants(layer_colour(i), layer_depth(i)));
    }
    back_to_front_.assign(front_to_back_.rbegin(), front_to_back_.rend());
  }

  void record_repetition(VkCommandBuffer cmd) override {
    record_pass(cmd, front_to_back_target_, front_to_back_);
    record_pass(cmd, back_to_front_target_, back_to_front_);
  }

  double work_per_repetition() const override {
    return 2.0 * kLayers * kTarget.width * kTarget.height * kPerMillion;
  }

  void poison_output(tools::VulkanContext& context) override {
    front_to_back_target_.colour().poison(context);
    back_to_front_target_.colour().poison(context);
  }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    const auto nearest = [](size_t) { return layer_colour(0); };
    if (auto wrong = front_to_back_target_.colour().verify(context, nearest)) {
      return "front to back: " + *wrong;
    }
    if (auto wrong = back_to_front_target_.colour().verify(context, nearest)) {
      return "back to front: " + *wrong;
    }
    return std::nullopt;
  }

 private:
  void record_pass(VkCommandBuffer cmd, const RenderTarget& target,
                   const std::vector<LayerConstants>& layers) const {
    target.begin(cmd, kClearColour);
    pipeline_.bind(cmd);
    record_full_screen_layers(cmd, pipeline_, layers);
    target.end(cmd);
  }

  RenderTarget front_to_back_target_;
  RenderTarget back_to_front_target_;
  GraphicsPipeline pipeline_;
  std::vector<LayerConstants> front_to_back_;
  std::vector<LayerConstants> back_to_front_;
};

}  // namespace

KILN_BENCH_SCENARIO(DepthOverdraw, "depth_overdraw", "Mpixel/s",
                    "graphics: 8 depth-tested full-screen layers front-to-back + 8 back-to-front, 1920x1080");

}  // namespace kiln::bench
