// vkCmdBlitImage with VK_FILTER_LINEAR from a 3840x2160 R8G8B8A8_UNORM image to a 2560x1440 one
// (scale 1.5 in both directions, so every destination pixel blends four source texels with weights
// that vary along rows and columns). One unit of work is a source pixel (the 4K image read once):
// Mpixel/s. Check: every destination pixel against the host's bilinear filtering (in double, clamp
// to edge, the spec's blit coordinates) of the pseudo-random source, within 3/255 per channel.
#include <algorithm>
#include <cmath>
#include <vector>

#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kSeed = 0xb117;
constexpr uint32_t kDstWidth = 2560, kDstHeight = 1440;
constexpr uint32_t kTolerance = 3;

uint32_t expected_pixel(size_t index) {
  const uint32_t x = uint32_t(index % kDstWidth), y = uint32_t(index / kDstWidth);
  const double u = (x + 0.5) * k4kWidth / kDstWidth - 0.5, v = (y + 0.5) * k4kHeight / kDstHeight - 0.5;
  const int64_t i0 = int64_t(std::floor(u)), j0 = int64_t(std::floor(v));
  const double a = u - std::floor(u), b = v - std::floor(v);
  double sum[4] = {0, 0, 0, 0};
  for (int k = 0; k < 4; ++k) {
    const int64_t i = std::clamp<int64_t>(i0 + k % 2, 0, k4kWidth - 1), j = std::clamp<int64_t>(j0 + k / 2, 0, k4kHeight - 1);
    const double w = (k % 2 ? a : 1 - a) * (k / 2 ? b : 1 - b);
    const uint32_t texel = pattern_word(uint64_t(j) * k4kWidth + uint64_t(i), kSeed);
    for (int c = 0; c < 4; ++c) sum[c] += w * double((texel >> (8 * c)) & 0xff);
  }
  uint32_t packed = 0;
  for (int c = 0; c < 4; ++c) packed |= uint32_t(std::lround(sum[c])) << (8 * c);
  return packed;
}

class Blit4kLinearRgba8 final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    VkFormatProperties properties{};
    vkGetPhysicalDeviceFormatProperties(context.physical_device(), VK_FORMAT_R8G8B8A8_UNORM, &properties);
    if (!(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
      return "R8G8B8A8_UNORM has no linear filtering (needed by linear blits)";
    return missing_transfer_image_support(context, VK_FORMAT_R8G8B8A8_UNORM, k4kWidth, k4kHeight);
  }

  explicit Blit4kLinearRgba8(tools::VulkanContext& context)
      : source_(context, k4kWidth, k4kHeight), destination_(context, kDstWidth, kDstHeight) {
    upload_pattern_as_source(context, source_, kSeed);
    expected_.resize(size_t(kDstWidth) * kDstHeight);
    for (size_t i = 0; i < expected_.size(); ++i) expected_[i] = expected_pixel(i);
  }

  void record_repetition(VkCommandBuffer cmd) override {
    VkImageBlit region{};
    region.srcSubresource = tools::colour_subresource_layers();
    region.dstSubresource = tools::colour_subresource_layers();
    region.srcOffsets[1] = {int32_t(k4kWidth), int32_t(k4kHeight), 1};
    region.dstOffsets[1] = {int32_t(kDstWidth), int32_t(kDstHeight), 1};
    vkCmdBlitImage(cmd, source_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, destination_.handle(),
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, VK_FILTER_LINEAR);
  }

  double work_per_repetition() const override { return double(k4kWidth) * k4kHeight / 1e6; }

  void poison_output(tools::VulkanContext& context) override { destination_.poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return destination_.verify_near(context, [this](size_t i) { return expected_[i]; }, kTolerance);
  }

 private:
  TransferImage source_;  // TRANSFER_SRC_OPTIMAL after the upload
  TransferImage destination_;
  std::vector<uint32_t> expected_;
};

}  // namespace

KILN_BENCH_SCENARIO(Blit4kLinearRgba8, "blit_4k_linear_rgba8", "Mpixel/s",
                    "vkCmdBlitImage, VK_FILTER_LINEAR, 3840x2160 -> 2560x1440 R8G8B8A8_UNORM");

}  // namespace kiln::bench
