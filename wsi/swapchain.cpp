#include "wsi/swapchain.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "common/log.h"
#include "wsi/frame_dump.h"

namespace kiln::wsi {

namespace {

using Clock = std::chrono::steady_clock;
// The refresh clock FIFO, FIFO_RELAXED and MAILBOX follow: no window system tells Kiln its real one.
constexpr Clock::duration kRefreshPeriod = std::chrono::nanoseconds(1'000'000'000 / 60);

bool same_extent(VkExtent2D a, VkExtent2D b) { return a.width == b.width && a.height == b.height; }

// `rect` cut to `extent` (the application's rectangles may reach outside; empty when fully outside).
VkRect2D clip(VkRect2D rect, VkExtent2D extent) {
  const int64_t x0 = std::max<int64_t>(rect.offset.x, 0), y0 = std::max<int64_t>(rect.offset.y, 0);
  const int64_t x1 = std::min<int64_t>(int64_t(rect.offset.x) + rect.extent.width, extent.width);
  const int64_t y1 = std::min<int64_t>(int64_t(rect.offset.y) + rect.extent.height, extent.height);
  if (x1 <= x0 || y1 <= y0) return {};
  return {{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
}

// The first refresh at or after `t` on the grid that starts at `origin`.
Clock::time_point refresh_at_or_after(Clock::time_point origin, Clock::time_point t) {
  if (t <= origin) return origin;
  const auto periods = (t - origin + kRefreshPeriod - Clock::duration(1)) / kRefreshPeriod;
  return origin + periods * kRefreshPeriod;
}

}  // namespace

VkResult Swapchain::create(Surface& surface, const SwapchainConfig& config, std::shared_ptr<Swapchain>* out) {
  VkExtent2D now;
  if (VkResult r = surface.current_extent(&now); r != VK_SUCCESS) return r;
  std::shared_ptr<Swapchain> sc(new (std::nothrow) Swapchain(surface, config));
  if (!sc) return VK_ERROR_OUT_OF_HOST_MEMORY;

  sc->images_.resize(config.image_count);
  for (uint32_t i = 0; i < config.image_count; ++i) {
    mem::Image& image = sc->images_[i];
    image.desc.type = VK_IMAGE_TYPE_2D;
    image.desc.format = config.format;
    image.desc.extent = {config.extent.width, config.extent.height, 1};
    image.desc.array_layers = config.array_layers;
    image.desc.tiling = VK_IMAGE_TILING_OPTIMAL;
    image.usage = config.usage;
    image.flags = config.flags;
    if (!image.layout.init(image.desc)) return VK_ERROR_INITIALIZATION_FAILED;
    const size_t size = (image.layout.total_size() + 63) / 64 * 64;
    void* memory = std::aligned_alloc(64, size);
    if (!memory) return VK_ERROR_OUT_OF_HOST_MEMORY;
    std::memset(memory, 0, size);
    sc->memory_.emplace_back(static_cast<uint8_t*>(memory), std::free);
    image.data = static_cast<uint8_t*>(memory);
  }
  for (mem::Image& image : sc->images_) sc->image_ptrs_.push_back(&image);

  VkResult result = VK_SUCCESS;
  sc->presenter_ = surface.make_presenter(config.extent, config.format, &result);
  if (!sc->presenter_) return result;
  sc->state_.assign(config.image_count, State::Free);
  for (uint32_t i = 0; i < config.image_count; ++i) sc->free_.push_back(i);
  sc->last_shown_ = Clock::now() - kRefreshPeriod;
  sc->thread_ = std::thread([raw = sc.get()] { raw->run_presentation(); });
  *out = std::move(sc);
  return VK_SUCCESS;
}

void Damage::add(const Damage& other) {
  whole = whole || other.whole;
  if (whole) rects.clear();
  else rects.insert(rects.end(), other.rects.begin(), other.rects.end());
}

Swapchain::~Swapchain() { shut_down(); }

Frame Swapchain::frame_of(uint32_t index) const {
  const mem::Image& image = images_[index];
  const mem::SubresourceAddress a = image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  return {image.data + a.offset, a.row_pitch, config_.extent, config_.format};
}

void Swapchain::release_locked(uint32_t index) {
  state_[index] = State::Free;
  free_.push_back(index);
  image_freed_.notify_all();
}

VkResult Swapchain::acquire(uint64_t timeout_ns, uint32_t* index) {
  {
    std::lock_guard lock(mutex_);
    if (status_ != VK_SUCCESS) return status_;
    if (retired_) return VK_ERROR_OUT_OF_DATE_KHR;
  }
  VkExtent2D now;
  const VkResult surface_result = surface_.current_extent(&now);  // a round trip on X11: outside the lock
  std::unique_lock lock(mutex_);
  if (surface_result != VK_SUCCESS) status_ = surface_result;
  else if (now.width != 0xFFFFFFFFu && !same_extent(now, config_.extent)) status_ = VK_ERROR_OUT_OF_DATE_KHR;

  // Anything past a year is forever (and cannot overflow the clock).
  const bool forever = timeout_ns >= 365ull * 24 * 3600 * 1'000'000'000ull;
  const auto deadline = forever ? Clock::time_point::max() : Clock::now() + std::chrono::nanoseconds(timeout_ns);
  for (;;) {
    if (status_ != VK_SUCCESS) return status_;
    if (retired_) return VK_ERROR_OUT_OF_DATE_KHR;
    if (!free_.empty()) {
      *index = free_.front();
      free_.pop_front();
      state_[*index] = State::Acquired;
      return VK_SUCCESS;
    }
    // Every image is with the application: none can come back, so waiting would hang (the spec
    // makes this the application's error; Kiln answers instead of blocking forever).
    if (std::all_of(state_.begin(), state_.end(), [](State s) { return s == State::Acquired; })) {
      KILN_LOG_ONCE(LogLevel::Error, "vkAcquireNextImageKHR: all %u images are already acquired", config_.image_count);
      return timeout_ns == 0 ? VK_NOT_READY : VK_TIMEOUT;
    }
    if (timeout_ns == 0) return VK_NOT_READY;
    if (forever) {
      image_freed_.wait(lock);
    } else if (image_freed_.wait_until(lock, deadline) == std::cv_status::timeout && free_.empty()) {
      return status_ != VK_SUCCESS ? status_ : VK_TIMEOUT;
    }
  }
}

VkResult Swapchain::begin_present(uint32_t index) {
  VkExtent2D now;
  const VkResult surface_result = surface_.current_extent(&now);
  std::lock_guard lock(mutex_);
  if (index >= state_.size() || state_[index] != State::Acquired) {
    KILN_LOG_ONCE(LogLevel::Error, "vkQueuePresentKHR: image %u is not acquired", index);
    return VK_ERROR_OUT_OF_DATE_KHR;
  }
  state_[index] = State::InFlight;
  if (surface_result != VK_SUCCESS) status_ = surface_result;
  else if (now.width != 0xFFFFFFFFu && !same_extent(now, config_.extent)) status_ = VK_ERROR_OUT_OF_DATE_KHR;
  return status_;
}

void Swapchain::finish_present(uint32_t index, Damage damage) {
  if (!damage.whole) {
    std::vector<VkRect2D> clipped;
    for (const VkRect2D& rect : damage.rects)
      if (const VkRect2D c = clip(rect, config_.extent); c.extent.width != 0) clipped.push_back(c);
    damage.rects = std::move(clipped);
  }
  std::lock_guard lock(mutex_);
  if (index >= state_.size() || state_[index] != State::InFlight) return;
  if (stopping_ || status_ != VK_SUCCESS) {
    release_locked(index);  // rejected presents still give their image back
    return;
  }
  if (config_.present_mode == VK_PRESENT_MODE_MAILBOX_KHR) {
    // The newest frame replaces one that is still waiting for its refresh; what changed in the
    // replaced frame must still reach the window, so its damage is added to the newest one's.
    for (const QueuedFrame& old : queued_) {
      damage.add(old.damage);
      release_locked(old.index);
    }
    queued_.clear();
  }
  state_[index] = State::Queued;
  queued_.push_back({index, std::move(damage)});
  frame_queued_.notify_one();
}

void Swapchain::run_presentation() {
  std::unique_lock lock(mutex_);
  const Clock::time_point origin = Clock::now();
  for (;;) {
    frame_queued_.wait(lock, [&] { return stopping_ || !queued_.empty(); });
    if (queued_.empty()) return;  // stopping, and every frame handed over has been shown
    // When to show: IMMEDIATE now; FIFO and MAILBOX at the next refresh after the last shown
    // frame's; FIFO_RELAXED like FIFO unless a refresh went by without a new frame (then now).
    Clock::time_point when = Clock::now();
    const Clock::time_point next_refresh = last_shown_ + kRefreshPeriod;
    const VkPresentModeKHR mode = config_.present_mode;
    if (mode != VK_PRESENT_MODE_IMMEDIATE_KHR && !(mode == VK_PRESENT_MODE_FIFO_RELAXED_KHR && when > next_refresh))
      when = std::max(refresh_at_or_after(origin, when), next_refresh);
    if (mode != VK_PRESENT_MODE_IMMEDIATE_KHR && presenter_->announces_refreshes()) {
      // The window system's refresh, with the 60 Hz clock as the fallback (a hidden Wayland
      // window gets no frame callbacks). Bounded by one period, so stopping needs no interrupt.
      if (!stopping_) {
        lock.unlock();
        presenter_->wait_for_refresh(when);
        lock.lock();
      }
      when = Clock::now();
    } else if (!stopping_ && frame_queued_.wait_until(lock, when, [&] { return stopping_; })) {
      when = Clock::now();  // stopping cuts the wait short: frames already handed over are still shown, at once
    }
    if (queued_.empty()) continue;
    const QueuedFrame queued = std::move(queued_.front());
    queued_.pop_front();
    const uint32_t index = queued.index;
    const bool show = status_ == VK_SUCCESS;
    lock.unlock();
    Frame frame = frame_of(index);
    frame.whole_frame = queued.damage.whole || !shown_any_;
    frame.regions = queued.damage.rects;
    const VkResult result = show ? presenter_->show(frame) : VK_SUCCESS;
    if (show && result == VK_SUCCESS) dump_frame_if_enabled(frame);
    lock.lock();
    if (result != VK_SUCCESS) status_ = result;
    if (show) shown_any_ = true;
    last_shown_ = when;
    release_locked(index);
  }
}

void Swapchain::retire() {
  std::lock_guard lock(mutex_);
  retired_ = true;
  image_freed_.notify_all();
}

bool Swapchain::retired() const {
  std::lock_guard lock(mutex_);
  return retired_;
}

void Swapchain::shut_down() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    retired_ = true;
  }
  frame_queued_.notify_all();
  image_freed_.notify_all();
  if (thread_.joinable()) thread_.join();
  presenter_.reset();  // its window-system resources go now, not when the last reference does
  std::lock_guard lock(mutex_);
  for (const QueuedFrame& queued : queued_) release_locked(queued.index);
  queued_.clear();
}

}  // namespace kiln::wsi
