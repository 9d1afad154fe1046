// wsi::Swapchain and VK_KHR_incremental_present: which part of each frame a presenter is told
// changed — the first frame whole, later ones their (clipped) rectangles, and a MAILBOX frame
// that replaces an unshown one also the replaced frame's rectangles.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "wsi/swapchain.h"

namespace kiln::wsi {
namespace {

struct ShownFrame {
  bool whole_frame;
  std::vector<VkRect2D> regions;
};

// What the presenter saw, shared with the test. The first show() can be held until released,
// so frames presented meanwhile wait in the swapchain's queue.
struct Recorder {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<ShownFrame> shown;
  size_t entered = 0;  // show() calls begun
  bool hold_first = false;

  bool wait_for(size_t count) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(10), [&] { return shown.size() >= count; });
  }
  bool wait_for_entered(size_t count) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(10), [&] { return entered >= count; });
  }
  void release() {
    std::lock_guard lock(mutex);
    hold_first = false;
    changed.notify_all();
  }
};

class RecordingPresenter final : public Presenter {
 public:
  explicit RecordingPresenter(std::shared_ptr<Recorder> recorder) : recorder_(std::move(recorder)) {}
  VkResult show(const Frame& frame) override {
    std::unique_lock lock(recorder_->mutex);
    ++recorder_->entered;
    recorder_->changed.notify_all();
    recorder_->changed.wait(lock, [&] { return !recorder_->hold_first; });
    recorder_->shown.push_back({frame.whole_frame, {frame.regions.begin(), frame.regions.end()}});
    recorder_->changed.notify_all();
    return VK_SUCCESS;
  }

 private:
  std::shared_ptr<Recorder> recorder_;
};

class RecordingSurface final : public Surface {
 public:
  explicit RecordingSurface(std::shared_ptr<Recorder> recorder) : Surface(Platform::Headless), recorder_(recorder) {}
  VkResult current_extent(VkExtent2D* extent) override {
    *extent = {0xFFFFFFFFu, 0xFFFFFFFFu};
    return VK_SUCCESS;
  }
  std::unique_ptr<Presenter> make_presenter(VkExtent2D, VkFormat, VkResult* result) override {
    *result = VK_SUCCESS;
    return std::make_unique<RecordingPresenter>(recorder_);
  }

 private:
  std::shared_ptr<Recorder> recorder_;
};

Damage rects(std::vector<VkRect2D> list) { return {false, std::move(list)}; }

bool same(const VkRect2D& a, const VkRect2D& b) {
  return a.offset.x == b.offset.x && a.offset.y == b.offset.y && a.extent.width == b.extent.width &&
         a.extent.height == b.extent.height;
}

bool contains(const std::vector<VkRect2D>& list, const VkRect2D& rect) {
  return std::any_of(list.begin(), list.end(), [&](const VkRect2D& r) { return same(r, rect); });
}

class SwapchainDamageTest : public ::testing::Test {
 protected:
  void create(VkPresentModeKHR mode) {
    SwapchainConfig config;
    config.extent = {8, 8};
    config.image_count = 3;
    config.present_mode = mode;
    ASSERT_EQ(VK_SUCCESS, Swapchain::create(surface_, config, &swapchain_));
  }
  void present(const Damage& damage) {
    uint32_t index = 0;
    ASSERT_EQ(VK_SUCCESS, swapchain_->acquire(UINT64_MAX, &index));
    ASSERT_EQ(VK_SUCCESS, swapchain_->begin_present(index));
    swapchain_->finish_present(index, damage);
  }
  void TearDown() override {
    recorder_->release();
    if (swapchain_) swapchain_->shut_down();
  }

  std::shared_ptr<Recorder> recorder_ = std::make_shared<Recorder>();
  RecordingSurface surface_{recorder_};
  std::shared_ptr<Swapchain> swapchain_;
};

TEST_F(SwapchainDamageTest, FirstFrameIsWholeThenOnlyClippedRectangles) {
  create(VK_PRESENT_MODE_FIFO_KHR);
  // The first frame's rectangles are not enough: what the window showed before is unknown.
  present(rects({{{1, 1}, {2, 2}}}));
  // Later: one rectangle inside, one reaching past the 8x8 image (clipped), one outside (dropped).
  present(rects({{{1, 1}, {2, 2}}, {{6, 5}, {10, 10}}, {{9, 0}, {4, 4}}}));
  present({});  // no rectangles: the whole image changed
  ASSERT_TRUE(recorder_->wait_for(3));
  std::lock_guard lock(recorder_->mutex);
  EXPECT_TRUE(recorder_->shown[0].whole_frame);
  ASSERT_FALSE(recorder_->shown[1].whole_frame);
  ASSERT_EQ(2u, recorder_->shown[1].regions.size());
  EXPECT_TRUE(same(VkRect2D{{1, 1}, {2, 2}}, recorder_->shown[1].regions[0]));
  EXPECT_TRUE(same(VkRect2D{{6, 5}, {2, 3}}, recorder_->shown[1].regions[1]));
  EXPECT_TRUE(recorder_->shown[2].whole_frame);
}

TEST_F(SwapchainDamageTest, MailboxFrameInheritsTheRectanglesOfTheFrameItReplaces) {
  create(VK_PRESENT_MODE_MAILBOX_KHR);
  recorder_->hold_first = true;
  present({});  // shown first; the presenter holds it, so the next two wait in the mailbox
  ASSERT_TRUE(recorder_->wait_for_entered(1));
  present(rects({{{0, 0}, {1, 1}}}));
  present(rects({{{4, 4}, {2, 2}}}));  // replaces the previous frame, which is never shown
  recorder_->release();
  ASSERT_TRUE(recorder_->wait_for(2));
  std::lock_guard lock(recorder_->mutex);
  ASSERT_EQ(2u, recorder_->shown.size());
  const ShownFrame& second = recorder_->shown[1];
  ASSERT_FALSE(second.whole_frame);
  EXPECT_EQ(2u, second.regions.size());
  EXPECT_TRUE(contains(second.regions, {{0, 0}, {1, 1}})) << "the replaced frame's change was lost";
  EXPECT_TRUE(contains(second.regions, {{4, 4}, {2, 2}}));
}

}  // namespace
}  // namespace kiln::wsi
