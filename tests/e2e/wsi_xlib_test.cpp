// VK_KHR_xlib_surface: a window made with Xlib presents like an xcb one (Kiln goes through the
// Display's xcb connection). Xlib's headers come last: their macros (None, Bool, Status...) must
// not reach GoogleTest or the fixture.
#include <chrono>
#include <thread>

#include "e2e/wsi_fixture.h"
#include "e2e/x11_server.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <vulkan/vulkan_xlib.h>

namespace kiln::test {
namespace {

class XlibWsiTest : public WsiTest {
 protected:
  void SetUp() override {
    std::string error;
    ASSERT_TRUE(server_.start(&error)) << error;
    display_ = XOpenDisplay(server_.display().c_str());
    ASSERT_NE(nullptr, display_) << "cannot open " << server_.display();
    WsiTest::SetUp();
    if (HasFatalFailure()) return;
    REQUIRE_ON_KILN(instance_extension_enabled("VK_KHR_xlib_surface"), "VK_KHR_xlib_surface");
  }
  void TearDown() override {
    WsiTest::TearDown();
    if (display_) XCloseDisplay(display_);
  }

  XvfbServer server_;
  Display* display_ = nullptr;
};

TEST_F(XlibWsiTest, XlibWindowShowsThePresentedImage) {
  const int screen = DefaultScreen(display_);
  const Window window = XCreateSimpleWindow(display_, RootWindow(display_, screen), 0, 0, 80, 60, 0, 0, 0);
  XMapWindow(display_, window);
  XSync(display_, False);

  auto support = reinterpret_cast<PFN_vkGetPhysicalDeviceXlibPresentationSupportKHR>(
      vkGetInstanceProcAddr(instance().handle(), "vkGetPhysicalDeviceXlibPresentationSupportKHR"));
  ASSERT_NE(nullptr, support);
  EXPECT_TRUE(support(physical_device(), 0, display_, XVisualIDFromVisual(DefaultVisual(display_, screen))));

  VkXlibSurfaceCreateInfoKHR info{.sType = VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR};
  info.dpy = display_;
  info.window = window;
  auto create = reinterpret_cast<PFN_vkCreateXlibSurfaceKHR>(
      vkGetInstanceProcAddr(instance().handle(), "vkCreateXlibSurfaceKHR"));
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, create(instance().handle(), &info, nullptr, &surface));
  adopt_surface(surface);
  VkSurfaceCapabilitiesKHR caps;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_device(), surface, &caps));
  EXPECT_EQ(80u, caps.currentExtent.width);
  EXPECT_EQ(60u, caps.currentExtent.height);

  SwapchainSetup setup;
  setup.extent = {80, 60};
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{0.2f, 1.0f, 0.0f, 1.0f}}));

  // Read the window back through Xlib until the frame is there (presentation is asynchronous).
  const unsigned long expected = (unsigned long)(unorm8(0.2f)) << 16 | 0xff00;
  bool shown = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!shown && std::chrono::steady_clock::now() < deadline) {
    XImage* image = XGetImage(display_, window, 0, 0, 80, 60, AllPlanes, ZPixmap);
    ASSERT_NE(nullptr, image);
    shown = true;
    for (int y = 0; y < 60 && shown; ++y)
      for (int x = 0; x < 80 && shown; ++x) shown = (XGetPixel(image, x, y) & 0xffffff) == expected;
    XDestroyImage(image);
    if (!shown) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(shown) << "the window does not show the presented colour";
}

}  // namespace
}  // namespace kiln::test
