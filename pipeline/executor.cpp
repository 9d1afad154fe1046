#include "pipeline/executor.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "common/env.h"
#include "common/log.h"
#include "memory/blit.h"
#include "memory/transfer.h"
#include "pipeline/draw.h"
#include "pipeline/query_tracker.h"
#include "pipeline/strict/strict_mode.h"
#include "pipeline/watchdog.h"
#include "pipeline/xfb_state.h"

namespace kiln::exec {
namespace {

template <typename T>
const T& as(const Command* cmd) {
  return *static_cast<const T*>(cmd);
}

// Splits work of `bytes` into parts of at least 1 MiB (smaller splits cost more in hand-off
// than they gain) and runs `fn(part)` for each across the pool.
template <typename Fn>
void split_work(ThreadPool& pool, uint64_t bytes, Fn fn) {
  constexpr uint64_t kMinPartBytes = 1u << 20;
  const uint64_t parts = std::clamp<uint64_t>(bytes / kMinPartBytes, 1, 4ull * pool.thread_count());
  pool.parallel_for(parts, [&](size_t i) { fn(mem::WorkPart{static_cast<uint32_t>(i), static_cast<uint32_t>(parts)}); });
}

uint64_t image_bytes(const mem::Image& image) { return image.layout.total_size(); }

uint64_t region_bytes(const mem::Image& image, const VkImageSubresourceLayers& sub, VkExtent3D extent) {
  const mem::SubresourceAddress a = image.layout.address(static_cast<VkImageAspectFlagBits>(sub.aspectMask & -sub.aspectMask),
                                                         sub.mipLevel, 0);
  const uint64_t layers = image.desc.type == VK_IMAGE_TYPE_3D ? extent.depth : sub.layerCount;
  return uint64_t{extent.width} * extent.height * layers * a.texel_bytes / (a.block_width * a.block_height);
}

// What execution carries from one command to the next (also into inlined secondary lists).
struct ExecutionState {
  const RenderTargets* targets = nullptr;  // of the render pass instance in progress
  QueryTracker queries;                    // occlusion / pipeline-statistics queries in progress
  DrawScene* scene = nullptr;              // draws not yet rendered
  XfbState xfb;                            // transform feedback buffers, positions, activity
  bool discard_rendering = false;          // conditional rendering's condition is false
  strict::StrictMode* strict = nullptr;    // KILN_STRICT
  uint32_t queue = 0;
  uint64_t synchronized = 0;
  bool overlap = true;                     // KILN_OVERLAP: independent dispatches run as one job
  QueueProgress* progress = nullptr;       // the queue's, for the watchdog (null in unit tests)
};

bool is_dispatch(const Command* cmd) {
  return cmd && (cmd->type == CommandType::Dispatch || cmd->type == CommandType::DispatchIndirect);
}

// The group counts of an indirect dispatch, read now; larger than the limit: clamped (and logged).
void indirect_counts(const DispatchIndirectCmd& c, uint32_t count[3]) {
  memcpy(count, c.buffer->data + c.offset, 3 * sizeof(uint32_t));
  for (int i = 0; i < 3; ++i) {
    if (count[i] > c.max_count[i]) {
      KILN_LOG_ONCE(LogLevel::Error, "vkCmdDispatchIndirect: group count %u exceeds the limit; clamped", count[i]);
      count[i] = c.max_count[i];
    }
  }
}

DispatchJob dispatch_job(const Command* cmd) {
  if (cmd->type == CommandType::Dispatch) {
    const auto& c = as<DispatchCmd>(cmd);
    return {c.kernel, c.resources, {c.base[0], c.base[1], c.base[2]}, {c.count[0], c.count[1], c.count[2]}};
  }
  const auto& c = as<DispatchIndirectCmd>(cmd);
  DispatchJob job{c.kernel, c.resources, {0, 0, 0}, {}};
  indirect_counts(c, job.count);
  return job;
}

// The commands conditional rendering discards.
bool is_conditional(CommandType type) {
  return type == CommandType::Draw || type == CommandType::Dispatch || type == CommandType::DispatchIndirect ||
         type == CommandType::ClearAttachments;
}

// The counters of Begin/EndTransformFeedback that exist and hold 4 bytes at their offset; others
// are skipped with one log line.
template <typename Fn>
void for_each_counter(const TransformFeedbackCounters& c, const char* command, Fn&& fn) {
  for (uint32_t i = 0; i < c.count && c.first + i < abi::kMaxXfbBuffers; ++i) {
    mem::Buffer* buffer = c.buffer[i];
    if (!buffer) continue;
    if (!buffer->data || c.offset[i] + 4 > buffer->size) {
      KILN_LOG_ONCE(LogLevel::Error, "%s: counter buffer offset past its end; ignored", command);
      continue;
    }
    fn(c.first + i, buffer->data + c.offset[i]);
  }
}

void execute_list(const CommandList& list, ThreadPool& pool, ExecutionState& state);

// Whether a vkCmdSetEvent after `wait` in its command list sets `event`.
bool set_later(const Command* wait, const Event* event) {
  for (const Command* cmd = wait->next; cmd; cmd = cmd->next)
    if (cmd->type == CommandType::SetEvent && as<SetEventCmd>(cmd).event == event) return true;
  return false;
}

void clear_attachments(const ClearAttachmentsCmd& c, const RenderTargets* targets) {
  if (!targets) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdClearAttachments: no render pass instance in progress; skipped");
    return;
  }
  for (uint32_t a = 0; a < c.attachment_count; ++a) {
    const VkClearAttachment& att = c.attachments[a];
    VkClearValue value = att.clearValue;
    for (uint32_t r = 0; r < c.rect_count; ++r) {
      const mem::LayerSet layers{c.rects[r].baseArrayLayer, c.rects[r].layerCount, targets->view_mask};
      auto clear = [&](const mem::ImageView* view, VkImageAspectFlags aspects) {
        if (view && !mem::clear_view_rect(*view, aspects, value, c.rects[r].rect, layers))
          KILN_LOG_ONCE(LogLevel::Error, "vkCmdClearAttachments: format %d cannot be cleared", view->format);
      };
      if (att.aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) {
        if (att.colorAttachment < targets->color_count) clear(targets->color[att.colorAttachment], VK_IMAGE_ASPECT_COLOR_BIT);
        continue;
      }
      const VkImageAspectFlags ds = att.aspectMask & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
      if (targets->depth && targets->depth == targets->stencil) {
        clear(targets->depth, ds);
      } else {
        if (ds & VK_IMAGE_ASPECT_DEPTH_BIT) clear(targets->depth, VK_IMAGE_ASPECT_DEPTH_BIT);
        if (ds & VK_IMAGE_ASPECT_STENCIL_BIT) clear(targets->stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
      }
    }
  }
}

void execute_command(const Command* cmd, ThreadPool& pool, ExecutionState& state) {
  // Draws, load-op clears and resolves wait in the scene until another kind of command comes: it
  // then sees them finished. (Render targets only change what later draws use.)
  if (cmd->type != CommandType::Draw && cmd->type != CommandType::ClearView && cmd->type != CommandType::ResolveView &&
      cmd->type != CommandType::SetRenderTargets && cmd->type != CommandType::ExecuteCommands &&
      cmd->type != CommandType::ImageLayouts)
    state.scene->flush(pool);
  if (state.discard_rendering && is_conditional(cmd->type)) return;
  if (state.strict && cmd->type != CommandType::ExecuteCommands)
    state.strict->before_command(cmd, state.queue, state.synchronized, strict::CommandContext{state.targets});
  switch (cmd->type) {
    case CommandType::BeginConditionalRendering: {
      const auto& c = as<BeginConditionalRenderingCmd>(cmd);
      uint32_t value = 0;
      if (c.buffer->data && c.offset + 4 <= c.buffer->size) memcpy(&value, c.buffer->data + c.offset, 4);
      else KILN_LOG_ONCE(LogLevel::Error, "vkCmdBeginConditionalRenderingEXT: offset past the buffer; reads 0");
      state.discard_rendering = (value == 0) != c.inverted;
      break;
    }
    case CommandType::EndConditionalRendering: state.discard_rendering = false; break;
    case CommandType::ImageLayouts: break;  // for strict mode only
    case CommandType::CopyBuffer: {
      const auto& c = as<CopyBufferCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i)
        split_work(pool, c.regions[i].size, [&](mem::WorkPart p) { mem::copy_buffer(*c.src, *c.dst, c.regions[i], p); });
      break;
    }
    case CommandType::CopyImage: {
      const auto& c = as<CopyImageCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i)
        split_work(pool, region_bytes(*c.src, c.regions[i].srcSubresource, c.regions[i].extent),
                   [&](mem::WorkPart p) { mem::copy_image(*c.src, *c.dst, c.regions[i], p); });
      break;
    }
    case CommandType::BlitImage: {
      const auto& c = as<BlitImageCmd>(cmd);
      // Blits convert texel by texel: split by destination rows, about 64 KiB of texels a part.
      for (uint32_t i = 0; i < c.region_count; ++i)
        split_work(pool, mem::blit_row_count(c.regions[i], *c.dst) * 16 * 1024,
                   [&](mem::WorkPart p) { mem::blit_image(*c.src, *c.dst, c.regions[i], c.filter, p); });
      break;
    }
    case CommandType::ResolveImage: {
      const auto& c = as<ResolveImageCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i)
        if (!mem::resolve_image(*c.src, *c.dst, c.regions[i]))
          KILN_LOG_ONCE(LogLevel::Error, "vkCmdResolveImage: format %d cannot be resolved", c.src->desc.format);
      break;
    }
    case CommandType::CopyBufferToImage:
    case CommandType::CopyImageToBuffer: {
      const auto& c = as<BufferImageCopyCmd>(cmd);
      const auto direction = cmd->type == CommandType::CopyBufferToImage ? mem::CopyDirection::BufferToImage
                                                                         : mem::CopyDirection::ImageToBuffer;
      for (uint32_t i = 0; i < c.region_count; ++i)
        split_work(pool, region_bytes(*c.image, c.regions[i].imageSubresource, c.regions[i].imageExtent),
                   [&](mem::WorkPart p) { mem::copy_buffer_image(*c.buffer, *c.image, c.regions[i], direction, p); });
      break;
    }
    case CommandType::FillBuffer: {
      const auto& c = as<FillBufferCmd>(cmd);
      split_work(pool, c.size, [&](mem::WorkPart p) { mem::fill_buffer(*c.dst, c.offset, c.size, c.data, p); });
      break;
    }
    case CommandType::UpdateBuffer: {
      const auto& c = as<UpdateBufferCmd>(cmd);
      mem::update_buffer(*c.dst, c.offset, c.size, c.data);
      break;
    }
    case CommandType::ClearColorImage: {
      const auto& c = as<ClearColorImageCmd>(cmd);
      for (uint32_t i = 0; i < c.range_count; ++i) {
        std::atomic<bool> ok{true};
        split_work(pool, image_bytes(*c.image), [&](mem::WorkPart p) {
          if (!mem::clear_color_image(*c.image, c.color, c.ranges[i], p)) ok = false;
        });
        if (!ok) KILN_LOG_ONCE(LogLevel::Error, "vkCmdClearColorImage: format %d cannot be cleared", c.image->desc.format);
      }
      break;
    }
    case CommandType::ClearDepthStencilImage: {
      const auto& c = as<ClearDepthStencilImageCmd>(cmd);
      for (uint32_t i = 0; i < c.range_count; ++i) {
        std::atomic<bool> ok{true};
        split_work(pool, image_bytes(*c.image), [&](mem::WorkPart p) {
          if (!mem::clear_depth_stencil_image(*c.image, c.value, c.ranges[i], p)) ok = false;
        });
        if (!ok)
          KILN_LOG_ONCE(LogLevel::Error, "vkCmdClearDepthStencilImage: format %d cannot be cleared", c.image->desc.format);
      }
      break;
    }
    case CommandType::Barrier:
      // Commands run one after another on the queue thread, so every cut is already honoured.
      break;
    case CommandType::SetEvent:
      as<SetEventCmd>(cmd).event->set();
      break;
    case CommandType::ResetEvent:
      as<ResetEventCmd>(cmd).event->reset();
      break;
    case CommandType::WaitEvents: {
      const auto& c = as<WaitEventsCmd>(cmd);
      for (uint32_t i = 0; i < c.event_count; ++i) {
        // An event only a later command of this list sets can never be set while the queue waits
        // for it (a GPU hangs): say so and go on instead of hanging the application.
        if (!c.events[i]->is_set() && set_later(cmd, c.events[i])) {
          if (state.strict) state.strict->report_event_deadlock(cmd, state.queue);
          else KILN_LOG_ONCE(LogLevel::Error, "vkCmdWaitEvents: waits for an event set only later on the same queue; not waited");
          continue;
        }
        if (state.progress) state.progress->begin(/*wait=*/true);
        if (!c.events[i]->wait_set()) break;  // the device is lost (or destroyed)
      }
      break;
    }
    case CommandType::Dispatch:
    case CommandType::DispatchIndirect:
      run_compute_dispatches(pool, {dispatch_job(cmd)}, state.queries.compute_invocation_counter());
      break;
    case CommandType::Draw: {
      const auto& c = as<DrawCmd>(cmd);
      XfbState* xfb = state.xfb.active ? &state.xfb : nullptr;
      if (c.targets) {
        state.scene->add(pool, c, state.queries.draw_counters(), xfb);
      } else if (state.targets) {
        DrawCmd with_targets = c;  // recorded in a secondary: draw into the instance in progress
        with_targets.targets = state.targets;
        state.scene->add(pool, with_targets, state.queries.draw_counters(), xfb);
      } else {
        KILN_LOG_ONCE(LogLevel::Error, "draw outside a render pass instance; skipped");
      }
      break;
    }
    case CommandType::SetRenderTargets:
      state.targets = as<SetRenderTargetsCmd>(cmd).targets;
      break;
    case CommandType::ClearView:
      state.scene->add_clear(pool, as<ClearViewCmd>(cmd));
      break;
    case CommandType::ClearAttachments: {
      const auto& c = as<ClearAttachmentsCmd>(cmd);
      clear_attachments(c, c.targets ? c.targets : state.targets);
      break;
    }
    case CommandType::ResolveView:
      state.scene->add_resolve(pool, as<ResolveViewCmd>(cmd));
      break;
    case CommandType::ResetQueries: {
      const auto& c = as<ResetQueriesCmd>(cmd);
      c.pool->reset(c.first, c.count);
      break;
    }
    case CommandType::WriteTimestamp: {
      // Every earlier command has finished every stage by now, so any stage's timestamp is "now".
      // In a multiview subpass a timestamp uses one query per view (all get the same time).
      const auto& c = as<WriteTimestampCmd>(cmd);
      const uint64_t now = device_timestamp_ns();
      const uint32_t views = state.targets && state.targets->view_mask ? uint32_t(__builtin_popcount(state.targets->view_mask)) : 1;
      for (uint32_t view = 0; view < views && c.query + view < c.pool->count(); ++view) c.pool->write(c.query + view, now);
      break;
    }
    case CommandType::BeginQuery: {
      const auto& c = as<BeginQueryCmd>(cmd);
      state.queries.begin(c.pool, c.query, c.index);
      break;
    }
    case CommandType::BindTransformFeedback: {
      const auto& c = as<BindTransformFeedbackCmd>(cmd);
      for (uint32_t i = 0; i < c.count && c.first + i < abi::kMaxXfbBuffers; ++i)
        state.xfb.buffers[c.first + i] = {c.data[i], c.size[i]};
      break;
    }
    case CommandType::BeginTransformFeedback: {
      const auto& c = as<BeginTransformFeedbackCmd>(cmd);
      for (uint64_t& position : state.xfb.position) position = 0;
      for_each_counter(c.counters, "vkCmdBeginTransformFeedbackEXT", [&](uint32_t b, const uint8_t* counter) {
        uint32_t bytes;
        memcpy(&bytes, counter, 4);
        state.xfb.position[b] = bytes;
      });
      state.xfb.active = true;
      break;
    }
    case CommandType::EndTransformFeedback: {
      const auto& c = as<EndTransformFeedbackCmd>(cmd);
      for_each_counter(c.counters, "vkCmdEndTransformFeedbackEXT", [&](uint32_t b, uint8_t* counter) {
        const uint32_t bytes = uint32_t(std::min<uint64_t>(state.xfb.position[b], UINT32_MAX));
        memcpy(counter, &bytes, 4);
      });
      state.xfb.active = false;
      break;
    }
    case CommandType::EndQuery: {
      const auto& c = as<EndQueryCmd>(cmd);
      const uint32_t view_mask = state.targets ? state.targets->view_mask : 0;
      state.queries.end(c.pool, c.query, view_mask ? uint32_t(__builtin_popcount(view_mask)) : 1);
      break;
    }
    case CommandType::CopyQueryResults: {
      const auto& c = as<CopyQueryResultsCmd>(cmd);
      if (c.pool->get_results(c.first, c.count, c.dst->data + c.offset, c.stride, c.flags) == VK_ERROR_DEVICE_LOST)
        KILN_LOG_ONCE(LogLevel::Error, "vkCmdCopyQueryPoolResults: device destroyed while waiting for a query");
      break;
    }
    case CommandType::ExecuteCommands: {
      const auto& c = as<ExecuteCommandsCmd>(cmd);
      for (uint32_t i = 0; i < c.list_count; ++i) execute_list(*c.lists[i], pool, state);
      break;
    }
  }
}

// Consecutive dispatches with nothing between them are unordered (no barrier, event or other
// command between them): they run as one job on the pool, so each small dispatch does not wait for
// every worker. Strict mode instead runs them one by one in a seeded shuffled order, so a missing
// barrier between them shows in the results too. Returns the command after the run.
const Command* execute_dispatch_run(const Command* first, ThreadPool& pool, ExecutionState& state) {
  state.scene->flush(pool);
  std::vector<DispatchJob> jobs;
  const Command* cmd = first;
  for (; is_dispatch(cmd); cmd = cmd->next) {
    if (state.discard_rendering) continue;
    if (state.strict) state.strict->before_command(cmd, state.queue, state.synchronized, strict::CommandContext{state.targets});
    jobs.push_back(dispatch_job(cmd));
  }
  std::atomic<uint64_t>* invocations = state.queries.compute_invocation_counter();
  if (state.strict) {
    for (size_t j : state.strict->shuffled_order(jobs.size())) run_compute_dispatches(pool, {jobs[j]}, invocations);
  } else {
    run_compute_dispatches(pool, jobs, invocations);
  }
  return cmd;
}

void execute_list(const CommandList& list, ThreadPool& pool, ExecutionState& state) {
  for (const Command* cmd = list.first(); cmd;) {
    if (state.progress) {
      if (state.progress->lost()) return;  // nothing more runs on a lost device
      state.progress->begin(/*wait=*/false);
    }
    if (state.overlap && is_dispatch(cmd) && is_dispatch(cmd->next)) {
      cmd = execute_dispatch_run(cmd, pool, state);
      continue;
    }
    execute_command(cmd, pool, state);
    cmd = cmd->next;
  }
}

}  // namespace

void execute_command_list(const CommandList& list, ThreadPool& pool, strict::StrictMode* strict, uint32_t queue,
                          uint64_t synchronized, QueueProgress* progress) {
  // The queue thread keeps its scene's buffers from submission to submission.
  thread_local DrawScene scene;
  ExecutionState state;  // a render pass instance never spans primary command buffers
  state.scene = &scene;
  state.strict = strict;
  state.queue = queue;
  state.synchronized = synchronized;
  state.progress = progress;
  static const bool overlap = env_int("KILN_OVERLAP", 1) != 0;
  state.overlap = overlap;
  execute_list(list, pool, state);
  scene.flush(pool);
}

}  // namespace kiln::exec
