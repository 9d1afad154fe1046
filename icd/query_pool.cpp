// VkQueryPool: creation, host reset and reads, and the recorded query commands. The pool itself
// is the engine's exec::QueryPool (pipeline/query_pool.h).
#include "common/log.h"
#include "icd/command_buffer.h"
#include "kiln_entrypoints.h"

using namespace kiln;
using exec::QueryPool;

namespace {

// Clamps [first, first+count) to the pool (an application error, logged once per call site).
void clamp_range(const QueryPool& pool, uint32_t first, uint32_t* count, const char* command) {
  if (first <= pool.count() && *count <= pool.count() - first) return;
  KILN_LOG_ONCE(LogLevel::Error, "%s: queries %u..%u outside a pool of %u; clamped", command, first, first + *count,
           pool.count());
  *count = first < pool.count() ? pool.count() - first : 0;
}

// vkGetQueryPoolResults/vkCmdCopyQueryPoolResults write (count-1)*stride + one result's bytes.
VkDeviceSize results_span(const QueryPool& pool, uint32_t count, VkDeviceSize stride, VkQueryResultFlags flags) {
  return count == 0 ? 0 : (count - 1) * stride + pool.result_size(flags);
}

// vkCmdBeginQuery(Indexed)/vkCmdEndQuery(Indexed) take occlusion, pipeline-statistics, transform
// feedback stream and primitives-generated queries; the last two of a vertex stream (`index`).
bool is_counting_query(const QueryPool& pool, uint32_t query, uint32_t index) {
  const VkQueryType type = pool.type();
  const bool per_stream = type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT || type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT;
  return (type == VK_QUERY_TYPE_OCCLUSION || type == VK_QUERY_TYPE_PIPELINE_STATISTICS ||
          type == VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT || per_stream) &&
         query < pool.count() && (per_stream ? index < abi::kMaxVertexStreams : index == 0);
}

template <typename Cmd>
void record_query(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query, uint32_t index, const char* api) {
  QueryPool* pool = from_handle<QueryPool>(queryPool);
  if (!is_counting_query(*pool, query, index)) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: query %u (index %u) is not a query Kiln counts; skipped", api, query, index);
    return;
  }
  auto* cmd = command_buffer_of(commandBuffer)->commands->append<Cmd>();
  cmd->pool = pool;
  cmd->query = query;
  cmd->index = index;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateQueryPool(VkDevice handle, const VkQueryPoolCreateInfo* pCreateInfo,
                                                               const VkAllocationCallbacks* pAllocator, VkQueryPool* pQueryPool) {
  Device* device = device_of(handle);
  // Timestamps, occlusion queries (exact sample counts), pipeline statistics (the core
  // statistics; pipeline/query_tracker.h), transform feedback streams and primitives generated.
  const VkQueryType type = pCreateInfo->queryType;
  if (type != VK_QUERY_TYPE_TIMESTAMP && type != VK_QUERY_TYPE_OCCLUSION && type != VK_QUERY_TYPE_PIPELINE_STATISTICS &&
      type != VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT && type != VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT &&
      type != VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT) {
    kiln::log(LogLevel::Error, "vkCreateQueryPool: query type %d is not supported", type);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (type == VK_QUERY_TYPE_PIPELINE_STATISTICS &&
      (pCreateInfo->pipelineStatistics == 0 || (pCreateInfo->pipelineStatistics & ~exec::kSupportedPipelineStatistics))) {
    kiln::log(LogLevel::Error, "vkCreateQueryPool: pipeline statistics 0x%x are not supported",
              pCreateInfo->pipelineStatistics);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (pCreateInfo->queryCount == 0) {
    kiln::log(LogLevel::Error, "vkCreateQueryPool: queryCount is 0");
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  QueryPool* pool = nullptr;
  try {
    pool = create_object<QueryPool>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                    device->sync_hub, type, pCreateInfo->queryCount, pCreateInfo->pipelineStatistics);
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pQueryPool = to_handle<VkQueryPool>(pool);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyQueryPool(VkDevice handle, VkQueryPool queryPool,
                                                            const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<QueryPool>(queryPool));
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_ResetQueryPool(VkDevice, VkQueryPool queryPool, uint32_t firstQuery,
                                                          uint32_t queryCount) {
  QueryPool* pool = from_handle<QueryPool>(queryPool);
  clamp_range(*pool, firstQuery, &queryCount, "vkResetQueryPool");
  pool->reset(firstQuery, queryCount);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetQueryPoolResults(VkDevice, VkQueryPool queryPool, uint32_t firstQuery,
                                                                   uint32_t queryCount, size_t dataSize, void* pData,
                                                                   VkDeviceSize stride, VkQueryResultFlags flags) {
  QueryPool* pool = from_handle<QueryPool>(queryPool);
  clamp_range(*pool, firstQuery, &queryCount, "vkGetQueryPoolResults");
  if (results_span(*pool, queryCount, stride, flags) > dataSize) {
    KILN_LOG_ONCE(LogLevel::Error, "vkGetQueryPoolResults: dataSize %zu too small; results clipped", dataSize);
    const VkDeviceSize one = pool->result_size(flags);
    queryCount = dataSize < one ? 0 : stride == 0 ? 1 : static_cast<uint32_t>((dataSize - one) / stride + 1);
  }
  return pool->get_results(firstQuery, queryCount, static_cast<uint8_t*>(pData), stride, flags);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdResetQueryPool(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                             uint32_t firstQuery, uint32_t queryCount) {
  QueryPool* pool = from_handle<QueryPool>(queryPool);
  clamp_range(*pool, firstQuery, &queryCount, "vkCmdResetQueryPool");
  auto* cmd = command_buffer_of(commandBuffer)->commands->append<exec::ResetQueriesCmd>();
  cmd->pool = pool;
  cmd->first = firstQuery;
  cmd->count = queryCount;
}

static void record_timestamp(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query) {
  QueryPool* pool = from_handle<QueryPool>(queryPool);
  if (pool->type() != VK_QUERY_TYPE_TIMESTAMP || query >= pool->count()) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdWriteTimestamp: query %u is not a query of a timestamp pool; skipped", query);
    return;
  }
  auto* cmd = command_buffer_of(commandBuffer)->commands->append<exec::WriteTimestampCmd>();
  cmd->pool = pool;
  cmd->query = query;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdWriteTimestamp(VkCommandBuffer commandBuffer, VkPipelineStageFlagBits,
                                                             VkQueryPool queryPool, uint32_t query) {
  record_timestamp(commandBuffer, queryPool, query);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdWriteTimestamp2(VkCommandBuffer commandBuffer, VkPipelineStageFlags2,
                                                              VkQueryPool queryPool, uint32_t query) {
  record_timestamp(commandBuffer, queryPool, query);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBeginQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query,
                                                         VkQueryControlFlags) {
  // PRECISE or not, occlusion queries count exact samples (both are valid answers).
  record_query<exec::BeginQueryCmd>(commandBuffer, queryPool, query, 0, "vkCmdBeginQuery");
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query) {
  record_query<exec::EndQueryCmd>(commandBuffer, queryPool, query, 0, "vkCmdEndQuery");
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBeginQueryIndexedEXT(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                                   uint32_t query, VkQueryControlFlags, uint32_t index) {
  record_query<exec::BeginQueryCmd>(commandBuffer, queryPool, query, index, "vkCmdBeginQueryIndexedEXT");
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdEndQueryIndexedEXT(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                                 uint32_t query, uint32_t index) {
  record_query<exec::EndQueryCmd>(commandBuffer, queryPool, query, index, "vkCmdEndQueryIndexedEXT");
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdCopyQueryPoolResults(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                                   uint32_t firstQuery, uint32_t queryCount, VkBuffer dstBuffer,
                                                                   VkDeviceSize dstOffset, VkDeviceSize stride,
                                                                   VkQueryResultFlags flags) {
  QueryPool* pool = from_handle<QueryPool>(queryPool);
  auto* dst = from_handle<mem::Buffer>(dstBuffer);
  clamp_range(*pool, firstQuery, &queryCount, "vkCmdCopyQueryPoolResults");
  const VkDeviceSize span = results_span(*pool, queryCount, stride, flags);
  const VkDeviceSize align = (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
  if (!dst->data || dstOffset > dst->size || span > dst->size - dstOffset || dstOffset % 4 || stride % align) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdCopyQueryPoolResults: destination range outside the buffer or misaligned; skipped");
    return;
  }
  auto* cmd = command_buffer_of(commandBuffer)->commands->append<exec::CopyQueryResultsCmd>();
  cmd->pool = pool;
  cmd->first = firstQuery;
  cmd->count = queryCount;
  cmd->dst = dst;
  cmd->offset = dstOffset;
  cmd->stride = stride;
  cmd->flags = flags;
}
