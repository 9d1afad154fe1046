// A new graphics pipeline until its first picture: vkCreateGraphicsPipelines of a vertex and a
// fragment shader with a specialization the driver has never seen (a new seed each repetition,
// starting at a random point per process, so on-disk caches miss too), then one full-screen
// triangle into a 64x64 RGBA8 target, submitted and waited for. The graphics counterpart of
// pipeline_first_dispatch_cold; comparable across drivers that compile at creation (Kiln) and at
// the first draw (lavapipe).
// Check: every pixel of the last repetition's picture holds its seed's colour.
#include <chrono>
#include <memory>
#include <random>

#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/seeded_colour.frag.spv.h"
#include "kiln-bench-shaders/seeded_layer.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 64, .height = 64};
constexpr uint32_t kClearColour = 0xff000000u;
constexpr uint32_t kLayerColour = 0xff664400u;  // green 0x44, blue 0x66, alpha 0xff; red from the seed

class PipelineFirstDrawCold final : public Scenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = kTarget});
  }

  explicit PipelineFirstDrawCold(tools::VulkanContext& context)
      : target_(context, kTarget), layer_(layer_constants(kLayerColour)), next_seed_(std::random_device{}()) {}

  double run_repetition(tools::VulkanContext& context) override {
    pipeline_.reset();  // not timed
    seed_ = next_seed_++;
    const VkSpecializationMapEntry entry{0, 0, sizeof seed_};
    const VkSpecializationInfo specialization{1, &entry, sizeof seed_, &seed_};
    const auto start = std::chrono::steady_clock::now();
    pipeline_ = std::make_unique<GraphicsPipeline>(context, target_,
                                                   PipelineDesc{.vertex = spirv_code(seeded_layer_vert_spirv),
                                                                .fragment = spirv_code(seeded_colour_frag_spirv),
                                                                .specialization = &specialization});
    draw(context);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  double work_per_repetition() const override { return 1.0; }  // one pipeline

  void poison_output(tools::VulkanContext& context) override { target_.colour().poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    if (!pipeline_) return "no pipeline was created";
    const uint32_t red = uint32_t(seed_ + seed_) % 251;  // the shaders add in 32 bits
    return target_.colour().verify(context, [&](size_t) { return (kLayerColour & ~0xffu) | red; });
  }

 private:
  void draw(tools::VulkanContext& context) {
    context.run_commands([&](VkCommandBuffer cmd) {
      target_.begin(cmd, kClearColour);
      pipeline_->bind(cmd);
      pipeline_->push(cmd, layer_);
      vkCmdDraw(cmd, 3, 1, 0, 0);
      target_.end(cmd);
    });
  }

  RenderTarget target_;
  LayerConstants layer_;
  uint32_t next_seed_;
  uint32_t seed_ = 0;
  std::unique_ptr<GraphicsPipeline> pipeline_;  // created by the last repetition
};

}  // namespace

KILN_BENCH_SCENARIO(PipelineFirstDrawCold, "pipeline_first_draw_cold", "creations/s",
                    "new graphics pipeline (new vertex + fragment specialization) + its first 64x64 draw");

}  // namespace kiln::bench
