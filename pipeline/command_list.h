#pragma once
// The compact, typed command list a command buffer records into (ARCHITECTURE.md: nothing
// executes at record time). Commands and their arrays live in an arena owned by the list;
// they refer to memory-side objects (mem::Buffer, mem::Image) and sync objects only, so the
// execution engine never sees icd types. Barriers are recorded as cuts, so the engine knows
// where ordering is required (and strict mode, later, where it is not).
//
// A recorded list is never cleared in place: the command buffer shares it (std::shared_ptr) with
// every submission of it still pending, and a reset or new recording starts a new list. So a
// queue always runs the commands it was given, in memory no application call can free.
#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "memory/attachment_ops.h"
#include "memory/resources.h"
#include "pipeline/compute_dispatch.h"
#include "pipeline/graphics_state.h"
#include "pipeline/query_pool.h"
#include "pipeline/sync.h"

namespace kiln::exec {

enum class CommandType : uint8_t {
  CopyBuffer,
  CopyImage,
  BlitImage,
  ResolveImage,
  CopyBufferToImage,
  CopyImageToBuffer,
  FillBuffer,
  UpdateBuffer,
  ClearColorImage,
  ClearDepthStencilImage,
  Barrier,
  SetEvent,
  ResetEvent,
  WaitEvents,
  ExecuteCommands,
  Dispatch,
  DispatchIndirect,
  ResetQueries,
  WriteTimestamp,
  BeginQuery,
  EndQuery,
  CopyQueryResults,
  Draw,
  SetRenderTargets,
  ClearView,
  ClearAttachments,
  ResolveView,
  BindTransformFeedback,
  BeginTransformFeedback,
  EndTransformFeedback,
  BeginConditionalRendering,
  EndConditionalRendering,
  ImageLayouts,
};

struct Command {
  CommandType type;
  Command* next = nullptr;
};

template <CommandType T>
struct CommandOf : Command {
  static constexpr CommandType kType = T;
};

struct CopyBufferCmd : CommandOf<CommandType::CopyBuffer> {
  const mem::Buffer* src; mem::Buffer* dst; uint32_t region_count; const VkBufferCopy2* regions;
};
// Image commands keep the layouts the application named (strict mode checks them).
struct CopyImageCmd : CommandOf<CommandType::CopyImage> {
  const mem::Image* src; mem::Image* dst; uint32_t region_count; const VkImageCopy2* regions;
  VkImageLayout src_layout, dst_layout;
};
struct BlitImageCmd : CommandOf<CommandType::BlitImage> {
  const mem::Image* src; mem::Image* dst; VkFilter filter; uint32_t region_count; const VkImageBlit2* regions;
  VkImageLayout src_layout, dst_layout;
};
struct ResolveImageCmd : CommandOf<CommandType::ResolveImage> {
  const mem::Image* src; mem::Image* dst; uint32_t region_count; const VkImageResolve2* regions;
  VkImageLayout src_layout, dst_layout;
};
// Used for both directions; the command type says which.
struct BufferImageCopyCmd : Command {
  mem::Buffer* buffer; mem::Image* image; uint32_t region_count; const VkBufferImageCopy2* regions;
  VkImageLayout image_layout;
};
struct FillBufferCmd : CommandOf<CommandType::FillBuffer> {
  mem::Buffer* dst; VkDeviceSize offset; VkDeviceSize size; uint32_t data;
};
struct UpdateBufferCmd : CommandOf<CommandType::UpdateBuffer> {
  mem::Buffer* dst; VkDeviceSize offset; VkDeviceSize size; const uint8_t* data;
};
struct ClearColorImageCmd : CommandOf<CommandType::ClearColorImage> {
  mem::Image* image; VkClearColorValue color; uint32_t range_count; const VkImageSubresourceRange* ranges;
  VkImageLayout layout;
};
struct ClearDepthStencilImageCmd : CommandOf<CommandType::ClearDepthStencilImage> {
  mem::Image* image; VkClearDepthStencilValue value; uint32_t range_count; const VkImageSubresourceRange* ranges;
  VkImageLayout layout;
};
// The dependencies of a barrier, event wait or subpass dependency as the application gave them
// (synchronization1 forms converted: the command's stage masks on every barrier, plus one
// execution-only dependency). In-order execution needs none of it; strict mode checks accesses
// against it (pipeline/strict/).
struct MemoryDependency {
  VkPipelineStageFlags2 src_stages, dst_stages;
  VkAccessFlags2 src_access, dst_access;
};
struct BufferDependency {
  MemoryDependency masks; const mem::Buffer* buffer; VkDeviceSize offset, size;  // size VK_WHOLE_SIZE allowed
};
struct ImageDependency {
  MemoryDependency masks; const mem::Image* image; VkImageSubresourceRange range;  // REMAINING_* allowed
  VkImageLayout old_layout, new_layout;  // equal: no transition
};
struct DependencyInfo {
  uint32_t memory_count; const MemoryDependency* memory;
  uint32_t buffer_count; const BufferDependency* buffers;
  uint32_t image_count; const ImageDependency* images;
};
// A dependency cut: everything before in `src_stages` happens-before everything after in `dst_stages`.
struct BarrierCmd : CommandOf<CommandType::Barrier> {
  VkPipelineStageFlags2 src_stages; VkPipelineStageFlags2 dst_stages;
  DependencyInfo dependencies;
};
struct SetEventCmd : CommandOf<CommandType::SetEvent> { Event* event; };
struct ResetEventCmd : CommandOf<CommandType::ResetEvent> { Event* event; };
struct WaitEventsCmd : CommandOf<CommandType::WaitEvents> {
  uint32_t event_count; Event* const* events; VkPipelineStageFlags2 src_stages; VkPipelineStageFlags2 dst_stages;
  DependencyInfo dependencies;
};
class CommandList;
// Secondary command buffers are inlined at execution: the primary refers to their lists (and
// keeps them alive, CommandList::keep).
struct ExecuteCommandsCmd : CommandOf<CommandType::ExecuteCommands> {
  uint32_t list_count; const CommandList* const* lists;
};

// A compute dispatch with everything it reads captured at record time (kernel, bound resources).
struct DispatchCmd : CommandOf<CommandType::Dispatch> {
  const ComputeKernel* kernel;
  const abi::ResourceContext* resources;
  uint32_t base[3];
  uint32_t count[3];
};
// The group counts come from a VkDispatchIndirectCommand in a buffer, read at execution.
struct DispatchIndirectCmd : CommandOf<CommandType::DispatchIndirect> {
  const ComputeKernel* kernel;
  const abi::ResourceContext* resources;
  const mem::Buffer* buffer;
  VkDeviceSize offset;
  uint32_t max_count[3];  // maxComputeWorkGroupCount: larger counts are clamped (and logged)
};

// Queries (pipeline/query_pool.h): each takes effect when it executes, in queue order.
struct ResetQueriesCmd : CommandOf<CommandType::ResetQueries> { QueryPool* pool; uint32_t first; uint32_t count; };
struct WriteTimestampCmd : CommandOf<CommandType::WriteTimestamp> { QueryPool* pool; uint32_t query; };
// Occlusion / pipeline-statistics queries (pipeline/query_tracker.h). Inside a multiview subpass
// a query spans one query per view; the executor takes the view mask from the current targets
// (so a query recorded in a secondary needs nothing from inheritance info).
// `index`: the vertex stream of a transform feedback stream or primitives-generated query.
struct BeginQueryCmd : CommandOf<CommandType::BeginQuery> { QueryPool* pool; uint32_t query; uint32_t index; };
struct EndQueryCmd : CommandOf<CommandType::EndQuery> { QueryPool* pool; uint32_t query; uint32_t index; };
struct CopyQueryResultsCmd : CommandOf<CommandType::CopyQueryResults> {
  QueryPool* pool; uint32_t first; uint32_t count; mem::Buffer* dst; VkDeviceSize offset; VkDeviceSize stride;
  VkQueryResultFlags flags;
};

// Render pass instances (icd/cmd_render_pass.cpp, icd/cmd_rendering.cpp). Each subpass or
// vkCmdBeginRendering makes its attachments current; draws and vkCmdClearAttachments recorded in a
// secondary command buffer (RENDER_PASS_CONTINUE) cannot know them and use the current ones.
// Null targets end a render pass instance; `suspends`: a dynamic rendering instance that a later
// one (VK_RENDERING_RESUMING_BIT) continues, so the instance has not really ended.
struct SetRenderTargetsCmd : CommandOf<CommandType::SetRenderTargets> { const RenderTargets* targets; bool suspends; };
// A load-op clear: `rect` of some layers of one view (memory/attachment_ops.h).
struct ClearViewCmd : CommandOf<CommandType::ClearView> {
  const mem::ImageView* view; VkImageAspectFlags aspects; VkClearValue value; VkRect2D rect; mem::LayerSet layers;
};
// vkCmdClearAttachments: attachments named by their index in `targets` (null = the current ones);
// rect layers are relative to the render pass instance (or its views under multiview).
struct ClearAttachmentsCmd : CommandOf<CommandType::ClearAttachments> {
  const RenderTargets* targets;
  uint32_t attachment_count; const VkClearAttachment* attachments;
  uint32_t rect_count; const VkClearRect* rects;
};
// A multisample resolve at the end of a subpass / rendering instance, one aspect.
struct ResolveViewCmd : CommandOf<CommandType::ResolveView> {
  const mem::ImageView* src; const mem::ImageView* dst; VkImageAspectFlagBits aspect; VkResolveModeFlagBits mode;
  VkRect2D rect; mem::LayerSet layers;
};

// A draw (every vkCmdDraw* form) with the state in force captured at record time. Direct draws
// carry their parameters; indirect ones read VkDraw(Indexed)IndirectCommand records from
// `indirect_buffer` at execution (and the count from `count_buffer` for the *Count forms).
struct DrawCmd : CommandOf<CommandType::Draw> {
  const GraphicsState* state;
  const RenderTargets* targets;  // null in a RENDER_PASS_CONTINUE secondary: the executor's current ones
  const abi::ResourceContext* resources;
  const abi::VertexBufferRecord* vertex_buffers;  // [abi::kMaxVertexBindings]
  bool indexed;
  // Index buffer (indexed draws): bytes from the bind offset to the buffer's end.
  const uint8_t* index_data; uint64_t index_bytes; VkIndexType index_type;
  // Direct parameters (index_count is vertex_count for non-indexed draws).
  uint32_t count; uint32_t instance_count; uint32_t first; int32_t vertex_offset; uint32_t first_instance;
  // Indirect: draw_count records `stride` bytes apart from indirect_buffer + indirect_offset.
  const mem::Buffer* indirect_buffer; VkDeviceSize indirect_offset; uint32_t draw_count; uint32_t stride;
  const mem::Buffer* count_buffer; VkDeviceSize count_offset;  // *Count forms: min(count, draw_count)
  uint32_t draw_index_base;  // DrawIndex of the first draw (multi-draw)
  // vkCmdDrawIndirectByteCountEXT: count = (the counter's value - byte_count_offset) / byte_count_stride
  // vertices, the counter read at execution (a transform feedback counter buffer).
  const mem::Buffer* byte_count_buffer; VkDeviceSize byte_count_buffer_offset; uint32_t byte_count_offset;
  uint32_t byte_count_stride;
  // vkCmdDrawMeshTasks*EXT: a task/mesh pipeline's workgroup grid (direct form; indirect records
  // are VkDrawMeshTasksIndirectCommandEXT).
  bool mesh_tasks; uint32_t groups[3];
};

// VK_EXT_transform_feedback (pipeline/xfb_state.h). Bind sets buffers [first, first + count):
// data null when nothing is bound. Begin starts every buffer at 0, or at the byte offset in its
// counter (read at execution); End writes each buffer's position to its counter.
struct BindTransformFeedbackCmd : CommandOf<CommandType::BindTransformFeedback> {
  uint32_t first, count;
  uint8_t* data[abi::kMaxXfbBuffers]; uint64_t size[abi::kMaxXfbBuffers];
};
struct TransformFeedbackCounters {
  uint32_t first, count;
  mem::Buffer* buffer[abi::kMaxXfbBuffers];  // null: no counter
  VkDeviceSize offset[abi::kMaxXfbBuffers];
};
// VK_EXT_conditional_rendering: the 32-bit value at `buffer` + `offset`, read when Begin executes,
// decides whether draws, dispatches and vkCmdClearAttachments until End run (zero: they are
// discarded; the reverse with `inverted`).
struct BeginConditionalRenderingCmd : CommandOf<CommandType::BeginConditionalRendering> {
  const mem::Buffer* buffer; VkDeviceSize offset; bool inverted;
};
struct EndConditionalRenderingCmd : CommandOf<CommandType::EndConditionalRendering> {};

// The layouts a render pass instance's attachments are in: at vkCmdBeginRenderPass each goes
// from its initialLayout (`old_layout`; UNDEFINED: whatever it was) to its finalLayout, which it
// has when the instance ends; dynamic rendering names the one layout each is used in (old =
// new). No work: strict mode tracks layouts by it (its image dependencies' masks are unused).
struct ImageLayoutsCmd : CommandOf<CommandType::ImageLayouts> {
  uint32_t image_count; const ImageDependency* images;
};

struct BeginTransformFeedbackCmd : CommandOf<CommandType::BeginTransformFeedback> { TransformFeedbackCounters counters; };
struct EndTransformFeedbackCmd : CommandOf<CommandType::EndTransformFeedback> { TransformFeedbackCounters counters; };

class CommandList {
 public:
  CommandList() = default;
  CommandList(const CommandList&) = delete;
  CommandList& operator=(const CommandList&) = delete;

  // Appends a zero-initialised command of type T and returns it for the caller to fill.
  template <typename T>
  T* append() {
    T* cmd = new (allocate(sizeof(T), alignof(T))) T{};
    cmd->type = T::kType;
    link(cmd);
    return cmd;
  }
  // For command structs shared by several types (BufferImageCopyCmd).
  template <typename T>
  T* append(CommandType type) {
    T* cmd = new (allocate(sizeof(T), alignof(T))) T{};
    cmd->type = type;
    link(cmd);
    return cmd;
  }
  // Copies `count` elements into the arena (for region arrays and inline data).
  template <typename T>
  T* copy_array(const T* items, size_t count) {
    if (count == 0) return nullptr;
    T* out = static_cast<T*>(allocate(sizeof(T) * count, alignof(T)));
    memcpy(static_cast<void*>(out), items, sizeof(T) * count);
    return out;
  }

  // Keeps `list` (a secondary's, for ExecuteCommandsCmd) alive as long as this one, so whoever
  // holds this list holds the secondary's commands too; returns it.
  const CommandList* keep(std::shared_ptr<const CommandList> list) {
    kept_.push_back(std::move(list));
    return kept_.back().get();
  }

  // Keeps `object` (memory the commands point into, e.g. an implicit attachment) alive as long as
  // this list.
  void hold(std::shared_ptr<const void> object) { held_.push_back(std::move(object)); }

  const Command* first() const { return first_; }
  bool empty() const { return first_ == nullptr; }

 private:
  void* allocate(size_t size, size_t alignment);
  void link(Command* cmd);

  static constexpr size_t kChunkSize = 16 * 1024;
  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  size_t chunk_used_ = kChunkSize;
  size_t chunk_capacity_ = kChunkSize;
  Command* first_ = nullptr;
  Command* last_ = nullptr;
  std::vector<std::shared_ptr<const CommandList>> kept_;
  std::vector<std::shared_ptr<const void>> held_;
};

}  // namespace kiln::exec
