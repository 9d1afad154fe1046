// VK_KHR_wayland_surface under a private Weston (headless backend, pixman renderer, desktop shell;
// tests/e2e/wayland_server.h): surface queries, cleared images that reach the compositor (read
// back with weston's screenshooter), every present mode, a surface the compositor never shows
// (no frame callbacks: the 60 Hz fallback), recreation with oldSwapchain, and a killed compositor
// (an error, never a crash or a hang).
#define VK_USE_PLATFORM_WAYLAND_KHR
#include <wayland-client.h>

#include <algorithm>
#include <chrono>
#include <ostream>
#include <thread>

#include "e2e/wayland_server.h"
#include "e2e/wsi_fixture.h"
#include "xdg-shell-client-protocol.h"

namespace kiln::test {
namespace {

// The compositor's output, and the windows' size: the desktop shell puts a window anywhere on the
// output below its panel, so screenshots are searched for it.
constexpr uint32_t kOutputWidth = 480, kOutputHeight = 360;
constexpr uint32_t kWindowWidth = 160, kWindowHeight = 120;

// The test's own client objects on the compositor: the globals it needs and toplevel windows.
struct WaylandClient {
  wl_display* display = nullptr;
  wl_registry* registry = nullptr;
  wl_compositor* compositor = nullptr;
  xdg_wm_base* wm_base = nullptr;
  wl_shm* shm = nullptr;
  std::vector<uint32_t> shm_formats;

  static void on_global(void* data, wl_registry* registry, uint32_t name, const char* interface, uint32_t version) {
    auto* self = static_cast<WaylandClient*>(data);
    const std::string iface = interface;
    if (iface == wl_compositor_interface.name) {
      self->compositor = static_cast<wl_compositor*>(
          wl_registry_bind(registry, name, &wl_compositor_interface, std::min(version, 4u)));
    } else if (iface == xdg_wm_base_interface.name) {
      self->wm_base = static_cast<xdg_wm_base*>(wl_registry_bind(registry, name, &xdg_wm_base_interface, 1));
      static const xdg_wm_base_listener ping = {[](void*, xdg_wm_base* base, uint32_t serial) {
        xdg_wm_base_pong(base, serial);
      }};
      xdg_wm_base_add_listener(self->wm_base, &ping, nullptr);
    } else if (iface == wl_shm_interface.name) {
      self->shm = static_cast<wl_shm*>(wl_registry_bind(registry, name, &wl_shm_interface, 1));
      static const wl_shm_listener formats = {[](void* d, wl_shm*, uint32_t format) {
        static_cast<WaylandClient*>(d)->shm_formats.push_back(format);
      }};
      wl_shm_add_listener(self->shm, &formats, self);
    }
  }

  bool connect(const std::string& socket) {
    display = wl_display_connect(socket.c_str());
    if (!display) return false;
    registry = wl_display_get_registry(display);
    static const wl_registry_listener listener = {on_global, [](void*, wl_registry*, uint32_t) {}};
    wl_registry_add_listener(registry, &listener, this);
    return wl_display_roundtrip(display) >= 0 && wl_display_roundtrip(display) >= 0 && compositor && wm_base && shm;
  }

  ~WaylandClient() {
    if (!display) return;
    if (shm) wl_shm_destroy(shm);
    if (wm_base) xdg_wm_base_destroy(wm_base);
    if (compositor) wl_compositor_destroy(compositor);
    if (registry) wl_registry_destroy(registry);
    wl_display_disconnect(display);
  }
};

// A wl_surface, optionally as an xdg toplevel that was configured (so the compositor shows it).
struct Window {
  wl_surface* surface = nullptr;
  xdg_surface* xdg = nullptr;
  xdg_toplevel* toplevel = nullptr;
  bool configured = false;

  ~Window() {
    if (toplevel) xdg_toplevel_destroy(toplevel);
    if (xdg) xdg_surface_destroy(xdg);
    if (surface) wl_surface_destroy(surface);
  }
};

class WaylandWsiTest : public WsiTest {
 protected:
  void SetUp() override {
    if (!WestonServer::installed()) GTEST_SKIP() << "weston is not installed (CI installs it)";
    std::string error;
    ASSERT_TRUE(server_.start(&error, kOutputWidth, kOutputHeight)) << error;
    ASSERT_TRUE(client_.connect(server_.socket_path())) << "cannot use the compositor at " << server_.socket_path();
    WsiTest::SetUp();
    if (HasFatalFailure()) return;
    REQUIRE_ON_KILN(instance_extension_enabled("VK_KHR_wayland_surface"), "VK_KHR_wayland_surface");
  }

  void TearDown() override {
    WsiTest::TearDown();  // swapchains and surfaces before the wl_surfaces they present to
    windows_.clear();
  }

  // A wl_surface; `shown` makes it a configured toplevel (the compositor shows it).
  wl_surface* create_window(bool shown) {
    auto window = std::make_unique<Window>();
    window->surface = wl_compositor_create_surface(client_.compositor);
    if (shown) {
      window->xdg = xdg_wm_base_get_xdg_surface(client_.wm_base, window->surface);
      static const xdg_surface_listener configure = {[](void* data, xdg_surface* xdg, uint32_t serial) {
        xdg_surface_ack_configure(xdg, serial);
        static_cast<Window*>(data)->configured = true;
      }};
      xdg_surface_add_listener(window->xdg, &configure, window.get());
      window->toplevel = xdg_surface_get_toplevel(window->xdg);
      xdg_toplevel_set_title(window->toplevel, "kiln wayland test");
      wl_surface_commit(window->surface);  // a buffer may only be attached after the first configure
      while (!window->configured && wl_display_roundtrip(client_.display) >= 0) {
      }
    }
    windows_.push_back(std::move(window));
    return windows_.back()->surface;
  }

  VkSurfaceKHR create_wayland_surface(wl_surface* surface) {
    VkWaylandSurfaceCreateInfoKHR info{.sType = VK_STRUCTURE_TYPE_WAYLAND_SURFACE_CREATE_INFO_KHR};
    info.display = client_.display;
    info.surface = surface;
    auto create = reinterpret_cast<PFN_vkCreateWaylandSurfaceKHR>(
        vkGetInstanceProcAddr(instance().handle(), "vkCreateWaylandSurfaceKHR"));
    VkSurfaceKHR handle = VK_NULL_HANDLE;
    require(create(instance().handle(), &info, nullptr, &handle), "vkCreateWaylandSurfaceKHR");
    return adopt_surface(handle);
  }

  // Takes screenshots (presentation is asynchronous) until one shows a window of exactly
  // `rgb`: the pixels of that colour fill a kWindowWidth x kWindowHeight rectangle and nothing
  // else. Up to 5 s.
  ::testing::AssertionResult output_shows(std::array<uint8_t, 3> rgb) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (;;) {
      RgbImage shot;
      std::string error;
      if (!server_.screenshot(&shot, &error)) return ::testing::AssertionFailure() << error;
      ::testing::AssertionResult result = shows_window(shot, rgb);
      if (result || std::chrono::steady_clock::now() > deadline) return result << " (weston screenshot)";
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  static ::testing::AssertionResult shows_window(const RgbImage& shot, std::array<uint8_t, 3> rgb) {
    uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
    size_t count = 0;
    for (uint32_t y = 0; y < shot.height; ++y)
      for (uint32_t x = 0; x < shot.width; ++x)
        if (shot.at(x, y) == rgb) {
          ++count;
          x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
    const size_t expected = size_t(kWindowWidth) * kWindowHeight;
    if (count == expected && x1 - x0 + 1 == kWindowWidth && y1 - y0 + 1 == kWindowHeight)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << count << " pixels of (" << int(rgb[0]) << "," << int(rgb[1]) << ","
                                         << int(rgb[2]) << ") in a box of " << (count ? x1 - x0 + 1 : 0) << "x"
                                         << (count ? y1 - y0 + 1 : 0) << ", expected a " << kWindowWidth << "x"
                                         << kWindowHeight << " window of that colour";
  }

  SwapchainSetup window_sized(VkFormat format = VK_FORMAT_B8G8R8A8_UNORM) {
    SwapchainSetup setup;
    setup.format = format;
    setup.extent = {kWindowWidth, kWindowHeight};
    return setup;
  }

  WestonServer server_;
  WaylandClient client_;
  std::vector<std::unique_ptr<Window>> windows_;
};

bool contains(const std::vector<VkSurfaceFormatKHR>& formats, VkFormat format) {
  return std::any_of(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR& f) {
    return f.format == format && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  });
}

TEST_F(WaylandWsiTest, SurfaceQueries) {
  VkSurfaceKHR surface = create_wayland_surface(create_window(true));
  auto support = reinterpret_cast<PFN_vkGetPhysicalDeviceWaylandPresentationSupportKHR>(
      vkGetInstanceProcAddr(instance().handle(), "vkGetPhysicalDeviceWaylandPresentationSupportKHR"));
  ASSERT_NE(nullptr, support);
  EXPECT_TRUE(support(physical_device(), 0, client_.display));
  VkBool32 supported = VK_FALSE;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceSupportKHR(physical_device(), 0, surface, &supported));
  EXPECT_TRUE(supported);

  VkSurfaceCapabilitiesKHR caps;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_device(), surface, &caps));
  EXPECT_EQ(0xFFFFFFFFu, caps.currentExtent.width);  // a Wayland window takes the swapchain's size
  EXPECT_EQ(0xFFFFFFFFu, caps.currentExtent.height);
  EXPECT_LE(caps.minImageExtent.width, 1u);
  EXPECT_GE(caps.maxImageExtent.width, kOutputWidth);
  EXPECT_TRUE(caps.supportedUsageFlags & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
  EXPECT_TRUE(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR);

  uint32_t count = 0;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device(), surface, &count, nullptr));
  std::vector<VkSurfaceFormatKHR> formats(count);
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device(), surface, &count, formats.data()));
  EXPECT_TRUE(contains(formats, VK_FORMAT_B8G8R8A8_SRGB));
  EXPECT_TRUE(contains(formats, VK_FORMAT_B8G8R8A8_UNORM));
  if (is_kiln()) {
    // RGBA exactly when the compositor's wl_shm has XBGR8888 (Weston's pixman renderer does).
    const bool xbgr = std::count(client_.shm_formats.begin(), client_.shm_formats.end(), WL_SHM_FORMAT_XBGR8888) > 0;
    EXPECT_TRUE(xbgr) << "weston's pixman renderer offers XBGR8888";
    EXPECT_EQ(xbgr, contains(formats, VK_FORMAT_R8G8B8A8_UNORM));
    EXPECT_EQ(xbgr, contains(formats, VK_FORMAT_R8G8B8A8_SRGB));
  }

  uint32_t mode_count = 0;
  ASSERT_EQ(VK_SUCCESS, vkGetPhysicalDeviceSurfacePresentModesKHR(physical_device(), surface, &mode_count, nullptr));
  std::vector<VkPresentModeKHR> modes(mode_count);
  ASSERT_EQ(VK_SUCCESS,
            vkGetPhysicalDeviceSurfacePresentModesKHR(physical_device(), surface, &mode_count, modes.data()));
  EXPECT_TRUE(std::count(modes.begin(), modes.end(), VK_PRESENT_MODE_FIFO_KHR));
  if (is_kiln())  // lavapipe (Mesa 22.3) has no IMMEDIATE on Wayland
    for (VkPresentModeKHR mode : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
      EXPECT_TRUE(std::count(modes.begin(), modes.end(), mode)) << "present mode " << mode;
}

struct FormatCase {
  const char* name;
  VkFormat format;
};
void PrintTo(const FormatCase& c, std::ostream* os) { *os << c.name; }

class WaylandPresentTest : public WaylandWsiTest, public ::testing::WithParamInterface<FormatCase> {};

TEST_P(WaylandPresentTest, ClearedImageReachesTheCompositor) {
  VkSurfaceKHR surface = create_wayland_surface(create_window(true));
  REQUIRE_ON_KILN(surface_offers(surface, GetParam().format), "format " << GetParam().format << " on Wayland");
  const SwapchainSetup setup = window_sized(GetParam().format);
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{1.0f, 0.2f, 0.6f, 1.0f}}));
  EXPECT_TRUE(output_shows({255, unorm8(0.2f), unorm8(0.6f)}));
  // A second frame replaces the first (the first buffer goes back to Kiln's pool on release).
  ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{0.0f, 0.4f, 1.0f, 1.0f}}));
  EXPECT_TRUE(output_shows({0, unorm8(0.4f), 255}));
  // More frames than Kiln's buffer pool holds: buffers are reused after the compositor releases them.
  for (int i = 0; i < 8; ++i)  // colours that are exact 8-bit values
    ASSERT_EQ(VK_SUCCESS,
              clear_and_present(swapchain, setup, VkClearColorValue{{i * 32 / 255.0f, 0.0f, 128 / 255.0f, 1.0f}}));
  EXPECT_TRUE(output_shows({7 * 32, 0, 128}));
}

INSTANTIATE_TEST_SUITE_P(Formats, WaylandPresentTest,
                         ::testing::Values(FormatCase{"Bgra", VK_FORMAT_B8G8R8A8_UNORM},
                                           FormatCase{"Rgba", VK_FORMAT_R8G8B8A8_UNORM}),
                         [](const ::testing::TestParamInfo<FormatCase>& info) { return std::string(info.param.name); });

// Colours of the frames a test presents in a row, and what Kiln's presentation delivered.
constexpr std::array<std::array<float, 3>, 4> kSequence = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}}};
std::array<uint8_t, 3> rgb8(const std::array<float, 3>& c) {
  return {uint8_t(c[0] * 255), uint8_t(c[1] * 255), uint8_t(c[2] * 255)};
}

class WaylandPresentModeTest : public WaylandWsiTest, public ::testing::WithParamInterface<VkPresentModeKHR> {};

TEST_P(WaylandPresentModeTest, FramesReachTheCompositorInOrder) {
  KILN_ONLY();  // reads Kiln's frame dumps
  FrameDumpDir dumps;
  VkSurfaceKHR surface = create_wayland_surface(create_window(true));
  SwapchainSetup setup = window_sized();
  setup.present_mode = GetParam();
  setup.min_image_count = 3;
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  for (const auto& c : kSequence)
    ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{c[0], c[1], c[2], 1.0f}}));
  EXPECT_TRUE(output_shows(rgb8(kSequence.back())));
  destroy_swapchain(swapchain);  // every frame handed over has been shown (and dumped) by now
  // FIFO and IMMEDIATE show every frame in order; MAILBOX may drop frames that were replaced
  // before their refresh, but shows the rest in order and always the last one.
  const size_t shown = dumps.frame_count();
  const std::vector<RgbImage> frames = dumps.wait_for_frames(shown);
  if (GetParam() != VK_PRESENT_MODE_MAILBOX_KHR) {
    ASSERT_EQ(kSequence.size(), frames.size());
  }
  ASSERT_GE(frames.size(), 1u);
  size_t next = 0;
  for (const RgbImage& frame : frames) {
    while (next < kSequence.size() && !all_pixels_are(frame, rgb8(kSequence[next]))) ++next;
    ASSERT_LT(next, kSequence.size()) << "a frame out of order or not presented";
    ++next;
  }
  EXPECT_TRUE(all_pixels_are(frames.back(), rgb8(kSequence.back())));
}

INSTANTIATE_TEST_SUITE_P(Modes, WaylandPresentModeTest,
                         ::testing::Values(VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR,
                                           VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR),
                         [](const ::testing::TestParamInfo<VkPresentModeKHR>& info) {
                           switch (info.param) {
                             case VK_PRESENT_MODE_FIFO_KHR: return std::string("Fifo");
                             case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return std::string("FifoRelaxed");
                             case VK_PRESENT_MODE_MAILBOX_KHR: return std::string("Mailbox");
                             default: return std::string("Immediate");
                           }
                         });

TEST_F(WaylandWsiTest, UnshownSurfaceStillPresentsEveryFifoFrame) {
  KILN_ONLY();  // reads Kiln's frame dumps (and other drivers may wait for frame callbacks forever)
  FrameDumpDir dumps;
  // No role: the compositor never shows the surface, so no frame callback ever arrives and FIFO
  // falls back to the 60 Hz clock instead of waiting.
  VkSurfaceKHR surface = create_wayland_surface(create_window(false));
  SwapchainSetup setup = window_sized();
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  for (const auto& c : kSequence)
    ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{c[0], c[1], c[2], 1.0f}}));
  const std::vector<RgbImage> frames = dumps.wait_for_frames(kSequence.size());
  ASSERT_EQ(kSequence.size(), frames.size());
  for (size_t i = 0; i < frames.size(); ++i) EXPECT_TRUE(all_pixels_are(frames[i], rgb8(kSequence[i]))) << "frame " << i;
}

TEST_F(WaylandWsiTest, RecreateWithOldSwapchain) {
  VkSurfaceKHR surface = create_wayland_surface(create_window(true));
  const SwapchainSetup setup = window_sized();
  VkSwapchainKHR first;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &first));
  ASSERT_EQ(VK_SUCCESS, clear_and_present(first, setup, VkClearColorValue{{1.0f, 0.0f, 0.0f, 1.0f}}));
  EXPECT_TRUE(output_shows({255, 0, 0}));

  SwapchainSetup again = setup;
  again.old_swapchain = first;
  VkSwapchainKHR second;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, again, &second));
  ASSERT_EQ(VK_SUCCESS, clear_and_present(second, setup, VkClearColorValue{{0.0f, 1.0f, 0.0f, 1.0f}}));
  EXPECT_TRUE(output_shows({0, 255, 0}));
  destroy_swapchain(first);
  ASSERT_EQ(VK_SUCCESS, clear_and_present(second, setup, VkClearColorValue{{0.0f, 0.0f, 1.0f, 1.0f}}));
  EXPECT_TRUE(output_shows({0, 0, 255}));
}

TEST_F(WaylandWsiTest, ApplicationQueueIsLeftAlone) {
  KILN_ONLY();  // how Kiln reads events; Mesa behaves the same but is not the subject here
  wl_surface* window = create_window(true);
  VkSurfaceKHR surface = create_wayland_surface(window);
  const SwapchainSetup setup = window_sized();
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  // The application's own frame callback, on its default queue: Kiln reads the socket while it
  // waits for its own callbacks and buffer releases, but must leave this event for the
  // application to dispatch.
  bool done = false;
  wl_callback* callback = wl_surface_frame(window);
  static const wl_callback_listener listener = {[](void* data, wl_callback* cb, uint32_t) {
    *static_cast<bool*>(data) = true;
    wl_callback_destroy(cb);
  }};
  wl_callback_add_listener(callback, &listener, &done);
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{0.0f, 0.0f, 1.0f, 1.0f}}));
  EXPECT_TRUE(output_shows({0, 0, 255}));
  EXPECT_FALSE(done) << "Kiln dispatched the application's event queue";
  while (!done && wl_display_roundtrip(client_.display) >= 0) {
  }
  EXPECT_TRUE(done);
}

TEST_F(WaylandWsiTest, KilledCompositorIsAnErrorNotAHang) {
  VkSurfaceKHR surface = create_wayland_surface(create_window(true));
  const SwapchainSetup setup = window_sized();
  VkSwapchainKHR swapchain;
  ASSERT_EQ(VK_SUCCESS, create_swapchain(surface, setup, &swapchain));
  ASSERT_EQ(VK_SUCCESS, clear_and_present(swapchain, setup, VkClearColorValue{{1.0f, 0.0f, 0.0f, 1.0f}}));
  server_.kill_now();
  // The loss shows at once (Kiln sees the hang-up on the socket) or after a present that tried to
  // reach the compositor; every later call keeps reporting it.
  VkResult result = VK_SUCCESS;
  for (int i = 0; i < 10 && (result == VK_SUCCESS || result == VK_SUBOPTIMAL_KHR); ++i)
    result = clear_and_present(swapchain, setup, VkClearColorValue{{0.0f, 1.0f, 0.0f, 1.0f}});
  EXPECT_TRUE(result == VK_ERROR_SURFACE_LOST_KHR || result == VK_ERROR_OUT_OF_DATE_KHR) << "result " << result;
  if (is_kiln()) {
    EXPECT_EQ(VK_ERROR_SURFACE_LOST_KHR, result);
    VkSurfaceCapabilitiesKHR caps;
    EXPECT_EQ(VK_ERROR_SURFACE_LOST_KHR, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_device(), surface, &caps));
  }
  destroy_swapchain(swapchain);  // must return (TearDown destroys the surface)
}

}  // namespace
}  // namespace kiln::test
