#include "pipeline/executor.h"

#include "common/log.h"
#include "memory/transfer.h"

namespace kiln::exec {
namespace {

template <typename T>
const T& as(const Command* cmd) {
  return *static_cast<const T*>(cmd);
}

void execute_command(const Command* cmd) {
  switch (cmd->type) {
    case CommandType::CopyBuffer: {
      const auto& c = as<CopyBufferCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i) mem::copy_buffer(*c.src, *c.dst, c.regions[i]);
      break;
    }
    case CommandType::CopyImage: {
      const auto& c = as<CopyImageCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i) mem::copy_image(*c.src, *c.dst, c.regions[i]);
      break;
    }
    case CommandType::CopyBufferToImage:
    case CommandType::CopyImageToBuffer: {
      const auto& c = as<BufferImageCopyCmd>(cmd);
      const auto direction = cmd->type == CommandType::CopyBufferToImage ? mem::CopyDirection::BufferToImage
                                                                         : mem::CopyDirection::ImageToBuffer;
      for (uint32_t i = 0; i < c.region_count; ++i) mem::copy_buffer_image(*c.buffer, *c.image, c.regions[i], direction);
      break;
    }
    case CommandType::FillBuffer: {
      const auto& c = as<FillBufferCmd>(cmd);
      mem::fill_buffer(*c.dst, c.offset, c.size, c.data);
      break;
    }
    case CommandType::UpdateBuffer: {
      const auto& c = as<UpdateBufferCmd>(cmd);
      mem::update_buffer(*c.dst, c.offset, c.size, c.data);
      break;
    }
    case CommandType::ClearColorImage: {
      const auto& c = as<ClearColorImageCmd>(cmd);
      for (uint32_t i = 0; i < c.range_count; ++i)
        if (!mem::clear_color_image(*c.image, c.color, c.ranges[i]))
          KILN_LOG_ONCE(LogLevel::Error, "vkCmdClearColorImage: format %d cannot be cleared", c.image->desc.format);
      break;
    }
    case CommandType::ClearDepthStencilImage: {
      const auto& c = as<ClearDepthStencilImageCmd>(cmd);
      for (uint32_t i = 0; i < c.range_count; ++i)
        if (!mem::clear_depth_stencil_image(*c.image, c.value, c.ranges[i]))
          KILN_LOG_ONCE(LogLevel::Error, "vkCmdClearDepthStencilImage: format %d cannot be cleared", c.image->desc.format);
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
      for (uint32_t i = 0; i < c.event_count; ++i) c.events[i]->wait_set();
      break;
    }
    case CommandType::ExecuteCommands: {
      const auto& c = as<ExecuteCommandsCmd>(cmd);
      for (uint32_t i = 0; i < c.list_count; ++i) execute_command_list(*c.lists[i]);
      break;
    }
  }
}

}  // namespace

void execute_command_list(const CommandList& list) {
  for (const Command* cmd = list.first(); cmd; cmd = cmd->next) execute_command(cmd);
}

}  // namespace kiln::exec
