// Vertex/index buffer binding and vkCmdDraw*: each draw captures the merged graphics state, the
// bound resources, vertex buffers and the render targets into an exec::DrawCmd. Parameter checks
// protect the driver: a draw whose indirect records or count lie outside their buffer is skipped
// and logged once.
#include <algorithm>

#include "common/log.h"
#include "icd/command_buffer.h"
#include "icd/device_limits.h"
#include "icd/graphics_dynamic_state.h"
#include "icd/pipeline.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

void bind_vertex_buffers(VkCommandBuffer handle, const char* api, uint32_t first, uint32_t count, const VkBuffer* buffers,
                         const VkDeviceSize* offsets, const VkDeviceSize* sizes, const VkDeviceSize* strides) {
  CommandBuffer* cb = command_buffer_of(handle);
  if (first > abi::kMaxVertexBindings || count > abi::kMaxVertexBindings - first) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: bindings [%u, %u) beyond %u; ignored", api, first, first + count, abi::kMaxVertexBindings);
    return;
  }
  for (uint32_t i = 0; i < count; ++i) {
    abi::VertexBufferRecord& r = cb->gfx.vertex_buffers[first + i];
    r = {};
    const auto* b = from_handle<mem::Buffer>(buffers[i]);
    if (b && b->data && offsets[i] <= b->size) {
      const VkDeviceSize rest = b->size - offsets[i];
      r.address = b->data + offsets[i];
      r.size = (sizes && sizes[i] != VK_WHOLE_SIZE) ? std::min(sizes[i], rest) : rest;
    } else if (b) {
      KILN_LOG_ONCE(LogLevel::Error, "%s: offset beyond the buffer (or no memory bound); binding left empty", api);
    }
    if (strides) {
      cb->gfx.dynamic.vertex_strides[first + i] = strides[i];
      cb->gfx.dynamic.set |= kDynVertexInputBindingStride;
    }
  }
  cb->gfx.captured_vertex_buffers = nullptr;
}

// What every draw form needs captured; false (logged) when the draw cannot be recorded.
bool capture_draw(CommandBuffer* cb, const char* api, exec::DrawCmd* draw) {
  const Pipeline* pipeline = cb->graphics.pipeline;
  if (!pipeline || pipeline->bind_point != VK_PIPELINE_BIND_POINT_GRAPHICS) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: no graphics pipeline bound; skipped", api);
    return false;
  }
  GraphicsRecording& g = cb->gfx;
  const bool continues_pass = cb->level == VK_COMMAND_BUFFER_LEVEL_SECONDARY &&
                              (cb->usage & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT);
  if (!g.instance.active && !continues_pass) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: outside a render pass instance; skipped", api);
    return false;
  }
  const GraphicsPipelinePart& part = pipeline->graphics;
  if (!g.merged_state) {
    exec::GraphicsState merged = merge_dynamic_state(part.state, part.dynamic_mask, g.dynamic);
    if (part.vertex_input_variants) {
      merged.kernels = part.vertex_input_variants->kernels_for(g.dynamic.vertex_input);
      if (!merged.kernels) return false;  // logged
    }
    g.merged_state = cb->commands->copy_array(&merged, 1);
  }
  if (!g.captured_vertex_buffers) {
    abi::VertexBufferRecord records[abi::kMaxVertexBindings];
    const bool dynamic_stride = part.dynamic_mask & (kDynVertexInputBindingStride | kDynVertexInput);
    for (uint32_t i = 0; i < abi::kMaxVertexBindings; ++i) {
      records[i] = g.vertex_buffers[i];
      records[i].stride = dynamic_stride ? g.dynamic.vertex_strides[i] : part.vertex_strides[i];
    }
    g.captured_vertex_buffers = cb->commands->copy_array(records, abi::kMaxVertexBindings);
  }
  draw->state = g.merged_state;
  draw->targets = g.instance.active ? g.instance.targets : nullptr;  // a secondary's come at execution
  draw->resources = cb->commands->copy_array(&cb->graphics.resources, 1);
  draw->vertex_buffers = g.captured_vertex_buffers;
  return true;
}

// Appends a copy of `draw` (its captured state) to the command list, for the caller to add parameters.
exec::DrawCmd* append_draw(CommandBuffer* cb, const exec::DrawCmd& draw) {
  auto* cmd = cb->commands->append<exec::DrawCmd>();
  exec::Command* link = cmd->next;
  *cmd = draw;
  cmd->type = exec::DrawCmd::kType;
  cmd->next = link;
  return cmd;
}

bool capture_index_buffer(CommandBuffer* cb, const char* api, exec::DrawCmd* draw) {
  const GraphicsRecording& g = cb->gfx;
  if (!g.index_buffer || !g.index_buffer->data || g.index_offset > g.index_buffer->size) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: no usable index buffer bound; skipped", api);
    return false;
  }
  draw->indexed = true;
  draw->index_data = g.index_buffer->data + g.index_offset;
  draw->index_bytes = g.index_buffer->size - g.index_offset;
  draw->index_type = g.index_type;
  return true;
}

// The parameters of one direct draw (vkCmdDraw/DrawIndexed, or one entry of a multi-draw).
struct DirectDraw {
  uint32_t count;  // vertices, or indices for indexed draws
  uint32_t first;  // first vertex / first index
  int32_t vertex_offset;
};

// Every direct form: `draw_count` draws sharing instances and captured state, the i-th with
// DrawIndex i (VK_EXT_multi_draw; plain draws are a multi-draw of one). Draws with nothing to
// draw are skipped but keep their DrawIndex.
template <typename DrawAt>
void record_direct(VkCommandBuffer handle, const char* api, bool indexed, uint32_t draw_count, DrawAt draw_at,
                   uint32_t instances, uint32_t first_instance) {
  CommandBuffer* cb = command_buffer_of(handle);
  if (draw_count == 0 || instances == 0) return;
  if (draw_count > kMaxMultiDrawCount) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: drawCount %u exceeds maxMultiDrawCount %u; clamped", api, draw_count,
                  kMaxMultiDrawCount);
    draw_count = kMaxMultiDrawCount;
  }
  exec::DrawCmd draw{};
  bool captured = false;
  for (uint32_t i = 0; i < draw_count; ++i) {
    const DirectDraw d = draw_at(i);
    if (d.count == 0) continue;
    if (!captured) {  // once, and only when something is drawn
      if (!capture_draw(cb, api, &draw)) return;
      if (indexed && !capture_index_buffer(cb, api, &draw)) return;
      captured = true;
    }
    exec::DrawCmd* cmd = append_draw(cb, draw);
    cmd->count = d.count;
    cmd->instance_count = instances;
    cmd->first = d.first;
    cmd->vertex_offset = d.vertex_offset;
    cmd->first_instance = first_instance;
    cmd->draw_count = 1;
    cmd->draw_index_base = i;
  }
}

// Multi-draw arrays are `stride` bytes apart (VK_EXT_multi_draw).
template <typename T>
const T& strided(const T* base, uint32_t stride, uint32_t i) {
  return *reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(base) + uint64_t{stride} * i);
}

// What an indirect record draws: vertices, indexed vertices or mesh-task workgroups.
enum class IndirectKind { Vertices, Indexed, MeshTasks };

// Indirect forms: `draw_count` records of `record_bytes`, `stride` apart, must lie in the buffer.
void record_indirect(VkCommandBuffer handle, const char* api, IndirectKind kind, VkBuffer buffer, VkDeviceSize offset,
                     uint32_t draw_count, uint32_t stride, VkBuffer count_buffer, VkDeviceSize count_offset) {
  CommandBuffer* cb = command_buffer_of(handle);
  if (draw_count == 0) return;
  const auto* b = from_handle<mem::Buffer>(buffer);
  const bool indexed = kind == IndirectKind::Indexed;
  const VkDeviceSize record_bytes = kind == IndirectKind::MeshTasks ? sizeof(VkDrawMeshTasksIndirectCommandEXT)
                                    : indexed                        ? sizeof(VkDrawIndexedIndirectCommand)
                                                                     : sizeof(VkDrawIndirectCommand);
  // The *Count forms draw only as many records as the count buffer says (read at execution, each
  // record checked then): maxDrawCount records need not fit.
  const VkDeviceSize span = count_buffer ? 0 : VkDeviceSize{draw_count - 1} * stride + record_bytes;
  if (!b || !b->data || offset % 4 || (draw_count > 1 && (stride % 4 || stride < record_bytes)) || offset > b->size ||
      b->size - offset < span) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: the indirect records do not fit in the buffer; skipped", api);
    return;
  }
  const auto* c = from_handle<mem::Buffer>(count_buffer);
  if (count_buffer && (!c || !c->data || count_offset % 4 || count_offset > c->size || c->size - count_offset < 4)) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: the draw count does not fit in its buffer; skipped", api);
    return;
  }
  exec::DrawCmd draw{};
  if (!capture_draw(cb, api, &draw)) return;
  if (indexed && !capture_index_buffer(cb, api, &draw)) return;
  exec::DrawCmd* cmd = append_draw(cb, draw);
  cmd->mesh_tasks = kind == IndirectKind::MeshTasks;
  cmd->indirect_buffer = b;
  cmd->indirect_offset = offset;
  cmd->draw_count = draw_count;
  cmd->stride = draw_count > 1 ? stride : static_cast<uint32_t>(record_bytes);
  cmd->count_buffer = c;
  cmd->count_offset = count_offset;
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindVertexBuffers(VkCommandBuffer cb, uint32_t first, uint32_t count,
                                                                const VkBuffer* pBuffers, const VkDeviceSize* pOffsets) {
  bind_vertex_buffers(cb, "vkCmdBindVertexBuffers", first, count, pBuffers, pOffsets, nullptr, nullptr);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindVertexBuffers2(VkCommandBuffer cb, uint32_t first, uint32_t count,
                                                                 const VkBuffer* pBuffers, const VkDeviceSize* pOffsets,
                                                                 const VkDeviceSize* pSizes, const VkDeviceSize* pStrides) {
  bind_vertex_buffers(cb, "vkCmdBindVertexBuffers2", first, count, pBuffers, pOffsets, pSizes, pStrides);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindIndexBuffer(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                              VkIndexType indexType) {
  GraphicsRecording& g = command_buffer_of(commandBuffer)->gfx;
  g.index_buffer = from_handle<mem::Buffer>(buffer);
  g.index_offset = offset;
  g.index_type = indexType;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDraw(VkCommandBuffer cb, uint32_t vertexCount, uint32_t instanceCount,
                                                   uint32_t firstVertex, uint32_t firstInstance) {
  record_direct(cb, "vkCmdDraw", false, 1, [&](uint32_t) { return DirectDraw{vertexCount, firstVertex, 0}; },
                instanceCount, firstInstance);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawIndexed(VkCommandBuffer cb, uint32_t indexCount, uint32_t instanceCount,
                                                          uint32_t firstIndex, int32_t vertexOffset, uint32_t firstInstance) {
  record_direct(cb, "vkCmdDrawIndexed", true, 1, [&](uint32_t) { return DirectDraw{indexCount, firstIndex, vertexOffset}; },
                instanceCount, firstInstance);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawMultiEXT(VkCommandBuffer cb, uint32_t drawCount,
                                                           const VkMultiDrawInfoEXT* pVertexInfo, uint32_t instanceCount,
                                                           uint32_t firstInstance, uint32_t stride) {
  record_direct(
      cb, "vkCmdDrawMultiEXT", false, drawCount,
      [&](uint32_t i) {
        const VkMultiDrawInfoEXT& d = strided(pVertexInfo, stride, i);
        return DirectDraw{d.vertexCount, d.firstVertex, 0};
      },
      instanceCount, firstInstance);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawMultiIndexedEXT(VkCommandBuffer cb, uint32_t drawCount,
                                                                  const VkMultiDrawIndexedInfoEXT* pIndexInfo,
                                                                  uint32_t instanceCount, uint32_t firstInstance,
                                                                  uint32_t stride, const int32_t* pVertexOffset) {
  // pVertexOffset, when given, replaces every entry's vertexOffset.
  record_direct(
      cb, "vkCmdDrawMultiIndexedEXT", true, drawCount,
      [&](uint32_t i) {
        const VkMultiDrawIndexedInfoEXT& d = strided(pIndexInfo, stride, i);
        return DirectDraw{d.indexCount, d.firstIndex, pVertexOffset ? *pVertexOffset : d.vertexOffset};
      },
      instanceCount, firstInstance);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawIndirect(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset,
                                                           uint32_t drawCount, uint32_t stride) {
  record_indirect(cb, "vkCmdDrawIndirect", IndirectKind::Vertices, buffer, offset, drawCount, stride, VK_NULL_HANDLE, 0);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawIndexedIndirect(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset,
                                                                  uint32_t drawCount, uint32_t stride) {
  record_indirect(cb, "vkCmdDrawIndexedIndirect", IndirectKind::Indexed, buffer, offset, drawCount, stride, VK_NULL_HANDLE, 0);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawIndirectCount(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset,
                                                                VkBuffer countBuffer, VkDeviceSize countBufferOffset,
                                                                uint32_t maxDrawCount, uint32_t stride) {
  record_indirect(cb, "vkCmdDrawIndirectCount", IndirectKind::Vertices, buffer, offset, maxDrawCount, stride, countBuffer, countBufferOffset);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawIndexedIndirectCount(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset,
                                                                       VkBuffer countBuffer, VkDeviceSize countBufferOffset,
                                                                       uint32_t maxDrawCount, uint32_t stride) {
  record_indirect(cb, "vkCmdDrawIndexedIndirectCount", IndirectKind::Indexed, buffer, offset, maxDrawCount, stride, countBuffer,
                  countBufferOffset);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawIndirectByteCountEXT(VkCommandBuffer handle, uint32_t instanceCount,
                                                                       uint32_t firstInstance, VkBuffer counterBuffer,
                                                                       VkDeviceSize counterBufferOffset,
                                                                       uint32_t counterOffset, uint32_t vertexStride) {
  // The vertex count comes from a transform feedback counter at execution (exec::collect_draws).
  CommandBuffer* cb = command_buffer_of(handle);
  const char* api = "vkCmdDrawIndirectByteCountEXT";
  const auto* counter = from_handle<mem::Buffer>(counterBuffer);
  if (instanceCount == 0) return;
  if (!counter || vertexStride == 0) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: no counter buffer or a vertex stride of 0; skipped", api);
    return;
  }
  exec::DrawCmd draw{};
  if (!capture_draw(cb, api, &draw)) return;
  exec::DrawCmd* cmd = append_draw(cb, draw);
  cmd->instance_count = instanceCount;
  cmd->first_instance = firstInstance;
  cmd->draw_count = 1;
  cmd->byte_count_buffer = counter;
  cmd->byte_count_buffer_offset = counterBufferOffset;
  cmd->byte_count_offset = counterOffset;
  cmd->byte_count_stride = vertexStride;
}

// VK_EXT_mesh_shader (docs/design/mesh-shading.md): a grid of task workgroups, or of mesh
// workgroups when the pipeline has no task shader.
extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawMeshTasksEXT(VkCommandBuffer handle, uint32_t groupCountX,
                                                              uint32_t groupCountY, uint32_t groupCountZ) {
  CommandBuffer* cb = command_buffer_of(handle);
  if (uint64_t{groupCountX} * groupCountY * groupCountZ == 0) return;
  exec::DrawCmd draw{};
  if (!capture_draw(cb, "vkCmdDrawMeshTasksEXT", &draw)) return;
  exec::DrawCmd* cmd = append_draw(cb, draw);
  cmd->mesh_tasks = true;
  cmd->groups[0] = groupCountX;
  cmd->groups[1] = groupCountY;
  cmd->groups[2] = groupCountZ;
  cmd->draw_count = 1;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawMeshTasksIndirectEXT(VkCommandBuffer cb, VkBuffer buffer,
                                                                      VkDeviceSize offset, uint32_t drawCount,
                                                                      uint32_t stride) {
  record_indirect(cb, "vkCmdDrawMeshTasksIndirectEXT", IndirectKind::MeshTasks, buffer, offset, drawCount, stride,
                  VK_NULL_HANDLE, 0);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdDrawMeshTasksIndirectCountEXT(VkCommandBuffer cb, VkBuffer buffer,
                                                                           VkDeviceSize offset, VkBuffer countBuffer,
                                                                           VkDeviceSize countBufferOffset,
                                                                           uint32_t maxDrawCount, uint32_t stride) {
  record_indirect(cb, "vkCmdDrawMeshTasksIndirectCountEXT", IndirectKind::MeshTasks, buffer, offset, maxDrawCount, stride,
                  countBuffer, countBufferOffset);
}
