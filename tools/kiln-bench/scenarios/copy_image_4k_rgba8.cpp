// vkCmdCopyImage between two 3840×2160 R8G8B8A8_UNORM images (TRANSFER_SRC_OPTIMAL →
// TRANSFER_DST_OPTIMAL). Throughput counts the bytes copied once.
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kSeed = 0x1a6e;

class CopyImage4kRgba8 final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_transfer_image_support(context, VK_FORMAT_R8G8B8A8_UNORM, k4kWidth, k4kHeight);
  }

  explicit CopyImage4kRgba8(tools::VulkanContext& context)
      : source_(context, k4kWidth, k4kHeight), destination_(context, k4kWidth, k4kHeight) {
    upload_pattern_as_source(context, source_, kSeed);
  }

  void record_repetition(VkCommandBuffer cmd) override {
    VkImageCopy region{};
    region.srcSubresource = tools::colour_subresource_layers();
    region.dstSubresource = tools::colour_subresource_layers();
    region.extent = {k4kWidth, k4kHeight, 1};
    vkCmdCopyImage(cmd, source_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, destination_.handle(),
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  }

  double work_per_repetition() const override { return destination_.byte_size() / kBytesPerGigabyte; }

  void poison_output(tools::VulkanContext& context) override { destination_.poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return destination_.verify(context, [](size_t i) { return pattern_word(i, kSeed); });
  }

 private:
  TransferImage source_;  // TRANSFER_SRC_OPTIMAL after the upload
  TransferImage destination_;
};

}  // namespace

KILN_BENCH_SCENARIO(CopyImage4kRgba8, "copy_image_4k_rgba8", "GB/s",
                    "vkCmdCopyImage, 3840x2160 R8G8B8A8_UNORM -> same");

}  // namespace kiln::bench
