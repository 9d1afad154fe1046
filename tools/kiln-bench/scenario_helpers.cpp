#include "tools/kiln-bench/scenario_helpers.h"

#include <cstdio>

namespace kiln::bench {

using tools::Buffer;
using tools::Image;
using tools::VulkanContext;

void write_pattern(uint32_t* words, size_t count, uint32_t seed) {
  for (size_t i = 0; i < count; ++i) words[i] = pattern_word(i, seed);
}

std::string describe_mismatch(size_t index, uint32_t got, uint32_t expected) {
  char text[96];
  std::snprintf(text, sizeof text, "word %zu: got 0x%08x, expected 0x%08x", index, got, expected);
  return text;
}

namespace {

// maxMemoryAllocationSize exists from Vulkan 1.1; older devices only promise the heap size.
VkDeviceSize max_allocation_size(const VulkanContext& context) {
  if (context.properties().apiVersion < VK_API_VERSION_1_1) return VK_WHOLE_SIZE;
  VkPhysicalDeviceMaintenance3Properties maintenance3{};
  maintenance3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &maintenance3;
  vkGetPhysicalDeviceProperties2(context.physical_device(), &properties);
  return maintenance3.maxMemoryAllocationSize;
}

std::string mebibytes(VkDeviceSize bytes) { return std::to_string(bytes / kMebibyte) + " MiB"; }

}  // namespace

std::optional<std::string> missing_host_buffer_memory(const VulkanContext& context,
                                                      VkDeviceSize buffer_size, int buffer_count) {
  const VkDeviceSize heap = context.largest_heap_with(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (heap < buffer_size * buffer_count) {
    return "host-visible heap of " + mebibytes(heap) + " is smaller than the " +
           mebibytes(buffer_size * buffer_count) + " needed";
  }
  if (max_allocation_size(context) < buffer_size) {
    return "maxMemoryAllocationSize " + mebibytes(max_allocation_size(context)) + " < " +
           mebibytes(buffer_size);
  }
  return std::nullopt;
}

std::optional<std::string> missing_transfer_image_support(const VulkanContext& context,
                                                          VkFormat format, uint32_t width,
                                                          uint32_t height) {
  VkImageFormatProperties properties{};
  const VkResult result = vkGetPhysicalDeviceImageFormatProperties(
      context.physical_device(), format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &properties);
  if (result != VK_SUCCESS) {
    return std::string("format not supported as a transfer image (") + tools::result_name(result) + ")";
  }
  if (properties.maxExtent.width < width || properties.maxExtent.height < height) {
    return "maximum image extent " + std::to_string(properties.maxExtent.width) + "x" +
           std::to_string(properties.maxExtent.height) + " is too small";
  }
  return std::nullopt;
}

VkBufferImageCopy whole_image_region(const Image& image) {
  VkBufferImageCopy region{};
  region.imageSubresource = tools::colour_subresource_layers();
  region.imageExtent = {image.width(), image.height(), 1};
  return region;
}

VkClearColorValue unorm_rgba8_clear_value(uint32_t packed) {
  VkClearColorValue value{};
  for (int channel = 0; channel < 4; ++channel) {
    value.float32[channel] = float((packed >> (8 * channel)) & 0xff) / 255.0f;  // converts back exactly
  }
  return value;
}

std::optional<std::string> rgba8_mismatch(size_t index, uint32_t got, uint32_t expected,
                                          uint32_t tolerance) {
  for (int channel = 0; channel < 4; ++channel) {
    const int a = int((got >> (8 * channel)) & 0xff);
    const int b = int((expected >> (8 * channel)) & 0xff);
    if (uint32_t(a > b ? a - b : b - a) > tolerance) {
      char text[128];
      std::snprintf(text, sizeof text, "pixel %zu: got 0x%08x, expected 0x%08x (RGBA8 words, +-%u per channel)",
                    index, got, expected, tolerance);
      return std::string(text);
    }
  }
  return std::nullopt;
}

TransferImage::TransferImage(VulkanContext& context, uint32_t width, uint32_t height,
                             VkImageUsageFlags extra_usage, ImageRest rest)
    : image_(context, VK_FORMAT_R8G8B8A8_UNORM, width, height,
             VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | extra_usage),
      rest_(rest) {
  context.run_commands([&](VkCommandBuffer cmd) {
    tools::image_barrier(cmd, image_.handle(), VK_IMAGE_LAYOUT_UNDEFINED, rest_.layout,
                         VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, rest_.stages, rest_.access);
  });
}

void upload_pattern_as_source(VulkanContext& context, TransferImage& image, uint32_t seed) {
  tools::Buffer staging(context, image.byte_size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                        tools::Buffer::Access::HostMapped);
  write_pattern(static_cast<uint32_t*>(staging.mapped()), image.byte_size() / 4, seed);
  const VkBufferImageCopy region = whole_image_region(image.image());
  context.run_commands([&](VkCommandBuffer cmd) {
    vkCmdCopyBufferToImage(cmd, staging.handle(), image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                           &region);
    tools::image_barrier(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  });
}

void record_away_from_rest(VkCommandBuffer cmd, VkImage image, const ImageRest& rest,
                           const VkImageSubresourceRange& range, bool transfer_writes,
                           const std::function<void(VkImageLayout)>& record) {
  const VkImageLayout layout =
      transfer_writes ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  const VkAccessFlags access = transfer_writes ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT;
  // After the last repetition's writes (read-after-write or write-after-write on the same texels).
  tools::image_barrier(cmd, image, rest.layout, layout, rest.stages, rest.access, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       access, range);
  record(layout);
  // Back to the layout repetitions expect; the transfer finishes before their reads and writes.
  tools::image_barrier(cmd, image, layout, rest.layout, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       transfer_writes ? VK_ACCESS_TRANSFER_WRITE_BIT : 0, rest.stages, rest.access, range);
}

void TransferImage::poison(VulkanContext& context) {
  const VkClearColorValue poison = unorm_rgba8_clear_value(kPoisonWord);
  const VkImageSubresourceRange range = tools::colour_subresource_range();
  context.run_commands([&](VkCommandBuffer cmd) {
    record_away_from_rest(cmd, image_.handle(), rest_, range, true, [&](VkImageLayout layout) {
      vkCmdClearColorImage(cmd, image_.handle(), layout, &poison, 1, &range);
    });
  });
}

std::vector<uint32_t> TransferImage::read_pixels(VulkanContext& context) {
  std::unique_ptr<Buffer> pixels = read_back(context);
  const uint32_t* words = static_cast<const uint32_t*>(pixels->mapped());
  return std::vector<uint32_t>(words, words + size_t(image_.width()) * image_.height());
}

std::unique_ptr<Buffer> TransferImage::read_back(VulkanContext& context) {
  auto pixels = std::make_unique<Buffer>(context, byte_size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                         Buffer::Access::HostMapped);
  const VkBufferImageCopy region = whole_image_region(image_);
  context.run_commands([&](VkCommandBuffer cmd) {
    record_away_from_rest(cmd, image_.handle(), rest_, tools::colour_subresource_range(), false,
                          [&](VkImageLayout layout) {
                            vkCmdCopyImageToBuffer(cmd, image_.handle(), layout, pixels->handle(), 1, &region);
                          });
    tools::memory_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  });
  return pixels;
}

}  // namespace kiln::bench
