#include "tools/kiln-demo/draw_picture.h"

#include <cstring>

#include "tools/kiln-demo/picture.h"

namespace kiln::demo {

using tools::Buffer;
using tools::Image;
using tools::VulkanContext;

namespace {

constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkDeviceSize kBytesPerPixel = 4;
constexpr VkPipelineStageFlags kTransfer = VK_PIPELINE_STAGE_TRANSFER_BIT;

// The objects the picture is drawn with; all live until the single submission has finished.
struct PictureObjects {
  explicit PictureObjects(VulkanContext& context)
      : canvas(context, kFormat, kCanvasSize, kCanvasSize,
               VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
        paint(context, kFormat, kCanvasSize, kCanvasSize,
              VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
        checker_tile(context, kCheckerTileSize * kCheckerTileSize * kBytesPerPixel,
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                     Buffer::Access::DeviceOnly),
        paint_bands(context, kCanvasSize * kCanvasSize * kBytesPerPixel,
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    Buffer::Access::DeviceOnly),
        readback(context, kCanvasSize * kCanvasSize * kBytesPerPixel,
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT, Buffer::Access::HostMapped) {}

  Image canvas;        // the picture
  Image paint;         // banded gradient the letters are cut from
  Buffer checker_tile; // one checker tile, written with vkCmdUpdateBuffer
  Buffer paint_bands;  // the paint image's pixels, written band by band with vkCmdFillBuffer
  Buffer readback;     // the finished canvas, for the host
};

VkBufferImageCopy buffer_to_rect(Rect rect) {
  VkBufferImageCopy region{};
  region.bufferOffset = 0;
  region.bufferRowLength = 0;  // tightly packed: rows of rect.width pixels
  region.bufferImageHeight = 0;
  region.imageSubresource = tools::colour_subresource_layers();
  region.imageOffset = {int32_t(rect.x), int32_t(rect.y), 0};
  region.imageExtent = {rect.width, rect.height, 1};
  return region;
}

// Step 1: both images become transfer destinations; the canvas is cleared to the background.
void record_clear_background(VkCommandBuffer cmd, PictureObjects& objects) {
  for (VkImage image : {objects.canvas.handle(), objects.paint.handle()}) {
    tools::image_barrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, kTransfer,
                         VK_ACCESS_TRANSFER_WRITE_BIT);
  }
  // UNORM values n/255 convert back to exactly n.
  VkClearColorValue background{{kBackground.r / 255.0f, kBackground.g / 255.0f,
                                kBackground.b / 255.0f, kBackground.a / 255.0f}};
  const VkImageSubresourceRange range = tools::colour_subresource_range();
  vkCmdClearColorImage(cmd, objects.canvas.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       &background, 1, &range);
}

// Step 2: write the source data into the staging buffers on the device.
void record_fill_staging_buffers(VkCommandBuffer cmd, PictureObjects& objects) {
  std::vector<uint32_t> tile(kCheckerTileSize * kCheckerTileSize);
  for (uint32_t y = 0; y < kCheckerTileSize; ++y) {
    for (uint32_t x = 0; x < kCheckerTileSize; ++x) {
      tile[y * kCheckerTileSize + x] = checker_tile_pixel(x, y).packed();
    }
  }
  // vkCmdUpdateBuffer copies the data at record time (at most 65536 bytes).
  vkCmdUpdateBuffer(cmd, objects.checker_tile.handle(), 0, tile.size() * sizeof(uint32_t), tile.data());

  const VkDeviceSize band_bytes = VkDeviceSize(kPaintBandHeight) * kCanvasSize * kBytesPerPixel;
  for (uint32_t band = 0; band < kPaintBandCount; ++band) {
    vkCmdFillBuffer(cmd, objects.paint_bands.handle(), band * band_bytes, band_bytes,
                    paint_band_colour(band).packed());
  }
}

// Step 3: checker tiles onto the canvas; the bands into the paint image.
void record_upload(VkCommandBuffer cmd, PictureObjects& objects) {
  // Buffer writes → copy reads, and the canvas clear → the tile copies' writes (same pixels).
  tools::memory_barrier(cmd, kTransfer, VK_ACCESS_TRANSFER_WRITE_BIT, kTransfer,
                        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  std::vector<VkBufferImageCopy> tiles;
  for (const Rect& placement : checker_tile_placements()) tiles.push_back(buffer_to_rect(placement));
  vkCmdCopyBufferToImage(cmd, objects.checker_tile.handle(), objects.canvas.handle(),
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(tiles.size()), tiles.data());
  const VkBufferImageCopy whole = buffer_to_rect({0, 0, kCanvasSize, kCanvasSize});
  vkCmdCopyBufferToImage(cmd, objects.paint_bands.handle(), objects.paint.handle(),
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &whole);
}

// Step 4: cut the letters out of the paint image (same coordinates) onto the canvas.
void record_letters(VkCommandBuffer cmd, PictureObjects& objects) {
  tools::image_barrier(cmd, objects.paint.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kTransfer, VK_ACCESS_TRANSFER_WRITE_BIT,
                       kTransfer, VK_ACCESS_TRANSFER_READ_BIT);
  // Earlier canvas writes → the letter copies' writes.
  tools::memory_barrier(cmd, kTransfer, VK_ACCESS_TRANSFER_WRITE_BIT, kTransfer,
                        VK_ACCESS_TRANSFER_WRITE_BIT);
  std::vector<VkImageCopy> copies;
  for (const Rect& rect : letter_rects()) {
    VkImageCopy copy{};
    copy.srcSubresource = tools::colour_subresource_layers();
    copy.srcOffset = {int32_t(rect.x), int32_t(rect.y), 0};
    copy.dstSubresource = tools::colour_subresource_layers();
    copy.dstOffset = copy.srcOffset;
    copy.extent = {rect.width, rect.height, 1};
    copies.push_back(copy);
  }
  vkCmdCopyImage(cmd, objects.paint.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 objects.canvas.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 uint32_t(copies.size()), copies.data());
}

// Step 5: copy the canvas into the host-visible buffer and make it visible to the host.
void record_readback(VkCommandBuffer cmd, PictureObjects& objects) {
  tools::image_barrier(cmd, objects.canvas.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kTransfer, VK_ACCESS_TRANSFER_WRITE_BIT,
                       kTransfer, VK_ACCESS_TRANSFER_READ_BIT);
  const VkBufferImageCopy whole = buffer_to_rect({0, 0, kCanvasSize, kCanvasSize});
  vkCmdCopyImageToBuffer(cmd, objects.canvas.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         objects.readback.handle(), 1, &whole);
  tools::memory_barrier(cmd, kTransfer, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                        VK_ACCESS_HOST_READ_BIT);
}

}  // namespace

std::vector<uint8_t> draw_picture(VulkanContext& context) {
  PictureObjects objects(context);
  context.run_commands([&](VkCommandBuffer cmd) {
    record_clear_background(cmd, objects);
    record_fill_staging_buffers(cmd, objects);
    record_upload(cmd, objects);
    record_letters(cmd, objects);
    record_readback(cmd, objects);
  });
  std::vector<uint8_t> pixels(objects.readback.size());
  std::memcpy(pixels.data(), objects.readback.mapped(), pixels.size());
  return pixels;
}

}  // namespace kiln::demo
