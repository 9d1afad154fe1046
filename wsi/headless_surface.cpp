#include "wsi/headless_surface.h"

namespace kiln::wsi {

namespace {
class HeadlessPresenter final : public Presenter {
 public:
  VkResult show(const Frame&) override { return VK_SUCCESS; }
};
}  // namespace

VkResult HeadlessSurface::current_extent(VkExtent2D* extent) {
  *extent = {0xFFFFFFFFu, 0xFFFFFFFFu};  // the swapchain's imageExtent decides
  return VK_SUCCESS;
}

std::unique_ptr<Presenter> HeadlessSurface::make_presenter(VkExtent2D, VkFormat, VkResult* result) {
  *result = VK_SUCCESS;
  return std::make_unique<HeadlessPresenter>();
}

}  // namespace kiln::wsi
