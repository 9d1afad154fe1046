// vkCmdClearColorImage of a 3840×2160 R8G8B8A8_UNORM image. Throughput counts the bytes of the
// image (what a clear writes when nothing is deferred).
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kClearWord = 0x80c04020u;  // RGBA (0x20, 0x40, 0xc0, 0x80)

class ClearImage4kRgba8 final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_transfer_image_support(context, VK_FORMAT_R8G8B8A8_UNORM, k4kWidth, k4kHeight);
  }

  explicit ClearImage4kRgba8(tools::VulkanContext& context) : image_(context, k4kWidth, k4kHeight) {}

  void record_repetition(VkCommandBuffer cmd) override {
    const VkClearColorValue colour = unorm_rgba8_clear_value(kClearWord);
    const VkImageSubresourceRange range = tools::colour_subresource_range();
    vkCmdClearColorImage(cmd, image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colour, 1, &range);
  }

  double work_per_repetition() const override { return image_.byte_size() / kBytesPerGigabyte; }

  void poison_output(tools::VulkanContext& context) override { image_.poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return image_.verify(context, [](size_t) { return kClearWord; });
  }

 private:
  TransferImage image_;
};

}  // namespace

KILN_BENCH_SCENARIO(ClearImage4kRgba8, "clear_image_4k_rgba8", "GB/s",
                    "vkCmdClearColorImage, 3840x2160 R8G8B8A8_UNORM");

}  // namespace kiln::bench
