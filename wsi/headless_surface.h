#pragma once
// VK_EXT_headless_surface: no window. The swapchain decides the extent; shown frames go nowhere
// except KILN_WSI_DUMP_DIR (frame_dump.h).
#include "wsi/surface.h"

namespace kiln::wsi {

class HeadlessSurface final : public Surface {
 public:
  HeadlessSurface() : Surface(Platform::Headless) {}
  VkResult current_extent(VkExtent2D* extent) override;
  std::unique_ptr<Presenter> make_presenter(VkExtent2D extent, VkFormat format, VkResult* result) override;
};

}  // namespace kiln::wsi
