#pragma once
// Building blocks the scenario files share: test patterns and their checks, support checks,
// and an image that is poisoned and verified the same way by every image scenario.
#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"

namespace kiln::bench {

inline constexpr double kBytesPerGigabyte = 1e9;  // "GB/s" is decimal gigabytes
inline constexpr VkDeviceSize kMebibyte = 1024 * 1024;
inline constexpr uint32_t k4kWidth = 3840;
inline constexpr uint32_t k4kHeight = 2160;
// A value no scenario writes on purpose; outputs are set to it before the verified repetition.
inline constexpr uint32_t kPoisonWord = 0xdeadbeefu;

// A 32-bit word that depends on its index and a seed, so data moved to the wrong place, written
// twice or left stale is caught (unlike a constant fill).
inline uint32_t pattern_word(uint64_t index, uint32_t seed) {
  uint64_t x = (index + 1) * 0x9e3779b97f4a7c15ull ^ seed;
  x ^= x >> 29;
  return uint32_t(x ^ (x >> 32));
}
void write_pattern(uint32_t* words, size_t count, uint32_t seed);

// "word I: got 0x…, expected 0x…", the message scenarios report for the first wrong value.
std::string describe_mismatch(size_t index, uint32_t got, uint32_t expected);

// The first index where words[i] != expected(i), described; nullopt when all match.
template <typename Expected>
std::optional<std::string> find_mismatch(const uint32_t* words, size_t count, Expected expected) {
  for (size_t i = 0; i < count; ++i) {
    const uint32_t want = expected(i);
    if (words[i] != want) return describe_mismatch(i, words[i], want);
  }
  return std::nullopt;
}

// Why `buffer_count` host-mapped buffers of `buffer_size` bytes each cannot be allocated
// (heap or maxMemoryAllocationSize too small), or nullopt.
std::optional<std::string> missing_host_buffer_memory(const tools::VulkanContext& context,
                                                      VkDeviceSize buffer_size, int buffer_count);

// Why an optimally tiled 2D `format` image of width×height cannot be a transfer source and
// destination on this device, or nullopt.
std::optional<std::string> missing_transfer_image_support(const tools::VulkanContext& context,
                                                          VkFormat format, uint32_t width,
                                                          uint32_t height);

// An extension's device command (the loader exports none), looked up with vkGetDeviceProcAddr;
// throws VulkanError when the device does not have it.
template <typename Function>
Function device_command(const tools::VulkanContext& context, const char* name) {
  auto function = reinterpret_cast<Function>(vkGetDeviceProcAddr(context.device(), name));
  if (!function) throw tools::VulkanError(VK_ERROR_EXTENSION_NOT_PRESENT, std::string("looking up ") + name);
  return function;
}

// The region covering a whole colour image, buffer side tightly packed at offset 0.
VkBufferImageCopy whole_image_region(const tools::Image& image);

// The clear value that stores the little-endian RGBA8 word `packed` in an R8G8B8A8_UNORM image.
VkClearColorValue unorm_rgba8_clear_value(uint32_t packed);

// Where an image rests between repetitions: its layout and the stages/accesses that use it there.
struct ImageRest {
  VkImageLayout layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  VkPipelineStageFlags stages = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkAccessFlags access = VK_ACCESS_TRANSFER_WRITE_BIT;
};

// The rest of a colour attachment that render passes load from and store to.
inline constexpr ImageRest kColourAttachmentRest{
    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
    VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT};

// Records a transfer on `image` (its `range`) between two barriers that move it from `rest` to
// TRANSFER_DST_OPTIMAL (`transfer_writes`: clears, copies in) or TRANSFER_SRC_OPTIMAL (copies out)
// and back; `record` gets that layout. How scenarios poison and read back their images.
void record_away_from_rest(VkCommandBuffer cmd, VkImage image, const ImageRest& rest,
                           const VkImageSubresourceRange& range, bool transfer_writes,
                           const std::function<void(VkImageLayout)>& record);

// The first channel (R, G, B, A) of two little-endian RGBA8 words that differs by more than
// `tolerance`, described as "pixel I: got 0x…, expected 0x… (±T per channel)"; nullopt when all match.
std::optional<std::string> rgba8_mismatch(size_t index, uint32_t got, uint32_t expected,
                                          uint32_t tolerance);

// A VK_FORMAT_R8G8B8A8_UNORM image that scenarios write and verify, in `rest` (by default
// TRANSFER_DST_OPTIMAL, for transfer scenarios) once created. poison() and verify() expect it in
// that layout and leave it there: scenarios keep their images in it between repetitions.
class TransferImage {
 public:
  TransferImage(tools::VulkanContext& context, uint32_t width, uint32_t height,
                VkImageUsageFlags extra_usage = 0, ImageRest rest = {});

  const tools::Image& image() const { return image_; }
  VkImage handle() const { return image_.handle(); }
  VkDeviceSize byte_size() const { return VkDeviceSize(image_.width()) * image_.height() * 4; }

  // Clears every pixel to kPoisonWord.
  void poison(tools::VulkanContext& context);

  // Reads the image back and compares pixel i (row-major) with expected(i).
  template <typename Expected>
  std::optional<std::string> verify(tools::VulkanContext& context, Expected expected) {
    std::unique_ptr<tools::Buffer> pixels = read_back(context);
    return find_mismatch(static_cast<const uint32_t*>(pixels->mapped()),
                         size_t(image_.width()) * image_.height(), expected);
  }

  // Like verify(), but each RGBA8 channel may differ by up to `tolerance` (rasterisation and
  // filtering results that correct drivers round differently).
  template <typename Expected>
  std::optional<std::string> verify_near(tools::VulkanContext& context, Expected expected,
                                         uint32_t tolerance) {
    return verify_each(context, [&](size_t i, uint32_t got) { return rgba8_mismatch(i, got, expected(i), tolerance); });
  }

  // Reads the image back: width*height words, row-major (to compare with another image later).
  std::vector<uint32_t> read_pixels(tools::VulkanContext& context);

  // Reads the image back and returns the first description check(i, pixel i's word) gives, for
  // checks that need more than one expected word per pixel (per-channel rules, say).
  template <typename Check>
  std::optional<std::string> verify_each(tools::VulkanContext& context, Check check) {
    std::unique_ptr<tools::Buffer> pixels = read_back(context);
    const uint32_t* words = static_cast<const uint32_t*>(pixels->mapped());
    for (size_t i = 0, count = size_t(image_.width()) * image_.height(); i < count; ++i) {
      if (auto wrong = check(i, words[i])) return wrong;
    }
    return std::nullopt;
  }

 private:
  std::unique_ptr<tools::Buffer> read_back(tools::VulkanContext& context);
  tools::Image image_;
  ImageRest rest_;
};

// Fills `image` (in TRANSFER_DST_OPTIMAL, as TransferImage keeps it) with pattern_word(i, seed)
// through a staging buffer and leaves it TRANSFER_SRC_OPTIMAL: the source of copy and blit scenarios.
void upload_pattern_as_source(tools::VulkanContext& context, TransferImage& image, uint32_t seed);

}  // namespace kiln::bench
