// vkCmdCopyBufferToImage of a tightly packed host-visible buffer into a 3840×2160
// R8G8B8A8_UNORM image. Throughput counts the bytes copied once.
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kSeed = 0xb2a1;

class CopyBufferToImage4kRgba8 final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (auto reason = missing_transfer_image_support(context, VK_FORMAT_R8G8B8A8_UNORM, k4kWidth, k4kHeight)) {
      return reason;
    }
    return missing_host_buffer_memory(context, VkDeviceSize(k4kWidth) * k4kHeight * 4, 1);
  }

  explicit CopyBufferToImage4kRgba8(tools::VulkanContext& context)
      : image_(context, k4kWidth, k4kHeight),
        source_(context, image_.byte_size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                tools::Buffer::Access::HostMapped) {
    write_pattern(static_cast<uint32_t*>(source_.mapped()), image_.byte_size() / 4, kSeed);
  }

  void record_repetition(VkCommandBuffer cmd) override {
    const VkBufferImageCopy region = whole_image_region(image_.image());
    vkCmdCopyBufferToImage(cmd, source_.handle(), image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           1, &region);
  }

  double work_per_repetition() const override { return image_.byte_size() / kBytesPerGigabyte; }

  void poison_output(tools::VulkanContext& context) override { image_.poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return image_.verify(context, [](size_t i) { return pattern_word(i, kSeed); });
  }

 private:
  TransferImage image_;
  tools::Buffer source_;
};

}  // namespace

KILN_BENCH_SCENARIO(CopyBufferToImage4kRgba8, "copy_buffer_to_image_4k_rgba8", "GB/s",
                    "vkCmdCopyBufferToImage, host-visible buffer -> 3840x2160 R8G8B8A8_UNORM");

}  // namespace kiln::bench
