#include "tools/common/png_io.h"

#include <png.h>

#include <cstdio>
#include <cstring>

namespace kiln::png {

bool write_rgba8(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba,
                 size_t stride) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  return png_image_write_to_file(&image, path.c_str(), 0, rgba, static_cast<png_int_32>(stride),
                                 nullptr) != 0;
}

bool read_rgba8(const std::string& path, uint32_t* width, uint32_t* height, std::vector<uint8_t>* rgba) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return false;
  image.format = PNG_FORMAT_RGBA;
  rgba->resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, rgba->data(), 0, nullptr)) return false;
  *width = image.width;
  *height = image.height;
  return true;
}

}  // namespace kiln::png
