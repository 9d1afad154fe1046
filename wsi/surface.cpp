#include "wsi/surface.h"

#include <algorithm>

namespace kiln::wsi {

std::span<const VkSurfaceFormatKHR> presentable_formats() {
  // sRGB first: applications that take the first format get correct gamma on an sRGB display.
  static const VkSurfaceFormatKHR formats[] = {
      {VK_FORMAT_B8G8R8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
      {VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
      {VK_FORMAT_R8G8B8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
      {VK_FORMAT_R8G8B8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
  };
  return formats;
}

bool is_presentable_format(VkFormat format) {
  auto list = presentable_formats();
  return std::any_of(list.begin(), list.end(), [&](const VkSurfaceFormatKHR& f) { return f.format == format; });
}

std::vector<VkSurfaceFormatKHR> Surface::formats() {
  auto all = presentable_formats();
  return {all.begin(), all.end()};
}

}  // namespace kiln::wsi
