#include "e2e/transform_feedback.h"

#include <cstdio>
#include <stdexcept>

#include "e2e/primitive_assembly.h"

namespace kiln::test {
namespace {

template <typename Pfn>
Pfn device_command(VkDevice device, const char* name) {
  auto pfn = reinterpret_cast<Pfn>(vkGetDeviceProcAddr(device, name));
  if (!pfn) throw std::runtime_error(std::string("vkGetDeviceProcAddr(") + name + ") returned null");
  return pfn;
}

// Handles and offsets of `counters`, for Begin/End (null arrays when there are none).
struct CounterArrays {
  std::vector<VkBuffer> buffers;
  std::vector<VkDeviceSize> offsets;
  explicit CounterArrays(const std::vector<CounterSlot>& counters) {
    for (const CounterSlot& c : counters) {
      buffers.push_back(c.buffer ? c.buffer->buffer : VK_NULL_HANDLE);
      offsets.push_back(c.buffer ? c.offset : 0);
    }
  }
  uint32_t count() const { return static_cast<uint32_t>(buffers.size()); }
  const VkBuffer* buffer_data() const { return buffers.empty() ? nullptr : buffers.data(); }
  const VkDeviceSize* offset_data() const { return offsets.empty() ? nullptr : offsets.data(); }
};

std::string describe_word(const uint8_t* bytes) {
  uint32_t bits;
  float value;
  std::memcpy(&bits, bytes, 4);
  std::memcpy(&value, bytes, 4);
  char text[64];
  std::snprintf(text, sizeof text, "0x%08x (%g)", bits, double(value));
  return text;
}

}  // namespace

XfbCommands::XfbCommands(VkDevice device)
    : bind_(device_command<PFN_vkCmdBindTransformFeedbackBuffersEXT>(device, "vkCmdBindTransformFeedbackBuffersEXT")),
      begin_(device_command<PFN_vkCmdBeginTransformFeedbackEXT>(device, "vkCmdBeginTransformFeedbackEXT")),
      end_(device_command<PFN_vkCmdEndTransformFeedbackEXT>(device, "vkCmdEndTransformFeedbackEXT")),
      begin_query_(device_command<PFN_vkCmdBeginQueryIndexedEXT>(device, "vkCmdBeginQueryIndexedEXT")),
      end_query_(device_command<PFN_vkCmdEndQueryIndexedEXT>(device, "vkCmdEndQueryIndexedEXT")),
      draw_indirect_byte_count_(
          device_command<PFN_vkCmdDrawIndirectByteCountEXT>(device, "vkCmdDrawIndirectByteCountEXT")) {}

void XfbCommands::bind(VkCommandBuffer cb, const std::vector<XfbBinding>& bindings, uint32_t first_binding) const {
  std::vector<VkBuffer> buffers;
  std::vector<VkDeviceSize> offsets, sizes;
  for (const XfbBinding& b : bindings) {
    buffers.push_back(b.buffer->buffer);
    offsets.push_back(b.offset);
    sizes.push_back(b.size);
  }
  bind_(cb, first_binding, static_cast<uint32_t>(bindings.size()), buffers.data(), offsets.data(), sizes.data());
}

void XfbCommands::begin(VkCommandBuffer cb, const std::vector<CounterSlot>& counters) const {
  const CounterArrays c(counters);
  begin_(cb, 0, c.count(), c.buffer_data(), c.offset_data());
}

void XfbCommands::end(VkCommandBuffer cb, const std::vector<CounterSlot>& counters) const {
  const CounterArrays c(counters);
  end_(cb, 0, c.count(), c.buffer_data(), c.offset_data());
}

void XfbCommands::begin_query(VkCommandBuffer cb, VkQueryPool pool, uint32_t query, uint32_t stream) const {
  begin_query_(cb, pool, query, 0, stream);
}

void XfbCommands::end_query(VkCommandBuffer cb, VkQueryPool pool, uint32_t query, uint32_t stream) const {
  end_query_(cb, pool, query, stream);
}

void XfbCommands::draw_indirect_byte_count(VkCommandBuffer cb, uint32_t instance_count, uint32_t first_instance,
                                           const CounterSlot& counter, uint32_t counter_offset,
                                           uint32_t vertex_stride) const {
  draw_indirect_byte_count_(cb, instance_count, first_instance, counter.buffer->buffer, counter.offset, counter_offset,
                            vertex_stride);
}

Buffer create_capture_buffer(TestDevice& device, VkDeviceSize size) {
  return device.create_buffer(size, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                              kXfbFill);
}

Buffer create_counter_buffer(TestDevice& device, VkDeviceSize size) {
  return device.create_buffer(
      size, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, kXfbFill);
}

Buffer create_index_buffer(TestDevice& device, const std::vector<uint32_t>& indices) {
  Buffer b = device.create_buffer(sizeof(uint32_t) * indices.size(), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  std::memcpy(b.mapped, indices.data(), sizeof(uint32_t) * indices.size());
  return b;
}

uint32_t read_counter(const Buffer& counter, VkDeviceSize offset) {
  uint32_t value;
  std::memcpy(&value, counter.mapped + offset, sizeof value);
  return value;
}

void xfb_barrier(VkCommandBuffer cb) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT | VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT | VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT |
                          VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT |
                          VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
  // The next pass also writes the colour attachment the previous one wrote.
  barrier.srcAccessMask |= VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.dstAccessMask |= VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT |
                           VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void xfb_to_host_barrier(VkCommandBuffer cb) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT | VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                       nullptr, 0, nullptr);
}

VkQueryPool create_query_pool(TestDevice& device, VkQueryType type, uint32_t count,
                              VkQueryPipelineStatisticFlags pipeline_statistics) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = type;
  info.queryCount = count;
  info.pipelineStatistics = pipeline_statistics;
  VkQueryPool pool = VK_NULL_HANDLE;
  require(vkCreateQueryPool(device.handle(), &info, nullptr, &pool), "vkCreateQueryPool");
  VkDevice handle = device.handle();
  device.defer_destroy([handle, pool] { vkDestroyQueryPool(handle, pool, nullptr); });
  return pool;
}

std::vector<uint64_t> query_results(TestDevice& device, VkQueryPool pool, uint32_t first, uint32_t count,
                                    uint32_t values_per_query) {
  std::vector<uint64_t> values(size_t{count} * values_per_query, ~0ull);
  const size_t stride = sizeof(uint64_t) * values_per_query;
  EXPECT_EQ(VK_SUCCESS, vkGetQueryPoolResults(device.handle(), pool, first, count, values.size() * sizeof(uint64_t),
                                              values.data(), stride, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  return values;
}

Vec4 xfb_value(uint32_t vertex, uint32_t k) {
  const float base = float(vertex) * 4.0f + float(k) * 1000.0f;
  return {base, base + 0.25f, base + 0.5f, base + 0.75f};
}

Vec4 xfb_position(uint32_t vertex) {
  return {-0.875f + 0.0625f * float(vertex % 29), -0.75f + 1.5f * float(vertex % 2), 0.5f, 1.0f};
}

void expect_bytes_eq(const Buffer& got, const ExpectedBytes& want, const std::string& what) {
  if (got.size < want.size()) {
    ADD_FAILURE() << what << ": the buffer has " << got.size << " bytes, the reference " << want.size();
    return;
  }
  uint32_t wrong = 0;
  std::string examples;
  for (size_t offset = 0; offset + 4 <= want.size(); offset += 4) {
    const uint8_t* g = got.mapped + offset;
    const uint8_t* w = want.bytes().data() + offset;
    if (std::memcmp(g, w, 4) == 0) continue;
    if (++wrong > 8) continue;
    const bool untouched = w[0] == kXfbFill && w[1] == kXfbFill && w[2] == kXfbFill && w[3] == kXfbFill;
    examples += "\n    bytes " + std::to_string(offset) + ".." + std::to_string(offset + 3) + ": got " + describe_word(g) +
                ", want " + describe_word(w) + (untouched ? " (must stay unwritten)" : "");
  }
  if (wrong)
    ADD_FAILURE() << what << ": " << wrong << " of " << want.size() / 4 << " words wrong" << examples;
}

size_t put_primitives(ExpectedBytes& bytes, size_t offset, size_t stride, const std::vector<std::vector<uint32_t>>& primitives,
                      const VertexRecord& record, bool exact_order, const Buffer* got) {
  for (const std::vector<uint32_t>& primitive : primitives) {
    const size_t n = primitive.size();
    size_t rotation = 0;
    if (!exact_order && got) {
      for (size_t r = 0; r < n; ++r) {
        ExpectedBytes candidate = bytes;
        for (size_t v = 0; v < n; ++v) record(candidate, offset + v * stride, primitive[(v + r) % n]);
        if (offset + n * stride <= got->size &&
            std::memcmp(candidate.bytes().data() + offset, got->mapped + offset, n * stride) == 0) {
          rotation = r;
          break;
        }
      }
    }
    for (size_t v = 0; v < n; ++v) record(bytes, offset + v * stride, primitive[(v + rotation) % n]);
    offset += n * stride;
  }
  return offset;
}

void put_capture_vertex(ExpectedBytes& bytes, size_t offset, uint32_t vertex) {
  bytes.put(offset, xfb_value(vertex, 0));
  bytes.put(offset + 16, xfb_value(vertex, 1));
}

void put_four_buffers_point(std::vector<ExpectedBytes>& bytes, const std::array<size_t, 4>& starts, uint32_t point) {
  size_t at[4];
  for (int b = 0; b < 4; ++b) at[b] = starts[b] + size_t{point} * kFourBufferStrides[b];
  bytes.at(0).put(at[0], xfb_value(point, 0));
  bytes.at(1).put(at[1], xfb_value(point, 1)[0]);
  const Vec4 v = xfb_value(point, 2);
  bytes.at(1).put(at[1] + 4, std::array<float, 3>{v[0], v[1], v[2]});
  bytes.at(2).put(at[2] + 4, std::array<int32_t, 2>{-1 - int32_t(point), 65536 * int32_t(point) + 7});
  bytes.at(3).put(at[3] + 4, xfb_position(point));
  bytes.at(3).put(at[3] + 20, float(1 + point % 3));
}

void put_stream_records(ExpectedBytes& buffer0, ExpectedBytes& buffer1, uint32_t points, uint32_t stream1_records) {
  for (uint32_t i = 0; i < points; ++i) buffer0.put(i * kStream0Stride, xfb_value(i, 0));
  for (uint32_t n = 0; n < stream1_records; ++n) {
    const uint32_t i = n / 2, j = n % 2;
    buffer1.put(n * kStream1Stride, xfb_value(i, 1 + j));
    buffer1.put(n * kStream1Stride + 16, Vec4{float(i), float(j), 1.0f, 0.0f});
  }
}

std::vector<std::vector<uint32_t>> assembled_primitives_with_restart(VkPrimitiveTopology topology,
                                                                     const std::vector<uint32_t>& indices) {
  std::vector<std::vector<uint32_t>> primitives;
  size_t start = 0;
  for (size_t i = 0; i <= indices.size(); ++i) {
    if (i < indices.size() && indices[i] != kRestartIndex) continue;
    const std::vector<uint32_t> strip(indices.begin() + start, indices.begin() + i);
    for (const std::vector<uint32_t>& p : assembled_primitives(topology, uint32_t(strip.size()))) {
      std::vector<uint32_t> ids;
      for (uint32_t v : p) ids.push_back(strip[v]);
      primitives.push_back(ids);
    }
    start = i + 1;
  }
  return primitives;
}

}  // namespace kiln::test
